#include "model/span.hpp"

#include <algorithm>

namespace locksim::model {

std::vector<Span> merge_spans(std::vector<Span> spans) {
  std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.from_ms < b.from_ms; });
  std::vector<Span> out;
  for (const Span& s : spans) {
    if (s.to_ms <= s.from_ms) continue;
    if (!out.empty() && s.from_ms <= out.back().to_ms) {
      if (s.to_ms > out.back().to_ms) {
        out.back().to_ms = s.to_ms;
        out.back().end = s.end;
      }
      continue;
    }
    out.push_back(s);
  }
  return out;
}

int64_t usable_ms(const std::vector<Span>& spans, int64_t from, int64_t to, const std::vector<Span>& away) {
  const std::vector<Span> cut = merge_spans(away);
  int64_t total = 0;
  for (const Span& s : spans) {
    const int64_t lo = std::max(from, s.from_ms), hi = std::min(to, s.to_ms);
    if (hi <= lo) continue;
    int64_t covered = 0;
    for (const Span& a : cut) covered += std::max<int64_t>(0, std::min(hi, a.to_ms) - std::max(lo, a.from_ms));
    total += hi - lo - covered;
  }
  return total;
}

}  // namespace locksim::model
