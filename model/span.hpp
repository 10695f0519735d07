#pragma once
// Span: a stretch of a history's time, [from_ms, to_ms), begun and ended by events; and what the
// checkers work out from several.
#include <cstdint>
#include <limits>
#include <vector>

namespace locksim::model {

inline constexpr int64_t kForever = std::numeric_limits<int64_t>::max();

// [from_ms, to_ms), begun by the event `begin` and ended by the event `end` (-1: not by an event).
struct Span {
  int64_t from_ms = 0;
  int64_t to_ms = kForever;
  int64_t begin = -1;
  int64_t end = -1;
  bool contains(int64_t t) const { return from_ms <= t && t < to_ms; }
};

// How long the parts of `spans` inside [from, to) last, minus whatever `away` covers.
int64_t usable_ms(const std::vector<Span>& spans, int64_t from, int64_t to, const std::vector<Span>& away);
// The union of `spans`, sorted and disjoint.
std::vector<Span> merge_spans(std::vector<Span> spans);

}  // namespace locksim::model
