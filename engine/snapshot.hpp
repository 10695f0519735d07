#pragma once
// Snapshots of a keyspace, for a server that restarts from its AOF or fails over to a replica that
// lags behind. Both the simulated servers and `locksim serve` keep them the same way.
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/state_writer.hpp"
#include "engine/keyspace.hpp"

namespace locksim::engine {

using Snapshot = std::map<std::string, Entry, std::less<>>;

// `keys` in byte order with their values and encodings, expiries relative to `now_ms`, as state
// (base/state_writer.hpp).
void describe(StateWriter& out, const Snapshot& keys, int64_t now_ms);

// Puts every entry of `snapshot`, with its expiry, into `keyspace` (which must not hold them).
void restore(Keyspace& keyspace, const Snapshot& snapshot);

// What a replica `lag_ms` behind its master has applied: the keyspace after each write, kept only
// as far back as the lag needs.
class ReplicaLog {
 public:
  // The master's keyspace after a command at `now_ms`. Copied only when promoted() could tell it
  // from what is kept: an unchanged keyspace is not copied again, and of several in one ms only
  // the last is kept (promoted() picks the newest at or before a time, and time is in whole ms).
  // True when the keyspace differed from the last one remembered: a write the replica must apply.
  bool remember(int64_t now_ms, const Snapshot& keyspace);
  // The replica can lag up to `lag_ms` behind (keeps what that needs from now on).
  void keep_lag(int64_t lag_ms) { lag_ms_ = std::max(lag_ms_, lag_ms); }
  // The newest keyspace a replica `lag_ms` behind had applied at `now_ms`: before every write
  // remembered, what it synced (sync), else empty.
  Snapshot promoted(int64_t now_ms, int64_t lag_ms) const;
  void clear() {
    log_.clear();
    synced_ = false;
  }
  // The replica (re)synced `keyspace` from its master at `now_ms` (it starts, or the master
  // restarted or failed over): it never has less than that, however far back a lag reaches.
  void sync(int64_t now_ms, const Snapshot& keyspace);
  // What it keeps, as state: when each was applied relative to `now_ms` (the clock remember() is
  // given), the keys' expiries relative to `keys_now_ms` (theirs).
  void describe(StateWriter& out, int64_t now_ms, int64_t keys_now_ms) const;

 private:
  int64_t lag_ms_ = 0;
  bool synced_ = false;  // log_'s first entry is what the replica synced
  // (time, keyspace after a write), oldest first. A deque: a long lag keeps thousands of them, and
  // every write drops the oldest, which a vector would pay for by moving all the rest.
  std::deque<std::pair<int64_t, Snapshot>> log_;
};

}  // namespace locksim::engine
