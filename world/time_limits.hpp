#pragma once
// The bounds on a count of milliseconds a user writes (in a scenario file, a flag, a control command),
// so that the world's sums of them with its clock stay far from overflow, and a typo of a few digits
// is an error rather than a run that never ends.
#include <cstdint>

namespace locksim::world {

// The longest run a scenario may give (by the default rule, its steps must end by then): about 11.6
// days of simulated time, whose history is already some 70 MB with one lock renewed throughout. What
// places a step in the run (its time, a work step's or a fault's length) is bounded by it too.
inline constexpr int64_t kRunMsMax = 1'000'000'000;
// The most any other count of milliseconds may be (a lease, a timeout, a latency, a tryLock's wait, a
// clock's offset): about 31 years.
inline constexpr int64_t kDurationMsMax = 1'000'000'000'000;

}  // namespace locksim::world
