#include "client/multi_lock.hpp"

#include <algorithm>
#include <cstdlib>

#include "base/assert.hpp"

namespace locksim::client {

MultiLock::MultiLock(Backend& backend, std::string name, std::vector<std::unique_ptr<RedissonLock>> locks, bool redlock,
                     MultiOptions options)
    : backend_(backend), name_(std::move(name)), locks_(std::move(locks)), redlock_(redlock), options_(options) {
  LS_ASSERT(!locks_.empty());
}

int MultiLock::failed_locks_limit() const {
  const int n = static_cast<int>(locks_.size());
  return redlock_ ? n - (n / 2 + 1) : 0;
}

int64_t MultiLock::lock_wait_time(int64_t remain_ms) const {
  return redlock_ ? std::max<int64_t>(remain_ms / static_cast<int64_t>(locks_.size()), 1) : remain_ms;
}

// lock(lease, unit): tryLock(waitTime, lease) until it succeeds. From 3.17.0 the wait is drawn again
// for every round; up to 3.16.x (#4050) once, before the first.
Task<OpResult> MultiLock::acquire(int64_t thread, int64_t op, AcquireOptions options) {
  LS_ASSERT(options.lease_unit_ms >= 1);
  // Its rounds are counted here; which sub-locks a round holds so far is still try_lock's own.
  const WaitingThreads::Entry w =
      waiting_.begin(thread, {.op = op, .left_ms = options.wait_ms, .since_ms = backend_.now_ms()});
  if (options.wait_ms >= 0) {
    const int64_t wait = options.wait_minus_one ? -1 : options.wait_ms;
    w->attempts = 1;
    const bool ok = co_await try_lock(thread, op, wait, options.lease_ms);
    if (ok) co_return OpResult::ok();
    co_return OpResult::fail(wait < 0 ? "not acquired (no wait)"
                                      : "not acquired within " + std::to_string(wait) + " ms");
  }
  // 3.17.0 to 3.25.0 (#5484) hand tryLock the lease as the caller wrote it, labelled milliseconds.
  const int64_t lease =
      options_.lease_unit_ignored && options.lease_ms > 0 ? options.lease_ms / options.lease_unit_ms : options.lease_ms;
  const int64_t first_wait = round_wait(options.lease_ms);
  for (;;) {
    LS_ASSERT(w->attempts < 10'000'000);
    const int64_t wait = w->attempts == 0 || options_.fixed_retry_wait ? first_wait : round_wait(options.lease_ms);
    ++w->attempts;
    if (co_await try_lock(thread, op, wait, lease)) co_return OpResult::ok();
  }
}

// n x 1500 ms with no lease; with a lease, a random time in [lease/2, lease) when lease <= n x 1500,
// else in [n x 1500, lease). Up to 3.16.x a lease of 2000 ms or less (0 included) waits 2000 ms.
int64_t MultiLock::round_wait(int64_t lease_ms) {
  const int64_t base = static_cast<int64_t>(locks_.size()) * 1500;
  if (options_.fixed_retry_wait ? lease_ms < 0 : lease_ms <= 0) return base;
  if (options_.fixed_retry_wait && lease_ms <= 2000) return 2000;
  const uint64_t r = std::strtoull(backend_.random_token("multilock wait " + name_).substr(0, 12).c_str(), nullptr, 16);
  const int64_t lo = lease_ms <= base ? lease_ms / 2 : base;
  const int64_t span = std::max<int64_t>(lease_ms - lo, 1);
  return lo + static_cast<int64_t>(r % static_cast<uint64_t>(span));
}

// Whether tryLock was given a lease: up to 3.11.0 (#2172) any lease but -1, later (3.17.0) only a
// positive one, as Redisson's `leaseTime != -1` and `leaseTime > 0` checks read.
bool MultiLock::has_lease(int64_t lease_ms) const { return options_.negative_sub_lease ? lease_ms >= 0 : lease_ms > 0; }

// newLeaseTime: twice the wait, so that the first sub-locks outlast the wait for the last (#624);
// the lease itself when there is no wait; -1 (the watchdog) with no lease. Up to 3.11.0 (#2172) it
// is 2 x wait whenever a lease is given: -2 ms for tryLock(-1, lease).
int64_t MultiLock::sub_lease(int64_t wait_ms, int64_t lease_ms) const {
  if (!has_lease(lease_ms)) return -1;
  return wait_ms > 0 || options_.negative_sub_lease ? 2 * wait_ms : lease_ms;
}

// RedissonMultiLock.tryLock(waitTime, leaseTime), lock by lock in list order. What the round
// carries across its suspensions (the sub-locks it holds, the next to try, the failures it may
// still take, what is left of its wait) is the thread's Round, kept by this lock.
Task<bool> MultiLock::try_lock(int64_t thread, int64_t op, int64_t wait_ms, int64_t lease_ms) {
  LS_ASSERT(wait_ms >= -1);
  int64_t new_lease = sub_lease(wait_ms, lease_ms);
  // A lease below -1 is a PEXPIRE into the past: Redis deletes the key at once. RLock reads every
  // negative lease as "none" (its watchdog), so such a lease is passed as 0, which PEXPIRE treats
  // the same (expiry <= now: the key is deleted and the reply is 1).
  if (new_lease < -1) new_lease = 0;
  // With neither a wait nor a lease each sub-lock is tried once (tryLock()). A busy sub-lock ends a
  // tryLock with no wait; up to 3.11.0 only one with no lease either, so that tryLock(-1, lease)
  // starts again from the first lock.
  const bool plain_try = wait_ms <= 0 && !has_lease(lease_ms);
  const bool give_up_at_once = options_.negative_sub_lease ? plain_try : wait_ms <= 0;
  const PerThread<Round>::Entry r = rounds_.begin(thread, {.failures_left = failed_locks_limit(),
                                                           .remain_ms = wait_ms > 0 ? wait_ms : -1,
                                                           .since_ms = backend_.now_ms()});
  const int64_t per_lock = lock_wait_time(r->remain_ms);
  for (; r->next < locks_.size(); ++r->next) {
    RedissonLock& lock = *locks_[r->next];
    AcquireOptions sub{.wait_ms = 0, .lease_ms = -1};
    if (!plain_try)
      sub = {.wait_ms = r->remain_ms < 0 ? per_lock : std::min(per_lock, r->remain_ms), .lease_ms = new_lease};
    if (sub.wait_ms < 0) sub.wait_ms = 0;
    const OpResult result = co_await lock.acquire(thread, op, sub);
    if (result.outcome == OpResult::Outcome::Unknown) {
      // It may have been taken after all (#1606): release it.
      co_await lock.release(thread, op);
    }
    if (result.outcome == OpResult::Outcome::Ok) {
      r->acquired.push_back(r->next);
    } else {
      if (static_cast<int>(locks_.size() - r->acquired.size()) == failed_locks_limit()) break;
      if (r->failures_left == 0) {
        co_await unlock_all(held(*r), thread, op);
        if (give_up_at_once) co_return false;
        ++r->restarts;
        LS_ASSERT(r->restarts < 10'000'000);
        r->failures_left = failed_locks_limit();
        r->acquired.clear();
        r->next = static_cast<size_t>(-1);  // start again from the first lock
      } else {
        --r->failures_left;
      }
    }
    if (r->remain_ms > 0) {
      const int64_t now = backend_.now_ms();
      r->remain_ms -= now - r->since_ms;
      r->since_ms = now;
      if (r->remain_ms <= 0) {
        co_await unlock_all(held(*r), thread, op);
        co_return false;
      }
    }
  }
  if (has_lease(lease_ms)) {
    for (RedissonLock* lock : held(*r)) co_await lock->expire(lease_ms, thread, op);
  }
  co_return true;
}

std::vector<RedissonLock*> MultiLock::held(const Round& round) const {
  std::vector<RedissonLock*> out;
  for (const size_t i : round.acquired) out.push_back(locks_[i].get());
  return out;
}

Task<void> MultiLock::unlock_all(std::vector<RedissonLock*> locks, int64_t thread, int64_t op) {
  for (RedissonLock* lock : locks) co_await lock->release(thread, op);
}

// MultiLock.unlock() unlocks each lock and fails if one does; RedLock ignores per-lock errors.
Task<OpResult> MultiLock::release(int64_t thread, int64_t op) {
  std::string failures;
  for (auto& lock : locks_) {
    const OpResult result = co_await lock->release(thread, op);
    if (result.outcome != OpResult::Outcome::Ok) failures += (failures.empty() ? "" : "; ") + lock->name() + ": " + result.why;
  }
  if (!failures.empty() && !redlock_) co_return OpResult::fail(failures);
  co_return OpResult::ok();
}

Task<OpResult> MultiLock::force_release(int64_t op) {
  for (auto& lock : locks_) co_await lock->force_release(op);
  co_return OpResult::ok();
}

Task<OpResult> MultiLock::is_locked(int64_t) { co_return OpResult::fail("UnsupportedOperationException"); }

Task<OpResult> MultiLock::is_held(int64_t, int64_t) { co_return OpResult::fail("UnsupportedOperationException"); }

}  // namespace locksim::client
