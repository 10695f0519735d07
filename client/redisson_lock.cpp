#include "client/redisson_lock.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "base/assert.hpp"
#include "model/events.hpp"

namespace locksim::client {

bool parse_watchdog_on_error(const std::string& name, WatchdogOnError& out) {
  for (WatchdogOnError v : {WatchdogOnError::StopForGood, WatchdogOnError::StopKeepEntry, WatchdogOnError::KeepRenewing}) {
    if (to_string(v) == name) {
      out = v;
      return true;
    }
  }
  return false;
}

std::string to_string(WatchdogOnError value) {
  switch (value) {
    case WatchdogOnError::StopForGood: return "stop";
    case WatchdogOnError::StopKeepEntry: return "stop-keep-entry";
    case WatchdogOnError::KeepRenewing: return "keep";
  }
  return "?";
}

RedissonLock::RedissonLock(Backend& backend, std::string name, RedissonOptions options)
    : RedissonLock(backend, name, name, options) {}

RedissonLock::RedissonLock(Backend& backend, std::string name, std::string key, RedissonOptions options)
    : backend_(backend),
      name_(std::move(name)),
      key_(std::move(key)),
      options_(options),
      internal_lease_ms_(options.watchdog_timeout_ms),
      renewal_entry_(options.entry_leak) {}

// Not a coroutine itself: the call's one frame is call_with_retry's.
Task<CallResult> RedissonLock::send(Command command) { return send(std::move(command), options_.commands); }

Task<CallResult> RedissonLock::send(Command command, const CommandPolicy& policy) {
  command.server = options_.server;
  if (synced(command.role, command.server)) {
    // ServiceManager.execute around the unlock and forceUnlock (the same request id each time), and
    // around FairLock's acquireFailed where it is resent (4.7.0); never around a renewal. An acquire's
    // answer is handled by its attempt (attempt_synced).
    const bool retried = command.role == "unlock" || command.role == "force_unlock" ||
                         (command.role == "acquire_failed" && options_.acquire_failed_resent);
    return send_synced(std::move(command), policy, retried);
  }
  return call_with_retry(backend_, std::move(command), policy);
}

Task<CallResult> RedissonLock::send(SharedCommand command) { return send(std::move(command), options_.commands); }

Task<CallResult> RedissonLock::send(SharedCommand command, const CommandPolicy& policy) {
  LS_ASSERT(command->server == options_.server);
  if (synced(command->role, command->server)) return send(Command(*command), policy);
  return call_with_retry(backend_, std::move(command), policy);
}

bool RedissonLock::synced(std::string_view role, int server) const {
  if (!options_.synced_eval || server < 0 || server >= 32 || !(options_.replicated_servers >> server & 1u)) return false;
  return role == "acquire" || role == "try_acquire" || role == "unlock" || role == "force_unlock" || role == "renew" ||
         role == "acquire_failed";
}

Task<CallResult> RedissonLock::send_synced(Command command, CommandPolicy policy, bool retried) {
  for (int attempt = 1;; ++attempt) {
    CallResult result = co_await synced_once(command, policy);
    if (!result.no_synced_replicas || !retried || attempt > options_.commands.retry_attempts) co_return result;
    co_await backend_.sleep(retry_delay_ms(backend_, options_.commands, attempt,
                                           "no synced replicas " + command.role + " " + name_ + " " +
                                               std::to_string(command.thread)));
  }
}

namespace {

// INFO's connected_slaves (0 when the answer has none).
int64_t connected_slaves(const Reply& info) {
  constexpr std::string_view field = "connected_slaves:";
  const size_t at = info.str.find(field);
  if (at == std::string::npos) return 0;
  return std::strtoll(info.str.c_str() + at + field.size(), nullptr, 10);
}

// A plain command sent for `lock_command` (its thread, op and server), on no lock key.
Command plain_command(const Command& lock_command, std::string role, std::vector<std::string> argv) {
  Command plain;
  plain.role = std::move(role);
  plain.argv = std::move(argv);
  plain.thread = lock_command.thread;
  plain.op = lock_command.op;
  plain.server = lock_command.server;
  return plain;
}

}  // namespace

// CommandAsyncService.syncedEval (3.52.0 to 4.7.0) against Redis 7.0.
Task<CallResult> RedissonLock::synced_once(const Command& command, const CommandPolicy& policy) {
  LS_ASSERT(options_.replica_sync != nullptr);
  ReplicaSync& sync = *options_.replica_sync;
  const int server = command.server;
  if (!sync.probed) {
    // The probe is one batch, WAIT 0 0 then WAITAOF 0 0 0. Redis 7.0 answers the second "unknown
    // command", which only strikes WAITAOF off the list: modelled as the WAIT alone, one round trip.
    Command wait_probe = plain_command(command, "wait_probe", {"WAIT", "0", "0"});
    const CallResult probe = co_await call_with_retry(backend_, std::move(wait_probe), options_.commands);
    if (probe.timed_out || probe.connection_lost) co_return probe;
    sync.probed = true;
  }
  auto known = sync.available.find(server);
  if (known == sync.available.end() || known->second < 0) {
    Command info_all = plain_command(command, "info", {"INFO", "ALL"});
    const CallResult info = co_await call_with_retry(backend_, std::move(info_all), options_.commands);
    if (info.timed_out || info.connection_lost || info.reply.is_error()) co_return info;
    sync.available[server] = connected_slaves(info.reply);
  }
  // CommandBatchService.loadScripts: with useScriptCache, a script this client's batches have not
  // loaded on the server yet goes by SCRIPT LOAD first, and the batch sends EVALSHA.
  if (command.script && policy.scripts == ScriptForm::EvalshaLoadEvalsha &&
      !sync.loaded.contains({server, command.script->name})) {
    Command load = plain_command(command, "script_load", {"SCRIPT", "LOAD", command.script->body});
    load.op = 0;
    const CallResult loaded = co_await call_with_retry(backend_, std::move(load), options_.commands);
    if (loaded.timed_out || loaded.connection_lost || loaded.reply.is_error()) co_return loaded;
    sync.loaded.insert({server, command.script->name});
  }
  const int64_t replicas = sync.available[server];
  Command batch = command;
  if (replicas > 0) {
    batch.sync_replicas = replicas;
    batch.sync_timeout_ms = options_.slaves_sync_timeout_ms;
  }
  CallResult result = co_await call_with_retry(backend_, std::move(batch), policy);
  if (result.synced_replicas < 0) co_return result;  // no answer, or an error for the whole batch
  if (result.synced_replicas != replicas) sync.available[server] = -1;
  // checkLockSyncedSlaves (true by default): none acknowledged. A script's error fails the batch first.
  result.no_synced_replicas = options_.check_lock_synced_slaves && replicas > 0 && result.synced_replicas == 0 &&
                              !result.reply.is_error();
  co_return result;
}

Task<void> RedissonLock::undo_acquire(int64_t thread, int64_t op) {
  Command undo = unlock_command(thread, op);
  undo.server = options_.server;
  co_await send_synced(std::move(undo), lock_command_policy(), false);
}

// handleNoSync, then ServiceManager.execute: an acquire no replica acknowledged is undone by an
// unlock of its own (a new request id; not tried again), and the acquire tried again retryAttempts
// times, retryDelay apart; the last one's NoSyncedSlavesException reaches the caller.
Task<RedissonLock::Attempt> RedissonLock::attempt_synced(Waiting& w, int64_t thread, int64_t lease_ms, int64_t wait_ms) {
  for (int tries = 1;; ++tries) {
    Attempt attempt = co_await try_acquire_once(thread, w.op, lease_ms, wait_ms);
    if (!attempt.no_synced) co_return attempt;
    if (no_sync_undone()) co_await undo_acquire(thread, w.op);
    if (!no_sync_retried() || tries > options_.commands.retry_attempts) co_return attempt;
    co_await backend_.sleep(retry_delay_ms(backend_, options_.commands, tries,
                                           "no synced replicas acquire " + name_ + " " + std::to_string(thread)));
  }
}

CommandPolicy RedissonLock::lock_command_policy() const {
  CommandPolicy policy = options_.commands;
  if (!options_.lock_commands_resent) policy.retry_attempts = 0;
  return policy;
}

CommandPolicy RedissonLock::acquire_failed_policy() const {
  CommandPolicy policy = options_.commands;
  if (!options_.acquire_failed_resent) policy.retry_attempts = 0;
  return policy;
}

Command RedissonLock::renewal(const Script& script, std::vector<std::string> keys, std::vector<std::string> fields,
                              int64_t thread) const {
  std::string lock = keys.front();
  fields.insert(fields.begin(), std::to_string(renewal_lease_ms()));
  return Command{.role = "renew",
                 .lock = std::move(lock),
                 .script = &script,
                 .keys = std::move(keys),
                 .argv = std::move(fields),
                 .thread = thread,
                 .op = 0};
}

std::vector<int64_t> RedissonLock::renewing_threads() const { return renewal_entry_.holders(); }

const std::string& RedissonLock::holder_id(int64_t thread) const {
  auto it = holder_ids_.find(thread);
  if (it == holder_ids_.end()) it = holder_ids_.emplace(thread, backend_.client_id() + ":" + std::to_string(thread)).first;
  return it->second;
}

RedissonLock::Attempt RedissonLock::to_attempt(const CallResult& result) const {
  if (result.timed_out) return {Attempt::Kind::Unknown, 0, "RedisResponseTimeoutException"};
  if (result.no_synced_replicas) return {.kind = Attempt::Kind::Error, .why = kNoSyncedSlaves, .no_synced = true};
  const Reply& reply = result.reply;
  if (reply.kind == Reply::Kind::Nil) return {Attempt::Kind::Acquired, 0, {}};
  if (reply.kind == Reply::Kind::Integer) return {Attempt::Kind::Busy, reply.integer, {}};
  // RedissonNonReentrantLock.translate: the script's error, anywhere in the message, is the re-entry.
  if (options_.non_reentrant && reply.is_error() && reply.str.find(kReentryError) != std::string::npos)
    return {Attempt::Kind::Error, 0, "IllegalMonitorStateException: lock '" + name_ + "' is non-reentrant and is already held by this thread"};
  return {Attempt::Kind::Error, 0, "unexpected reply " + locksim::describe(reply)};
}

Task<OpResult> RedissonLock::acquire(int64_t thread, int64_t op, AcquireOptions options) {
  if (options.wait_ms < 0) return lock_forever(thread, op, options.lease_ms);
  return try_lock(thread, op, options.wait_ms, options.lease_ms);
}

// One acquire attempt of a waiting thread, counted, and its ttl kept, in the thread's Waiting. The
// attempt's frame is try_acquire_once's: this adds none.
Task<RedissonLock::Attempt> RedissonLock::attempt(Waiting& w, int64_t thread, int64_t lease_ms, int64_t wait_ms) {
  enter(w, Waiting::Phase::Acquiring, thread);
  ++w.attempts;
  if (synced("acquire", options_.server)) return attempt_synced(w, thread, lease_ms, wait_ms);
  return try_acquire_once(thread, w.op, lease_ms, wait_ms);
}

void RedissonLock::enter(Waiting& w, Waiting::Phase phase, int64_t thread) {
  w.phase = phase;
  if (backend_.interrupted(thread)) backend_.interrupt_when_waiting(thread);
}

bool RedissonLock::left_behind(const Waiting& w, int64_t thread, int64_t lease_ms, const Attempt& got) {
  if (!w.detached) return false;
  if (got.kind == Attempt::Kind::Acquired) after_acquired(thread, lease_ms);
  return true;
}

Interruption RedissonLock::interrupt(int64_t thread) {
  Waiting* w = waiting_.find(thread);
  if (!w) return {};
  const bool lock_call = w->wait_ms < 0;
  switch (w->phase) {
    case Waiting::Phase::Acquiring:
    case Waiting::Phase::Leaving: {
      // CommandAsyncService.get(): the caller's future is cancelled and RedisException thrown, the
      // status set again; the request goes on, and its inner stages still act on the answer. An
      // attempt may have taken the lock; acquireFailed's tryLock had failed already.
      const bool acquiring = w->phase == Waiting::Phase::Acquiring;
      // After the first attempt the thread is subscribed: lock()'s and tryLock()'s finally.
      if (acquiring && w->attempts > 1) backend_.unsubscribe(wake_channel(thread), options_.server);
      w->detached = true;
      waiting_.detach(thread);
      return {Interruption::Kind::Detached, acquiring ? OpResult::unknown(kInterruptedGet) : OpResult::fail(kInterruptedGet)};
    }
    case Waiting::Phase::Subscribing:
    case Waiting::Phase::Listening:
    case Waiting::Phase::Relistening: {
      // lock() waits for a message with no ttl uninterruptibly (acquireUninterruptibly).
      if (w->phase == Waiting::Phase::Listening && lock_call && w->ttl_ms < 0) return {};
      w->interrupted = true;
      if (!backend_.end_wait(thread)) {  // its wait has ended already: the status waits for the next
        w->interrupted = false;
        return {};
      }
      return {Interruption::Kind::Woken, {}};
    }
    case Waiting::Phase::Sleeping:
    case Waiting::Phase::Finishing:
      return {};
  }
  return {};
}

bool RedissonLock::woke_interrupted(Waiting& w, int64_t thread) {
  if (!w.interrupted) return false;
  w.interrupted = false;
  // lock()'s subscription is a get(): the status is set again. tryLock()'s timed get() and every
  // latch wait throw InterruptedException, which clears it.
  if (w.phase != Waiting::Phase::Subscribing || w.wait_ms >= 0) backend_.clear_interrupt(thread);
  return true;
}

RedissonLock::Attempt RedissonLock::heard(Waiting& w, Attempt attempt) {
  w.ttl_ms = attempt.kind == Attempt::Kind::Busy ? attempt.ttl : -1;
  return attempt;
}

// tryLock's clock: what has passed since `w.since_ms` is taken off what is left of its wait.
void RedissonLock::charge(Waiting& w) {
  const int64_t now = backend_.now_ms();
  w.left_ms -= now - w.since_ms;
  w.since_ms = now;
}

// lock(): ttl >= 0 waits on the channel for at most ttl; a negative ttl waits for a message alone.
Task<OpResult> RedissonLock::lock_forever(int64_t thread, int64_t op, int64_t lease_ms) {
  const WaitingThreads::Entry w =
      waiting_.begin(thread, {.op = op, .left_ms = -1, .since_ms = backend_.now_ms(), .lease_ms = lease_ms});
  const Attempt first = heard(*w, co_await attempt(*w, thread, lease_ms, -1));
  if (left_behind(*w, thread, lease_ms, first)) co_return OpResult::unknown(kInterruptedGet);
  if (first.kind == Attempt::Kind::Acquired) co_return after_acquired(*w, thread, lease_ms, first);
  if (first.kind == Attempt::Kind::Error) co_return OpResult::fail(first.why);
  if (first.kind == Attempt::Kind::Unknown) co_return OpResult::unknown(first.why);
  const std::string channel = wake_channel(thread);
  enter(*w, Waiting::Phase::Subscribing, thread);
  if (!co_await backend_.subscribe(channel, options_.subscribe_timeout_ms, options_.server)) {
    backend_.unsubscribe(channel, options_.server);
    if (woke_interrupted(*w, thread)) co_return OpResult::fail(kInterruptedGet);
    co_return OpResult::unknown("subscription to " + channel + " timed out");
  }
  Attempt last;
  for (;;) {
    LS_ASSERT(w->attempts < 10'000'000);
    last = heard(*w, co_await attempt(*w, thread, lease_ms, -1));
    if (left_behind(*w, thread, lease_ms, last)) co_return OpResult::unknown(kInterruptedGet);
    if (last.kind != Attempt::Kind::Busy) break;
    forget_missed_wakeups(channel);
    enter(*w, Waiting::Phase::Listening, thread);
    co_await backend_.wait_message(channel, w->ttl_ms >= 0 ? w->ttl_ms : -1, options_.server);
    if (!woke_interrupted(*w, thread)) continue;
    // lock() is not lockInterruptibly(): it waits its ttl again, and an interrupt in that wait
    // escapes lock() as IllegalStateException.
    enter(*w, Waiting::Phase::Relistening, thread);
    co_await backend_.wait_message(channel, w->ttl_ms, options_.server);
    if (woke_interrupted(*w, thread)) {
      backend_.unsubscribe(channel, options_.server);
      co_return OpResult::fail("IllegalStateException: " + std::string(kInterrupted));
    }
  }
  backend_.unsubscribe(channel, options_.server);
  if (last.kind == Attempt::Kind::Acquired) co_return after_acquired(*w, thread, lease_ms, last);
  if (last.kind == Attempt::Kind::Error) co_return OpResult::fail(last.why);
  co_return OpResult::unknown(last.why);
}

// tryLock(wait, lease), step by step as RedissonLock.tryLock: the remaining time shrinks by the
// client clock's elapsed time after every step, and each give-up runs acquireFailed. An attempt that
// ends in an exception (an error reply; a response timeout, but inside the loop from 4.7.0) reaches
// the caller without acquireFailed.
Task<OpResult> RedissonLock::try_lock(int64_t thread, int64_t op, int64_t wait_ms, int64_t lease_ms) {
  const WaitingThreads::Entry w = waiting_.begin(
      thread, {.op = op, .left_ms = wait_ms, .since_ms = backend_.now_ms(), .wait_ms = wait_ms, .lease_ms = lease_ms});
  const std::string not_within = "not acquired within " + std::to_string(wait_ms) + " ms";
  const Attempt first = heard(*w, co_await attempt(*w, thread, lease_ms, wait_ms));
  if (left_behind(*w, thread, lease_ms, first)) co_return OpResult::unknown(kInterruptedGet);
  if (first.kind == Attempt::Kind::Acquired) co_return after_acquired(*w, thread, lease_ms, first);
  if (first.kind == Attempt::Kind::Error) co_return OpResult::fail(first.why);
  if (first.kind == Attempt::Kind::Unknown) co_return OpResult::unknown(first.why);
  charge(*w);
  if (w->left_ms <= 0) {
    co_await give_up(*w, thread, wait_ms);
    co_return OpResult::fail(not_within);
  }
  const std::string channel = wake_channel(thread);
  enter(*w, Waiting::Phase::Subscribing, thread);
  const bool subscribed = co_await backend_.subscribe(channel, w->left_ms, options_.server);
  if (woke_interrupted(*w, thread)) {
    // Redisson leaves the subscription to complete on its own; nobody waits on it either way.
    backend_.unsubscribe(channel, options_.server);
    co_return OpResult::fail(kInterrupted);
  }
  charge(*w);
  if (!subscribed || w->left_ms <= 0) {
    backend_.unsubscribe(channel, options_.server);
    co_await give_up(*w, thread, wait_ms);
    co_return OpResult::fail(not_within);
  }
  OpResult result = OpResult::fail(not_within);
  for (;;) {
    LS_ASSERT(w->attempts < 10'000'000);
    const Attempt next = heard(*w, co_await attempt(*w, thread, lease_ms, wait_ms));
    if (left_behind(*w, thread, lease_ms, next)) co_return OpResult::unknown(kInterruptedGet);
    if (next.kind == Attempt::Kind::Acquired) {
      backend_.unsubscribe(channel, options_.server);
      co_return after_acquired(*w, thread, lease_ms, next);
    }
    if (next.kind == Attempt::Kind::Error) {
      backend_.unsubscribe(channel, options_.server);
      co_return OpResult::fail(next.why);
    }
    if (next.kind == Attempt::Kind::Unknown) {
      if (options_.loop_timeout_gives_up) {  // 4.7.0: logged, acquireFailed, then false
        result = OpResult::fail("not acquired: " + next.why);
        break;
      }
      backend_.unsubscribe(channel, options_.server);
      co_return OpResult::unknown(next.why);
    }
    charge(*w);
    if (w->left_ms <= 0) break;
    forget_missed_wakeups(channel);
    enter(*w, Waiting::Phase::Listening, thread);
    co_await backend_.wait_message(channel, w->ttl_ms >= 0 && w->ttl_ms < w->left_ms ? w->ttl_ms : w->left_ms,
                                   options_.server);
    if (woke_interrupted(*w, thread)) {  // the latch's InterruptedException, through the finally
      backend_.unsubscribe(channel, options_.server);
      co_return OpResult::fail(kInterrupted);
    }
    charge(*w);
    if (w->left_ms <= 0) break;
  }
  backend_.unsubscribe(channel, options_.server);
  co_await give_up(*w, thread, wait_ms);
  co_return result;
}

Task<void> RedissonLock::give_up(Waiting& w, int64_t thread, int64_t wait_ms) {
  enter(w, Waiting::Phase::Leaving, thread);
  co_await acquire_failed(thread, w.op, wait_ms);
}

int64_t RedissonLock::acquire_lease_ms(int64_t lease_ms) const {
  if (lease_ms >= 0) return lease_ms;
  // #4818 (3.15.0 to 3.19.1): the instance sends whatever internalLockLeaseTime an earlier
  // lock(lease) left there.
  if (options_.lease_memory == LeaseMemory::StaleExplicit) return internal_lease_ms_;
  return options_.watchdog_timeout_ms;
}

int64_t RedissonLock::renewal_lease_ms() const {
  // #4818: the renewal timer of those versions renews with lockWatchdogTimeout, not with the
  // (stale) lease the acquire used; so does the batched LockTask of 3.44.0 on.
  if (options_.lease_memory == LeaseMemory::StaleExplicit || options_.renewal_at_watchdog_timeout)
    return options_.watchdog_timeout_ms;
  return internal_lease_ms_;
}

// #5761 (up to 3.27.x): the waiter checked its latch before the attempt and adds its listener
// after it, so an unlock message that came in between released a permit nobody looks at again.
void RedissonLock::forget_missed_wakeups(const std::string& channel) {
  if (options_.wakeup_lost_between_check_and_listen) backend_.forget_messages(channel, options_.server);
}

// tryAcquireAsync's tail: an explicit lease becomes internalLockLeaseTime; no lease starts the watchdog.
OpResult RedissonLock::after_acquired(Waiting& w, int64_t thread, int64_t lease_ms, const Attempt& granted) {
  w.phase = Waiting::Phase::Finishing;
  OpResult result = after_acquired(thread, lease_ms);
  if (granted.token != 0) {
    tokens_[thread] = granted.token;
    result.value = granted.token;
  }
  return result;
}

int64_t RedissonLock::token(int64_t thread) const {
  const auto it = tokens_.find(thread);
  return it == tokens_.end() ? 0 : it->second;
}

OpResult RedissonLock::after_acquired(int64_t thread, int64_t lease_ms) {
  if (lease_ms >= 0) {
    internal_lease_ms_ = lease_ms;
  } else {
    if (options_.lease_memory != LeaseMemory::StaleExplicit) internal_lease_ms_ = options_.watchdog_timeout_ms;
    schedule_renewal(thread);
  }
  return OpResult::ok();
}

Task<OpResult> RedissonLock::release(int64_t thread, int64_t op) {
  Command command = unlock_command(thread, op);
  std::optional<std::string> latch;
  for (const std::string& key : command.keys)
    if (key.starts_with(kUnlockLatchPrefix)) latch = key;
  const CallResult result = co_await send(std::move(command), lock_command_policy());
  // The latch has done its job once an answer came back; Redisson deletes it without waiting (not
  // after NoSyncedSlavesException: the latch is what answers its retry).
  if (options_.unlock_latch && latch && !result.timed_out && !result.no_synced_replicas) {
    std::string doomed = *latch;
    if (options_.latch_delete_names_client) doomed = doomed.substr(0, doomed.rfind(':') + 1) + backend_.client_id();
    backend_.spawn(delete_latch(std::move(doomed)));
  }
  if (unlock_cancels_renewal(result)) cancel_renewal(thread);
  // #5623 (3.19.2 to 3.27.1): every unlock, even one that only decrements, forgets the explicit
  // lease, so the next partial unlock PEXPIREs the remaining hold to the watchdog timeout.
  if (options_.lease_memory == LeaseMemory::ResetOnUnlock) internal_lease_ms_ = options_.watchdog_timeout_ms;
  if (result.timed_out) co_return OpResult::unknown("RedisResponseTimeoutException");
  if (result.no_synced_replicas) co_return OpResult::fail(kNoSyncedSlaves);
  const Reply& reply = result.reply;
  if (reply.kind == Reply::Kind::Nil) {
    co_return OpResult::fail("IllegalMonitorStateException: attempt to unlock lock, not locked by current thread");
  }
  if (reply.kind != Reply::Kind::Integer) co_return OpResult::fail("unexpected reply " + locksim::describe(reply));
  co_return OpResult::ok(reply.integer);
}

bool RedissonLock::unlock_cancels_renewal(const CallResult& result) const {
  switch (options_.unlock_cancels_renewal) {
    case UnlockCancelsRenewal::Always:
      return true;
    case UnlockCancelsRenewal::OnlyWhenAnswered:
      // #1966: the cancel sat on the success path; a timeout or an error left the timer renewing a
      // lock its holder had given up.
      return !result.timed_out && !result.reply.is_error();
    case UnlockCancelsRenewal::NotOnNil:
      // #2515: a nil answer (the lock was gone) returned IllegalMonitorStateException before the
      // cancel, so the entry stays and the next lock() of this name on this client adds itself to
      // it instead of starting a timer.
      return result.timed_out || result.reply.kind != Reply::Kind::Nil;
  }
  return true;
}

RedissonLock::UnlockLatch RedissonLock::new_unlock_latch(const std::string& braced_name) {
  // (timeout + retryInterval) x retryAttempts; from 3.48.0 the interval is one draw of
  // retryDelay(retryAttempts).
  const CommandPolicy& p = options_.commands;
  const int64_t latch_ms =
      std::max<int64_t>((p.timeout_ms + retry_delay_ms(backend_, p, p.retry_attempts, "unlock latch " + key_)) * p.retry_attempts, 1);
  return {std::string(kUnlockLatchPrefix) + braced_name + ":" + backend_.random_token("unlock latch " + key_), latch_ms};
}

void RedissonLock::add_unlock_latch(Command& command, const std::string& braced_name) {
  const UnlockLatch latch = new_unlock_latch(braced_name);
  command.keys.push_back(latch.key);
  command.argv.push_back("publish");
  command.argv.push_back(std::to_string(latch.lifetime_ms));
}

Task<void> RedissonLock::delete_latch(std::string latch) {
  Command command{"unlock_latch", key_, nullptr, {}, {"DEL", std::move(latch)}, 0, 0, options_.server};
  co_await backend_.call(std::make_shared<const Command>(std::move(command)), options_.commands.timeout_ms, options_.commands.scripts);
}

OpResult RedissonLock::integer_result(const CallResult& result) {
  if (result.timed_out) return OpResult::unknown("RedisResponseTimeoutException");
  if (result.reply.kind != Reply::Kind::Integer) return OpResult::fail("unexpected reply " + locksim::describe(result.reply));
  return OpResult::ok(result.reply.integer);
}

Task<OpResult> RedissonLock::query(std::string role, std::vector<std::string> argv, int64_t thread, int64_t op) {
  Command command{.role = std::move(role),
                  .lock = key_,
                  .argv = std::move(argv),
                  .thread = thread,
                  .op = op};
  OpResult result = integer_result(co_await send(std::move(command)));
  if (result.outcome == OpResult::Outcome::Ok) result.value = result.value > 0 ? 1 : 0;
  co_return result;
}

Task<OpResult> RedissonLock::expire(int64_t lease_ms, int64_t thread, int64_t op) {
  std::vector<std::string> argv{"PEXPIRE", key_, std::to_string(lease_ms)};
  co_return co_await query("expire", std::move(argv), thread, op);
}

// isLocked(): EXISTS on the lock hash.
Task<OpResult> RedissonLock::is_locked(int64_t op) {
  std::vector<std::string> argv{"EXISTS", key_};
  co_return co_await query("is_locked", std::move(argv), 0, op);
}

// isHeldByCurrentThread(): HEXISTS of this thread's field.
Task<OpResult> RedissonLock::is_held(int64_t thread, int64_t op) {
  std::vector<std::string> argv{"HEXISTS", key_, holder_id(thread)};
  co_return co_await query("is_held", std::move(argv), thread, op);
}

void RedissonLock::schedule_renewal(int64_t thread) {
  const bool entry_exists = !renewal_entry_.empty();
  renewal_entry_.add(thread);
  // An existing entry only gains the thread: its timer, if one still runs, renews for it.
  if (entry_exists) return;
  renewing_ = true;
  backend_.spawn(renewal_loop(++renewal_generation_));
}

void RedissonLock::cancel_renewal(int64_t thread) {
  renewal_entry_.remove(thread);
  if (renewal_entry_.empty()) renewing_ = false;
}

void RedissonLock::cancel_all_renewal() {
  renewal_entry_.clear();
  renewing_ = false;
}

namespace {

// What a renewal was answered for this lock: the per-lock scripts' 1 or 0, or the batched ones'
// (3.44.0 on) one-element array, ContainsDecoder's "still held" for the one lock of the batch.
// Anything else (an error, a Lua error included) is no answer.
std::optional<int64_t> renewal_answer(const Reply& reply) {
  if (reply.kind == Reply::Kind::Integer) return reply.integer;
  if (reply.kind == Reply::Kind::Array && reply.elements.size() == 1 && reply.elements[0].kind == Reply::Kind::Integer)
    return reply.elements[0].integer;
  return std::nullopt;
}

}  // namespace

// renewExpiration: every internalLockLeaseTime/3, renew for the entry's first thread.
Task<void> RedissonLock::renewal_loop(uint64_t generation) {
  const auto loop = renewal_loops_.begin(static_cast<int64_t>(generation), {.task = backend_.task(), .thread = -1, .asked = {}});
  for (int64_t round = 0;; ++round) {
    LS_ASSERT(round < 100'000'000);
    loop->thread = -1;
    loop->asked.clear();
    co_await backend_.sleep(renewal_lease_ms() / 3);
    if (!renewing_ || generation != renewal_generation_ || renewal_entry_.empty()) co_return;
    const int64_t thread = renewal_entry_.first();
    // #6144, PR #7251: a stale thread first in line has no lock name any more; the batch sends
    // nothing for this lock, now or at any later round.
    if (!renewal_entry_.holds(thread) && renewal_entry_.leak() == EntryLeak::NullName) continue;
    loop->thread = thread;
    loop->asked = renewal_asks_for(thread);  // snapshot when sent, as Redisson's
    const std::vector<int64_t>& asked = loop->asked;
    const CallResult result = co_await send(renew_command(thread));
    if (!renewing_ || generation != renewal_generation_) co_return;
    // A renewal no replica acknowledged fails as NoSyncedSlavesException (syncedEval, not retried).
    const std::optional<int64_t> held =
        result.timed_out || result.no_synced_replicas ? std::nullopt : renewal_answer(result.reply);
    const bool answered = held.has_value();
    backend_.record(model::renew_event(thread, name_, answered ? *held : -1,
                                       answered                    ? ""
                                       : result.timed_out          ? "timeout"
                                       : result.no_synced_replicas ? kNoSyncedSlaves
                                                                   : locksim::describe(result.reply)));
    if (!answered) {
      switch (options_.watchdog_on_error) {
        case WatchdogOnError::KeepRenewing:
          continue;
        case WatchdogOnError::StopForGood:
          cancel_all_renewal();
          co_return;
        case WatchdogOnError::StopKeepEntry:
          // Up to 3.13.x: the timer ends but the entry stays, so a later lock() of this name on this
          // client finds it and starts no timer of its own.
          renewing_ = false;
          co_return;
      }
    }
    // #2037 (3.10.5, 3.10.6): the reply was not looked at; a lock that is gone is "renewed" (the
    // script answers 0) every period until an unlock removes the entry.
    if (*held != 1 && !options_.renewal_ignores_not_held) {
      if (!options_.not_held_drops_thread) {
        cancel_all_renewal();
        co_return;
      }
      for (const int64_t t : asked) renewal_entry_.remove(t);
      if (renewal_entry_.empty()) {
        renewing_ = false;
        co_return;
      }
    }
  }
}

bool RedissonLock::describe_members(StateWriter& out, int64_t client_now_ms) const {
  // The synced eval keeps what it learnt of the replicas, and its retries' counts, in frames and
  // shared options: not written yet, so a lock that uses it cannot say its whole state.
  if (options_.synced_eval && options_.replicated_servers != 0) return false;
  // An interrupted operation's frame goes on under its thread's task, as the thread's next one does:
  // what the two keep with the backend is not told apart.
  for (const auto& [thread, w] : waiting_.threads())
    if (w.detached) return false;
  out.field("lock", name_).field("internal_lease", internal_lease_ms_);
  for (const auto& [thread, token] : tokens_) out.field("token_thread", thread).field("token", token);
  renewal_entry_.describe(out);
  out.flag("renewing", renewing_);
  for (const auto& [generation, loop] : renewal_loops_.threads()) {
    out.begin("renewal_loop");
    describe_task(out, "task", loop.task);
    out.flag("current", static_cast<uint64_t>(generation) == renewal_generation_);
    out.field("thread", loop.thread);
    for (const int64_t t : loop.asked) out.field("asks", t);
    out.end();
  }
  describe_waiting(out, client_now_ms);
  return true;
}

}  // namespace locksim::client
