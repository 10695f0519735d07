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
      {"#3334", "a failed renewal leaves its entry: the next lock() of that name on the client is not renewed either",
       "rlock, fair, rwlock", "redisson/3194-failed-renewal-keeps-entry.yaml", "watchdog"},
      {"#1966", "an unlock that times out leaves the watchdog renewing: the lock never expires", "rlock, fair, rwlock",
       "redisson/1966-unlock-timeout-keeps-renewing.yaml", "liveness"},
      {"#2515", "an unlock answered nil leaves the renewal entry: the next lock() is not renewed", "rlock, fair, rwlock",
       "redisson/2515-unlock-nil-keeps-renewal-entry.yaml", "mutual_exclusion"},
      {"#4818", "a reused instance's lease-less lock() expires at the last explicit lease", "rlock",
       "redisson/4818-stale-explicit-lease.yaml", "mutual_exclusion"},
      {"#5761", "an unlock message between the waiter's check and its listener is lost", "rlock, fair, rwlock",
       "redisson/5761-wakeup-lost-before-listen.yaml", "liveness"},
      {"#2172", "MultiLock tryLock(-1, lease): a -2 ms sub-lease deletes each key as it is taken", "multi, red",
       "redisson/2172-multilock-trylock-minus-one.yaml", "mutual_exclusion"},
      {"#5484", "MultiLock lock(lease, unit) reads the lease as milliseconds", "multi, red",
       "redisson/5484-multilock-lease-unit-ignored.yaml", "mutual_exclusion"},
      {"#2037", "a renewal answered 'not held' is rescheduled forever", "rlock, fair, rwlock", "", "", false,
       "modelled (renewal_ignores_not_held; verify/unit/client/redisson_versions_test.cpp pins it), but no property "
       "can see it: the renew script checks ownership, so the extra renewals change no key"},
      {"#5623", "any unlock resets the stored lease to the watchdog timeout", "rlock", "", "", false,
       "modelled (lease_memory; the unit test pins testRemainTimeToLive2's TTLs), but no property can see it: a partial "
       "unlock's PEXPIRE to 30 s is sent by the holder and only lengthens its hold"},
      {"#4050", "MultiLock lock() uses one random wait for every retry", "multi, red", "", "", false,
       "modelled (fixed_retry_wait; the unit test pins the rounds), but no property can see it: every client takes the "
       "sub-locks in the same order, so a fixed wait only slows retries"},
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
       "(issue 15 adds it)",
       "3.24.0 - 3.51.x"},
      {"#7272", "renewal scheduled after an interrupted lockInterruptibly runs forever", "rlock, fair, rwlock", "", "",
       true,
       "needs an op that interrupts a waiting acquire while its reply is in flight; the world cannot interrupt an op "
       "yet",
       "open (seen on 3.51.0 and 4.4.0)"},
      {"#1104", "acquireFailed removes a FairLock waiter without compensating the others", "fair", "", "", false,
       "before the modelled range (its acquireFailed script is not in scripts/)", "2.7.4/3.2.4 - 2.10.4/3.5.4"},
      {"#624", "MultiLock sub-locks taken early expire before the last is taken", "multi, red", "", "", false,
       "before the modelled range", "up to 2.3.x"},
      {"#597", "the watchdog's plain PEXPIRE renews whoever holds the key", "rlock", "", "", false,
       "before the modelled range", "up to 2.3.x"},
      // Hazards of every version: the configuration, not a bug.
      {"#2665", "a pause longer than the lease: the lock is lost while its holder runs on", "rlock, fair, multi, rwlock",
       "pause-longer-than-lease-rlock.yaml", "mutual_exclusion", true},
      {"failover", "failover to a replica that lags loses the lock (WAIT, #2669, narrows it)", "rlock, fair, multi, red, rwlock",
       "failover-replication-lag.yaml", "mutual_exclusion", true},
  };
  return rows;
}

bool expected_violated(const LibraryRow& row, client::Version v) {
  return row.every_version || client::affects(row.issue, v);
}

std::string affected_text(const LibraryRow& row) {
  if (!row.versions.empty()) return std::string(row.versions);
  if (row.every_version) return "every version";
  std::string out;
  for (const client::VersionRange& r : client::affected_by(row.issue)) out += (out.empty() ? "" : "; ") + r.str();
  return out.empty() ? "outside " + client::modelled_range() : out;
}

}  // namespace locksim::scenario
