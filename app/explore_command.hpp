#pragma once
// `locksim explore`: explore a range of seeds (explore/explore.hpp), shard by shard. Seeds whose
// shrunk counterexamples share a signature are one finding: reported once, with the count of its
// seeds and one replay file (scenario and HTML timeline, both configurations' in a differential
// run); violations a hazard of the configuration explains are counted apart. Writes results.jsonl
// (a line per case, then a line per finding) and JUnit (a test case per finding), with progress on
// a terminal and Ctrl-C stopping between cases.
// (`locksim merge` combines the shards' files: explore/shard_merge.hpp.)
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
  bool write_cases = true;    // false: no counterexample files (judging only: --cases none)
  bool show_hazards = false;  // report violations a hazard of the configuration explains as findings
};

// Exit code: 0 no finding, 1 a finding (or a case that could not run), 2 bad usage, 130
// interrupted before any finding. Violations a hazard explains are findings only with show_hazards.
int run_explore(const ExploreOptions& options, std::ostream& out, std::ostream& err);

}  // namespace locksim::app
