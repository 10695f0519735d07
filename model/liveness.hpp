#pragma once
// Liveness: a lock is free while no live owner believes it holds it (believed-holding intervals as
// in mutual_exclusion; a crashed owner's interval ends at its Release f=crash, a paused or
// partitioned owner still holds). An acquire (Invoke lock/try_lock) that Fails, or has no outcome
// by the end of the history, is starved when the lock was free for at least grace_ms in total
// within [invoke + grace_ms, end], end being the Fail or the end of the history. Time the waiter
// itself could not act (its process paused, partitioned, or crashed) does not count. An Info
// outcome is not judged. Anomaly: starved, witnessed by the Invoke, its Fail if any and the
// Release that began the first free stretch counted (none when the lock was never held).
#include <cstdint>

#include "model/history.hpp"
#include "model/verdict.hpp"

namespace locksim::model {

struct LivenessOptions {
  int64_t grace_ms = 500;
};

Verdict check_liveness(const History& history, const LivenessOptions& options = {});

}  // namespace locksim::model
