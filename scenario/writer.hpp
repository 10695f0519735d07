#pragma once
// Writing a Scenario back as a scenario file (docs/scenario-format.md) that `locksim run` loads and
// runs to the same history: every world and lock option that differs from what the loader starts
// from is written (an option left at its default is left out, so a counterexample shows only what
// it needs), run_ms always, steps keep their order (steps at the same time are scheduled in file
// order), and an acquire's lease is written whenever it differs from the lock's default. Exploration writes its shrunk
// counterexamples with it.
#include <string>

#include "scenario/scenario.hpp"

namespace locksim::scenario {

// The YAML text of `scenario`. Throws std::invalid_argument for what a file cannot say: a lock type
// not in model::lock_types(), a loss probability not in thousandths.
std::string write_scenario(const Scenario& scenario);

// Writes write_scenario(scenario) to `path`; throws std::runtime_error when it cannot.
void write_scenario_file(const Scenario& scenario, const std::string& path);

}  // namespace locksim::scenario
