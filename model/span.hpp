#pragma once
// Span: a stretch of a history's time, [from_ms, to_ms), begun and ended by events.
#include <cstdint>
#include <limits>

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

}  // namespace locksim::model
