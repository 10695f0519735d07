#pragma once
// Watchdog expiry, judged per hold in every key the lock lives in (a MultiLock's parts, a RedLock's
// servers), following whose hold each key carries (facts.hpp), never a key by its name alone.
// An owner's hold is in watchdog mode while its latest unmatched acquire had no lease, explicit
// while none of them had one (facts.hpp's Belief::Mode; re-entries and unlocks change it).
//  a. watchdog-lapse: the owner's hold in a key expires while it believes it holds the lock in
//     watchdog mode (a re-entry with a lease on top of a lease-less hold asked for that lease), unless
//     a fault that can explain it was in effect between the moment the expired expiry was set and the
//     expiry, on the owner's process or link (pause, partition, delay, loss) or on that key's server
//     (pause, down, restart, failover), and left the owner less than one renewal period (lease / 3)
//     of working connection in one stretch in between (model/working_connection.hpp). Nothing else
//     excuses it: not a fault of 2 ms, nor one long over before the expiry.
//  b. late-expiry: after a holder crashes, its hold in each key is gone by the latest expiry
//     any request sent while holding set (a renewal in flight at the crash included) plus slack_ms;
//     a key with no expiry is given one watchdog lease from the crash. A history that ends before the
//     deadline is not judged.
//  c. renewed-explicit-lease: no renewal succeeds for an owner whose every unmatched acquire had a lease.
//  d. revived-after-unlock: no renewal succeeds that its owner sent while it neither believed it held
//     the lock nor was acquiring or unlocking it (the evidence names its latest unlock before the send).
//  e. renewed-without-hold: no renewal succeeds in (or changes the expiry of) a key that does not
//     carry its owner's hold.
//  f. lease-mismatch: an acquire with an explicit lease leaves its hold expiring after that lease
//     (within kTtlPrecisionMs; at least that lease in a ReadWriteLock's shared hash; a reader's own
//     timeout key, when the history shows its expiry, after exactly it).
// Applies to the Redisson lock types (rlock, fair, multi, red, rwlock).
#include <cstdint>
#include <memory>

#include "model/facts.hpp"
#include "model/judge.hpp"
#include "model/verdict.hpp"

namespace locksim::model {

struct WatchdogOptions {
  int64_t watchdog_lease_ms = 30000;  // Redisson's lockWatchdogTimeout
  int64_t slack_ms = 100;             // the active expiry cycle's period
  // The clients' command timeout: a link that slows a round trip past it completes no command
  // (model/working_connection.hpp).
  int64_t command_timeout_ms = 3000;
};

Verdict check_watchdog(const Facts& facts, const WatchdogOptions& options = {});
std::unique_ptr<Judge> watchdog_judge(const Facts& facts, const WatchdogOptions& options = {});

}  // namespace locksim::model
