#include "model/read_write.hpp"

#include <map>
#include <string_view>

#include "model/anomaly.hpp"
#include "model/checker_support.hpp"
#include "model/holder_story.hpp"

namespace locksim::model {
namespace {

constexpr std::string_view kRead = ":read";
constexpr std::string_view kWrite = ":write";

// "<name>:read" -> {<name>, false}, "<name>:write" -> {<name>, true}; false for other locks.
bool split(const std::string& lock, std::string& name, bool& write) {
  for (const std::string_view side : {kRead, kWrite}) {
    if (lock.size() > side.size() && lock.ends_with(side)) {
      name = lock.substr(0, lock.size() - side.size());
      write = side == kWrite;
      return true;
    }
  }
  return false;
}

Verdict overlap(const Facts& facts, const Belief& first, const Belief& second, std::string_view anomaly) {
  std::vector<Evidence> ev{support::belief_evidence(facts, "first_hold", first),
                           support::event_evidence(facts, "second_hold", second.span.begin)};
  const auto first_grants = grant_evidence(facts, "first_grant", first.span.begin);
  const auto second_grants = grant_evidence(facts, "second_grant", second.span.begin);
  ev.insert(ev.end(), first_grants.begin(), first_grants.end());
  ev.insert(ev.end(), second_grants.begin(), second_grants.end());
  for (const Evidence& g2 : second_grants)
    for (const Evidence& g1 : first_grants) {
      if (g1.where != g2.where) continue;
      const auto fate = g1.event < g2.event
                            ? claim_fate(facts, "first_claim", first.owner, first.lock, g1.event, g2.event)
                            : claim_fate(facts, "second_claim", second.owner, second.lock, g2.event, g1.event);
      ev.insert(ev.end(), fate.begin(), fate.end());
    }
  std::vector<std::string> processes{first.process, second.process};
  for (const KeyTrack* k : facts.parts(second.lock)) processes.push_back(k->server);
  for (Evidence& f : support::faults_beside(facts, first.span.from_ms, second.span.from_ms, processes)) ev.push_back(std::move(f));
  return support::violated(property::kReadWrite, anomaly, std::move(ev));
}

}  // namespace

Verdict check_read_write(const Facts& facts, const ReadWriteOptions&) {
  struct Open {
    std::vector<const Belief*> readers, writers;
  };
  std::map<std::string, Open> seen;
  int64_t reads = 0, writes = 0;
  for (const Belief& b : facts.beliefs()) {
    std::string name;
    bool write = false;
    if (!split(b.lock, name, write)) continue;
    Open& on = seen[name];
    // As in mutual_exclusion: a belief ended before this one began cannot overlap a later one either.
    const auto ended = [&](const Belief* a) { return a->span.end >= 0 && a->span.end <= b.span.begin; };
    std::erase_if(on.readers, ended);
    std::erase_if(on.writers, ended);
    // The earliest-begun interval of another owner on `side` still open when `b` began.
    auto first_open = [&](const std::vector<const Belief*>& side) -> const Belief* {
      const Belief* first = nullptr;
      for (const Belief* a : side) {
        if (a->owner == b.owner) continue;
        if ((a->span.end < 0 || a->span.end > b.span.begin) && (!first || a->span.begin < first->span.begin)) first = a;
      }
      return first;
    };
    // A new writer conflicts with other writers first, then with readers; a new reader with writers.
    if (const Belief* w = first_open(on.writers)) return overlap(facts, *w, b, write ? anomaly::kWriteOverlap : anomaly::kReadWriteOverlap);
    if (write)
      if (const Belief* r = first_open(on.readers)) return overlap(facts, *r, b, anomaly::kReadWriteOverlap);
    (write ? on.writers : on.readers).push_back(&b);
    ++(write ? writes : reads);
  }
  return support::holds(property::kReadWrite, {support::figure("write_intervals", writes),
                                               support::figure("read_intervals", reads),
                                               support::figure("locks", static_cast<int64_t>(seen.size()))});
}

}  // namespace locksim::model
