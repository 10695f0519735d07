#pragma once
// RightSpans: an owner's spans of right on one lock (operations under way, beliefs), added as they
// begin (in time order) and ended as they end, each kept on its own and as their union. Built as the
// events come, so that a stream can drop what ended long before what it still judges; a whole
// history builds the same. The union is merge_spans's: spans that overlap or touch are one, an empty
// span is none, and a union span ends with the event that ends its latest member (of members ending
// together, the one begun first).
#include <cstdint>
#include <deque>
#include <limits>
#include <vector>

#include "model/span.hpp"

namespace locksim::model {

class RightSpans {
 public:
  // Adds `span`, which begins at or after every span added before; open when span.end < 0 and
  // span.to_ms is kForever. Returns its handle.
  int64_t begin(const Span& span);
  // Ends the span `handle` at to_ms, by event `end`: as time passes, so never before the beginning
  // of a span added after it (an empty span excepted).
  void end(int64_t handle, int64_t to_ms, int64_t end);

  // Whether the union contains t.
  bool holds_at(int64_t t) const;
  // The ending events of the union's spans that begin at or before t and end at t.
  std::vector<int64_t> ends_at(int64_t t) const;
  // Each span on its own, in the order they began (a stream's: those not retired).
  const std::deque<Span>& spans() const { return spans_; }

  // Drops the spans, and the union's spans, that ended before ms `ms`.
  void retire(int64_t ms);

 private:
  struct Union {
    int64_t from_ms = 0;
    int64_t to_ms = -1;   // the latest end of a member that is not empty; -1 while none
    int64_t end = -1;     // its ending event
    int64_t ended_by = -1;  // the handle of that member
    int open = 0;         // members still open
    int64_t to() const;   // kForever while a member is open; from_ms when every member was empty
  };
  int64_t latest_from_ = std::numeric_limits<int64_t>::min();
  std::deque<Span> spans_;
  std::deque<int64_t> union_of_;  // each span's union, by its position among all unions
  int64_t spans_retired_ = 0;
  std::deque<Union> unions_;
  int64_t unions_retired_ = 0;
};

}  // namespace locksim::model
