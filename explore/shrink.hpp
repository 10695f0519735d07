#pragma once
// Shrinking a plan to a local minimum of what a predicate keeps (a violation, a verdict that differs
// between two configurations): no client, session or fault can be dropped, no flag turned off, no
// number moved towards its smallest value without losing it.
//
// Why not RapidCheck's own shrink tree: walking it greedily restarts from its first shrink after
// every step that succeeds, so every failed candidate near the top (a latency that cannot go lower,
// a client that cannot go) is run again and again: 300-400 runs for a 50-step case. Here each pass
// tries every element once, halves before singles, numbers by bisection, and remembers every plan
// it has run.
#include <functional>

#include "explore/generator.hpp"

namespace locksim::explore {

struct ShrinkStats {
  int runs = 0;      // predicate calls (distinct plans run)
  int accepted = 0;  // candidates that kept the property
};

// The smallest plan reachable from `start` (for which `keeps` is true) by the steps above, within
// `runs_max` calls of `keeps`. `config` is the one that generated the plan (which faults target a
// client).
Plan shrink_plan(const Plan& start, const ExploreConfig& config, const std::function<bool(const Plan&)>& keeps,
                 int runs_max, ShrinkStats* stats = nullptr);

}  // namespace locksim::explore
