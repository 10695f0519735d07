#include "engine/replica_acks.hpp"

#include "base/assert.hpp"

namespace locksim::engine {

WaitAnswer answer_wait(int64_t now_ms, int64_t woff_ms, int replicas, int64_t ack_lag_ms, int64_t numreplicas,
                       int64_t timeout_ms) {
  LS_ASSERT(timeout_ms >= 0);
  LS_ASSERT(replicas == 0 || ack_lag_ms >= 0);
  const int64_t acked_at = replicas == 0 ? kNeverMs : woff_ms < 0 ? now_ms : woff_ms + ack_lag_ms;
  const int64_t acked = acked_at <= now_ms ? replicas : 0;
  if (acked >= numreplicas) return {acked, now_ms};
  // Past the largest timeout a time can hold, the WAIT never times out.
  const int64_t deadline = timeout_ms == 0 || timeout_ms > kNeverMs - now_ms ? kNeverMs : now_ms + timeout_ms;
  if (numreplicas <= replicas && acked_at <= deadline) return {replicas, acked_at};
  return {0, deadline};
}

}  // namespace locksim::engine
