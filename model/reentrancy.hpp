#pragma once
// Reentrancy counts. Every execution of every acquire and unlock, on every server the lock lives
// on (resends, RedLock's servers and MultiLock's parts included), whatever its operation's outcome,
// is held to the reference model's step, judged on that execution's own before and after:
//  - an acquire the server granted (reply nil) adds exactly 1 to its owner's count (its hash field;
//    a ReadWriteLock's read and write sides count apart); one it refused changes no count;
//  - an unlock by a holder takes exactly 1 off (or, resent behind Redisson's latch, nothing), and the
//    key is gone once no holder is left in it (not-freed-at-zero);
//  - an unlock by an owner with no count changes nothing (unlock-by-non-holder), and its operation
//    must not succeed;
//  - no execution changes another owner's count;
//  - one operation counts once on each key: an acquire is never added twice without an unlock in
//    between (a resent acquire), an unlock never taken off twice (a resent unlock).
// For the client-reentrant lock, which counts on the client and stores a token, the key is released
// by the unlock that takes the client's count to 0, and by no other (a re-entry sends nothing).
// The counts are the server's truth: a key that expires or is lost in a restart takes its counts with
// it, which is mutual exclusion's and the watchdog's business, not this property's. Anomalies:
// reentry-count, unlock-by-non-holder, not-freed-at-zero. Applies to rlock, fair, multi, red,
// rwlock and client-reentrant.
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
