#include "client/rlock.hpp"

#include <algorithm>

#include "base/pooled.hpp"

namespace locksim::client {
namespace {

// The publish command 3.22.0 on passes as an ARGV (#5047); "spublish" needs sharded pub/sub.
const char* const kPublish = "publish";

}  // namespace

RLock::RLock(Backend& backend, ScriptCatalog& scripts, std::string name, RedissonOptions options,
             RLockScripts script_names)
    : RedissonLock(backend, std::move(name), options),
      channel_("redisson_lock__channel:{" + name_ + "}"),
      acquire_(scripts.get(options.non_reentrant ? "nonreentrant_acquire" : script_names.acquire)),
      unlock_(scripts.get(options.unlock_latch ? script_names.unlock_latch : script_names.unlock)),
      renew_(scripts.get(script_names.renew)),
      force_unlock_(scripts.get(script_names.force_unlock)),
      publish_as_argv_(script_names.publish_as_argv) {}

Task<RedissonLock::Attempt> RLock::try_acquire_once(int64_t thread, int64_t op, int64_t lease_ms, int64_t) {
  const CallResult result = co_await send(acquire_command(thread, op, acquire_lease_ms(lease_ms)), lock_command_policy());
  co_return to_attempt(result);
}

// Every attempt of one operation sends the same words (a lock() waiter tries again after each
// wake-up): built once per operation and lease, and shared as a request is.
SharedCommand RLock::acquire_command(int64_t thread, int64_t op, int64_t lease_ms) {
  BuiltAcquire& built = acquires_[thread];
  if (built.command && built.op == op && built.lease_ms == lease_ms) return built.command;
  Command command{.role = "acquire",
                  .lock = name_,
                  .script = &acquire_,
                  .keys = {name_},
                  .argv = {std::to_string(lease_ms), holder_id(thread)},
                  .thread = thread,
                  .op = op,
                  .server = options_.server};
  if (options_.non_reentrant) command.argv.push_back(kReentryError);
  built = {op, lease_ms, pooled<const Command>(std::move(command))};
  return built.command;
}

Command RLock::unlock_command(int64_t thread, int64_t op) {
  Command command{.role = "unlock",
                  .lock = name_,
                  .script = &unlock_,
                  .keys = {name_, channel()},
                  .argv = {"0", std::to_string(internal_lease_ms_), holder_id(thread)},
                  .thread = thread,
                  .op = op};
  if (options_.unlock_latch) {
    add_unlock_latch(command, "{" + name_ + "}");
  } else if (publish_as_argv_) {
    command.argv.push_back(kPublish);
  }
  return command;
}

Command RLock::renew_command(int64_t thread) { return renewal(renew_, {name_}, {holder_id(thread)}, thread); }

Task<OpResult> RLock::force_release(int64_t op) {
  Command command{.role = "force_unlock",
                  .lock = name_,
                  .script = &force_unlock_,
                  .keys = {name_, channel()},
                  .argv = {"0"},
                  .thread = 0,
                  .op = op};
  if (publish_as_argv_) command.argv.push_back(kPublish);
  co_return integer_result(co_await send(std::move(command)));
}

bool RLock::describe(StateWriter& out, int64_t client_now_ms) const {
  if (!describe_members(out, client_now_ms)) return false;
  for (const auto& [thread, built] : acquires_)
    out.field("acquire_thread", thread).id("acquire_op", "op", built.op).field("acquire_lease", built.lease_ms);
  return true;
}

}  // namespace locksim::client
