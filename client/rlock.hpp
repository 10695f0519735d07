#pragma once
// RLock: Redisson's reentrant lock. A hash `<name>` maps "<client uuid>:<thread>" to its hold count;
// waiters sleep on "redisson_lock__channel:{<name>}" until an unlock publishes there.
#include "client/redisson_lock.hpp"
#include "client/script_catalog.hpp"

namespace locksim::client {

// Which of scripts/ the lock runs; each is Redisson's text of a range of versions (its header). A
// non-reentrant lock (RedissonOptions::non_reentrant) runs nonreentrant_acquire instead of `acquire`.
struct RLockScripts {
  // rlock_acquire_hset (2.2.4 to 3.12.2), rlock_acquire_hincrby (3.12.3 to 3.18.x),
  // rlock_acquire_one_condition (3.19.0 on)
  std::string acquire = "rlock_acquire_hincrby";
  // rlock_unlock_silent_missing (up to 3.10.5), rlock_unlock (3.10.6 to 3.21.x), rlock_unlock_3_22
  // (3.22.0 to 3.23.x, with publish_as_argv)
  std::string unlock = "rlock_unlock";
  // With RedissonOptions::unlock_latch (3.24.0 on). Its ARGV[4] is the publish command, whatever
  // publish_as_argv says (the latch came after #5047).
  std::string unlock_latch = "rlock_unlock_latch";
  std::string renew = "rlock_renew";
  // rlock_force_unlock (up to 3.21.x), rlock_force_unlock_3_22 (3.22.0 on, with publish_as_argv)
  std::string force_unlock = "rlock_force_unlock";
  // 3.22.0 on (#5047): the publish command ("publish" or "spublish") is passed as an ARGV: unlock's
  // ARGV[4], forceUnlock's ARGV[2]. locksim has no sharded pub/sub, so it is always "publish".
  bool publish_as_argv = false;
};

class RLock : public RedissonLock {
 public:
  RLock(Backend& backend, ScriptCatalog& scripts, std::string name, RedissonOptions options = {},
        RLockScripts script_names = {});
  Task<OpResult> force_release(int64_t op) override;
  bool describe(StateWriter& out, int64_t client_now_ms) const override;
  // Built once: every unlock names it, and every wait.
  const std::string& channel() const { return channel_; }

 protected:
  Task<Attempt> try_acquire_once(int64_t thread, int64_t op, int64_t lease_ms, int64_t wait_ms) override;
  std::string wake_channel(int64_t) const override { return channel(); }
  const Script& acquire_script() const { return acquire_; }
  Command unlock_command(int64_t thread, int64_t op) override;
  Command renew_command(int64_t thread) override;

 private:
  SharedCommand acquire_command(int64_t thread, int64_t op, int64_t lease_ms);

  struct BuiltAcquire {
    int64_t op = 0;
    int64_t lease_ms = 0;
    SharedCommand command;
  };
  std::map<int64_t, BuiltAcquire> acquires_;  // by thread: its operation's acquire command
  std::string channel_;
  const Script& acquire_;
  const Script& unlock_;
  const Script& renew_;
  const Script& force_unlock_;
  bool publish_as_argv_;
};

}  // namespace locksim::client
