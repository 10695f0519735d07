#pragma once
// `locksim check --exhaustive SCENARIO`: every schedule of the scenario within its bounds, judged
// (explore/exhaustive.hpp), or the shortest counterexample as a scenario file that replays it, with
// its timeline. Bounds come from the file's `bounded:` and the command line, which wins.
#include <iosfwd>

#include "app/exhaustive_options.hpp"

namespace locksim::app {

// Exit code: 0 the verdicts are as expected for every schedule (holds for all, or the expected
// violation found), 1 not (a counterexample, an expected violation not found, or the search
// stopped before it covered the bounds), 2 bad input, 130 interrupted. With `estimate`, no search:
// the estimate of its size is printed (explore/estimate.hpp), exit code 0 (2 bad input).
int run_exhaustive(const ExhaustiveCommandOptions& options, std::ostream& out, std::ostream& err);

}  // namespace locksim::app
