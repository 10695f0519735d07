#pragma once
// A bounded search's size before it runs (issue 38; GenMC's estimation mode is the anchor): random
// schedules of the world within its bounds, each drawn option by option as the search would offer
// them. Knuth's estimator (the product of the options met along a random path, averaged) is an
// unbiased estimate of how many schedules the whole tree has; the states the samples passed through
// (their fingerprints, World::describe) are a lower bound on the distinct states.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "explore/exhaustive.hpp"

namespace locksim::explore {

struct StateSpaceEstimate {
  uint64_t samples = 0;
  // log10 of Knuth's estimate of the schedules within the bounds (every level): the mean over the
  // samples of the product of the options each met. Its spread: the smallest and largest product.
  double log10_schedules = 0;
  double log10_smallest = 0, log10_largest = 0;
  // Relative standard error of that mean (0: every sample gave the same product).
  double relative_error = 0;
  double choice_points = 0;  // per schedule, on average
  // Distinct states the samples passed through, and of them those met in one sample only and in
  // two (the abundance a species-richness estimator reads); null when the world's states cannot be
  // fingerprinted (`not_whole` says why).
  bool fingerprinted = true;
  std::string not_whole;
  uint64_t states_seen = 0;
  uint64_t states_once = 0, states_twice = 0;
  // Chao1's estimate of the distinct states (states_seen when no state was met only once). Rough:
  // random paths meet states near the root far more often than deep ones.
  double states_chao1 = 0;
  double seconds = 0;
};

// `samples` random schedules (seeds 1..samples) of `scenario` within options.bounds, whatever
// options.bounds.cost_max says (the whole tree). Stops early when options.stop says so (the
// estimate is then of the samples run). Throws std::invalid_argument for bounds that cannot run.
StateSpaceEstimate estimate_state_space(const scenario::Scenario& scenario, const ExhaustiveOptions& options,
                                        uint64_t samples);

// The estimate in words, a few lines.
std::string describe(const StateSpaceEstimate& estimate);

}  // namespace locksim::explore
