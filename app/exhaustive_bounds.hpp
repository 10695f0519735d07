#pragma once
// The bounds of a `check --exhaustive` search: the scenario file's `bounded:`, with the command
// line's options over it, and how they are said (on the first lines, in exhaustive.json's name of
// the search, in the counterexample's report).
#include <string>

#include "app/exhaustive_options.hpp"
#include "scenario/scenario.hpp"
#include "world/choice_scheduler.hpp"

namespace locksim::app {

// Throws std::invalid_argument for a --faults item that is not KIND[=MS][@CLIENT][:COUNT] of a
// client's fault (a server's goes in the file, with its parameters).
world::ScheduleBounds search_bounds(const ExhaustiveCommandOptions& o, const scenario::Scenario& s);

// "latencies {1, 10} ms (slow messages at most 1), messages lost at most 0, faults none, depth 60,
// reduction on".
std::string bounds_text(const world::ScheduleBounds& b);

}  // namespace locksim::app
