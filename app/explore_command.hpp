#pragma once
// `locksim explore`: explore a range of seeds (explore/explore.hpp), shard by shard. Seeds whose
// shrunk counterexamples share a signature are one finding: reported once, with the count of its
// seeds and one replay file (scenario and HTML timeline, both configurations' in a differential
// run); violations a hazard of the configuration explains are counted apart. Writes results.jsonl
// (a line per case, then a line per finding) and JUnit (a test case per finding), with progress on
// a terminal and Ctrl-C stopping between cases.
// (`locksim merge` combines the shards' files: explore/shard_merge.hpp.)
#include <iosfwd>

#include "app/explore_options.hpp"

namespace locksim::app {

// Exit code: 0 no finding, 1 a finding (or a case that could not run), 2 bad usage, 130
// interrupted before any finding. Violations a hazard explains are findings only with show_hazards.
int run_explore(const ExploreOptions& options, std::ostream& out, std::ostream& err);

}  // namespace locksim::app
