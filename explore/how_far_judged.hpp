#pragma once
// How far each property was judged, over the schedules a search (or a merge of its shards) ran
// without a counterexample, or before the one it expected: a line for each property not judged in
// every one, and whether any keeps the search from saying "holds": a schedule whose verdict could
// not be told, or a property that no schedule had anything to judge for (it was never tested).
// Schedules with nothing to judge hold the property vacuously; the line says how many schedules
// did test it.
#include <cstdint>
#include <string>
#include <vector>

namespace locksim::explore {

struct PropertyCounts {
  std::string name;
  uint64_t unknown = 0;
  uint64_t nothing_to_judge = 0;
};

struct HowFarJudged {
  std::string lines;
  bool unjudged = false;
};

HowFarJudged how_far_judged(const std::vector<PropertyCounts>& counts, uint64_t total);

// "1 schedule", "3 schedules".
std::string schedules_text(uint64_t n);

}  // namespace locksim::explore
