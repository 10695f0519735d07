#pragma once
// ReadWriteLock: Redisson's RReadWriteLock (RedissonReadLock, RedissonWriteLock;
// redisson-reference.md 1.4), as two RedissonLocks over one hash `<key>`: field `mode` (read |
// write) and one hold count per holder, "<uuid>:<tid>" for a reader and "<uuid>:<tid>:write" for
// the writer. Every read hold n also has its own key "{<key>}:<uuid>:<tid>:rwlock_timeout:<n>"
// with its own PEXPIRE, so that a read unlock can shorten the hash to the longest lease still owed
// to a reader. Both sides wait on "redisson_rwlock:{<key>}"; a read unlock publishes 0
// (UNLOCK_MESSAGE), a write unlock 1 (READ_UNLOCK_MESSAGE). The waiting loop, the watchdog (both
// sides; the read side's renewal also restarts every reader's timeout key, 3.8.1 on) and unlock
// are RedissonLock's. In a world the two sides are the locks "<key>:read" and "<key>:write".
//
// Where this differs from Redisson:
// - READ_UNLOCK_MESSAGE releases as many semaphore permits as there are queued threads in
//   Redisson; Backend::wait_message gives one permit per message, whatever it says. Every client
//   subscribed gets the message, so only several threads of ONE client waiting on one lock at once
//   see a difference (the second waits out its ttl instead of waking at once), and a 1 that finds
//   no waiter leaves a permit where Redisson leaves none (the next wait then retries at once).
// - Redisson's read and write locks of one client shared one renewal entry until 3.17.1 (#4217);
//   here each side renews on its own, which is the 3.17.1 behaviour.
// - No unlock latch (RedissonOptions::unlock_latch is ignored).
#include <string>

#include "client/redisson_lock.hpp"
#include "client/script_catalog.hpp"

namespace locksim::client {

// Which era of the ReadWriteLock scripts.
enum class RwVariant {
  Silent,   // "3.11": 3.11.1 to 3.43.x: the max(pttl, lease) reader TTL; unlocking a missing lock answers 1
            // (the unlock scripts are 3.21.x's: 3.22.0's publish ARGV and 3.24.0's latch are not sent)
  Nil3_44,  // "3.44": 3.44.0 on: unlocking a missing lock answers nil (IllegalMonitorStateException);
            // the unlock carries 3.24.0's latch and 3.22.0's publish command
};

// "3.11", "3.44" -> the variant; false for anything else.
bool parse_rw_variant(const std::string& name, RwVariant& out);

// Which era of the read side's watchdog renewal.
enum class ReadRenewal {
  PerLock,      // "3.8": 3.8.1 to 3.43.x, rwlock_read_renew: one EVAL per lock, answered 1 or 0
  Batched3_44,  // "3.44": 3.44.0 to 3.52.x, rwlock_read_renew_3_44: ReadLockTask's batch, answered [1] or
                // [0], and failing on a reader that holds twice (PR #6883)
  Batched4_0,   // "4.0": 4.0.0 to 4.3.x, rwlock_read_renew_4_0: the batch fixed, doing what 3.8's did
  OwnReaders4_4,  // "4.4": 4.4.0 on, rwlock_read_renew_4_4: every renewing thread's id is sent, and only
                  // those readers' timeout keys restart (PR #7098)
};

// "3.8", "3.44", "4.0", "4.4" -> the era; false for anything else.
bool parse_read_renewal(const std::string& name, ReadRenewal& out);
std::string to_string(ReadRenewal renewal);

struct RwOptions {
  RwVariant variant = RwVariant::Silent;
  ReadRenewal read_renewal = ReadRenewal::PerLock;
  // The read side's renewal entry (ReadLockEntry from 3.44.0, fixed later than RLock's LockEntry);
  // the write side's is RedissonOptions::entry_leak.
  EntryLeak read_entry_leak = EntryLeak::None;
};

// What both sides share: the key, the channel, isLocked() by mode, forceUnlock() by mode.
class RwSide : public RedissonLock {
 public:
  Task<OpResult> is_locked(int64_t op) override;
  Task<OpResult> force_release(int64_t op) override;
  // Built once: every unlock names it, and every wait.
  const std::string& channel() const { return channel_; }
  // The key Redisson's prefixName/suffixName put the name in: "{<key>}", or the key itself when it
  // already has a hash tag.
  std::string braced() const;

 protected:
  RwSide(Backend& backend, ScriptCatalog& scripts, const std::string& key, const std::string& side,
         RedissonOptions options);
  std::string wake_channel(int64_t) const override { return channel(); }
  // The unlock of 3.44.0 on: appends the latch key "redisson_unlock_latch:{<key>}:<request id>" to
  // the KEYS, the publish command and the latch's lifetime to the ARGV. (Redisson deletes the latch
  // once the reply came; here it expires: RedissonLock deletes only an RLock's.)


  const std::string mode_;  // "read" or "write"
  const std::string channel_;
  const Script& force_unlock_;  // rwlock_read_force_unlock or rwlock_write_force_unlock
};

class ReadLock : public RwSide {
 public:
  ReadLock(Backend& backend, ScriptCatalog& scripts, const std::string& key, RedissonOptions options = {},
           RwOptions rw = {});
  // "{<key>}:<uuid>:<tid>:rwlock_timeout": this thread's read holds' timeout keys are "<this>:<n>".
  std::string timeout_prefix(int64_t thread) const { return braced() + ":" + holder_id(thread) + ":rwlock_timeout"; }

 protected:
  Task<Attempt> try_acquire_once(int64_t thread, int64_t op, int64_t lease_ms, int64_t wait_ms) override;
  Command unlock_command(int64_t thread, int64_t op) override;
  Command renew_command(int64_t thread) override;
  std::vector<int64_t> renewal_asks_for(int64_t first) const override;

 private:
  const Script& acquire_;
  const Script& unlock_;
  const Script& renew_;
  const ReadRenewal read_renewal_;
  const bool latched_unlock_;
};

class WriteLock : public RwSide {
 public:
  WriteLock(Backend& backend, ScriptCatalog& scripts, const std::string& key, RedissonOptions options = {},
            RwOptions rw = {});
  Task<OpResult> is_held(int64_t thread, int64_t op) override;
  // "<uuid>:<tid>:write", the writer's field.
  std::string writer_id(int64_t thread) const { return holder_id(thread) + ":write"; }

 protected:
  Task<Attempt> try_acquire_once(int64_t thread, int64_t op, int64_t lease_ms, int64_t wait_ms) override;
  Command unlock_command(int64_t thread, int64_t op) override;
  Command renew_command(int64_t thread) override;

 private:
  const Script& acquire_;
  const Script& unlock_;
  const Script& renew_;
  const bool latched_unlock_;
};

}  // namespace locksim::client
