#pragma once
// EventQueue: the world's agenda in milliseconds. Events run in (time, insertion order); the world
// moves the clock (to the next event, or with real time). Nothing here reads a real clock.
#include <cstdint>
#include <functional>
#include <algorithm>
#include <vector>

#include "base/assert.hpp"

namespace locksim::world {

class EventQueue {
 public:
  using Action = std::function<void()>;

  int64_t now() const { return now_; }

  void at(int64_t at_ms, Action action) {
    LS_ASSERT(at_ms >= now_);
    heap_.push_back(Item{at_ms, next_seq_++, std::move(action)});
    std::push_heap(heap_.begin(), heap_.end(), std::greater<Item>());
  }

  bool empty() const { return heap_.empty(); }
  int64_t next_time() const { return heap_.front().at_ms; }

  // Runs the next event with the clock at `t`: its own time, or later (a paced world runs an event
  // real time reached late at the time it reached).
  void step_at(int64_t t) {
    LS_ASSERT(!heap_.empty() && heap_.front().at_ms <= t && t >= now_);
    std::pop_heap(heap_.begin(), heap_.end(), std::greater<Item>());
    Item item = std::move(heap_.back());
    heap_.pop_back();
    now_ = t;
    ++executed_;
    item.action();
  }

  // Moves the clock forward to `t` with nothing happening (only when nothing is due earlier).
  void advance_to(int64_t t) {
    LS_ASSERT(heap_.empty() || heap_.front().at_ms >= t);
    if (t > now_) now_ = t;
  }

  uint64_t executed() const { return executed_; }

 private:
  struct Item {
    int64_t at_ms;
    uint64_t seq;
    Action action;
    bool operator>(const Item& other) const {
      return at_ms != other.at_ms ? at_ms > other.at_ms : seq > other.seq;
    }
  };

  std::vector<Item> heap_;  // a binary min-heap on (time, seq), so events can be moved out
  int64_t now_ = 0;
  uint64_t next_seq_ = 0;
  uint64_t executed_ = 0;
};

}  // namespace locksim::world
