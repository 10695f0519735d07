#include "model/right_spans.hpp"

#include <algorithm>

#include "base/assert.hpp"

namespace locksim::model {

int64_t RightSpans::Union::to() const {
  if (open > 0) return kForever;
  return to_ms >= 0 ? to_ms : from_ms;
}

int64_t RightSpans::begin(const Span& span) {
  LS_ASSERT(span.from_ms >= latest_from_);
  // Spans come in the order they begin: a span joins the latest union if it begins before that one
  // ends (or as it ends), as merge_spans joins them.
  if (unions_.empty() || span.from_ms > unions_.back().to()) unions_.push_back(Union{span.from_ms});
  latest_from_ = span.from_ms;
  const int64_t handle = spans_retired_ + static_cast<int64_t>(spans_.size());
  spans_.push_back(Span{span.from_ms, kForever, span.begin, -1});
  union_of_.push_back(unions_retired_ + static_cast<int64_t>(unions_.size()) - 1);
  ++unions_.back().open;
  if (span.end >= 0 || span.to_ms != kForever) end(handle, span.to_ms, span.end);
  return handle;
}

void RightSpans::end(int64_t handle, int64_t to_ms, int64_t end) {
  LS_ASSERT(handle >= spans_retired_);
  const size_t i = static_cast<size_t>(handle - spans_retired_);
  Span& s = spans_[i];
  LS_ASSERT(s.end < 0);
  LS_ASSERT(s.to_ms == kForever);
  // Spans end as time passes: none ends before a span that began after it.
  LS_ASSERT(to_ms >= latest_from_ || to_ms <= s.from_ms);
  s.to_ms = to_ms;
  s.end = end;
  LS_ASSERT(union_of_[i] >= unions_retired_);
  Union& u = unions_[static_cast<size_t>(union_of_[i] - unions_retired_)];
  --u.open;
  if (to_ms <= s.from_ms) return;  // empty: no part of the union
  if (to_ms > u.to_ms || (to_ms == u.to_ms && handle < u.ended_by)) {
    u.to_ms = to_ms;
    u.end = end;
    u.ended_by = handle;
  }
}

bool RightSpans::holds_at(int64_t t) const {
  auto it = std::upper_bound(unions_.begin(), unions_.end(), t, [](int64_t v, const Union& u) { return v < u.from_ms; });
  if (it == unions_.begin()) return false;
  return t < std::prev(it)->to();
}

std::vector<int64_t> RightSpans::ends_at(int64_t t) const {
  std::vector<int64_t> out;
  for (const Union& u : unions_)
    if (u.open == 0 && u.to_ms >= 0 && u.to_ms == t && u.from_ms <= t) out.push_back(u.end);
  return out;
}

void RightSpans::retire(int64_t ms) {
  while (!unions_.empty() && unions_.front().to() < ms) {
    unions_.pop_front();
    ++unions_retired_;
  }
  while (!spans_.empty() && spans_.front().to_ms < ms && union_of_.front() < unions_retired_) {
    spans_.pop_front();
    union_of_.pop_front();
    ++spans_retired_;
  }
}

}  // namespace locksim::model
