#pragma once
// --time-scale: a long scenario runs shorter on a live Redis by multiplying every duration it states
// (timeline times, leases, waits, work, fault lengths, the run's length) and the lock's own timers
// (watchdog timeout, command timeout and retry interval, subscription timeout, FairLock's
// threadWaitTime, polling intervals) by one factor. Link latency and the checkers' jitter tolerances
// stay as they are. A scenario whose outcome does not survive scaling says `live: {time_scale: false}`;
// the scenario suite checks that every other one still meets its expectations scaled by 0.1 on the
// fake.
#include <optional>
#include <string>

#include "scenario/scenario.hpp"

namespace locksim::scenario {

// The scenario with its durations multiplied by `factor` (0 < factor <= 1); a nonzero duration
// stays at least 1 ms.
Scenario scale_times(const Scenario& scenario, double factor);

// The times the scenario itself states (timeline times, leases, waits, work, fault lengths, the run's
// length) multiplied by `factor` (> 0), the lock's own timers left as configured: the audit sets a
// story written against one watchdog timeout to another one this way.
Scenario scale_story_times(const Scenario& scenario, double factor);

// Why `scenario` cannot be scaled, or nullopt.
std::optional<std::string> time_scale_refusal(const Scenario& scenario);

}  // namespace locksim::scenario
