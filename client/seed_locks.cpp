#include "client/seed_locks.hpp"

namespace locksim::client {
namespace {

OpResult from_call(const CallResult& result) {
  if (result.timed_out) return OpResult::unknown("timeout");
  if (result.reply.is_error()) return OpResult::fail(result.reply.str);
  return OpResult::ok(result.reply.kind == Reply::Kind::Integer ? result.reply.integer : 1);
}

}  // namespace

Task<OpResult> SetnxLock::try_once(int64_t thread, int64_t op, int64_t lease_ms) {
  std::vector<std::string> setnx{"SETNX", name_, "1"};
  const CallResult taken = co_await send("acquire", thread, op, std::move(setnx));
  if (taken.timed_out) co_return OpResult::unknown("timeout");
  if (taken.reply != Reply::integer_of(1)) co_return OpResult::fail(kBusy);
  if (!options_.setnx_expire) co_return OpResult::ok();
  // The second command: a crash here leaves the key with no expiry.
  std::vector<std::string> expire{"EXPIRE", name_, std::to_string(lease_seconds(lease_or_default(lease_ms)))};
  const CallResult expiry = co_await send("expire", thread, op, std::move(expire));
  if (expiry.timed_out) co_return OpResult::unknown("timeout setting the expiry");
  co_return OpResult::ok();
}

Task<OpResult> SetnxLock::release(int64_t thread, int64_t op) {
  std::vector<std::string> del{"DEL", name_};
  const CallResult result = co_await send("unlock", thread, op, std::move(del));
  co_return from_call(result);
}

Task<OpResult> SetnxLock::is_held(int64_t, int64_t) {
  co_return OpResult::fail("a SETNX lock stores no owner: isHeldByCurrentThread cannot be answered");
}

Task<OpResult> NaiveLock::is_held(int64_t thread, int64_t op) {
  co_return co_await value_is(thread, op, backend_.client_id() + ":" + std::to_string(thread));
}

Task<OpResult> NaiveLock::try_once(int64_t thread, int64_t op, int64_t lease_ms) {
  std::vector<std::string> set{"SET", name_, backend_.client_id() + ":" + std::to_string(thread), "NX", "EX",
                               std::to_string(lease_seconds(lease_or_default(lease_ms)))};
  const CallResult taken = co_await send("acquire", thread, op, std::move(set));
  if (taken.timed_out) co_return OpResult::unknown("timeout");
  if (taken.reply != Reply::ok()) co_return OpResult::fail(kBusy);
  co_return OpResult::ok();
}

Task<OpResult> NaiveLock::release(int64_t thread, int64_t op) {
  std::vector<std::string> del{"DEL", name_};
  const CallResult result = co_await send("unlock", thread, op, std::move(del));
  co_return from_call(result);
}

TokenLock::TokenLock(Backend& backend, ScriptCatalog& scripts, std::string name, PollingOptions options)
    : PollingLock(backend, std::move(name), options), release_(scripts.get("token_release")) {}

Task<OpResult> TokenLock::try_once(int64_t thread, int64_t op, int64_t lease_ms) {
  const std::string token = backend_.random_token("token " + name_ + " " + std::to_string(thread));
  std::vector<std::string> set{"SET", name_, token, "NX", "PX", std::to_string(lease_or_default(lease_ms))};
  const CallResult taken = co_await send("acquire", thread, op, std::move(set));
  if (taken.timed_out) co_return OpResult::unknown("timeout");
  if (taken.reply != Reply::ok()) co_return OpResult::fail(kBusy);
  tokens_[thread] = token;
  std::vector<std::string> incr{"INCR", fence_key()};
  const CallResult fence = co_await send("fence", thread, op, std::move(incr));
  if (fence.timed_out || fence.reply.kind != Reply::Kind::Integer) co_return OpResult::unknown("no fencing token");
  fencing_[thread] = fence.reply.integer;
  co_return OpResult::ok(fence.reply.integer);
}

Task<OpResult> TokenLock::release(int64_t thread, int64_t op) {
  auto it = tokens_.find(thread);
  const std::string token = it == tokens_.end() ? std::string("none") : it->second;
  Command command{.role = "unlock",
                  .lock = name_,
                  .script = &release_,
                  .keys = {name_},
                  .argv = {token},
                  .thread = thread,
                  .op = op};
  const CallResult result = co_await call_with_retry(backend_, std::move(command), options_.commands);
  if (it != tokens_.end()) tokens_.erase(it);
  fencing_.erase(thread);
  if (result.timed_out) co_return OpResult::unknown("timeout");
  if (result.reply == Reply::integer_of(0)) co_return OpResult::fail("lock not held with this token");
  co_return from_call(result);
}

Task<OpResult> TokenLock::is_held(int64_t thread, int64_t op) {
  auto it = tokens_.find(thread);
  if (it == tokens_.end()) co_return OpResult::ok(0);
  co_return co_await value_is(thread, op, it->second);
}

Task<OpResult> ClientReentrantLock::is_held(int64_t thread, int64_t) {
  auto it = counts_.find(thread);
  co_return OpResult::ok(it != counts_.end() && it->second > 0 ? 1 : 0);
}

int64_t TokenLock::token(int64_t thread) const {
  auto it = fencing_.find(thread);
  return it == fencing_.end() ? 0 : it->second;
}

Task<OpResult> ClientReentrantLock::acquire(int64_t thread, int64_t op, AcquireOptions options) {
  auto it = counts_.find(thread);
  if (it != counts_.end() && it->second > 0) {
    ++it->second;
    co_return OpResult::ok(inner_.token(thread));
  }
  OpResult result = co_await inner_.acquire(thread, op, options);
  if (result.outcome == OpResult::Outcome::Ok) counts_[thread] = 1;
  co_return result;
}

Task<OpResult> ClientReentrantLock::release(int64_t thread, int64_t op) {
  auto it = counts_.find(thread);
  if (it == counts_.end() || it->second == 0) co_return OpResult::fail("IllegalMonitorStateException: not held by this thread");
  if (--it->second > 0) co_return OpResult::ok(0);
  counts_.erase(it);
  co_return co_await inner_.release(thread, op);
}

}  // namespace locksim::client
