// Unit: the event queue's ticker (EventQueue::every, skip_idle_ticks) runs its ticks exactly where
// a tick that rescheduled itself with at() ran them, among the same events, and passing over idle
// ticks changes nothing but the work done. An event taken back (cancel) is as if never scheduled.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "world/event_queue.hpp"
#include "world/rng.hpp"

namespace locksim::world {
namespace {

constexpr int64_t kPeriod = 100;
constexpr int64_t kEnd = 20'000;

// A run of events at random times (some on tick times), each maybe scheduling another; the log
// says what ran when, ticks included. `busy(t)` says whether a tick at t has work (the others are
// idle: with `skip`, passed over).
struct Outcome {
  std::vector<std::string> log;
  uint64_t executed = 0;
};

Outcome run(bool ticker, bool skip, bool log_idle, uint64_t seed) {
  EventQueue q;
  Outcome r;
  auto busy = [](int64_t t) { return t % 700 == 0 || (t > 5000 && t < 5400); };
  auto tick = [&] {
    if (log_idle || busy(q.now())) r.log.push_back("tick " + std::to_string(q.now()));
  };
  std::function<void()> self_tick = [&] {
    tick();
    q.at(q.now() + kPeriod, self_tick, EventTag::test());
  };
  if (ticker) {
    q.every(0, kPeriod, tick,
            [&](int64_t from) {
              int64_t t = from;
              while (t < kEnd + kPeriod && !busy(t)) ++t;
              return t;
            });
  } else {
    q.at(0, self_tick, EventTag::test());
  }
  Rng rng(seed);
  for (int i = 0; i < 200; ++i) {
    const int64_t t = static_cast<int64_t>(rng.next() % kEnd) / 50 * 50;  // often on a tick's time
    q.at(t, [&q, &r, i, t] {
      r.log.push_back("event " + std::to_string(i) + " at " + std::to_string(q.now()));
      if (i % 3 == 0)
        q.at(t + kPeriod, [&q, &r, i] { r.log.push_back("echo " + std::to_string(i) + " at " + std::to_string(q.now())); },
             EventTag::test());
    }, EventTag::test());
  }
  while (!q.empty() && q.next_time() <= kEnd) {
    if (skip) q.skip_idle_ticks(kEnd, UINT64_MAX);
    if (q.empty() || q.next_time() > kEnd) break;
    q.step_at(q.next_time());
  }
  r.executed = q.executed();
  return r;
}

TEST(EventQueueTicker, TicksRunWhereASelfReschedulingEventRan) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const Outcome original = run(false, false, true, seed);
    const Outcome ticker = run(true, false, true, seed);  // every tick logged: the same places
    EXPECT_EQ(ticker.log, original.log) << "seed " << seed;
    const Outcome busy_only = run(false, false, false, seed);
    const Outcome skipping = run(true, true, false, seed);  // idle ticks passed over, the rest the same
    EXPECT_EQ(skipping.log, busy_only.log) << "seed " << seed;
    EXPECT_EQ(ticker.executed, original.executed) << "seed " << seed;
    EXPECT_EQ(skipping.executed, original.executed) << "seed " << seed;
  }
}

}  // namespace
}  // namespace locksim::world

namespace locksim::world {
namespace {

// A scheduler's pick among due events, from anywhere in the heap, leaves the others to run in
// (time, insertion order), as if the picked one had never been scheduled.
TEST(EventQueueChosen, APickedEventLeavesTheRestInTimeAndInsertionOrder) {
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    EventQueue q;
    std::vector<std::pair<int64_t, int>> ran;
    std::vector<std::pair<int64_t, int>> scheduled;  // (time, number), numbers in insertion order
    Rng rng(seed);
    for (int i = 0; i < 300; ++i) {
      const int64_t t = static_cast<int64_t>(rng.next() % 40);  // many share a time
      scheduled.emplace_back(t, i);
      q.at(t, [&ran, &q, i] { ran.emplace_back(q.now(), i); }, EventTag::test());
    }
    // Always pick the last of the events due.
    while (!q.empty()) {
      const size_t before = ran.size();
      q.step_chosen(q.due().back().seq);
      ASSERT_EQ(ran.size(), before + 1);
    }
    // Expected: each time's events in reverse insertion order.
    std::stable_sort(scheduled.begin(), scheduled.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::pair<int64_t, int>> expected;
    for (size_t from = 0; from < scheduled.size();) {
      size_t to = from;
      while (to < scheduled.size() && scheduled[to].first == scheduled[from].first) ++to;
      for (size_t k = to; k > from; --k) expected.push_back(scheduled[k - 1]);
      from = to;
    }
    ASSERT_EQ(ran, expected) << "seed " << seed;
  }
}

}  // namespace
}  // namespace locksim::world

namespace locksim::world {
namespace {

// What an event does and whom it acts on wait in slots that are reused once their event has run:
// an event scheduled into a freed slot (even by the event that freed it) carries its own action and
// actor, never its predecessor's.
TEST(EventQueueSlots, AnEventInAReusedSlotCarriesItsOwnActionAndActor) {
  EventQueue q;
  std::vector<int> ran;
  for (int i = 0; i < 5; ++i)
    q.at(0, [&ran, &q, i] {
      ran.push_back(i);
      // Scheduled while its own slot is being freed: may land in it.
      q.at(10, [&ran, i] { ran.push_back(100 + i); }, EventTag::test(Actor::client(100 + i)));
    }, EventTag::test(Actor::client(i)));
  for (int i = 0; i < 5; ++i) q.step_at(0);
  ASSERT_EQ(ran, (std::vector<int>{0, 1, 2, 3, 4}));
  const std::vector<EventQueue::Due> due = q.due();
  ASSERT_EQ(due.size(), 5u);
  for (size_t k = 0; k < due.size(); ++k) EXPECT_EQ(due[k].actor, Actor::client(100 + static_cast<int>(k)));
  // Run them picked last-first: each runs its own action.
  for (size_t k = due.size(); k > 0; --k) q.step_chosen(due[k - 1].seq);
  EXPECT_EQ(ran, (std::vector<int>{0, 1, 2, 3, 4, 104, 103, 102, 101, 100}));
  EXPECT_TRUE(q.empty());
}

// Events at random times (many at the same ms), most of which an event at 0 takes back, and one at
// 1500 takes back every event, those that ran included (no effect on them); the same run with the
// taken-back ones never scheduled logs the same, in the same order, and counts only what ran.
std::pair<std::vector<std::string>, uint64_t> run_cancelling(bool schedule_cancelled, uint64_t seed) {
  EventQueue q;
  std::vector<std::string> log;
  std::vector<EventQueue::EventId> ids(600);
  std::vector<int64_t> times(ids.size());
  std::vector<bool> taken_back(ids.size());
  Rng rng(seed);
  for (size_t i = 0; i < ids.size(); ++i) {
    times[i] = static_cast<int64_t>(rng.next() % 3000) / 10 * 10;
    taken_back[i] = rng.next() % 3 != 0;  // most of them: the heap is compacted too
  }
  for (size_t i = 0; i < ids.size(); ++i) {
    if (taken_back[i] && !schedule_cancelled) continue;
    ids[i] = q.at(times[i], [&log, &q, i] { log.push_back(std::to_string(i) + "@" + std::to_string(q.now())); },
                  EventTag::test());
  }
  q.at(0, [&] {
    for (size_t i = 0; i < ids.size(); ++i)
      if (taken_back[i] && times[i] > 0) q.cancel(ids[i]);
  }, EventTag::test());
  q.at(1500, [&] {
    for (const EventQueue::EventId& id : ids) q.cancel(id);
    log.push_back("cut@1500");
  }, EventTag::test());
  while (!q.empty()) q.step_at(q.next_time());
  return {log, q.executed()};
}

TEST(EventQueueCancel, ATakenBackEventIsAsIfNeverScheduled) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    auto [with, with_count] = run_cancelling(true, seed);
    auto [without, without_count] = run_cancelling(false, seed);
    // Counted: what ran (a line each) and the silent canceller at 0; nothing taken back.
    EXPECT_EQ(with_count, with.size() + 1) << "seed " << seed;
    EXPECT_EQ(without_count, without.size() + 1) << "seed " << seed;
    // The events at 0 ran before the canceller could take them back: only they differ.
    std::erase_if(with, [](const std::string& line) { return line.ends_with("@0"); });
    std::erase_if(without, [](const std::string& line) { return line.ends_with("@0"); });
    EXPECT_EQ(with, without) << "seed " << seed;
    ASSERT_FALSE(with.empty());
    EXPECT_EQ(with.back(), "cut@1500") << "seed " << seed << ": everything after 1500 was taken back";
  }
}

TEST(EventQueueCancel, AnEventThatRanOrIsRunningIsNotTakenBack) {
  EventQueue q;
  int runs = 0;
  EventQueue::EventId self;
  self = q.at(5, [&] {
    ++runs;
    q.cancel(self);  // itself, running: nothing to take back
    q.at(6, [&] { ++runs; }, EventTag::test());
  }, EventTag::test());
  const EventQueue::EventId other = q.at(7, [&] { ++runs; }, EventTag::test());
  q.step_at(5);
  q.cancel(self);  // ran already: its slot went to the event at 6, which still runs
  q.step_at(6);
  EXPECT_EQ(runs, 2);
  q.cancel(other);
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.executed(), 2u);
}

}  // namespace
}  // namespace locksim::world
