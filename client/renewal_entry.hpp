#pragma once
// RenewalEntry: Redisson's renewal entry for one lock on one client (ExpirationEntry up to 3.43.x,
// renewal/LockEntry and ReadLockEntry from 3.44.0): the threads holding the lock with the
// watchdog, each once per hold, the first come renewed for all. From 3.37.0 the threads sit in a
// queue that gains a copy per (re-entrant) acquire, and until a fix (3.46.0 for LockEntry, 4.7.0
// for ReadLockEntry) the last unlock of a thread removed one copy only (#6144, PR #7251): the
// entry then outlives its holds with a stale thread first in line.
#include <cstdint>
#include <deque>
#include <map>
#include <vector>

#include "base/state_writer.hpp"

namespace locksim::client {

// What a thread's last unlock leaves in the entry's queue.
enum class EntryLeak {
  None,      // nothing: the thread goes (LinkedHashMap up to 3.36.x; removeIf in the fixed versions)
  ByName,    // 3.37.0-3.43.x: one stale copy per extra acquire; the timer renews it by name, is told 0
             // and ends renewal, another thread's hold included
  NullName,  // 3.44.0 until the fix: the same, but the stale thread's lock name is gone, so the
             // batch sends nothing for the lock (3.44-3.52: the null argument fails to encode; 4.0+:
             // the entry is skipped) and never renews it again
};

class RenewalEntry {
 public:
  explicit RenewalEntry(EntryLeak leak = EntryLeak::None) : leak_(leak) {}
  void add(int64_t thread);     // a hold taken with the watchdog (addThreadId)
  void remove(int64_t thread);  // that thread's unlock (removeThreadId)
  void clear() {
    queue_.clear();
    counts_.clear();
  }
  bool empty() const { return queue_.empty(); }  // hasNoThreads
  // The thread the timer renews for (getFirstThreadId); the entry must not be empty.
  int64_t first() const;
  // Whether `thread` still holds through the entry (a stale copy does not).
  bool holds(int64_t thread) const { return counts_.count(thread) != 0; }
  // The threads that hold, in the order they came (4.4.0's read renewal sends them all).
  std::vector<int64_t> holders() const;
  EntryLeak leak() const { return leak_; }
  // Its threads in order, stale copies included, as state (base/state_writer.hpp).
  void describe(StateWriter& out) const {
    for (const int64_t thread : queue_) out.field("entry", thread);
    for (const auto& [thread, n] : counts_) out.field("holds", thread).field("times", n);
  }

 private:
  EntryLeak leak_;
  std::deque<int64_t> queue_;
  std::map<int64_t, int> counts_;
};

}  // namespace locksim::client
