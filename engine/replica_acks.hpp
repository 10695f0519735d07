#pragma once
// WAIT's answer (replication.c's waitCommand) against a master's replicas that each apply and
// acknowledge a write a fixed lag after the master ran it. The simulated servers and `locksim serve`
// both answer WAIT so; each keeps its own clock and says when the client's last write ran.
#include <cstdint>
#include <limits>

namespace locksim::engine {

inline constexpr int64_t kNeverMs = std::numeric_limits<int64_t>::max();

struct WaitAnswer {
  int64_t replicas = 0;  // what WAIT answers
  int64_t at_ms = 0;     // when: now, or later for a WAIT that blocks; kNeverMs: blocked for good
};

// WAIT `numreplicas` `timeout_ms` at `now_ms`, from a client whose replication offset is that of the
// write at `woff_ms` (-1: none yet), with `replicas` replicas acknowledging `ack_lag_ms` after each
// write. Enough acknowledged: answered now with how many did. Else it blocks until they do, or
// until the timeout (0: none) with the count then. The replica answers GETACK at once, so nothing
// but the lag delays an acknowledgement. `timeout_ms` >= 0; times well below kNeverMs.
// How many of `replicas` have acknowledged, at `now_ms`, the write at `woff_ms` (-1: none yet).
int64_t acked_by(int64_t now_ms, int64_t woff_ms, int replicas, int64_t ack_lag_ms);

WaitAnswer answer_wait(int64_t now_ms, int64_t woff_ms, int replicas, int64_t ack_lag_ms, int64_t numreplicas,
                       int64_t timeout_ms);

}  // namespace locksim::engine
