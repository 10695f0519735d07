#pragma once
// RedissonLock: the client logic Redisson's RLock and FairLock share, written once: the tryLock /
// lock() waiting loop over pub/sub (seed 002; redisson-reference.md section 4), the watchdog that
// renews a lease-less hold every lockWatchdogTimeout/3, and unlock. Subclasses say which scripts run
// and which channel wakes a waiter.
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "client/backend.hpp"
#include "client/command_policy.hpp"
#include "client/lock.hpp"
#include "client/renewal_entry.hpp"

namespace locksim::client {

// Where Redisson's versions differ in ways that matter for safety or liveness.
enum class WatchdogOnError {
  StopForGood,   // 3.14.0 to 3.43.x: a renewal that fails (error or timeout) ends renewal for good, and
                 // removes the renewal entry so that the next lock() renews again (PR #3334)
  StopKeepEntry, // up to 3.13.x: as StopForGood, but the entry stays, so the next lock() of the same
                 // name on this client starts no renewal either (#3194)
  KeepRenewing,  // 3.44.0 onward (batched LockTask): a failed renewal is rescheduled
};

// "stop", "stop-keep-entry", "keep" (scenario files' watchdog_on_error) and back; false for others.
bool parse_watchdog_on_error(const std::string& name, WatchdogOnError& out);
std::string to_string(WatchdogOnError value);

// When unlock cancels the watchdog's renewal (redisson-versions.md, "behaviours that were bugs").
enum class UnlockCancelsRenewal {
  Always,            // 3.10.5 on, except 3.12.0: whatever the unlock answered
  OnlyWhenAnswered,  // up to 3.10.4 (#1966): an unlock that timed out or failed leaves renewal running
  NotOnNil,          // 3.12.0 (#2515): an unlock answered nil leaves the renewal entry, so the next
                     // lock() of that name on this client starts no renewal timer
};

// What the instance remembers of a lease between calls (internalLockLeaseTime).
enum class LeaseMemory {
  PerAcquire,     // 3.27.2 on, and up to 3.14.x: each acquire sets it (an explicit lease, or the
                  // watchdog timeout), and the unlock's PEXPIRE of a remaining hold uses it
  StaleExplicit,  // 3.15.0 to 3.19.1 (#4818): a lease-less lock() PEXPIREs to the last explicit lease
                  // this instance used, while the watchdog renews every lockWatchdogTimeout/3
  ResetOnUnlock,  // 3.19.2 to 3.27.1 (#5623): any unlock, even a decrement, resets it to the watchdog
                  // timeout, so a partial unlock of an explicit-lease hold PEXPIREs to 30 s
};

// What a Redisson client (its CommandAsyncService) learns once and every lock instance of it shares:
// whether it has probed WAIT, each server's replica count (MasterSlaveEntry.availableSlaves, -1:
// ask INFO), and the scripts its batches have loaded on each server (ServiceManager's script cache).
struct ReplicaSync {
  bool probed = false;
  std::map<int, int64_t> available;
  std::set<std::pair<int, std::string>> loaded;  // (server, script name)
};

struct RedissonOptions {
  int64_t watchdog_timeout_ms = 30000;  // Config.lockWatchdogTimeout
  WatchdogOnError watchdog_on_error = WatchdogOnError::StopForGood;
  int64_t subscribe_timeout_ms = 7500;  // subscriptionTimeout
  // 3.24.0 onward: unlock carries a latch key so that a resent unlock answers what the first one
  // did instead of decrementing the hold count twice. Up to 3.23.x there is none.
  bool unlock_latch = false;
  // 3.52.0 to 4.2.x (#6844, PR #6977): the DEL after an answered unlock names the client's id where the
  // request's belongs, so every latch lives out its PX.
  bool latch_delete_names_client = false;
  // Up to 3.36.x an acquire and an unlock are resent after a response timeout like any command; from
  // 3.37.0 (85be4d67a, evalWriteSyncedNoRetryAsync) they are sent once, and a timeout reaches the
  // caller as RedisResponseTimeoutException. FairLock's acquireFailed likewise, until 4.7.0 resends
  // it again (PR #7223).
  bool lock_commands_resent = true;
  bool acquire_failed_resent = true;
  // Up to 4.6.x a response timeout of an acquire inside tryLock's wait loop reaches the caller as
  // an exception, and acquireFailed is not sent: a FairLock waiter's queue entry stays behind
  // (#5019). 4.7.0 (PR #7223) sends acquireFailed and answers false. (A timeout of the first
  // attempt, before the loop, still reaches the caller without acquireFailed in every version.)
  bool loop_timeout_gives_up = false;
  // What a thread's last unlock leaves in the renewal entry (#6144; the read side's PR #7251).
  EntryLeak entry_leak = EntryLeak::None;
  UnlockCancelsRenewal unlock_cancels_renewal = UnlockCancelsRenewal::Always;
  LeaseMemory lease_memory = LeaseMemory::PerAcquire;
  // Up to 3.27.x (#5761): a waiter checks its latch, then listens; an unlock message published in
  // between is lost and the waiter sleeps its ttl (or, with a negative ttl, until another message).
  bool wakeup_lost_between_check_and_listen = false;
  // 3.10.5 to 3.10.6 (#2037): a renewal answered 0 (not held) is rescheduled instead of stopping.
  bool renewal_ignores_not_held = false;
  // 3.44.0 on (the renewal scheduler's LockTask, built with lockWatchdogTimeout): a renewal comes
  // every lockWatchdogTimeout/3 and sets lockWatchdogTimeout, whatever lease the instance last used;
  // up to 3.43.x both are the instance's internalLockLeaseTime (an explicit re-entry's lease).
  bool renewal_at_watchdog_timeout = false;
  // 3.44.0 on (RenewalTask.cancelExpirationRenewal(name, threadId)): a renewal answered 0 drops one
  // hold of each thread it asked for from the entry, which renews on while another thread is left;
  // up to 3.43.x (cancelExpirationRenewal(null)) it ends the entry.
  bool not_held_drops_thread = false;
  // RedissonNonReentrantLock and RedissonNonReentrantFairLock (4.4.0 on; lock types nonreentrant and
  // nonreentrant-fair): the acquire carries kReentryError as its last ARGV and answers the holding
  // thread's second acquire with that error, which reaches the caller as IllegalMonitorStateException.
  bool non_reentrant = false;
  int server = 0;  // the Redis server this lock lives on (RedLock spreads one name over several)
  CommandPolicy commands;
  // 3.52.0 on (redisson-versions.md, "WAIT for replicas"): on a server with replicas, each lock script
  // (acquire, unlock, renewal, forceUnlock, acquireFailed) goes in one batch with WAIT N
  // slavesSyncTimeout, N learnt from INFO's connected_slaves after a one-time WAIT probe. An answer
  // no replica acknowledged is NoSyncedSlavesException (checkLockSyncedSlaves): an acquire is undone
  // by an unlock and, like an unlock, tried again retryAttempts times, retryDelay apart.
  bool synced_eval = false;
  int64_t slaves_sync_timeout_ms = 1000;
  // Config.checkLockSyncedSlaves: false lets an answer no replica acknowledged stand (the advice in
  // NoSyncedSlavesException's text), and a failover can then lose the lock.
  bool check_lock_synced_slaves = true;
  // Bit s: server s has a replica, so Redisson is configured for master and replica there (a
  // scenario that fails it over); a single server's client never sends WAIT.
  uint32_t replicated_servers = 0;
  // The client's, shared by its lock instances (made per client by make_locks).
  std::shared_ptr<ReplicaSync> replica_sync;
};

// NoSyncedSlavesException's text (CommandAsyncService.syncedEval, 3.47.0 on).
inline constexpr const char* kNoSyncedSlaves =
    "NoSyncedSlavesException: None of slaves were synced. Try to increase slavesSyncTimeout setting or set "
    "checkLockSyncedSlaves = false.";

// Every unlock latch's key begins so: "redisson_unlock_latch:{<name>}:<request id>".
inline constexpr std::string_view kUnlockLatchPrefix = "redisson_unlock_latch:";

// The error a non-reentrant lock's acquire answers a re-entry with (RedissonNonReentrantLock.REENTRY_ERR).
inline constexpr const char* kReentryError = "NON_REENTRANT_REACQUIRE";

class RedissonLock : public Lock {
 public:
  RedissonLock(Backend& backend, std::string name, RedissonOptions options);
  // A lock whose name in the run differs from its Redis key (ReadWriteLock: the locks
  // "<key>:read" and "<key>:write" share the hash `key`).
  RedissonLock(Backend& backend, std::string name, std::string key, RedissonOptions options);
  const std::string& name() const override { return name_; }
  Task<OpResult> acquire(int64_t thread, int64_t op, AcquireOptions options) override;
  Task<OpResult> release(int64_t thread, int64_t op) override;
  Task<OpResult> is_locked(int64_t op) override;
  Task<OpResult> is_held(int64_t thread, int64_t op) override;
  // lock() and tryLock() as Redisson's sync methods meet Thread.interrupt() (docs/scenario-format.md,
  // "interrupt"): an attempt or acquireFailed on its way ends the call with RedisException while the
  // request goes on; a subscription or a wait for a message ends at once.
  Interruption interrupt(int64_t thread) override;
  // The fencing token of `thread`'s last acquire, for a lock whose acquire hands one out (FencedLock).
  int64_t token(int64_t thread) const override;
  // PEXPIRE to `lease_ms` (MultiLock sets its sub-locks' final lease this way).
  Task<OpResult> expire(int64_t lease_ms, int64_t thread, int64_t op);

 protected:
  // One run of the acquire script: nullopt-like `acquired`, or the ttl the caller should wait.
  struct Attempt {
    enum class Kind { Acquired, Busy, Error, Unknown } kind = Kind::Error;
    int64_t ttl = 0;
    std::string why;
    int64_t token = 0;  // Acquired: the fencing token the script handed out (FencedLock); 0 for none
    bool no_synced = false;  // Error: NoSyncedSlavesException (the script ran; no replica has it)
  };
  // How an acquire answered NoSyncedSlavesException is handled (RedissonLock.tryAcquireAsync0 in
  // ServiceManager.execute, with handleNoSync): undone by an unlock, then tried again; FencedLock's
  // token path does neither, SpinLock's undoes without trying again.
  virtual bool no_sync_undone() const { return true; }
  virtual bool no_sync_retried() const { return true; }
  // handleNoSync's unlock of an acquire no replica acknowledged (a new request id; not tried again).
  Task<void> undo_acquire(int64_t thread, int64_t op);
  virtual Task<Attempt> try_acquire_once(int64_t thread, int64_t op, int64_t lease_ms, int64_t wait_ms) = 0;
  // The channel this thread waits on for an unlock message.
  virtual std::string wake_channel(int64_t thread) const = 0;
  // Runs when tryLock(wait) gives up (FairLock leaves the queue); nothing for RLock.
  virtual Task<void> acquire_failed(int64_t /*thread*/, int64_t /*op*/, int64_t /*wait_ms*/) { co_return; }
  virtual Command unlock_command(int64_t thread, int64_t op) = 0;
  virtual Command renew_command(int64_t thread) = 0;
  // A renewal as Redisson's renewExpiration sends it: `script` on `keys` (the lock key first) with
  // internalLockLeaseTime, then `fields` (the holder's field; 4.4.0's read side sends several).
  Command renewal(const Script& script, std::vector<std::string> keys, std::vector<std::string> fields,
                  int64_t thread) const;
  // The threads of this client the renewal entry holds, in order.
  std::vector<int64_t> renewing_threads() const;
  // The threads a renewal for `first` asks about, whose holds its "not held" answer drops: `first`
  // (4.4.0's read renewal asks for every renewing thread).
  virtual std::vector<int64_t> renewal_asks_for(int64_t first) const { return {first}; }

  // Sends `command` to this lock's server with `policy`'s timeout and resends (the client's own by
  // default).
  Task<CallResult> send(Command command);
  Task<CallResult> send(Command command, const CommandPolicy& policy);
  // The same for a command built once and sent again (its server already this lock's).
  Task<CallResult> send(SharedCommand command);
  Task<CallResult> send(SharedCommand command, const CommandPolicy& policy);
  // An acquire's or an unlock's policy: resent only where RedissonOptions::lock_commands_resent says
  // so; FairLock's acquireFailed's, where acquire_failed_resent does.
  CommandPolicy lock_command_policy() const;
  CommandPolicy acquire_failed_policy() const;
  // An integer reply as Ok(value); a timeout as Unknown; anything else as Fail.
  static OpResult integer_result(const CallResult& result);
  // Whether a command of `role` goes as a synced eval (RedissonOptions::synced_eval) on `server`.
  bool synced(std::string_view role, int server) const;
  // "<client uuid>:<thread id>", Redisson's getLockName(threadId); made once per thread.
  const std::string& holder_id(int64_t thread) const;
  Attempt to_attempt(const CallResult& result) const;
  // After a successful acquire: an explicit lease becomes internalLockLeaseTime, none starts the watchdog.
  OpResult after_acquired(int64_t thread, int64_t lease_ms);
  // With the attempt that got it: its fencing token, if any, becomes the thread's and the result's value.
  OpResult after_acquired(Waiting& w, int64_t thread, int64_t lease_ms, const Attempt& granted);
  // Its members as describe() writes them, a subclass's added after; false where they are not all
  // it keeps (the synced eval's).
  bool describe_members(StateWriter& out, int64_t client_now_ms) const;

  // The lease an acquire script is sent with: `lease_ms`, or for a lease-less acquire what
  // RedissonOptions::lease_memory says (the watchdog timeout, or a stale explicit lease).
  int64_t acquire_lease_ms(int64_t lease_ms) const;

  // Adds Redisson's unlock latch (3.24.0 on) to an unlock command: KEYS += the latch
  // "redisson_unlock_latch:<braced name>:<request id>", ARGV += the publish command and the latch's
  // lifetime, which outlives every resend. The request id is made once per unlock, kept across
  // resends: that is what makes a resent unlock answer what the first one did.
  void add_unlock_latch(Command& command, const std::string& braced_name);
  // The latch alone, for an unlock that passes it otherwise (SpinLock's: no publish command).
  struct UnlockLatch {
    std::string key;
    int64_t lifetime_ms = 0;
  };
  UnlockLatch new_unlock_latch(const std::string& braced_name);

  // isLocked() and friends: a plain command on `key_` answering an integer, > 0 read as 1.
  Task<OpResult> query(std::string role, std::vector<std::string> argv, int64_t thread, int64_t op);

  Backend& backend_;
  std::string name_;  // the lock's name in the run (history events, LockUser)
  std::string key_;   // its key on the server (the same as name_ except for ReadWriteLock)
  RedissonOptions options_;
  // internalLockLeaseTime: what the last acquire asked for (its lease, or the watchdog timeout), as
  // RedissonOptions::lease_memory keeps it. A remaining hold's unlock PEXPIREs to it.
  int64_t internal_lease_ms_;

 private:
  mutable std::map<int64_t, std::string> holder_ids_;
  std::map<int64_t, int64_t> tokens_;  // by thread: the fencing token its last acquire got  // holder_id's, by thread (the client id never changes)

  Task<OpResult> lock_forever(int64_t thread, int64_t op, int64_t lease_ms);
  // The synced eval: the WAIT probe and INFO where the client has not learnt them, then the batch;
  // an answer no replica acknowledged tried again (`retried`) as ServiceManager.execute does.
  Task<CallResult> send_synced(Command command, CommandPolicy policy, bool retried);
  Task<CallResult> synced_once(const Command& command, const CommandPolicy& policy);
  // An acquire attempt that handles NoSyncedSlavesException as no_sync_undone/no_sync_retried say.
  Task<Attempt> attempt_synced(Waiting& w, int64_t thread, int64_t lease_ms, int64_t wait_ms);
  Task<OpResult> try_lock(int64_t thread, int64_t op, int64_t wait_ms, int64_t lease_ms);
  // The waiting loop's steps, each keeping what outlives it in the thread's Waiting (w).
  Task<Attempt> attempt(Waiting& w, int64_t thread, int64_t lease_ms, int64_t wait_ms);
  static Attempt heard(Waiting& w, Attempt attempt);
  // The thread enters `phase`, a wait; with its interrupt status set, the world interrupts it once
  // the wait is under way. Every wait of the acquire loops goes through here: one that did not
  // would never meet an interrupt whose status was set before it.
  void enter(Waiting& w, Waiting::Phase phase, int64_t thread);
  // Whether the thread left this acquire (interrupted while `got` was on its way): then only what
  // tryAcquireAsync's inner stage does with the answer is done (a grant starts the watchdog, #7272).
  bool left_behind(const Waiting& w, int64_t thread, int64_t lease_ms, const Attempt& got);
  // After a subscription or a message wait: whether an interrupt ended it, the thread's status
  // cleared as the exception that ends it clears it.
  bool woke_interrupted(Waiting& w, int64_t thread);
  void charge(Waiting& w);
  Task<void> give_up(Waiting& w, int64_t thread, int64_t wait_ms);

  // Before a waiter listens: what RedissonOptions::wakeup_lost_between_check_and_listen loses.
  void forget_missed_wakeups(const std::string& channel);
  // The lease a renewal PEXPIREs to, and every third of which it comes.
  int64_t renewal_lease_ms() const;
  void schedule_renewal(int64_t thread);
  void cancel_renewal(int64_t thread);
  void cancel_all_renewal();
  // Whether release() cancels renewal after an unlock that ended in `result`.
  bool unlock_cancels_renewal(const CallResult& result) const;
  Task<void> delete_latch(std::string latch);
  Task<void> renewal_loop(uint64_t generation);

  // Redisson's renewal entry: the threads of this client holding the lock with the watchdog. The
  // entry exists while it is not empty; a lock() that finds it only adds its thread, and relies on
  // the entry's timer, which some versions stop while leaving the entry (StopKeepEntry, NotOnNil).
  RenewalEntry renewal_entry_;
  bool renewing_ = false;  // the entry's renewal timer is running
  uint64_t renewal_generation_ = 0;
  // Each renewal loop under way, by its generation: what it keeps across a suspension (a loop of
  // an older generation ends when it next wakes).
  struct RenewalRound {
    int64_t task = 0;           // the client's task that runs it (Backend::task)
    int64_t thread = -1;        // the thread a renewal on its way is for (-1: none is)
    std::vector<int64_t> asked;  // the threads it asks for
  };
  PerThread<RenewalRound> renewal_loops_;
};

}  // namespace locksim::client
