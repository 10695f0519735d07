#pragma once
// How a client sends a command: Redisson's timeout and retries (BaseConfig: timeout 3000 ms,
// retryAttempts 3, retryInterval 1500 ms, up to 3.47.x).
#include <cstdint>

#include "client/backend.hpp"

namespace locksim::client {

struct CommandPolicy {
  int64_t timeout_ms = 3000;
  int retry_attempts = 3;  // resends after the first attempt timed out
  int64_t retry_interval_ms = 1500;
  // 3.48.0 on: retryDelay is EqualJitterDelay(retry_interval_ms, retry_delay_max_ms) instead of a
  // fixed retryInterval; 0 keeps the fixed interval.
  int64_t retry_delay_max_ms = 0;
  ScriptForm scripts = ScriptForm::EvalshaThenEval;
};

// The pause before resending a command whose attempt number `attempt` (0: the first send) timed
// out: retry_interval_ms, or with retry_delay_max_ms > 0 Redisson's EqualJitterDelay, half of
// min(retry_interval_ms x 2^attempt, retry_delay_max_ms) plus a draw from [0, that half] taken from
// the backend's seeded source, for `purpose` (the command it delays).
int64_t retry_delay_ms(Backend& backend, const CommandPolicy& policy, int attempt, std::string_view purpose);

// Whether Redisson sends a command again after this result (while attempts remain), as its
// RedisExecutor does: after a response timeout; after the connection closed under it (the
// reconnected channel fails it with RedisReconnectedException, which checkAttemptPromise resends);
// and after the error replies it maps to retryable exceptions in CommandDecoder and resends in
// checkAttemptPromise: LOADING, TRYAGAIN, CLUSTERDOWN and BUSY (RedisLoadingException,
// RedisTryAgainException, RedisClusterDownException, RedisBusyException). Every other reply, an
// error too, goes to the caller at once. Not switched by version: BUSY is resent since PR #3339
// (January 2021, after #3194 and PR #3334 showed a watchdog ending on one BUSY); before it a BUSY
// reached the caller at once. PR #6970 (4.x) resends BUSY but no longer BUSYKEY or BUSYGROUP,
// which a lock's commands never get.
bool resends_after(const CallResult& result);

// Sends `command`, resending after each result resends_after() names as the policy allows,
// retry_delay_ms() later. A resent command may run twice on the server when only its reply was lost
// (or its connection closed after it ran): that is what Redisson does too.
Task<CallResult> call_with_retry(Backend& backend, SharedCommand command, CommandPolicy policy);
Task<CallResult> call_with_retry(Backend& backend, Command command, CommandPolicy policy);

}  // namespace locksim::client
