#pragma once
// Exploration: random workloads and fault plans (generator.hpp), one case per seed, each run in the
// simulated world and judged by the properties asked for, all expected to hold. A case that
// violates one is shrunk (RapidCheck's shrink tree of the generated plan, walked greedily: take the
// first smaller case that still violates the same property, repeat) into a scenario `locksim run`
// replays. The `locksim explore` command around it is app/explore_command.hpp.
#include <atomic>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "explore/generator.hpp"
#include "scenario/runner.hpp"

namespace locksim::explore {

struct ShrinkOptions {
  bool enabled = true;
  int runs_max = 3000;  // scenario runs spent shrinking one case at most
};

struct CaseResult {
  uint64_t seed = 0;
  std::vector<std::pair<std::string, std::string>> verdicts;  // property -> holds | violated | unknown
  std::string violated;       // the first property (in the config's order) violated; "" when none
  std::string anomaly;
  std::string explanation;    // the checker's words, for the shrunk case
  model::Verdict verdict;     // the shrunk case's verdict of the violated property, evidence and all
  size_t steps = 0;           // timeline steps as generated
  size_t shrunk_steps = 0;    // after shrinking
  int shrink_runs = 0;
  std::optional<std::string> error;  // the run stopped (an exception in the world)
  scenario::Scenario shrunk;            // the smallest counterexample (when violated)
  scenario::ScenarioResult shrunk_run;  // and its run
};

// Runs the case of one seed; shrinks it when it violates a property.
CaseResult explore_case(const ExploreConfig& config, uint64_t seed, const ShrinkOptions& shrink = {});

// The first counterexample among `count` seeds from `first`, or nullopt: what "a configuration that
// must be violated" tests assert.
std::optional<CaseResult> find_counterexample(const ExploreConfig& config, uint64_t first, uint64_t count,
                                              const ShrinkOptions& shrink = {});

// Greedy shrinking over a Shrinkable: the smallest value reachable through shrinks that all keep
// `still_fails` true, within `runs_max` calls of it.
scenario::Scenario shrink_scenario(const rc::Shrinkable<scenario::Scenario>& start,
                                   const std::function<bool(const scenario::Scenario&)>& still_fails,
                                   int runs_max, int* runs = nullptr);

// The `locksim explore` command line that generates the case of `seed` again.
std::string regenerate_command(const ExploreConfig& config, uint64_t seed);

// One JSON line of results.jsonl for a case.
std::string case_json_line(const CaseResult& result, const std::string& scenario_path, const std::string& timeline_path);

}  // namespace locksim::explore
