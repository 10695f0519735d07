#pragma once
// FairLock: Redisson's RedissonFairLock, a RedissonLock whose acquire goes through a FIFO of
// waiters. Keys: the lock hash `<name>`, the queue `redisson_lock_queue:{<name>}` (a list of
// "<uuid>:<thread>") and the timeouts `redisson_lock_timeout:{<name>}` (a sorted set: each waiter's
// eviction time, in ms on the CLIENTS' clocks). Every script is given the calling client's clock as
// `now`, so clock skew between clients moves waiters' deadlines (redisson-reference.md 1.3).
// A waiter sleeps on its own channel `redisson_lock__channel:{<name>}:<uuid>:<thread>`; unlock wakes
// the queue's head only. The waiting loop, watchdog and unlock are RedissonLock's.
#include <string>

#include "client/redisson_lock.hpp"
#include "client/script_catalog.hpp"

namespace locksim::client {

// Which era of Redisson's fair-lock scripts (redisson-reference.md 1.3's table).
enum class FairVariant {
  Head,      // "head": 2.7.0/3.2.0 to 3.11.0 (seed 000): timeouts chained from the FIRST waiter,
             // ARGV[3] = now + threadWaitTime, a queued retry re-scores itself; acquireFailed of
             // 2.10.5+ (the first leaving lowers everyone's timeout)
  Tail,      // "tail": 3.11.1 to 3.30.x (seed 004): chained from the LAST waiter, every timeout
             // drops by threadWaitTime on each acquire, a queued retry is told score - wait - now
  Tail3_31,  // "tail-3.31": 3.31.x, the stale loop is nil-safe
  Tail3_32,  // "tail-3.32": 3.32.0 to 3.44.x, a queued retry is told max(0, pttl)
  Tail3_45,  // "tail-3.45": 3.45.0 on, a newcomer chains from the last waiter only when it has a score
};

// "head", "tail", "tail-3.31", "tail-3.32", "tail-3.45" -> the variant; false for anything else.
bool parse_fair_variant(const std::string& name, FairVariant& out);
std::string to_string(FairVariant variant);

struct FairOptions {
  FairVariant variant = FairVariant::Tail;
  // threadWaitTime: how long a queued waiter may stay silent before the scripts drop it. 5000 ms is
  // the hard-coded value of the seed eras (2.2.14 to 3.13.2); 3.13.3 made the default 300 000.
  int64_t thread_wait_ms = 5000;
  // 3.13.3 on (#2883; `> 0` since 3.17.1): tryLock(wait) passes its wait instead of threadWaitTime
  // to acquire and acquireFailed when wait > 0.
  bool try_wait_replaces_thread_wait = false;
  // tryLock(0) runs the "tryacquire" script (Redisson's tryLock() with no arguments, which never
  // enqueues) instead of acquire + acquireFailed. Modelled for the tail eras only.
  bool zero_wait_uses_tryacquire = false;
};

class FairLock : public RedissonLock {
 public:
  FairLock(Backend& backend, ScriptCatalog& scripts, std::string name, RedissonOptions options = {},
           FairOptions fair = {});
  Task<OpResult> acquire(int64_t thread, int64_t op, AcquireOptions options) override;
  Task<OpResult> force_release(int64_t op) override;
  bool describe(StateWriter& out, int64_t client_now_ms) const override;

  std::string queue_key() const { return "redisson_lock_queue:{" + name_ + "}"; }
  std::string timeout_key() const { return "redisson_lock_timeout:{" + name_ + "}"; }
  std::string channel_prefix() const { return "redisson_lock__channel:{" + name_ + "}"; }
  const FairOptions& fair_options() const { return fair_; }

 protected:
  Task<Attempt> try_acquire_once(int64_t thread, int64_t op, int64_t lease_ms, int64_t wait_ms) override;
  std::string wake_channel(int64_t thread) const override { return channel_prefix() + ":" + holder_id(thread); }
  Task<void> acquire_failed(int64_t thread, int64_t op, int64_t wait_ms) override;
  Command unlock_command(int64_t thread, int64_t op) override;
  Command renew_command(int64_t thread) override;

 private:
  // The "wait" the scripts are given: threadWaitTime, or tryLock's wait where that replaces it.
  int64_t wait_for(int64_t wait_ms) const;
  Task<OpResult> try_acquire_no_wait(int64_t thread, int64_t op, int64_t lease_ms);

  FairOptions fair_;
  const Script& acquire_;
  const Script& acquire_failed_;
  const Script& tryacquire_;
  const Script& unlock_;
  const Script& renew_;
  const Script& force_unlock_;
};

}  // namespace locksim::client
