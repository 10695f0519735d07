#pragma once
// Reports of a `locksim run` (and of audit and check, which run scenarios too): a verdict table for
// the terminal, and in the output directory index.html (the page to open), summary.md, results.json,
// junit.xml (a test case per scenario and property) and, per scenario, its history and timelines.
#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "report/outcome.hpp"
#include "report/run_index.hpp"
#include "scenario/runner.hpp"

namespace locksim::report {

// How an audit reads one result (report/outcome.hpp's audit outcomes), in place of the run's own
// expectation and outcome.
struct RowReading {
  std::optional<Outcome> outcome;  // nullopt: the run's own
  std::string expected;  // the "expected" column: the versions a bug affects ("" the run's own)
  std::string note;      // put before the checker's explanation ("" none)
  bool before_expected = false;  // `expected` goes before the run's own ("its scenario expects: holds")
};

// What the results alone do not say about a run.
struct RunInfo {
  std::string title = "locksim run";  // index.html's and summary.md's heading
  // The wall-clock seconds each result took, by position (empty: not measured). They go to junit.xml
  // and index.html only: results.json and summary.md stay the same from run to run.
  std::vector<double> seconds;
  // By position, a heading that replaces the scenario's `about` in index.html (audit: the bug's
  // issue and title); empty, or "" for one result: its `about`.
  std::vector<std::string> labels;
  std::vector<std::pair<std::string, std::string>> facts;  // more of what ran, for index.html's header
  // An audit's: by position, how each result reads (nullopt: as the run judged it), the line that
  // replaces the count of passes and failures, and its advice, which index.html shows first.
  std::vector<std::optional<RowReading>> readings;
  std::string summary;
  std::vector<AdviceSection> advice;
  std::string expected_heading = "expected";
  std::string failed_label = "failed only";
};

// The verdict table and the one-line summary.
void print_table(std::ostream& out, const std::vector<scenario::ScenarioResult>& results);

// Writes every report file into `dir` (created if needed); throws std::runtime_error naming a path
// it cannot write.
void write_reports(const std::string& dir, const std::vector<scenario::ScenarioResult>& results,
                   const RunInfo& info = {});

// Removes from `dir` what write_reports writes there for a run of the scenario `name` (its folder
// too, when nothing else is left in it), so that a command that writes no reports this time leaves
// none of an earlier run's standing beside its own result.
void remove_reports(const std::string& dir, const std::string& name);

// A file-system-safe name for a scenario's own folder.
std::string slug(const std::string& name);

}  // namespace locksim::report
