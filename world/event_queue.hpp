#pragma once
// EventQueue: the world's agenda in milliseconds. Events run in (time, insertion order); the world
// moves the clock (to the next event, or with real time). Nothing here reads a real clock.
//
// The heap orders small records (time, insertion order, slot); what each event does and whom it acts
// on wait in a slot table beside it, so that keeping the heap in order moves 24 bytes an item, not a
// closure. A slot is reused once its event has run; which slot an event gets never affects order.
//
// An event taken back (cancel: a timeout whose wait ended first) leaves the agenda as if it had never
// been put there: it never runs nor counts, and the others keep their order. It is dropped from the
// heap when it reaches the top, or all at once when the taken back are half the heap: a client's
// call leaves its timeout seconds ahead, and thousands of them would deepen every push and pop.
//
// Beside the heap, one periodic event (a ticker: the simulated servers' housekeeping every 100 ms)
// that ran as an ordinary event rescheduling itself: in a typical explored case nine events in ten
// were its ticks, most of which found nothing to do. It keeps exactly the order it had, its
// (time, insertion order) taken from the same counter when it re-arms, and ticks its owner says
// are idle are passed over without being run (skip_idle_ticks), each counted as executed.
#include <cstdint>
#include <functional>
#include <algorithm>
#include <optional>
#include <vector>

#include "base/assert.hpp"
#include "base/inline_function.hpp"
#include "world/event_tag.hpp"
#include "world/scheduler.hpp"

namespace locksim::world {

class EventQueue {
 public:
  // Room for the world's closures in place (a few shared pointers, a name or two); world.cpp asserts
  // that a pub/sub delivery's fits.
  using Action = InlineFunction<void(), 96>;

  int64_t now() const { return now_; }

  static constexpr uint64_t kNoSeq = UINT64_MAX;

  // An event put on the agenda, for taking it back.
  struct EventId {
    uint32_t slot = 0;
    uint64_t seq = kNoSeq;
  };

  // `tag`: what the event is (event_tag.hpp); its actor is what a scheduler that orders same-time
  // events reads.
  EventId at(int64_t at_ms, Action action, const EventTag& tag) {
    LS_ASSERT(at_ms >= now_);
    uint32_t slot;
    const uint64_t seq = next_seq_++;
    if (free_slots_.empty()) {
      slot = static_cast<uint32_t>(slots_.size());
      slots_.push_back(Slot{std::move(action), tag, seq});
    } else {
      slot = free_slots_.back();
      free_slots_.pop_back();
      slots_[slot] = Slot{std::move(action), tag, seq};
    }
    heap_.push_back(Item{at_ms, seq, slot});
    std::push_heap(heap_.begin(), heap_.end(), std::greater<Item>());
    return EventId{slot, seq};
  }

  // Takes back `id` if it has not run yet (nothing happens if it has, or is running).
  void cancel(EventId id) {
    if (id.seq == kNoSeq || id.slot >= slots_.size() || slots_[id.slot].seq != id.seq) return;
    Slot& slot = slots_[id.slot];
    slot.seq = kNoSeq;
    slot.cancelled = true;
    slot.action = nullptr;  // what it holds (a waiter, a request) goes now
    ++cancelled_;
    drop_cancelled_top();
    if (cancelled_ > 64 && cancelled_ * 2 > heap_.size()) {
      std::erase_if(heap_, [this](const Item& item) {
        if (!slots_[item.slot].cancelled) return false;
        free_slot(item.slot);
        return true;
      });
      cancelled_ = 0;
      std::make_heap(heap_.begin(), heap_.end(), std::greater<Item>());
    }
  }

  // The ticker: `tick` runs at `first_ms`, then `period_ms` after the time it last ran, as if each
  // run ended with at(now() + period_ms, tick). `idle_until(t)`: a time before which no tick from
  // `t` on would do anything (so the ticks before it may be passed over); t itself when unknown.
  // One ticker per queue.
  void every(int64_t first_ms, int64_t period_ms, Action tick, std::function<int64_t(int64_t)> idle_until) {
    LS_ASSERT(!ticker_.armed);
    LS_ASSERT(first_ms >= now_);
    LS_ASSERT(period_ms > 0);
    ticker_ = Ticker{first_ms, next_seq_++, period_ms, std::move(tick), std::move(idle_until), true};
  }

  // One entry waiting on the agenda, as its record says.
  struct Scheduled {
    int64_t at_ms;
    uint64_t seq;
    EventTag tag;
  };
  // Every entry waiting to run (not the ticker, not the taken back), in the order they will run
  // unless a scheduler chooses otherwise: read from the records alone.
  std::vector<Scheduled> scheduled() const {
    std::vector<Scheduled> out;
    for (const Item& item : heap_)
      if (!slots_[item.slot].cancelled) out.push_back({item.at_ms, item.seq, slots_[item.slot].tag});
    std::sort(out.begin(), out.end(), [](const Scheduled& a, const Scheduled& b) {
      return a.at_ms != b.at_ms ? a.at_ms < b.at_ms : a.seq < b.seq;
    });
    return out;
  }

  // The ticker's next tick (its time and its place in the insertion order), if it is armed.
  struct Tick {
    int64_t at_ms;
    uint64_t seq;
  };
  std::optional<Tick> next_tick() const {
    if (!ticker_.armed) return std::nullopt;
    return Tick{ticker_.at_ms, ticker_.seq};
  }

  bool empty() const { return heap_.empty() && !ticker_.armed; }
  // Whether anything but the ticker is due: with none, only housekeeping is left to run.
  bool events_pending() const { return !heap_.empty(); }
  int64_t next_time() const { return ticker_next() ? ticker_.at_ms : heap_.front().at_ms; }

  // Runs the next event with the clock at `t`: its own time, or later (a paced world runs an event
  // real time reached late at the time it reached).
  void step_at(int64_t t) {
    LS_ASSERT(!empty());
    LS_ASSERT(next_time() <= t);
    LS_ASSERT(t >= now_);
    now_ = t;
    ++executed_;
    if (ticker_next()) {
      ticker_.tick();
      rearm_ticker();
      return;
    }
    std::pop_heap(heap_.begin(), heap_.end(), std::greater<Item>());
    const uint32_t slot = heap_.back().slot;
    heap_.pop_back();
    drop_cancelled_top();
    run_slot(slot);
  }

  // The events due at next_time(), in the order they were scheduled: what a scheduler chooses among.
  struct Due {
    uint64_t seq;
    Actor actor;
  };
  std::vector<Due> due() const {
    std::vector<Due> out;
    due(out);
    return out;
  }
  // The same into `out` (cleared first), so that a loop of steps reuses one buffer.
  void due(std::vector<Due>& out) const {
    out.clear();
    const int64_t t = next_time();
    if (ticker_.armed && ticker_.at_ms == t) out.push_back({ticker_.seq, Actor::housekeeping()});
    for (const Item& item : heap_)
      if (item.at_ms == t && !slots_[item.slot].cancelled) out.push_back({item.seq, slots_[item.slot].tag.actor});
    std::sort(out.begin(), out.end(), [](const Due& a, const Due& b) { return a.seq < b.seq; });
  }

  // Runs the event `seq` of due() now, whichever of them the scheduler chose.
  void step_chosen(uint64_t seq) {
    LS_ASSERT(!empty());
    now_ = next_time();
    ++executed_;
    if (ticker_.armed && ticker_.seq == seq && ticker_.at_ms == now_) {
      ticker_.tick();
      rearm_ticker();
      return;
    }
    auto it = std::find_if(heap_.begin(), heap_.end(), [&](const Item& item) { return item.seq == seq; });
    LS_ASSERT(it != heap_.end());
    LS_ASSERT(it->at_ms == now_);
    LS_ASSERT(!slots_[it->slot].cancelled);
    const uint32_t slot = it->slot;
    remove_at(static_cast<size_t>(it - heap_.begin()));
    drop_cancelled_top();
    run_slot(slot);
  }

  // Passes over the ticks that come next, up to time `until`, that the ticker's owner says are
  // idle: each as if it ran (the clock at its time, counted as executed, re-armed), while fewer
  // than `executed_max` events have been executed. Returns how many.
  uint64_t skip_idle_ticks(int64_t until, uint64_t executed_max) {
    if (!ticker_next() || ticker_.at_ms > until) return 0;
    const int64_t idle_until = ticker_.idle_until(ticker_.at_ms);
    uint64_t skipped = 0;
    while (ticker_next() && ticker_.at_ms <= until && ticker_.at_ms < idle_until && executed_ < executed_max) {
      now_ = ticker_.at_ms;
      ++executed_;
      rearm_ticker();
      ++skipped;
    }
    return skipped;
  }

  // Moves the clock forward to `t` with nothing happening (only when nothing is due earlier).
  void advance_to(int64_t t) {
    LS_ASSERT(empty() || next_time() >= t);
    if (t > now_) now_ = t;
  }

  uint64_t executed() const { return executed_; }

 private:
  // Frees the slot first (its action moved out), so an event may schedule others while it runs.
  void run_slot(uint32_t slot) {
    Action action = std::move(slots_[slot].action);
    free_slot(slot);
    action();
  }
  void free_slot(uint32_t slot) {
    slots_[slot].seq = kNoSeq;
    slots_[slot].cancelled = false;
    free_slots_.push_back(slot);
  }
  // Keeps the top of the heap an event that will run, so next_time() and empty() tell the truth.
  void drop_cancelled_top() {
    while (!heap_.empty() && slots_[heap_.front().slot].cancelled) {
      std::pop_heap(heap_.begin(), heap_.end(), std::greater<Item>());
      free_slot(heap_.back().slot);
      heap_.pop_back();
      --cancelled_;
    }
  }

  // Fills the hole at `i` (an item moved out) with the last item and restores the heap there:
  // O(log n), where make_heap would be O(n) for every chosen step. Any valid heap pops in the same
  // (time, insertion order), so the layout cannot change a run.
  void remove_at(size_t i) {
    const std::greater<Item> later;
    if (i + 1 != heap_.size()) heap_[i] = std::move(heap_.back());
    heap_.pop_back();
    const size_t n = heap_.size();
    if (i >= n) return;
    while (i > 0 && later(heap_[(i - 1) / 2], heap_[i])) {
      std::swap(heap_[(i - 1) / 2], heap_[i]);
      i = (i - 1) / 2;
    }
    for (;;) {
      size_t first = i;
      for (const size_t child : {2 * i + 1, 2 * i + 2})
        if (child < n && later(heap_[first], heap_[child])) first = child;
      if (first == i) return;
      std::swap(heap_[i], heap_[first]);
      i = first;
    }
  }

  struct Item {
    int64_t at_ms;
    uint64_t seq;
    uint32_t slot;  // into slots_
    bool operator>(const Item& other) const {
      return at_ms != other.at_ms ? at_ms > other.at_ms : seq > other.seq;
    }
  };

  struct Slot {
    Action action;
    EventTag tag;
    uint64_t seq = kNoSeq;   // the event's while it waits to run; kNoSeq once it runs or is free
    bool cancelled = false;  // taken back, still in the heap
  };

  struct Ticker {
    int64_t at_ms = 0;
    uint64_t seq = 0;
    int64_t period_ms = 0;
    Action tick;
    std::function<int64_t(int64_t)> idle_until;
    bool armed = false;
  };

  // Whether the ticker's next tick comes before every event of the heap, in (time, seq) order.
  bool ticker_next() const {
    if (!ticker_.armed) return false;
    if (heap_.empty()) return true;
    const Item& top = heap_.front();
    return ticker_.at_ms != top.at_ms ? ticker_.at_ms < top.at_ms : ticker_.seq < top.seq;
  }
  // What at(now() + period, tick) did at the end of a tick: the next one, numbered from the same
  // counter as every event.
  void rearm_ticker() {
    ticker_.at_ms = now_ + ticker_.period_ms;
    ticker_.seq = next_seq_++;
  }

  std::vector<Item> heap_;  // a binary min-heap on (time, seq), so events can be moved out
  std::vector<Slot> slots_;
  std::vector<uint32_t> free_slots_;
  size_t cancelled_ = 0;  // items of the heap taken back
  Ticker ticker_;
  int64_t now_ = 0;
  uint64_t next_seq_ = 0;
  uint64_t executed_ = 0;
};

}  // namespace locksim::world
