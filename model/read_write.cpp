#include "model/read_write.hpp"

#include <map>
#include <string_view>

#include "model/anomaly.hpp"
#include "model/checker_support.hpp"

namespace locksim::model {
namespace {

using support::ms;

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

// The open intervals of one <name>: owner -> index of the Hold that began it, per side.
struct Open {
  std::map<std::string, int64_t> readers, writers;
};

int64_t release_after(const History& history, int64_t from, const std::string& lock, const std::string& owner) {
  for (size_t i = static_cast<size_t>(from) + 1; i < history.size(); ++i) {
    const Event& e = history[i];
    if (e.kind == EventKind::Release && e.value == 0 && e.lock == lock && e.owner() == owner) return e.index;
  }
  return -1;
}

// The earliest-begun interval in `open` of an owner other than `owner`, -1 when none.
int64_t first_other(const std::map<std::string, int64_t>& open, const std::string& owner) {
  int64_t first = -1;
  for (const auto& [other, hold] : open)
    if (other != owner && (first < 0 || hold < first)) first = hold;
  return first;
}

Verdict overlap(const History& history, const Event& first_hold, const Event& second_hold, std::string_view anomaly) {
  const int64_t release = release_after(history, first_hold.index, first_hold.lock, first_hold.owner());
  const std::string until =
      release < 0 ? "until the end of the history" : "until " + ms(history[static_cast<size_t>(release)].at_ms);
  return support::violated(
      property::kReadWrite, anomaly, {first_hold.index, second_hold.index, release},
      "Let " + first_hold.owner() + " hold " + first_hold.lock + " from " + ms(first_hold.at_ms) + ". Then " +
          second_hold.owner() + " acquired " + second_hold.lock + " at " + ms(second_hold.at_ms) + " while " +
          first_hold.owner() + " still believed it held " + first_hold.lock + " (" + until + ").");
}

}  // namespace

Verdict check_read_write(const History& history, const ReadWriteOptions&) {
  std::map<std::string, Open> open;
  size_t reads = 0, writes = 0;
  for (const Event& e : history.events()) {
    if (e.kind != EventKind::Hold && !(e.kind == EventKind::Release && e.value == 0)) continue;
    std::string name;
    bool write = false;
    if (!split(e.lock, name, write)) continue;
    Open& on = open[name];
    auto& mine = write ? on.writers : on.readers;
    const std::string owner = e.owner();
    if (e.kind == EventKind::Release) {
      mine.erase(owner);
      continue;
    }
    if (mine.contains(owner)) continue;  // a re-entry: the interval is already open
    // A new writer conflicts with other writers first, then with other readers; a new reader with
    // other writers.
    if (write) {
      if (const int64_t w = first_other(on.writers, owner); w >= 0)
        return overlap(history, history[static_cast<size_t>(w)], e, anomaly::kWriteOverlap);
      if (const int64_t r = first_other(on.readers, owner); r >= 0)
        return overlap(history, history[static_cast<size_t>(r)], e, anomaly::kReadWriteOverlap);
    } else if (const int64_t w = first_other(on.writers, owner); w >= 0) {
      return overlap(history, history[static_cast<size_t>(w)], e, anomaly::kReadWriteOverlap);
    }
    mine.emplace(owner, e.index);
    ++(write ? writes : reads);
  }
  return support::holds(property::kReadWrite, std::to_string(writes) + " write and " + std::to_string(reads) +
                                                  " read holding intervals on " + std::to_string(open.size()) +
                                                  " read-write locks, no writer overlapping another holder");
}

}  // namespace locksim::model
