#pragma once
// RLock: Redisson's reentrant lock. A hash `<name>` maps "<client uuid>:<thread>" to its hold count;
// waiters sleep on "redisson_lock__channel:{<name>}" until an unlock publishes there.
#include "client/redisson_lock.hpp"
#include "client/script_catalog.hpp"

namespace locksim::client {

struct RLockScripts {
  std::string acquire = "rlock_acquire_hincrby";  // or rlock_acquire_hset (2.2.4 to 3.12.2)
  std::string unlock = "rlock_unlock";            // or rlock_unlock_silent_missing (up to 3.10.5)
  std::string unlock_latch = "rlock_unlock_latch";  // with RedissonOptions::unlock_latch (3.24.0+)
  std::string renew = "rlock_renew";
  std::string force_unlock = "rlock_force_unlock";
  // 3.22.0 on (#5047): the publish command ("publish" or "spublish") is passed as an ARGV.
  bool publish_as_argv = false;
};

class RLock : public RedissonLock {
 public:
  RLock(Backend& backend, ScriptCatalog& scripts, std::string name, RedissonOptions options = {},
        RLockScripts script_names = {});
  Task<OpResult> force_release(int64_t op) override;
  std::string channel() const { return "redisson_lock__channel:{" + name_ + "}"; }

 protected:
  Task<Attempt> try_acquire_once(int64_t thread, int64_t op, int64_t lease_ms, int64_t wait_ms) override;
  std::string wake_channel(int64_t) const override { return channel(); }
  Command unlock_command(int64_t thread, int64_t op) override;
  Command renew_command(int64_t thread) override;

 private:
  const Script& acquire_;
  const Script& unlock_;
  const Script& renew_;
  const Script& force_unlock_;
};

}  // namespace locksim::client
