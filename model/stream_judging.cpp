#include "model/stream_judging.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "model/facts.hpp"
#include "model/judge.hpp"

namespace locksim::model {

std::string stream_problem(const std::vector<std::string>& names, const std::vector<NamedChecker>& table) {
  std::vector<std::string> cannot;
  for (const std::string& name : names) {
    const auto it = std::find_if(table.begin(), table.end(), [&](const NamedChecker& c) { return c.name == name; });
    if (it != table.end() && !it->judge) cannot.push_back(name);
  }
  if (cannot.empty()) return "";
  std::vector<std::string> can;
  for (const NamedChecker& c : table)
    if (c.judge) can.push_back(c.name);
  return property_list(cannot) + (cannot.size() == 1 ? " is" : " are") +
         " not judged from a stream yet (a stream judges " + property_list(can) + ")";
}

std::vector<Verdict> judge_stream(const std::function<EventReading()>& read, const std::vector<std::string>& names,
                                  const CheckerOptions& options, StreamFigures* figures, int64_t step,
                                  const std::vector<NamedChecker>& table) {
  const std::vector<const NamedChecker*> chosen = choose_checkers(names, options, table);
  if (const std::string problem = stream_problem(names, table); !problem.empty()) throw std::invalid_argument(problem);
  StreamFigures seen;
  Facts facts(find_lock_type(options.lock_type));
  {
    const EventReading next = read();
    while (auto e = next()) facts.learn(*e);
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
