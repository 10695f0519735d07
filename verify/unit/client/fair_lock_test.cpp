// FairLock in the simulated world, through the same stories for both script eras ("head": Redisson
// 2.7.0 to 3.11.0, "tail": 3.11.1 to 3.30.x), judged by the checkers. Where the eras' verdicts
// differ, a test below pins the difference (docs/checkers.md, "fair_queue", explains it).
#include <gtest/gtest.h>

#include "model/anomaly.hpp"
#include "model/checkers.hpp"
#include "sim/simulation.hpp"

namespace locksim::world {
namespace {

using model::EventKind;
using model::Validity;

OpSpec lock_op(int64_t lease_ms = -1) { return OpSpec::lock_op("orders", lease_ms); }
OpSpec unlock_op() { return OpSpec::unlock("orders"); }
OpSpec work_op(int64_t ms) { return OpSpec::work(ms); }

std::unique_ptr<sim::Simulation> fair_world(const std::string& variant, const std::vector<std::string>& clients) {
  WorldOptions options;
  options.link.latency_min_ms = options.link.latency_max_ms = 1;  // exact times in the comments below
  auto made = std::make_unique<sim::Simulation>(options);
  client::LockSpec spec;
  spec.type = "fair";
  spec.name = "orders";
  EXPECT_TRUE(client::parse_fair_variant(variant, spec.fair.variant));
  spec.fair.thread_wait_ms = 5000;
  made->world.add_lock(spec);
  for (const auto& c : clients) made->world.add_client(c);
  return made;
}

model::Verdict verdict(World& world, const std::string& property) {
  model::CheckerOptions options;
  options.lock_type = "fair";
  return model::run_checkers(world.history(), {property}, options).at(0);
}

std::string why(const model::Verdict& v) { return v.anomaly + ": " + v.explanation; }

// The clients in the order their Holds were recorded.
std::vector<std::string> grant_order(World& world) {
  std::vector<std::string> order;
  for (const auto& e : world.history().events())
    if (e.kind == EventKind::Hold) order.push_back(e.process);
  return order;
}

// Each client takes the lock, works `work_ms` and unlocks.
void take_work_release(World& world, int64_t at, const std::string& client, int64_t work_ms) {
  world.op(at, client, 1, lock_op());
  world.op(at, client, 1, work_op(work_ms));
  world.op(at, client, 1, unlock_op());
}

class FairLockStories : public ::testing::TestWithParam<const char*> {};

TEST_P(FairLockStories, FiveWaitersAreGrantedInTheOrderTheyEnqueued) {
  auto made = fair_world(GetParam(), {"A", "B", "C", "D", "E", "F"});
  World& world = made->world;
  take_work_release(world, 0, "A", 1000);
  const std::vector<std::string> waiters{"B", "C", "D", "E", "F"};
  for (size_t i = 0; i < waiters.size(); ++i) take_work_release(world, 100 * (i + 1), waiters[i], 500);
  world.run_until(60000);
  EXPECT_EQ(grant_order(world), (std::vector<std::string>{"A", "B", "C", "D", "E", "F"}));
  for (const char* property : {"fair_queue", "mutual_exclusion", "liveness", "reentrancy"}) {
    const model::Verdict v = verdict(world, property);
    EXPECT_EQ(v.valid, Validity::Yes) << property << " " << why(v);
  }
}

TEST_P(FairLockStories, ACrashedWaiterIsDroppedOnlyAtItsScoreAndHoldsUpTheNextMeanwhile) {
  // B enqueues at ~100 ms behind A's 30 s watchdog lease: its score is ~100 + 29 900 + 5 000 (both
  // eras). B crashes at 500 ms. A unlocks at 1 000 ms and wakes the head, B, which is dead; C was
  // told to sleep until B's score (~35 000 ms), retries then, prunes B and takes the lock; D follows.
  // Nobody overlaps and every lock() returns, but the ideal drops B at 500 + 5 000 ms: C waits on a
  // free lock for ~29.5 s after that. Redisson's timeout for B counted the 29.9 s of lease ahead of it.
  // Liveness says so too: B's dead entry ahead of C kept C out legitimately only for threadWaitTime
  // after the server last heard from B (~105 ms), so the lock was free for C from ~5.1 s.
  auto made = fair_world(GetParam(), {"A", "B", "C", "D"});
  World& world = made->world;
  take_work_release(world, 0, "A", 1000);
  take_work_release(world, 100, "B", 500);
  take_work_release(world, 200, "C", 500);
  take_work_release(world, 300, "D", 500);
  world.inject(500, {.kind = world::FaultKind::Crash, .client = "B"});
  world.run_until(90000);
  EXPECT_EQ(grant_order(world), (std::vector<std::string>{"A", "C", "D"}));
  int64_t c_hold = -1;
  for (const auto& e : world.history().events())
    if (e.kind == EventKind::Hold && e.process == "C") c_hold = e.at_ms;
  EXPECT_GE(c_hold, 34900);
  EXPECT_LE(c_hold, 35200);
  EXPECT_EQ(verdict(world, "mutual_exclusion").valid, Validity::Yes) << why(verdict(world, "mutual_exclusion"));
  const model::Verdict live = verdict(world, "liveness");
  ASSERT_EQ(live.valid, Validity::No) << why(live);
  EXPECT_EQ(live.anomaly, model::anomaly::kStarved);
  EXPECT_NE(live.explanation.find("Let C:1 wait"), std::string::npos) << live.explanation;
  EXPECT_NE(live.explanation.find("B:1's entry ahead of it kept it out for nobody"), std::string::npos) << live.explanation;
  const model::Verdict v = verdict(world, "fair_queue");
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, model::anomaly::kBlockedByEvicted) << v.explanation;
  EXPECT_NE(v.explanation.find("Let B:1"), std::string::npos) << v.explanation;
  EXPECT_NE(v.explanation.find("due for eviction at 5500 ms"), std::string::npos) << v.explanation;
  EXPECT_NE(v.explanation.find("Then C:1"), std::string::npos) << v.explanation;
}

TEST_P(FairLockStories, AWaiterWhoseClockIsAheadPrunesAnEarlierLiveWaiterAndJumpsTheQueue) {
  // Scores are on the clients' clocks. C's clock is 40 s ahead: at its first attempt (~200 ms) the
  // stale loop, run with C's "now" (~40 200 ms), sees B's score (~35 000 ms) as past and drops B,
  // then queues C as the head. A's unlock wakes C, which takes the lock while B (live, asleep on
  // its ttl) still waits: a fifo-inversion, in both eras (the stale loop is the same).
  auto made = fair_world(GetParam(), {"A", "B", "C"});
  World& world = made->world;
  world.client("C").clock.offset_ms = 40000;
  take_work_release(world, 0, "A", 2000);
  take_work_release(world, 100, "B", 500);
  take_work_release(world, 200, "C", 500);
  world.run_until(90000);
  EXPECT_EQ(grant_order(world), (std::vector<std::string>{"A", "C", "B"}));
  const model::Verdict v = verdict(world, "fair_queue");
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, model::anomaly::kFifoInversion) << v.explanation;
  EXPECT_NE(v.explanation.find("Let B:1 enqueue"), std::string::npos) << v.explanation;
  EXPECT_NE(v.explanation.find("Then C:1"), std::string::npos) << v.explanation;
  EXPECT_EQ(verdict(world, "mutual_exclusion").valid, Validity::Yes) << why(verdict(world, "mutual_exclusion"));
}

TEST_P(FairLockStories, AWaiterWhoseClockIsBehindLosesItsOwnPlace) {
  // B's clock is 40 s behind and B is the first to queue: its score is pttl + wait + B's "now", 40 s
  // in everyone else's past. C's first attempt prunes B and makes C the head, so A's unlock hands
  // the lock to C although B queued first and stayed live.
  auto made = fair_world(GetParam(), {"A", "B", "C"});
  World& world = made->world;
  world.client("B").clock.offset_ms = -40000;
  take_work_release(world, 0, "A", 2000);
  take_work_release(world, 100, "B", 500);
  take_work_release(world, 200, "C", 500);
  world.run_until(90000);
  EXPECT_EQ(grant_order(world).at(1), "C");
  const model::Verdict v = verdict(world, "fair_queue");
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, model::anomaly::kFifoInversion) << v.explanation;
  EXPECT_NE(v.explanation.find("Let B:1 enqueue"), std::string::npos) << v.explanation;
}

INSTANTIATE_TEST_SUITE_P(BothEras, FairLockStories, ::testing::Values("head", "tail"));

// Where the eras part: a holder keeps the lock (watchdog) longer than the lease + threadWaitTime.
// "head": a queued retry re-scores the waiter, so B and C stay queued and follow A in order.
// "tail": a queued waiter's score is fixed at enqueue. B, told its score - wait - now, retries at
// ~30 s and is told a negative ttl, which tryLock takes as "wait the whole remaining time" for a
// message (lock() would wait for a message alone); C likewise. At 60 s A's unlock prunes both
// (their scores, ~35 s and ~40 s, are past) and wakes nobody: B and C wait on a free lock until
// their 80 s run out (lock() would hang for good; Redisson 3.32.0 answers max(0, pttl) instead).
// B and C use tryLock(80 s) so that a stranded waiter's history ends with its failure at ~80 s.
void long_hold(World& world) {
  take_work_release(world, 0, "A", 60000);
  for (const auto& [at, client] : {std::pair<int64_t, const char*>{100, "B"}, {200, "C"}}) {
    world.op(at, client, 1, OpSpec::try_lock("orders", 80000));
    world.op(at, client, 1, unlock_op());
  }
  world.run_until(150000);
}

TEST(FairLockEras, HeadKeepsWaitersBehindALongHoldInOrder) {
  auto made = fair_world("head", {"A", "B", "C"});
  long_hold(made->world);
  EXPECT_EQ(grant_order(made->world), (std::vector<std::string>{"A", "B", "C"}));
  EXPECT_EQ(verdict(made->world, "fair_queue").valid, Validity::Yes) << why(verdict(made->world, "fair_queue"));
  EXPECT_EQ(verdict(made->world, "liveness").valid, Validity::Yes) << why(verdict(made->world, "liveness"));
}

TEST(FairLockEras, TailStrandsWaitersBehindALongHold) {
  for (const char* variant : {"tail", "tail-3.31"}) {
    auto made = fair_world(variant, {"A", "B", "C"});
    long_hold(made->world);
    EXPECT_EQ(grant_order(made->world), (std::vector<std::string>{"A"})) << variant;
    const model::Verdict v = verdict(made->world, "fair_queue");
    ASSERT_EQ(v.valid, Validity::No) << variant;
    EXPECT_EQ(v.anomaly, model::anomaly::kStarved) << variant << " " << v.explanation;
    EXPECT_NE(v.explanation.find("Let B:1"), std::string::npos) << v.explanation;
    EXPECT_EQ(verdict(made->world, "liveness").anomaly, model::anomaly::kStarved) << variant;
  }
}

TEST(FairLockEras, Tail332RetriesOnThePttlAndNobodyIsStranded) {
  auto made = fair_world("tail-3.32", {"A", "B", "C"});
  long_hold(made->world);
  // B and C are pruned from the queue at ~35 s and ~40 s by their own retries and queue again,
  // B first (it retries first), so the order survives here; fair_queue sees one live stay each.
  EXPECT_EQ(grant_order(made->world), (std::vector<std::string>{"A", "B", "C"}));
  EXPECT_EQ(verdict(made->world, "fair_queue").valid, Validity::Yes) << why(verdict(made->world, "fair_queue"));
  EXPECT_EQ(verdict(made->world, "liveness").valid, Validity::Yes) << why(verdict(made->world, "liveness"));
  EXPECT_EQ(verdict(made->world, "mutual_exclusion").valid, Validity::Yes);
}

}  // namespace
}  // namespace locksim::world
