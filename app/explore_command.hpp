#pragma once
// `locksim explore`: explore a range of seeds (explore/explore.hpp), shard by shard, writing each
// counterexample as a scenario file with its HTML timeline, results.jsonl and JUnit, with progress
// on a terminal and Ctrl-C stopping between cases.
//
// `locksim merge`: shard outputs combined into one, sorted by seed, byte-deterministic.
#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "explore/explore.hpp"

namespace locksim::app {

struct ExploreOptions {
  explore::ExploreConfig config;
  uint64_t seed_first = 1;
  uint64_t seed_last = 1000;  // inclusive
  int shard_index = 0;        // this process runs the seeds whose position in the range is I mod N
  int shard_count = 1;
  std::string out;            // results.jsonl: one line per case ("" none)
  std::string junit;          // a JUnit XML file ("" none)
  std::string cases_dir = "explore-cases";  // counterexamples: seed-<S>.yaml and seed-<S>.html
  explore::ShrinkOptions shrink;
  bool progress = false;      // a live progress line on stderr (for a terminal)
  std::string emit_dir;       // also write every generated case, unrun and unshrunk, as DIR/seed-S.yaml
};

// The stop flag Ctrl-C sets; run_explore checks it between cases.
std::atomic<bool>& explore_stop_flag();

// Exit code: 0 no expected-holds property violated, 1 at least one was (or a case could not run),
// 2 bad usage, 130 interrupted before any violation.
int run_explore(const ExploreOptions& options, std::ostream& out, std::ostream& err);

// Merges results.jsonl files: every line of every input, sorted by seed (ties by text), exact
// duplicates dropped. Exit code 0, or 2 when an input cannot be read or a line has no seed.
int run_merge(const std::vector<std::string>& inputs, const std::string& out_path, std::ostream& err);

}  // namespace locksim::app
