#pragma once
// `locksim merge`: the shards of one explore run, or of one exhaustive search, combined into what
// a single run would have written, byte-deterministic.
#include <iosfwd>
#include <string>
#include <vector>

namespace locksim::explore {

// Merges results.jsonl files: every case line of every input, sorted by seed; then the finding
// lines, one per finding (seeds added up, the first seed's files and words kept), by first seed.
// Exit code 0, or 2 when an input cannot be read, a line is neither, a seed is in two inputs, or
// the inputs are shards (their first line says so) of which one is missing, given twice or of
// another exploration.
int merge_explore_shards(const std::vector<std::string>& inputs, const std::string& out_path, std::ostream& err);

// Whether `path` holds an exhaustive.json (a search's totals) rather than explore's results.jsonl.
bool is_exhaustive_json(const std::string& path);

// The exhaustive.json of the shards of one search (each of 0..N-1 once) added up into what one
// search would report, written to `out_path`, its totals said on `out`. Exit code: what one search
// would give (0 as expected, 1 not), or 2 bad input (a shard missing, twice, or of another split).
int merge_exhaustive_shards(const std::vector<std::string>& inputs, const std::string& out_path, std::ostream& out,
                            std::ostream& err);

}  // namespace locksim::explore
