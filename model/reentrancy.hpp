#pragma once
// Reentrancy counts. A lock hash's field of an owner must equal its unmatched acquires: the acquires
// that ran on the server (one operation counted once per key), less the unlocks that ran. Every
// execution on every server the lock lives on (resends, RedLock's servers and MultiLock's parts
// included), whatever its role and its operation's outcome, is taken in history order:
//  - its own before and after are held to the reference model's step: an acquire the server granted
//    (reply nil) adds exactly 1 to its owner's count (a ReadWriteLock's read and write sides count
//    apart), one it refused changes no count; an unlock by a holder takes exactly 1 off (or, resent
//    behind Redisson's latch, nothing), and the key is gone once no holder is left in it
//    (not-freed-at-zero); any other command (a renewal, a refused waiter's cleanup, a query) changes no
//    count, and a force unlock may only delete the whole key;
//  - no execution changes another owner's count (a stale reader dropped by a read unlock aside);
//  - one operation counts once on each key: an acquire is never added twice without an unlock in
//    between (a resent acquire), an unlock never taken off twice (a resent unlock);
//  - an unlock by an owner with no count changes nothing, neither a count nor the key's expiry
//    (unlock-by-non-holder), and its operation must not succeed;
//  - what it found is held to what the executions before it on that key left, when a restart or a
//    failover of the server came in between: a live hold's count the restored copy rolled back (or
//    forward) is a reentry-count, reported at this first execution to show it, with the acquires that
//    made the expected count and the fault.
// A key that expired or was lost whole takes its counts with it, which is mutual exclusion's and the
// watchdog's business, not this property's.
// A non-reentrant lock (Redisson's NonReentrantLock and NonReentrantFairLock) refuses its holder's
// second acquire at once, with an error: a grant or a ttl to wait is reentry-not-refused.
// For the client-reentrant lock, which counts on the client and stores a token, the key is released
// by the unlock that takes the client's count to 0, and by no other (a re-entry sends nothing).
// Anomalies: reentry-count, reentry-not-refused, unlock-by-non-holder, not-freed-at-zero. Applies to
// rlock, fair, multi, red, rwlock, nonreentrant, nonreentrant-fair and client-reentrant.
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "model/facts.hpp"
#include "model/judge.hpp"
#include "model/verdict.hpp"

namespace locksim::model {

struct ReentrancyOptions {};

// The reference model's step for one execution: an owner's count after `role` ("acquire",
// "try_acquire" or "unlock") ran on a key where it had `count`, granted (an acquire) or not; nullopt
// when the step is not defined (an unlock by an owner with no count must change nothing).
std::optional<int64_t> reentrancy_step(int64_t count, std::string_view role, bool granted);

Verdict check_reentrancy(const Facts& facts, const ReentrancyOptions& options = {});
std::unique_ptr<Judge> reentrancy_judge(const Facts& facts, const ReentrancyOptions& options = {});

}  // namespace locksim::model
