#include "scenario/scenario.hpp"

#include <algorithm>
#include <limits>
#include <map>

namespace locksim::scenario {

namespace {

// a + b for non-negative a and b, held at INT64_MAX.
int64_t saturating_add(int64_t a, int64_t b) {
  return b > std::numeric_limits<int64_t>::max() - a ? std::numeric_limits<int64_t>::max() : a + b;
}

}  // namespace

int64_t default_run_ms(const std::vector<TimelineEntry>& timeline) {
  int64_t last = 0;
  std::map<std::pair<std::string, int64_t>, int64_t> thread_busy_until;
  for (const TimelineEntry& e : timeline) {
    int64_t end = e.at_ms;
    if (e.fault && world::fault_info(e.fault->kind).lasts()) end = saturating_add(end, e.fault->for_ms);
    if (e.op) {
      int64_t& cursor = thread_busy_until[{e.client, e.thread}];
      cursor = saturating_add(saturating_add(std::max(cursor, e.at_ms), e.op->duration_ms), std::max<int64_t>(e.op->wait_ms, 0));
      end = cursor;
    }
    last = std::max(last, end);
  }
  return saturating_add(last, 60000);
}

}  // namespace locksim::scenario
