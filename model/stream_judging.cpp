#include "model/stream_judging.hpp"

#include <algorithm>
#include <fstream>
#include <memory>
#include <stdexcept>

#include "model/facts.hpp"
#include "model/judge.hpp"

namespace locksim::model {

std::function<EventReading()> file_readings(const std::string& path) {
  return [path] {
    auto in = std::make_shared<std::ifstream>(path, std::ios::binary);
    if (!*in) throw std::runtime_error("cannot read " + path);
    auto reader = std::make_shared<HistoryReader>(*in);
    return EventReading([in, reader] { return reader->next(); });
  };
}

std::function<EventReading()> history_readings(const History& history) {
  return [&history] {
    return EventReading([&history, i = size_t{0}]() mutable -> std::optional<Event> {
      if (i == history.size()) return std::nullopt;
      return history[i++];
    });
  };
}

std::vector<Verdict> judge_stream(const std::function<EventReading()>& read, const std::vector<std::string>& names,
                                  const CheckerOptions& options, StreamFigures* figures, int64_t step,
                                  const std::vector<NamedChecker>& table, const StreamProgress& progress) {
  const std::vector<const NamedChecker*> chosen = choose_checkers(names, options, table);
  StreamFigures seen;
  Facts facts(find_lock_type(options.lock_type));
  int64_t learned = 0;
  {
    const EventReading next = read();
    while (auto e = next()) {
      facts.learn(*e);
      if (++learned % step == 0 && progress) progress(learned, -1);
    }
  }
  facts.settle();
  // A judge that throws gives an unknown verdict, as run_checkers's checkers do.
  std::vector<std::unique_ptr<Judge>> judges;
  std::vector<std::optional<Verdict>> failed(chosen.size());
  for (size_t i = 0; i < chosen.size(); ++i) {
    judges.push_back(nullptr);
    failed[i] = guarded(*chosen[i], [&]() -> Verdict {
      judges[i] = chosen[i]->judge(facts, options);
      return Verdict{};
    });
    if (judges[i]) failed[i].reset();
  }
  auto advance = [&](const Settled& settled) {
    for (size_t i = 0; i < judges.size(); ++i) {
      if (failed[i]) continue;
      const Verdict v = guarded(*chosen[i], [&]() -> Verdict {
        judges[i]->advance(settled);
        return Verdict{};
      });
      if (v.valid == Validity::Unknown) failed[i] = v;
    }
  };
  const EventReading next = read();
  std::optional<Event> ahead = next();
  int64_t taken = 0;
  while (ahead) {
    facts.take(std::move(*ahead));
    ++taken;
    ahead = next();
    seen.most_kept = std::max(seen.most_kept, taken - static_cast<int64_t>(facts.history().events().first()));
    if (!ahead || taken % step != 0) continue;
    if (progress) progress(taken, learned);
    facts.complete(ahead->at_ms - 1);
    advance(Settled{taken, ahead->at_ms - 1});
    int64_t horizon = std::min(facts.open_since(), taken);
    for (size_t i = 0; i < judges.size(); ++i)
      if (!failed[i]) horizon = std::min(horizon, judges[i]->needs());
    // A request still to come may have been sent that long before the first event kept: the rights
    // its sender had then stay.
    const int64_t ms = horizon < taken ? facts.at(horizon).at_ms : facts.end_ms();
    if (horizon > 0) facts.retire(horizon, ms - facts.max_flight_ms());
  }
  facts.complete(kForever);
  advance(Settled{taken, kForever});
  seen.events = taken;
  if (figures) *figures = seen;
  std::vector<Verdict> verdicts;
  for (size_t i = 0; i < judges.size(); ++i)
    verdicts.push_back(failed[i] ? *failed[i] : guarded(*chosen[i], [&] { return judges[i]->verdict(); }));
  return verdicts;
}

}  // namespace locksim::model
