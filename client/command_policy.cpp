#include "client/command_policy.hpp"

namespace locksim::client {

Task<CallResult> call_with_retry(Backend& backend, Command command, CommandPolicy policy) {
  CallResult result;
  for (int attempt = 0; attempt <= policy.retry_attempts; ++attempt) {
    if (attempt > 0) co_await backend.sleep(policy.retry_interval_ms);
    result = co_await backend.call(command, policy.timeout_ms);
    if (!result.timed_out) co_return result;
  }
  co_return result;
}

}  // namespace locksim::client
