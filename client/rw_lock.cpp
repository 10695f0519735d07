#include "client/rw_lock.hpp"

namespace locksim::client {
namespace {

RedissonOptions without_latch(RedissonOptions options) {
  options.unlock_latch = false;
  return options;
}

RedissonOptions with_read_entry(RedissonOptions options, const RwOptions& rw) {
  options.entry_leak = rw.read_entry_leak;
  return options;
}

const char* read_renew_script(ReadRenewal renewal) {
  switch (renewal) {
    case ReadRenewal::PerLock: return "rwlock_read_renew";
    case ReadRenewal::Batched3_44: return "rwlock_read_renew_3_44";
    case ReadRenewal::Batched4_0: return "rwlock_read_renew_4_0";
    case ReadRenewal::OwnReaders4_4: return "rwlock_read_renew_4_4";
  }
  return "rwlock_read_renew";
}

}  // namespace

bool parse_rw_variant(const std::string& name, RwVariant& out) {
  if (name == "3.11") {
    out = RwVariant::Silent;
  } else if (name == "3.44") {
    out = RwVariant::Nil3_44;
  } else {
    return false;
  }
  return true;
}

std::string to_string(ReadRenewal renewal) {
  switch (renewal) {
    case ReadRenewal::PerLock: return "3.8";
    case ReadRenewal::Batched3_44: return "3.44";
    case ReadRenewal::Batched4_0: return "4.0";
    case ReadRenewal::OwnReaders4_4: return "4.4";
  }
  return "?";
}

bool parse_read_renewal(const std::string& name, ReadRenewal& out) {
  for (ReadRenewal r : {ReadRenewal::PerLock, ReadRenewal::Batched3_44, ReadRenewal::Batched4_0, ReadRenewal::OwnReaders4_4}) {
    if (to_string(r) == name) {
      out = r;
      return true;
    }
  }
  return false;
}

RwSide::RwSide(Backend& backend, ScriptCatalog& scripts, const std::string& key, const std::string& side,
               RedissonOptions options)
    : RedissonLock(backend, key + ":" + side, key, without_latch(options)),
      mode_(side),
      channel_("redisson_rwlock:" + braced()),
      force_unlock_(scripts.get("rwlock_" + side + "_force_unlock")) {}

std::string RwSide::braced() const { return key_.find('{') != std::string::npos ? key_ : "{" + key_ + "}"; }

// RedissonReadLock / RedissonWriteLock.isLocked(): the hash's mode is this side's.
Task<OpResult> RwSide::is_locked(int64_t op) {
  Command command{.role = "is_locked",
                  .lock = key_,
                  .argv = {"HGET", key_, "mode"},
                  .thread = 0,
                  .op = op};
  const CallResult result = co_await send(std::move(command));
  if (result.timed_out) co_return OpResult::unknown("RedisResponseTimeoutException");
  const Reply& reply = result.reply;
  if (reply.kind == Reply::Kind::Nil) co_return OpResult::ok(0);
  if (reply.kind != Reply::Kind::Bulk) co_return OpResult::fail("unexpected reply " + locksim::describe(reply));
  co_return OpResult::ok(reply.str == mode_ ? 1 : 0);
}

Task<OpResult> RwSide::force_release(int64_t op) {
  Command command{.role = "force_unlock",
                  .lock = key_,
                  .script = &force_unlock_,
                  .keys = {key_, channel()},
                  .argv = {mode_ == "write" ? "1" : "0"},
                  .thread = 0,
                  .op = op};
  co_return integer_result(co_await send(std::move(command)));
}

ReadLock::ReadLock(Backend& backend, ScriptCatalog& scripts, const std::string& key, RedissonOptions options,
                   RwOptions rw)
    : RwSide(backend, scripts, key, "read", with_read_entry(options, rw)),
      acquire_(scripts.get("rwlock_read_acquire")),
      unlock_(scripts.get(rw.variant == RwVariant::Nil3_44 ? "rwlock_read_unlock_3_44" : "rwlock_read_unlock")),
      renew_(scripts.get(read_renew_script(rw.read_renewal))),
      read_renewal_(rw.read_renewal),
      latched_unlock_(rw.variant == RwVariant::Nil3_44) {}

Task<RedissonLock::Attempt> ReadLock::try_acquire_once(int64_t thread, int64_t op, int64_t lease_ms, int64_t) {
  const std::string id = holder_id(thread);
  Command command{.role = "acquire",
                  .lock = key_,
                  .script = &acquire_,
                  .keys = {key_, timeout_prefix(thread)},
                  .argv = {std::to_string(acquire_lease_ms(lease_ms)), id, id + ":write"},
                  .thread = thread,
                  .op = op};
  co_return to_attempt(co_await send(std::move(command), lock_command_policy()));
}

Command ReadLock::unlock_command(int64_t thread, int64_t op) {
  Command command{.role = "unlock",
                  .lock = key_,
                  .script = &unlock_,
                  .keys = {key_, channel(), timeout_prefix(thread), braced()},
                  .argv = {"0", holder_id(thread)},
                  .thread = thread,
                  .op = op};
  if (latched_unlock_) add_unlock_latch(command, braced());
  return command;
}

std::vector<int64_t> ReadLock::renewal_asks_for(int64_t first) const {
  if (read_renewal_ != ReadRenewal::OwnReaders4_4) return {first};
  return renewing_threads();  // 4.4.0: "cancelled for all those threads"
}

Command ReadLock::renew_command(int64_t thread) {
  if (read_renewal_ != ReadRenewal::OwnReaders4_4) return renewal(renew_, {key_, braced()}, {holder_id(thread)}, thread);
  // 4.4.0: the ids of every thread of this client renewing the lock, counted.
  const std::vector<int64_t> threads = renewing_threads();
  std::vector<std::string> fields{std::to_string(threads.size())};
  for (const int64_t t : threads) fields.push_back(holder_id(t));
  return renewal(renew_, {key_, braced()}, std::move(fields), thread);
}

WriteLock::WriteLock(Backend& backend, ScriptCatalog& scripts, const std::string& key, RedissonOptions options,
                     RwOptions rw)
    : RwSide(backend, scripts, key, "write", options),
      acquire_(scripts.get("rwlock_write_acquire")),
      unlock_(scripts.get(rw.variant == RwVariant::Nil3_44 ? "rwlock_write_unlock_3_44" : "rwlock_write_unlock")),
      renew_(scripts.get("rlock_renew")),
      latched_unlock_(rw.variant == RwVariant::Nil3_44) {}

Task<RedissonLock::Attempt> WriteLock::try_acquire_once(int64_t thread, int64_t op, int64_t lease_ms, int64_t) {
  Command command{.role = "acquire",
                  .lock = key_,
                  .script = &acquire_,
                  .keys = {key_},
                  .argv = {std::to_string(acquire_lease_ms(lease_ms)), writer_id(thread)},
                  .thread = thread,
                  .op = op};
  co_return to_attempt(co_await send(std::move(command), lock_command_policy()));
}

Command WriteLock::unlock_command(int64_t thread, int64_t op) {
  Command command{.role = "unlock",
                  .lock = key_,
                  .script = &unlock_,
                  .keys = {key_, channel()},
                  .argv = {"1", std::to_string(internal_lease_ms_), writer_id(thread)},
                  .thread = thread,
                  .op = op};
  if (latched_unlock_) add_unlock_latch(command, braced());
  return command;
}

Command WriteLock::renew_command(int64_t thread) { return renewal(renew_, {key_}, {writer_id(thread)}, thread); }

// isHeldByCurrentThread(): HEXISTS of the writer's field.
Task<OpResult> WriteLock::is_held(int64_t thread, int64_t op) {
  std::vector<std::string> argv{"HEXISTS", key_, writer_id(thread)};
  co_return co_await query("is_held", std::move(argv), thread, op);
}

}  // namespace locksim::client
