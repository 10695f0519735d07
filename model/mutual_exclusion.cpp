#include "model/mutual_exclusion.hpp"

#include <map>
#include <set>

#include "model/anomaly.hpp"
#include "model/checker_support.hpp"

namespace locksim::model {
namespace {

using support::ms;

// Who believes they hold each lock: lock -> owner -> index of the Hold that began the interval.
using Holders = std::map<std::string, std::map<std::string, int64_t>>;

// The index of the Release that ends `owner`'s interval on `lock` after `from`, -1 when none.
int64_t release_after(const History& history, int64_t from, const std::string& lock,
                      const std::string& owner) {
  for (size_t i = static_cast<size_t>(from) + 1; i < history.size(); ++i) {
    const Event& e = history[i];
    if (e.kind == EventKind::Release && e.value == 0 && e.lock == lock && e.owner() == owner)
      return e.index;
  }
  return -1;
}

Verdict overlap(const History& history, const Event& first_hold, const Event& second_hold) {
  const int64_t release = release_after(history, first_hold.index, first_hold.lock, first_hold.owner());
  const std::string until =
      release < 0 ? "until the end of the history" : "until " + ms(history[static_cast<size_t>(release)].at_ms);
  return support::violated(
      property::kMutualExclusion, anomaly::kMutexOverlap, {first_hold.index, second_hold.index, release},
      "Let " + first_hold.owner() + " hold " + first_hold.lock + " from " + ms(first_hold.at_ms) + ". Then " +
          second_hold.owner() + " acquired " + second_hold.lock + " at " + ms(second_hold.at_ms) + " while " +
          first_hold.owner() + " still believed it held it (" + until + ").");
}

}  // namespace

Verdict check_mutual_exclusion(const History& history, const MutualExclusionOptions&) {
  Holders holders;
  size_t intervals = 0;
  for (const Event& e : history.events()) {
    if (e.kind == EventKind::Hold) {
      auto& on_lock = holders[e.lock];
      const std::string owner = e.owner();
      if (on_lock.contains(owner)) continue;  // a re-entry: the interval is already open
      if (!on_lock.empty()) {
        // The earliest-begun interval still open is the one to show.
        int64_t first = on_lock.begin()->second;
        for (const auto& [other, hold] : on_lock) first = std::min(first, hold);
        return overlap(history, history[static_cast<size_t>(first)], e);
      }
      on_lock.emplace(owner, e.index);
      ++intervals;
    } else if (e.kind == EventKind::Release && e.value == 0) {
      holders[e.lock].erase(e.owner());
    }
  }
  return support::holds(property::kMutualExclusion, std::to_string(intervals) + " holding intervals on " +
                                                        std::to_string(holders.size()) + " locks, none overlapping");
}

}  // namespace locksim::model
