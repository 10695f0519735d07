#pragma once
// Reports of a `locksim run`: a verdict table for the terminal, and in the output directory
// summary.md, results.json, junit.xml (a test case per scenario and property) and, per scenario, its
// history and timelines.
#include <iosfwd>
#include <string>
#include <vector>

#include "scenario/runner.hpp"

namespace locksim::report {

// The verdict table and the one-line summary.
void print_table(std::ostream& out, const std::vector<scenario::ScenarioResult>& results);

// Writes every report file into `dir` (created if needed); throws std::runtime_error naming a path
// it cannot write.
void write_reports(const std::string& dir, const std::vector<scenario::ScenarioResult>& results);

// A file-system-safe name for a scenario's own folder.
std::string slug(const std::string& name);

}  // namespace locksim::report
