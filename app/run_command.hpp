#pragma once
// `locksim run`: runs scenario files, prints the verdict table, writes the reports.
#include <iosfwd>
#include <string>
#include <vector>

namespace locksim::app {

struct RunOptions {
  std::vector<std::string> paths;  // files or folders; empty: scenarios/
  std::string out = "reports/latest";
  bool progress = false;  // a live "[3/23] file" line (for a terminal)
};

// Exit code: 0 every expectation met, 1 one was not, 2 bad input (a file that does not load, a
// path that does not exist, a report folder that cannot be written).
int run_scenarios(const RunOptions& options, std::ostream& out, std::ostream& err);

}  // namespace locksim::app
