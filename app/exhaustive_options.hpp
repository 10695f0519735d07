#pragma once
// What `locksim check --exhaustive` was asked (app/exhaustive_command.hpp runs it): its own header,
// so that the pieces of the command (exhaustive_bounds.hpp) read it without the command.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace locksim::app {

struct ExhaustiveCommandOptions {
  std::string scenario;
  std::vector<std::string> properties;  // empty: the file's expect, else what applies to the lock
  std::vector<std::string> expect;      // PROPERTY=holds|violated
  std::vector<int64_t> latencies;       // empty: the file's (or 1 ms)
  std::vector<int64_t> clock_offsets;   // empty: the file's (or none)
  std::optional<int> slow_max, lost_max, depth;
  std::vector<std::string> faults;      // KIND[=MS][@CLIENT][:COUNT]; empty: the file's
  bool no_faults = false;
  bool no_reduce = false;
  bool first = false;                   // one pass, each schedule once; the first counterexample, not the shortest
  uint64_t max_schedules = 0;
  double max_seconds = 0;
  std::optional<std::string> shard;     // "I/N", when given
  std::string out = "reports/exhaustive";
  uint64_t random = 0;                  // also run up to this many random schedules, to compare
  uint64_t estimate = 0;                // instead of searching: the tree's size from this many random schedules
  bool progress = false;                // a line a second on standard error (else every 10 s)
};

}  // namespace locksim::app
