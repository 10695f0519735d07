#include "client/fenced_lock.hpp"

namespace locksim::client {

FencedLock::FencedLock(Backend& backend, ScriptCatalog& scripts, std::string name, RedissonOptions options,
                       RLockScripts script_names)
    : RLock(backend, scripts, std::move(name), options, std::move(script_names)) {}

Task<OpResult> FencedLock::acquire(int64_t thread, int64_t op, AcquireOptions options) {
  if (options.wait_ms < 0) options.lease_ms = -1;
  return RedissonLock::acquire(thread, op, options);
}

// EVAL_LONG_LIST: {-1, token} when granted, {pttl, -1} when not. As tryAcquireAsync reads it, a
// first element of -1 is a grant whatever the second (a key without an expiry answers {-1, -1}).
Task<RedissonLock::Attempt> FencedLock::try_acquire_once(int64_t thread, int64_t op, int64_t lease_ms, int64_t) {
  Command command{.role = "acquire",
                  .lock = name_,
                  .script = &acquire_script(),
                  .keys = {name_, token_key()},
                  .argv = {std::to_string(acquire_lease_ms(lease_ms)), holder_id(thread)},
                  .thread = thread,
                  .op = op};
  const CallResult result = co_await send(std::move(command), lock_command_policy());
  if (result.timed_out) co_return to_attempt(result);
  const Reply& reply = result.reply;
  if (reply.kind != Reply::Kind::Array || reply.elements.size() != 2 || reply.elements[0].kind != Reply::Kind::Integer ||
      reply.elements[1].kind != Reply::Kind::Integer)
    co_return to_attempt(result);  // an error, or what no version answers: "unexpected reply"
  const int64_t ttl = reply.elements[0].integer;
  if (ttl != -1) co_return Attempt{.kind = Attempt::Kind::Busy, .ttl = ttl, .why = {}, .token = 0};
  co_return Attempt{.kind = Attempt::Kind::Acquired, .ttl = 0, .why = {}, .token = reply.elements[1].integer};
}

}  // namespace locksim::client
