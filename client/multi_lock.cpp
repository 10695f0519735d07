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

// lock(): tryLock(waitTime, lease) until it succeeds; waitTime is n x 1500 ms, or with a lease a
// random time in [lease/2, lease) (lease <= base) or [base, lease).
Task<OpResult> MultiLock::acquire(int64_t thread, int64_t op, AcquireOptions options) {
  if (options.wait_ms >= 0) {
    const bool ok = co_await try_lock(thread, op, options.wait_ms, options.lease_ms);
    co_return ok ? OpResult::ok() : OpResult::fail("not acquired within " + std::to_string(options.wait_ms) + " ms");
  }
  const int64_t base = static_cast<int64_t>(locks_.size()) * 1500;
  for (int64_t round = 0;; ++round) {
    LS_ASSERT(round < 10'000'000);
    int64_t wait = base;
    if (options.lease_ms > 0) {
      const uint64_t r = std::strtoull(backend_.random_token().substr(0, 12).c_str(), nullptr, 16);
      const int64_t lo = options.lease_ms <= base ? options.lease_ms / 2 : base;
      const int64_t span = std::max<int64_t>(options.lease_ms - lo, 1);
      wait = lo + static_cast<int64_t>(r % static_cast<uint64_t>(span));
    }
    if (co_await try_lock(thread, op, wait, options.lease_ms)) co_return OpResult::ok();
  }
}

// RedissonMultiLock.tryLock(waitTime, leaseTime), lock by lock in list order.
Task<bool> MultiLock::try_lock(int64_t thread, int64_t op, int64_t wait_ms, int64_t lease_ms) {
  int64_t new_lease = -1;
  if (lease_ms > 0) new_lease = wait_ms > 0 ? 2 * wait_ms : lease_ms;
  int64_t time = backend_.now_ms();
  int64_t remain = wait_ms > 0 ? wait_ms : -1;
  const int64_t per_lock = lock_wait_time(remain);
  int limit = failed_locks_limit();
  std::vector<RedissonLock*> acquired;
  for (size_t i = 0; i < locks_.size(); ++i) {
    RedissonLock& lock = *locks_[i];
    AcquireOptions sub{0, -1};
    if (!(wait_ms <= 0 && lease_ms <= 0)) sub = {remain < 0 ? per_lock : std::min(per_lock, remain), new_lease};
    if (sub.wait_ms < 0) sub.wait_ms = 0;
    const OpResult result = co_await lock.acquire(thread, op, sub);
    if (result.outcome == OpResult::Outcome::Unknown) {
      // It may have been taken after all (#1606): release it.
      co_await lock.release(thread, op);
    }
    if (result.outcome == OpResult::Outcome::Ok) {
      acquired.push_back(&lock);
    } else {
      if (static_cast<int>(locks_.size() - acquired.size()) == failed_locks_limit()) break;
      if (limit == 0) {
        co_await unlock_all(acquired, thread, op);
        if (wait_ms <= 0) co_return false;
        limit = failed_locks_limit();
        acquired.clear();
        i = static_cast<size_t>(-1);  // start again from the first lock
      } else {
        --limit;
      }
    }
    if (remain > 0) {
      remain -= backend_.now_ms() - time;
      time = backend_.now_ms();
      if (remain <= 0) {
        co_await unlock_all(acquired, thread, op);
        co_return false;
      }
    }
  }
  if (lease_ms > 0) {
    for (RedissonLock* lock : acquired) co_await lock->expire(lease_ms, thread, op);
  }
  co_return true;
}

Task<void> MultiLock::unlock_all(const std::vector<RedissonLock*>& locks, int64_t thread, int64_t op) {
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
