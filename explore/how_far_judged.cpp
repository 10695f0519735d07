#include "explore/how_far_judged.hpp"

namespace locksim::explore {

std::string schedules_text(uint64_t n) { return std::to_string(n) + (n == 1 ? " schedule" : " schedules"); }

HowFarJudged how_far_judged(const std::vector<PropertyCounts>& counts, uint64_t total) {
  HowFarJudged j;
  for (const PropertyCounts& c : counts) {
    if (c.unknown > 0) {
      j.lines += "  but " + c.name + " could not be judged in " + schedules_text(c.unknown) + " (unknown)\n";
      j.unjudged = true;
    }
    if (c.nothing_to_judge == 0 || total == 0) continue;
    if (c.nothing_to_judge + c.unknown >= total) {
      j.lines += "  but " + c.name + " had nothing to judge in " +
                 (c.unknown > 0 ? "the other " + std::to_string(c.nothing_to_judge)
                  : total == 1  ? std::string("the one schedule")
                                : "any of the " + schedules_text(total)) +
                 " (unknown): it was never tested\n";
      j.unjudged = true;
    } else {
      j.lines += "  " + c.name + " had nothing to judge in " + std::to_string(c.nothing_to_judge) + " of the " +
                 schedules_text(total) + "; the other " + std::to_string(total - c.nothing_to_judge - c.unknown) +
                 " tested it\n";
    }
  }
  return j;
}

}  // namespace locksim::explore
