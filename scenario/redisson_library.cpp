#include "scenario/redisson_library.hpp"

namespace locksim::scenario {

const std::vector<LibraryRow>& redisson_library() {
  static const std::vector<LibraryRow> rows{
      // Behaviours that were bugs (the versions come from the version table by issue).
      {"#2018", "unlock of an expired lock succeeds silently", "rlock", "redisson/2018-unlock-expired-silent.yaml",
       "reentrancy"},
      {"#4871", "a resent unlock runs twice and frees a reentrant hold", "rlock", "redisson/4871-resent-unlock-runs-twice.yaml",
       "mutual_exclusion"},
      {"#3194", "one failed renewal ends the watchdog; the lock expires while held", "rlock, fair, rwlock",
       "redisson/3194-renewal-error-ends-watchdog.yaml", "mutual_exclusion"},
      {"#2099", "FairLock timeouts drift: nobody's score is reduced when a waiter acquires", "fair",
       "redisson/2099-fair-scores-drift.yaml", "fair_queue"},
      {"#5503", "a queued FairLock waiter told a negative ttl is pruned and never woken", "fair",
       "redisson/5503-fair-negative-ttl-never-woken.yaml", "liveness"},
      {"#2883", "threadWaitTime 5000 prunes live waiters deep in the FairLock queue", "fair",
       "redisson/2883-fair-deep-waiters-pruned.yaml", "fair_queue"},
      // Bugs the model cannot show yet, and why.
      {"#6651", "the NoSyncedSlaves retry makes a new requestId, so the latch does not deduplicate", "rlock", "", "",
       false,
       "needs replica acknowledgements (WAIT) and NoSyncedSlavesException; the simulated servers have no WAIT yet "
       "(issue 15 adds it)"},
      {"#7272", "renewal scheduled after an interrupted lockInterruptibly runs forever", "rlock, fair, rwlock", "", "",
       true,
       "needs an op that interrupts a waiting acquire while its reply is in flight; the world cannot interrupt an op "
       "yet"},
      {"#1104", "acquireFailed removes a FairLock waiter without compensating the others", "fair", "", "", false,
       "2.7.4/3.2.4 - 2.10.4/3.5.4, before the modelled range (its acquireFailed script is not in scripts/)"},
      {"#624", "MultiLock sub-locks taken early expire before the last is taken", "multi, red", "", "", false,
       "up to 2.3.x, before the modelled range"},
      {"#597", "the watchdog's plain PEXPIRE renews whoever holds the key", "rlock", "", "", false,
       "up to 2.3.x, before the modelled range"},
      // Hazards of every version: the configuration, not a bug.
      {"#2665", "a pause longer than the lease: the lock is lost while its holder runs on", "rlock, fair, multi, rwlock",
       "pause-longer-than-lease-rlock.yaml", "mutual_exclusion", true},
      {"#2669", "failover to a replica that lags loses the lock", "rlock, fair, multi, red, rwlock",
       "failover-replication-lag.yaml", "mutual_exclusion", true},
  };
  return rows;
}

bool expected_violated(const LibraryRow& row, client::Version v) {
  return row.every_version || client::affects(row.issue, v);
}

std::string affected_text(const LibraryRow& row) {
  if (row.every_version) return "every version";
  std::string out;
  for (const client::VersionRange& r : client::affected_by(row.issue)) out += (out.empty() ? "" : "; ") + r.str();
  return out.empty() ? "outside " + client::modelled_range() : out;
}

}  // namespace locksim::scenario
