#include "client/fair_lock.hpp"

#include <stdexcept>

namespace locksim::client {
namespace {

const char* acquire_script(FairVariant v, bool non_reentrant) {
  if (non_reentrant) return "nonreentrant_fair_acquire";
  switch (v) {
    case FairVariant::Head: return "fair_acquire_head";
    case FairVariant::Tail: return "fair_acquire_tail";
    case FairVariant::Tail3_31: return "fair_acquire_tail_3_31";
    case FairVariant::Tail3_32: return "fair_acquire_tail_3_32";
    case FairVariant::Tail3_45: return "fair_acquire_tail_3_45";
  }
  return "fair_acquire_tail";
}

// tryLock() with no wait: the stale loop became nil-safe in 3.31.0, as acquire's did.
const char* tryacquire_script(FairVariant v, bool non_reentrant) {
  if (non_reentrant) return "nonreentrant_fair_tryacquire";
  return v == FairVariant::Head || v == FairVariant::Tail ? "fair_tryacquire_tail" : "fair_tryacquire_tail_3_31";
}

}  // namespace

bool parse_fair_variant(const std::string& name, FairVariant& out) {
  for (FairVariant v : {FairVariant::Head, FairVariant::Tail, FairVariant::Tail3_31, FairVariant::Tail3_32,
                        FairVariant::Tail3_45}) {
    if (to_string(v) == name) {
      out = v;
      return true;
    }
  }
  return false;
}

std::string to_string(FairVariant variant) {
  switch (variant) {
    case FairVariant::Head: return "head";
    case FairVariant::Tail: return "tail";
    case FairVariant::Tail3_31: return "tail-3.31";
    case FairVariant::Tail3_32: return "tail-3.32";
    case FairVariant::Tail3_45: return "tail-3.45";
  }
  return "?";
}

FairLock::FairLock(Backend& backend, ScriptCatalog& scripts, std::string name, RedissonOptions options,
                   FairOptions fair)
    : RedissonLock(backend, std::move(name), options),
      fair_(fair),
      acquire_(scripts.get(acquire_script(fair.variant, options.non_reentrant))),
      acquire_failed_(scripts.get(fair.variant == FairVariant::Head ? "fair_acquire_failed_head"
                                                                     : "fair_acquire_failed_tail")),
      tryacquire_(scripts.get(tryacquire_script(fair.variant, options.non_reentrant))),
      unlock_(scripts.get("fair_unlock")),
      renew_(scripts.get("rlock_renew")),
      force_unlock_(scripts.get("fair_force_unlock")) {
  if (fair_.thread_wait_ms < 0) throw std::invalid_argument("threadWaitTime must not be negative");
  if (fair_.zero_wait_uses_tryacquire && fair_.variant == FairVariant::Head)
    throw std::invalid_argument("the tryacquire script is modelled for the tail eras only");
  // Its scripts are 4.4.0's: the tail-3.45 era's with the re-entry refused.
  if (options.non_reentrant && fair_.variant != FairVariant::Tail3_45)
    throw std::invalid_argument("the non-reentrant FairLock runs Redisson 4.4.0's scripts (fair_variant tail-3.45), not " +
                                to_string(fair_.variant) + "'s");
}

int64_t FairLock::wait_for(int64_t wait_ms) const {
  return fair_.try_wait_replaces_thread_wait && wait_ms > 0 ? wait_ms : fair_.thread_wait_ms;
}

Task<OpResult> FairLock::acquire(int64_t thread, int64_t op, AcquireOptions options) {
  if (fair_.zero_wait_uses_tryacquire && options.wait_ms == 0) return try_acquire_no_wait(thread, op, options.lease_ms);
  return RedissonLock::acquire(thread, op, options);
}

// EVAL_LONG: ARGV = lease, holder, wait (head era: now + wait), now; `now` is this client's clock.
Task<RedissonLock::Attempt> FairLock::try_acquire_once(int64_t thread, int64_t op, int64_t lease_ms, int64_t wait_ms) {
  const int64_t now = backend_.now_ms();
  const int64_t wait = wait_for(wait_ms);
  const int64_t third = fair_.variant == FairVariant::Head ? now + wait : wait;
  Command command{.role = "acquire",
                  .lock = name_,
                  .script = &acquire_,
                  .keys = {name_, queue_key(), timeout_key()},
                  .argv = {std::to_string(acquire_lease_ms(lease_ms)), holder_id(thread),
                           std::to_string(third), std::to_string(now)},
                  .thread = thread,
                  .op = op};
  if (options_.non_reentrant) command.argv.push_back(kReentryError);
  command.queue = queue_key();
  const CallResult result = co_await send(std::move(command), lock_command_policy());
  co_return to_attempt(result);
}

// tryLock() with no arguments: one EVAL_NULL_BOOLEAN, never queued, no acquireFailed.
Task<OpResult> FairLock::try_acquire_no_wait(int64_t thread, int64_t op, int64_t lease_ms) {
  const int64_t now = backend_.now_ms();
  const WaitingThreads::Entry w =
      waiting_.begin(thread, {.op = op, .left_ms = 0, .since_ms = now, .wait_ms = 0, .lease_ms = lease_ms});
  w->attempts = 1;
  Command command{.role = "try_acquire",
                  .lock = name_,
                  .script = &tryacquire_,
                  .keys = {name_, queue_key(), timeout_key()},
                  // now, then the wait: the reverse of acquire's order, as Redisson sends them
                  .argv = {std::to_string(acquire_lease_ms(lease_ms)), holder_id(thread), std::to_string(now),
                           std::to_string(fair_.thread_wait_ms)},
                  .thread = thread,
                  .op = op};
  if (options_.non_reentrant) command.argv.push_back(kReentryError);
  command.queue = queue_key();
  const Attempt attempt = to_attempt(co_await send(std::move(command), lock_command_policy()));
  switch (attempt.kind) {
    case Attempt::Kind::Acquired: co_return after_acquired(*w, thread, lease_ms, attempt);
    case Attempt::Kind::Busy: co_return OpResult::fail("not acquired (tryLock())");
    case Attempt::Kind::Unknown: co_return OpResult::unknown(attempt.why);
    case Attempt::Kind::Error: break;
  }
  co_return OpResult::fail(attempt.why);
}

// acquireFailed: KEYS = queue, timeouts; ARGV = holder, wait. Resent after a timeout up to 3.36.x and
// from 4.7.0 (PR #7223); sent once in between (RedissonOptions::acquire_failed_resent).
Task<void> FairLock::acquire_failed(int64_t thread, int64_t op, int64_t wait_ms) {
  Command command{.role = "acquire_failed",
                  .lock = name_,
                  .script = &acquire_failed_,
                  .keys = {queue_key(), timeout_key()},
                  .argv = {holder_id(thread), std::to_string(wait_for(wait_ms))},
                  .thread = thread,
                  .op = op};
  command.queue = queue_key();
  co_await send(std::move(command), acquire_failed_policy());
}

Command FairLock::unlock_command(int64_t thread, int64_t op) {
  Command command{
      .role = "unlock",
      .lock = name_,
      .script = &unlock_,
      .keys = {name_, queue_key(), timeout_key(), channel_prefix()},
      .argv = {"0", std::to_string(internal_lease_ms_), holder_id(thread), std::to_string(backend_.now_ms())},
      .thread = thread,
      .op = op};
  command.queue = queue_key();
  return command;
}

Command FairLock::renew_command(int64_t thread) { return renewal(renew_, {name_}, {holder_id(thread)}, thread); }

Task<OpResult> FairLock::force_release(int64_t op) {
  Command command{.role = "force_unlock",
                  .lock = name_,
                  .script = &force_unlock_,
                  .keys = {name_, queue_key(), timeout_key(), channel_prefix()},
                  .argv = {"0", std::to_string(backend_.now_ms())},
                  .thread = 0,
                  .op = op};
  command.queue = queue_key();
  co_return integer_result(co_await send(std::move(command)));
}

bool FairLock::describe(StateWriter& out, int64_t client_now_ms) const {
  if (!describe_members(out, client_now_ms)) return false;
  return true;
}

}  // namespace locksim::client
