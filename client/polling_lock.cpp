#include "client/polling_lock.hpp"

#include "base/assert.hpp"

namespace locksim::client {

// Not a coroutine itself: the call's one frame is call_with_retry's.
Task<CallResult> PollingLock::send(std::string role, int64_t thread, int64_t op, std::vector<std::string> argv) {
  Command command{.role = std::move(role),
                  .lock = name_,
                  .argv = std::move(argv),
                  .thread = thread,
                  .op = op};
  return call_with_retry(backend_, std::move(command), options_.commands);
}

// Polls every retry_ms; a tryLock gives up when the next poll would come after its wait.
Task<OpResult> PollingLock::acquire(int64_t thread, int64_t op, AcquireOptions options) {
  const WaitingThreads::Entry w =
      waiting_.begin(thread, {.op = op, .left_ms = options.wait_ms, .since_ms = backend_.now_ms()});
  for (;;) {
    LS_ASSERT(w->attempts < 100'000'000);
    w->phase = Waiting::Phase::Acquiring;
    ++w->attempts;
    OpResult result = co_await try_once(thread, op, options.lease_ms);
    if (result.outcome != OpResult::Outcome::Fail || result.why != kBusy) co_return result;
    if (options.wait_ms >= 0) {
      const int64_t now = backend_.now_ms();
      w->left_ms -= now - w->since_ms;
      w->since_ms = now;
      if (options_.retry_ms > w->left_ms)
        co_return OpResult::fail("not acquired within " + std::to_string(options.wait_ms) + " ms");
    }
    w->phase = Waiting::Phase::Sleeping;
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
