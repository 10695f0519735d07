#pragma once
// The fixed vocabulary checkers report in: property names (Verdict::property, and the names
// run_checkers accepts) and anomaly names (Verdict::anomaly). Scripts and docs match on these
// strings, so they change only together with the docs.
#include <string_view>

namespace locksim::model {

namespace property {
inline constexpr std::string_view kMutualExclusion = "mutual_exclusion";
inline constexpr std::string_view kFencing = "fencing";
inline constexpr std::string_view kReentrancy = "reentrancy";
inline constexpr std::string_view kWatchdog = "watchdog";
inline constexpr std::string_view kLiveness = "liveness";
inline constexpr std::string_view kFairQueue = "fair_queue";
inline constexpr std::string_view kReadWrite = "read_write";
inline constexpr std::string_view kResource = "resource";
}  // namespace property

namespace anomaly {
// mutual_exclusion: two owners believed they held one lock at the same time.
inline constexpr std::string_view kMutexOverlap = "mutex-overlap";
// fencing: the resource accepted a write whose token is lower than one it accepted before from another holder.
inline constexpr std::string_view kFencingOrder = "fencing-order";
// fencing: the resource accepted the same token from two holders.
inline constexpr std::string_view kSharedToken = "shared-token";
// reentrancy: the holder's hash field differs from its number of unmatched acquires.
inline constexpr std::string_view kReentryCount = "reentry-count";
// reentrancy: a non-reentrant lock's holder acquired it again and was not refused at once (it was
// granted, or told to wait).
inline constexpr std::string_view kReentryNotRefused = "reentry-not-refused";
// reentrancy: an unlock by an owner holding nothing succeeded or changed the key.
inline constexpr std::string_view kUnlockByNonHolder = "unlock-by-non-holder";
// reentrancy: the holder's count reached 0 but the key is still there.
inline constexpr std::string_view kNotFreedAtZero = "not-freed-at-zero";
// watchdog: a hold expired under a live holder in watchdog mode, with no fault to explain it.
inline constexpr std::string_view kWatchdogLapse = "watchdog-lapse";
// watchdog: a crashed watchdog holder's hold outlived the lease its last renewal set.
inline constexpr std::string_view kLateExpiry = "late-expiry";
// watchdog: a hold with an explicit lease was renewed.
inline constexpr std::string_view kRenewedExplicitLease = "renewed-explicit-lease";
// watchdog: a renewal succeeded that its owner sent after it had given the lock up.
inline constexpr std::string_view kRevivedAfterUnlock = "revived-after-unlock";
// watchdog: a renewal succeeded in (or extended) a key that did not carry its owner's hold.
inline constexpr std::string_view kRenewedWithoutHold = "renewed-without-hold";
// watchdog: an acquire with an explicit lease left its hold expiring after another time.
inline constexpr std::string_view kLeaseMismatch = "lease-mismatch";
// liveness: a waiter did not get a lock that was free long enough.
inline constexpr std::string_view kStarved = "starved";
// fair_queue: an owner was granted the lock while a live waiter that enqueued before it still waited.
inline constexpr std::string_view kFifoInversion = "fifo-inversion";
// fair_queue: a live waiter was kept waiting on a free lock behind a waiter due for eviction.
inline constexpr std::string_view kBlockedByEvicted = "blocked-by-evicted";
// read_write: two owners believed they held one read-write lock's write side at the same time.
inline constexpr std::string_view kWriteOverlap = "write-overlap";
// read_write: an owner believed it held the write side while another believed it held the read side.
inline constexpr std::string_view kReadWriteOverlap = "read-write-overlap";
// resource: a client wrote the protected resource from a value it read before another client's update.
inline constexpr std::string_view kLostUpdate = "lost-update";
// every property, on an unknown verdict: the history had none of what the property judges (no hold,
// no acquire, no queued waiter, ...). Not "holds": a property nothing tested was not shown to hold.
inline constexpr std::string_view kNothingToJudge = "nothing-to-judge";
}  // namespace anomaly

}  // namespace locksim::model
