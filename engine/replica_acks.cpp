#include "engine/replica_acks.hpp"

#include "base/assert.hpp"

namespace locksim::engine {

namespace {
int64_t acked_at(int64_t now_ms, int64_t woff_ms, int replicas, int64_t ack_lag_ms) {
  return replicas == 0 ? kNeverMs : woff_ms < 0 ? now_ms : woff_ms + ack_lag_ms;
}
}  // namespace

int64_t acked_by(int64_t now_ms, int64_t woff_ms, int replicas, int64_t ack_lag_ms) {
  return acked_at(now_ms, woff_ms, replicas, ack_lag_ms) <= now_ms ? replicas : 0;
}

WaitAnswer answer_wait(int64_t now_ms, int64_t woff_ms, int replicas, int64_t ack_lag_ms, int64_t numreplicas,
                       int64_t timeout_ms) {
  LS_ASSERT(timeout_ms >= 0);
  LS_ASSERT(replicas == 0 || ack_lag_ms >= 0);
  const int64_t acked = acked_by(now_ms, woff_ms, replicas, ack_lag_ms);
  if (acked >= numreplicas) return {acked, now_ms};
  // Past the largest timeout a time can hold, the WAIT never times out.
  const int64_t deadline = timeout_ms == 0 || timeout_ms > kNeverMs - now_ms ? kNeverMs : now_ms + timeout_ms;
  const int64_t all_acked_at = acked_at(now_ms, woff_ms, replicas, ack_lag_ms);
  if (numreplicas <= replicas && all_acked_at <= deadline) return {replicas, all_acked_at};
  return {0, deadline};
}

}  // namespace locksim::engine
