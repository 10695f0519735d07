#pragma once
// Watchdog expiry. An owner holds a lock in watchdog mode when its depth-1 Hold has lease_ms -1.
//  a. watchdog-lapse: the key expires (Key expired) while such an owner believes it holds it and
//     no fault excuses it: none naming the owner's process, none naming a server (a process of an
//     Exec or Key event), no restart or failover, between its Hold and the expiry (a pause or
//     partition still open at the Hold counts too). Witness: the Hold and the expiry.
//  b. late-expiry: after such an owner crashes holding (Release f=crash), the key disappears (Key
//     expired/deleted, or an Exec leaving it "") no later than the owner's last successful renewal
//     (Exec renew, reply 1) or else its acquire Exec, plus watchdog_lease_ms plus slack_ms. A history
//     ending before that deadline is not judged. Witness: that renewal/acquire, the crash Release
//     and the late disappearance if any.
//  c. renewed-explicit-lease: no successful renewal for an owner during a hold with lease_ms >= 0.
//     Witness: the Hold and the renewal.
//  d. revived-after-unlock: no successful renewal for an owner between its unlock taking effect (its
//     unlock Exec; else the unlock's outcome; else its Release with value 0) and its next Hold.
//     Witness: the Release and the renewal.
// A renewal Exec belongs to the owner of its op's Invoke, else to the only owner of that thread
// number on that lock.
#include <cstdint>

#include "model/history.hpp"
#include "model/verdict.hpp"

namespace locksim::model {

struct WatchdogOptions {
  int64_t watchdog_lease_ms = 30000;  // Redisson's lockWatchdogTimeout
  int64_t slack_ms = 100;
};

Verdict check_watchdog(const History& history, const WatchdogOptions& options = {});

}  // namespace locksim::model
