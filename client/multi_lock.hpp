#pragma once
// MultiLock and RedLock: one lock made of several Redisson locks, client logic only (no scripts of
// their own), after RedissonMultiLock / RedissonRedLock (redisson-reference.md, section 1.5).
// MultiLock needs every lock; RedLock needs a majority, each sub-lock on its own server.
#include <memory>
#include <vector>

#include "client/redisson_lock.hpp"

namespace locksim::client {

// MultiLock/RedLock client logic that changed across Redisson versions (redisson-versions.md).
struct MultiOptions {
  // Up to 3.11.0 (#2172): tryLock's sub-lease is 2 x waitTime whenever a lease is given, so
  // tryLock(-1, lease) gives each sub-lock -2 ms, a PEXPIRE that deletes the key as soon as it is
  // taken, and every caller "holds"; a tryLock(-1, lease) that meets a held sub-lock starts again
  // instead of giving up. 3.11.1 gives the sub-locks the lease itself when waitTime is -1.
  bool negative_sub_lease = false;
  // 3.17.0 to 3.25.0 (#5484): lock(lease, unit) passes the number to tryLock as milliseconds whatever
  // the unit, so lock(5, SECONDS) ends with every sub-lock PEXPIREd to 5 ms.
  bool lease_unit_ignored = false;
  // Up to 3.16.x (#4050): lock() draws its random wait once and uses it for every retry, and a lease
  // of 2000 ms or less waits 2000 ms; 3.17.0 draws it again for each round.
  bool fixed_retry_wait = false;
};

class MultiLock : public Lock {
 public:
  // `redlock`: succeed on a majority (n/2+1), wait at most max(remain/n, 1) per lock, ignore
  // unlock errors. Otherwise every lock is needed.
  MultiLock(Backend& backend, std::string name, std::vector<std::unique_ptr<RedissonLock>> locks, bool redlock,
            MultiOptions options = {});
  const std::string& name() const override { return name_; }
  Task<OpResult> acquire(int64_t thread, int64_t op, AcquireOptions options) override;
  Task<OpResult> release(int64_t thread, int64_t op) override;
  Task<OpResult> force_release(int64_t op) override;
  // Redisson's MultiLock answers neither (UnsupportedOperationException).
  Task<OpResult> is_locked(int64_t op) override;
  Task<OpResult> is_held(int64_t thread, int64_t op) override;

  // One tryLock round over the sub-locks, as its thread left it at its last suspension.
  struct Round {
    std::vector<size_t> acquired{};  // the sub-locks it holds, by index, in the order taken
    size_t next = 0;               // the sub-lock it tries now, or next
    int failures_left = 0;         // busy sub-locks it may still pass over (failedLocksLimit)
    int64_t remain_ms = -1;        // what is left of its wait (-1: it has none)
    int64_t since_ms = 0;          // the client clock when remain_ms was last charged
    int64_t restarts = 0;          // times it gave back what it held and started from the first lock
  };
  // The rounds under way, by thread.
  const std::map<int64_t, Round>& rounds() const { return rounds_.threads(); }

 private:
  std::vector<RedissonLock*> held(const Round& round) const;

  // tryLock(wait, lease), where wait -1 is Redisson's "no wait" (tryLock(-1, lease)).
  Task<bool> try_lock(int64_t thread, int64_t op, int64_t wait_ms, int64_t lease_ms);
  // lock()'s wait for one round of tryLock (lease_ms converted to ms, as Redisson does for it).
  int64_t round_wait(int64_t lease_ms);
  bool has_lease(int64_t lease_ms) const;
  // The lease each sub-lock takes while tryLock is under way.
  int64_t sub_lease(int64_t wait_ms, int64_t lease_ms) const;
  Task<void> unlock_all(std::vector<RedissonLock*> locks, int64_t thread, int64_t op);
  int failed_locks_limit() const;
  int64_t lock_wait_time(int64_t remain_ms) const;

  Backend& backend_;
  std::string name_;
  std::vector<std::unique_ptr<RedissonLock>> locks_;
  bool redlock_;
  MultiOptions options_;
  PerThread<Round> rounds_;
};

}  // namespace locksim::client
