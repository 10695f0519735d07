#pragma once
// Judge: a checker that judges as a history's facts grow, so that a history longer than memory can
// be judged as it streams (judge_stream.hpp), and a whole one by the same code (judge_whole). It
// judges items (operations, beliefs, executions) in the order its property's definition takes them,
// each once everything its judgement reads has been taken, and keeps what it has found as data.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>

#include "model/facts.hpp"
#include "model/verdict.hpp"

namespace locksim::model {

// How far the facts have been taken: every event before `index`, and every event at or before ms
// `ms` (the next event, if any, comes later). At the end: every event, and ms kForever.
struct Settled {
  int64_t index = 0;
  int64_t ms = -1;
  bool end() const { return ms == kForever; }
};

class Judge {
 public:
  virtual ~Judge() = default;
  // Judges what `settled` settles that earlier calls did not.
  virtual void advance(const Settled& settled) = 0;
  // The verdict, once advance has been called at the end.
  virtual Verdict verdict() = 0;
  // The first event it may still read: the events, operations and beliefs from there on, and the
  // key states in effect from there on. kForever when it reads nothing more (it has its verdict).
  virtual int64_t needs() const = 0;
};

// A whole history's verdict by `judge` (made on facts of the whole history).
Verdict judge_whole(Judge& judge, const Facts& facts);

// The operations in the order they began, from the first whose Invoke is at or after `next`, while
// each is settled (no event of its can come any more, and no later event can tell what its lock's
// keys held while it ran): `judge(op)` for each, `next` moved past it.
// Stops at the first unsettled one, so that later ones wait (the order stays), or when judge returns
// true (it has its verdict).
template <typename F>
void judge_settled_ops(const Facts& facts, const Settled& settled, int64_t& next, F&& judge) {
  const auto& ops = facts.ops();
  auto it = std::lower_bound(ops.begin(), ops.end(), next, [](const Op& op, int64_t v) { return op.invoke < v; });
  for (; it != ops.end(); ++it) {
    if (!settled.end() && (facts.settles_ms(*it) > settled.ms || facts.settles_ms(*it) >= facts.unrevealed_from(it->lock)))
      return;
    next = it->invoke + 1;
    if (judge(*it)) return;
  }
}

// The events taken, from `next` on: `judge(e)` for each, `next` moved past it; stops when judge
// returns true (it has its verdict).
template <typename F>
void judge_taken_events(const Facts& facts, const Settled& settled, int64_t& next, F&& judge) {
  const auto& events = facts.history().events();
  auto e = events.begin() + std::max<int64_t>(next - static_cast<int64_t>(events.first()), 0);
  for (; e != events.end() && e->index < settled.index; ++e) {
    next = e->index + 1;
    if (judge(*e)) return;
  }
}

// The first belief that began at or after event `next` (the facts' end when none).
inline std::deque<Belief>::const_iterator beliefs_from(const Facts& facts, int64_t next) {
  const auto& beliefs = facts.beliefs();
  return std::lower_bound(beliefs.begin(), beliefs.end(), next, [](const Belief& b, int64_t v) { return b.span.begin < v; });
}

}  // namespace locksim::model
