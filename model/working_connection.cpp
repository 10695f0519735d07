#include "model/working_connection.hpp"

#include <algorithm>

#include "model/fault_events.hpp"

namespace locksim::model {

std::vector<Span> broken_connection(const Facts& facts, const std::string& client, const std::string& server,
                                    int64_t from, int64_t to, int64_t command_timeout_ms) {
  std::vector<Span> broken;
  for (const FaultSpan& f : facts.faults()) {
    const FaultEventInfo* info = find_fault_event(f.kind);
    if (!info) continue;
    // Slowed, but each command still completes within its timeout.
    if (f.kind == fault_name::kDelay && 2 * f.value < command_timeout_ms) continue;
    const bool mine = !f.server && f.process == client && (info->disturbs_client || info->forever);
    const bool its = f.server && f.process == server && info->disturbs_server;
    if (!mine && !its) continue;
    const int64_t lo = std::max(f.span.from_ms, from), hi = std::min(f.span.to_ms, to);
    if (lo < hi) broken.push_back(Span{lo, hi, f.span.begin, f.span.end});
  }
  return merge_spans(std::move(broken));
}

int64_t longest_working_stretch(const Facts& facts, const std::string& client, const std::string& server,
                                int64_t from, int64_t to, int64_t command_timeout_ms) {
  int64_t longest = 0, t = from;
  for (const Span& b : broken_connection(facts, client, server, from, to, command_timeout_ms)) {
    longest = std::max(longest, b.from_ms - t);
    t = std::max(t, b.to_ms);
  }
  return std::max(longest, to - t);
}

}  // namespace locksim::model
