#include "client/polling_lock.hpp"

#include "base/assert.hpp"

namespace locksim::client {

Task<CallResult> PollingLock::send(std::string role, int64_t thread, int64_t op, std::vector<std::string> argv) {
  Command command{.role = std::move(role),
                  .lock = name_,
                  .argv = std::move(argv),
                  .thread = thread,
                  .op = op};
  co_return co_await call_with_retry(backend_, std::move(command), options_.commands);
}

Task<OpResult> PollingLock::acquire(int64_t thread, int64_t op, AcquireOptions options) {
  const int64_t start = backend_.now_ms();
  for (int64_t round = 0;; ++round) {
    LS_ASSERT(round < 100'000'000);
    OpResult result = co_await try_once(thread, op, options.lease_ms);
    if (result.outcome != OpResult::Outcome::Fail || result.why != kBusy) co_return result;
    if (options.wait_ms >= 0 && backend_.now_ms() - start + options_.retry_ms > options.wait_ms)
      co_return OpResult::fail("not acquired within " + std::to_string(options.wait_ms) + " ms");
    co_await backend_.sleep(options_.retry_ms);
  }
}

Task<OpResult> PollingLock::value_is(int64_t thread, int64_t op, std::string expected) {
  std::vector<std::string> argv{"GET", name_};
  const CallResult result = co_await send("is_held", thread, op, std::move(argv));
  if (result.timed_out) co_return OpResult::unknown("timeout");
  co_return OpResult::ok(result.reply == Reply::bulk(expected) ? 1 : 0);
}

Task<OpResult> PollingLock::is_locked(int64_t op) {
  std::vector<std::string> argv{"EXISTS", name_};
  const CallResult result = co_await send("is_locked", 0, op, std::move(argv));
  if (result.timed_out) co_return OpResult::unknown("timeout");
  co_return OpResult::ok(result.reply.integer > 0 ? 1 : 0);
}

Task<OpResult> PollingLock::force_release(int64_t op) {
  std::vector<std::string> argv{"DEL", name_};
  const CallResult result = co_await send("force_unlock", 0, op, std::move(argv));
  if (result.timed_out) co_return OpResult::unknown("timeout");
  co_return OpResult::ok(result.reply.integer);
}

}  // namespace locksim::client
