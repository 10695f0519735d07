#pragma once
// FencedLock: Redisson's RedissonFencedLock (3.19.0 on), an RLock whose acquire also INCRs a token
// counter "redisson_lock_token:{<name>}" and hands the new value to its caller: the fencing token
// the guarded resource checks. A scenario's lock and try_lock are lockAndGetToken and
// tryLockAndGetToken; waiting, watchdog and unlock are RLock's.
#include "client/rlock.hpp"

namespace locksim::client {

class FencedLock : public RLock {
 public:
  // `script_names.acquire` must name the token-returning acquire (fenced_acquire).
  FencedLock(Backend& backend, ScriptCatalog& scripts, std::string name, RedissonOptions options = {},
             RLockScripts script_names = {});
  // lockAndGetToken(leaseTime, unit) drops its lease in every version (it calls lockAndGetToken()):
  // lock() with a lease is held by the watchdog. tryLockAndGetToken(wait, lease, unit) keeps it.
  Task<OpResult> acquire(int64_t thread, int64_t op, AcquireOptions options) override;
  // Not yet: its acquire is not held to equal futures (verify/exhaustive/equal_futures_test.cpp).
  bool describe(StateWriter&, int64_t) const override { return false; }
  std::string token_key() const { return "redisson_lock_token:{" + name_ + "}"; }

 protected:
  Task<Attempt> try_acquire_once(int64_t thread, int64_t op, int64_t lease_ms, int64_t wait_ms) override;
  // The token path (FencedLock.tryAcquireAsync) has neither handleNoSync nor ServiceManager.execute.
  bool no_sync_undone() const override { return false; }
  bool no_sync_retried() const override { return false; }
};

}  // namespace locksim::client
