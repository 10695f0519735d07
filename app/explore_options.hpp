#pragma once
// What `locksim explore` was asked (app/explore_command.hpp runs it): its own header, so that the
// pieces of the command (explore_findings.hpp) read it without the command.
#include <cstdint>
#include <string>

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

}  // namespace locksim::app
