#include "client/command_policy.hpp"

#include <algorithm>
#include <string_view>

#include "base/pooled.hpp"

namespace locksim::client {

int64_t retry_delay_ms(Backend& backend, const CommandPolicy& policy, int attempt, std::string_view purpose) {
  const int64_t base_ms = policy.retry_interval_ms;
  const int64_t max_ms = policy.retry_delay_max_ms;
  if (max_ms <= 0) return base_ms;
  // EqualJitterDelay.calcDelay (3.48.0): the exponential delay is capped at max before it can
  // overflow; half of it is fixed and the other half drawn.
  int64_t exponential_ms = max_ms;
  if (attempt < 62 && base_ms > 0 && base_ms < max_ms && (int64_t{1} << attempt) <= max_ms / base_ms)
    exponential_ms = std::min(base_ms << attempt, max_ms);
  const int64_t half_ms = exponential_ms / 2;
  return half_ms + (half_ms > 0 ? backend.random_range(purpose, 0, half_ms) : 0);
}

bool resends_after(const CallResult& result) {
  if (result.timed_out || result.connection_lost) return true;
  if (!result.reply.is_error()) return false;
  // CommandDecoder tells them by prefix (error.startsWith("BUSY")), and so does this.
  const std::string_view text = result.reply.str;
  for (const std::string_view prefix : {"LOADING", "TRYAGAIN", "CLUSTERDOWN", "BUSY"})
    if (text.substr(0, prefix.size()) == prefix) return true;
  return false;
}

Task<CallResult> call_with_retry(Backend& backend, Command command, CommandPolicy policy) {
  return call_with_retry(backend, pooled<const Command>(std::move(command)), policy);
}

Task<CallResult> call_with_retry(Backend& backend, SharedCommand sending, CommandPolicy policy) {
  CallResult result;
  Kept kept(backend, "retry attempt");
  Kept resending(backend, "retry command");  // a resend carries what was built into it (a lease, a time)
  resending = sending.get();
  for (int attempt = 0; attempt <= policy.retry_attempts; ++attempt) {
    kept = attempt;
    if (attempt > 0) {
      const std::string purpose = "retry " + sending->role + " " + sending->lock + " " + std::to_string(sending->thread);
      co_await backend.sleep(retry_delay_ms(backend, policy, attempt - 1, purpose));
    }
    result = co_await backend.call(sending, policy.timeout_ms, policy.scripts);
    if (!resends_after(result)) co_return result;
  }
  co_return result;
}

}  // namespace locksim::client
