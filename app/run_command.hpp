#pragma once
// `locksim run`: runs scenario files, prints the verdict table, writes the reports.
#include <iosfwd>
#include <string>
#include <vector>

namespace locksim::app {

struct RunOptions {
  std::vector<std::string> paths;  // files or folders; empty: ./scenarios (there must be one)
  std::string out = "reports/latest";  // relative to where locksim runs
  bool progress = false;  // a "[3/23] file" line (for a terminal)
  std::string backend = "fake";        // fake: the simulated world; live: real redis-servers, real time
  std::vector<std::string> redis;      // live: HOST:PORT of servers to use (none: locksim starts its own)
  std::string password;                // live: AUTH for those servers
  bool flush = false;                  // live: FLUSHALL the named servers before each scenario
  double time_scale = 1.0;             // multiplies every duration of a scenario (app/time_scale.hpp)
  std::string redisson;                // run every Redisson lock as this version ("": each file's own)
  bool stream = false;                 // histories streamed to their files and judged from there
};

// Exit code: 0 every expectation met, 1 one was not, 2 bad input (a file that does not load, a
// path that does not exist, no path and no ./scenarios, no lock scripts (client/script_files.hpp), a report folder that cannot be written, a bad --redis, live servers
// that could not be set up), 130 or 143 interrupted by SIGINT or SIGTERM (the reports then cover
// what ran).
int run_scenarios(const RunOptions& options, std::ostream& out, std::ostream& err);

}  // namespace locksim::app
