#include "client/spin_lock.hpp"

#include <algorithm>
#include <stdexcept>

#include "base/assert.hpp"

namespace locksim::client {

SpinLock::SpinLock(Backend& backend, ScriptCatalog& scripts, std::string name, RedissonOptions options,
                   SpinBackoff backoff)
    : RedissonLock(backend, std::move(name), options),
      backoff_(backoff),
      lease_ms_(options.watchdog_timeout_ms),
      acquire_(scripts.get("spin_acquire")),
      unlock_(scripts.get(options.unlock_latch ? "spin_unlock_latch" : "spin_unlock")),
      renew_(scripts.get("rlock_renew")),
      force_unlock_(scripts.get("spin_force_unlock")) {
  if (backoff_.initial_ms < 1 || backoff_.max_ms < backoff_.initial_ms || backoff_.multiplier < 1)
    throw std::invalid_argument("a spin lock's backoff needs 1 <= initial <= max and a multiplier of at least 1");
}

// getNextSleepPeriod: the current sleep, then the next one doubled plus nextInt(++fails), capped.
int64_t SpinLock::next_sleep_ms(Policy& policy, int64_t thread) {
  if (policy.next_ms == backoff_.max_ms) return backoff_.max_ms;
  const int64_t result = policy.next_ms;
  const int64_t jitter = backend_.random_range("spin backoff " + name_ + " " + std::to_string(thread), 0, policy.fails);
  ++policy.fails;
  policy.next_ms = std::min(backoff_.max_ms, policy.next_ms * backoff_.multiplier + jitter);
  return result;
}

Task<OpResult> SpinLock::acquire(int64_t thread, int64_t op, AcquireOptions options) {
  const int64_t start = backend_.now_ms();
  const WaitingThreads::Entry w = waiting_.begin(thread, {.op = op, .left_ms = options.wait_ms, .since_ms = start});
  const PerThread<Policy>::Entry policy = policies_.begin(thread, {.next_ms = backoff_.initial_ms, .fails = 0});
  const std::string not_within = "not acquired within " + std::to_string(options.wait_ms) + " ms";
  for (;;) {
    LS_ASSERT(w->attempts < 10'000'000);
    w->phase = Waiting::Phase::Acquiring;
    ++w->attempts;
    const Attempt a = co_await try_acquire_once(thread, op, options.lease_ms, options.wait_ms);
    if (a.no_synced) co_await undo_acquire(thread, op);  // then the exception reaches the caller
    w->ttl_ms = a.kind == Attempt::Kind::Busy ? a.ttl : -1;
    if (a.kind == Attempt::Kind::Acquired) {
      // tryAcquireAsync: a grant without a lease starts the watchdog. Neither field changes: the spin
      // lock's is what the attempt sent, and the base's (the renewal's) is never the spin lock's to set.
      OpResult result = after_acquired(*w, thread, options.lease_ms, a);
      internal_lease_ms_ = options_.watchdog_timeout_ms;
      co_return result;
    }
    if (a.kind == Attempt::Kind::Error) co_return OpResult::fail(a.why);
    if (a.kind == Attempt::Kind::Unknown) co_return OpResult::unknown(a.why);
    if (options.wait_ms >= 0) {
      w->left_ms = options.wait_ms - (backend_.now_ms() - start);
      w->since_ms = backend_.now_ms();
      if (w->left_ms <= 0) co_return OpResult::fail(not_within);  // acquireFailed sends nothing here
    }
    w->phase = Waiting::Phase::Sleeping;
    co_await backend_.sleep(next_sleep_ms(*policy, thread));
  }
}

// tryLockInnerAsync: `leaseTime > 0` is sent and becomes internalLockLeaseTime; anything else sends
// internalLockLeaseTime as it is, whoever set it.
Task<RedissonLock::Attempt> SpinLock::try_acquire_once(int64_t thread, int64_t op, int64_t lease_ms, int64_t) {
  if (lease_ms > 0) lease_ms_ = lease_ms;
  Command command{.role = "acquire",
                  .lock = name_,
                  .script = &acquire_,
                  .keys = {name_},
                  .argv = {std::to_string(lease_ms_), holder_id(thread)},
                  .thread = thread,
                  .op = op};
  co_return to_attempt(co_await send(std::move(command), lock_command_policy()));
}

Command SpinLock::unlock_command(int64_t thread, int64_t op) {
  Command command{.role = "unlock",
                  .lock = name_,
                  .script = &unlock_,
                  .keys = {name_},
                  .argv = {std::to_string(lease_ms_), holder_id(thread)},
                  .thread = thread,
                  .op = op};
  if (options_.unlock_latch) {
    const UnlockLatch latch = new_unlock_latch("{" + name_ + "}");
    command.keys.push_back(latch.key);
    command.argv.push_back(std::to_string(latch.lifetime_ms));
  }
  return command;
}

// cancelExpirationRenewal, RedissonSpinLock's override: up to 3.19.1 there is none and nothing puts
// the field back; 3.19.2 to 3.27.1 (#5623's shape) every unlock does, whatever it answered; from
// 3.27.2 (cancelExpirationRenewal(threadId, unlockResult)) every unlock but one answered false (a
// re-entrant hold remains).
Task<OpResult> SpinLock::release(int64_t thread, int64_t op) {
  OpResult result = co_await RedissonLock::release(thread, op);
  internal_lease_ms_ = options_.watchdog_timeout_ms;
  const bool partial = result.outcome == OpResult::Outcome::Ok && result.value == 0;
  if (options_.lease_memory == LeaseMemory::ResetOnUnlock ||
      (options_.lease_memory == LeaseMemory::PerAcquire && !partial))
    lease_ms_ = options_.watchdog_timeout_ms;
  co_return result;
}

Command SpinLock::renew_command(int64_t thread) { return renewal(renew_, {name_}, {holder_id(thread)}, thread); }

// forceUnlockAsync calls cancelExpirationRenewal(null): the override's reset from 3.19.2.
Task<OpResult> SpinLock::force_release(int64_t op) {
  if (options_.lease_memory != LeaseMemory::StaleExplicit) lease_ms_ = options_.watchdog_timeout_ms;
  Command command{.role = "force_unlock", .lock = name_, .script = &force_unlock_, .keys = {name_}, .argv = {}, .thread = 0, .op = op};
  co_return integer_result(co_await send(std::move(command)));
}

}  // namespace locksim::client
