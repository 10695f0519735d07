#pragma once
// `locksim check HISTORY`: the checkers on a recorded history (one that `locksim serve` wrote, or a
// run's history.jsonl), with the usual verdict table, reports and timeline.
#include <iosfwd>
#include <string>
#include <vector>

namespace locksim::app {

struct CheckOptions {
  std::string history;
  std::vector<std::string> properties;  // empty: those the history has the inputs for
  std::vector<std::string> expect;      // PROPERTY=holds|violated
  std::string out = "reports/check";
  std::string name;                     // the report's name ("" : the history file's)
  // The lock the history's clients ran (model/lock_types.hpp); "" : a generic lock, which a
  // history of locksim's own clients is refused as (their lock decides what each property means).
  std::string lock_type;
  // Judge it as it streams (model/stream_judging.hpp), in memory that does not grow with its length;
  // the verdicts only, no reports or timeline.
  bool stream = false;
  bool progress = false;  // --stream: a progress line every 250 ms (a terminal), else every 10 s
};

// Exit code: 0 every verdict holds (or is as --expect says), 1 one does not, 2 bad input.
int run_check(const CheckOptions& options, std::ostream& out, std::ostream& err);

}  // namespace locksim::app
