#pragma once
// SpinLock: Redisson's RedissonSpinLock (3.15.0 on), an RLock-like hash lock that waits without
// pub/sub: a refused thread sleeps a backoff (LockOptions.ExponentialBackOff: 1 ms, doubling plus a
// random jitter of up to its failures so far, capped at 128 ms) and tries again. The watchdog is
// RLock's. RedissonSpinLock declares its own internalLockLeaseTime, which hides RedissonBaseLock's:
// the lease its attempts and unlocks send is the last any of its threads sent (a lease-less attempt
// sends it as it is), while the watchdog renews every lockWatchdogTimeout/3 to lockWatchdogTimeout,
// from the base's field, which a spin lock never changes. What puts the spin lock's field back to
// the watchdog's timeout changed by version: nothing up to 3.19.1, any unlock up to 3.27.1, and from
// 3.27.2 an unlock that did not leave a re-entrant hold.
#include "client/redisson_lock.hpp"
#include "client/script_catalog.hpp"

namespace locksim::client {

struct SpinBackoff {
  int64_t initial_ms = 1;
  int64_t max_ms = 128;
  int64_t multiplier = 2;
};

class SpinLock : public RedissonLock {
 public:
  SpinLock(Backend& backend, ScriptCatalog& scripts, std::string name, RedissonOptions options = {},
           SpinBackoff backoff = {});
  // lock() and tryLock(wait) as RedissonSpinLock's blocking methods: the first attempt, then backoff
  // sleeps and attempts until one is granted or, for tryLock, the wait has passed on the client's clock.
  Task<OpResult> acquire(int64_t thread, int64_t op, AcquireOptions options) override;
  Task<OpResult> release(int64_t thread, int64_t op) override;
  Task<OpResult> force_release(int64_t op) override;

 protected:
  Task<Attempt> try_acquire_once(int64_t thread, int64_t op, int64_t lease_ms, int64_t wait_ms) override;
  std::string wake_channel(int64_t) const override { return {}; }  // never listens
  Command unlock_command(int64_t thread, int64_t op) override;
  Command renew_command(int64_t thread) override;
  // RedissonSpinLock's acquire has handleNoSync but no ServiceManager.execute.
  bool no_sync_retried() const override { return false; }

 private:
  // ExponentialBackOffPolicy: what a thread's sleeps have reached, kept across its suspensions.
  struct Policy {
    int64_t next_ms = 0;
    int64_t fails = 0;
  };
  int64_t next_sleep_ms(Policy& policy, int64_t thread);

  SpinBackoff backoff_;
  int64_t lease_ms_;  // RedissonSpinLock.internalLockLeaseTime (the base's stays the watchdog's timeout)
  PerThread<Policy> policies_;
  const Script& acquire_;
  const Script& unlock_;
  const Script& renew_;
  const Script& force_unlock_;
};

}  // namespace locksim::client
