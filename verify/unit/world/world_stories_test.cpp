// The seeds' stories run in the simulated world and judged by the checkers, as scenario files will
// judge them: where a lock holds, the checkers say so; where it breaks, they find the break.
#include <gtest/gtest.h>

#include "model/anomaly.hpp"
#include "model/checkers.hpp"
#include "sim/simulation.hpp"

namespace locksim::world {
namespace {

using model::Validity;

OpSpec lock_op(int64_t lease_ms = -1) { return OpSpec::lock_op("orders", lease_ms); }
OpSpec try_lock_op(int64_t wait_ms, int64_t lease_ms = -1) { return OpSpec::try_lock("orders", wait_ms, lease_ms); }
OpSpec unlock_op() { return OpSpec::unlock("orders"); }
OpSpec work_op(int64_t ms) { return OpSpec::work(ms); }
OpSpec write_op() { return OpSpec::write("orders"); }

std::unique_ptr<sim::Simulation> make_world(const std::string& type, std::vector<std::string> clients = {"A", "B"}) {
  auto made = std::make_unique<sim::Simulation>(WorldOptions{});
  World& world = made->world;
  client::LockSpec spec;
  spec.type = type;
  spec.name = "orders";
  world.add_lock(spec);
  for (const auto& c : clients) world.add_client(c);
  return made;
}

model::Verdict verdict(World& world, const std::string& property, const std::string& type = "rlock") {
  model::CheckerOptions options;
  options.lock_type = type;
  return model::run_checkers(world.history(), {property}, options).at(0);
}

std::string why(const model::Verdict& v) { return v.anomaly + ": " + v.explanation; }

TEST(WorldStories, TheWatchdogHoldsALongJobsLockAndEveryPropertyHolds) {
  auto made = make_world("rlock");
  World& world = made->world;
  world.op(0, "A", 1, lock_op());
  world.op(0, "A", 1, work_op(300000));
  world.op(0, "A", 1, unlock_op());
  world.op(1000, "B", 1, lock_op());
  world.op(1000, "B", 1, work_op(100));
  world.op(1000, "B", 1, unlock_op());
  world.run_until(330000);
  for (const char* property : {"mutual_exclusion", "reentrancy", "watchdog", "liveness"}) {
    const model::Verdict v = verdict(world, property);
    EXPECT_EQ(v.valid, Validity::Yes) << property << " " << why(v);
  }
}

// A partial unlock (count 2 to 1) also restarts the lease: the key of a holder that crashes after it
// expires one lease after that unlock, not after the last renewal (a false positive found by
// exploration).
TEST(WorldStories, APartialUnlockRestartsTheLeaseTheWatchdogCheckerCountsFrom) {
  auto made = make_world("rlock");
  World& world = made->world;
  world.op(0, "A", 1, lock_op());
  world.op(0, "A", 1, lock_op());
  world.op(25000, "A", 1, unlock_op());
  world.inject(26000, {.kind = world::FaultKind::Crash, .client = "A"});
  world.run_until(90000);
  const model::Verdict v = verdict(world, "watchdog");
  EXPECT_EQ(v.valid, Validity::Yes) << why(v);
}

// A key left with no expiry by nobody alive (here planted directly on the server): B's lock() is
// told ttl -1 and waits for a message that never comes, recording nothing more. Its refusal by a key
// nobody can release is starvation at once; only the End of the run shows how long B then waited.
TEST(WorldStories, ALockWaitingForeverIsJudgedAtTheEndOfTheRun) {
  auto made = make_world("rlock");
  World& world = made->world;
  engine::Engine& engine = made->servers.node(0).engine();
  const engine::SessionId session = engine.open_session();
  ASSERT_EQ(engine.execute(session, {"HSET", "orders", "gone-client:1", "1"}), Reply::integer_of(1));
  world.op(100, "B", 1, lock_op());
  world.run_until(60000);
  const model::Verdict refused = verdict(world, "liveness");
  ASSERT_EQ(refused.valid, Validity::No) << "the history stops at B's attempt, refused by a key nobody can release";
  EXPECT_NE(refused.find("refusal"), nullptr) << why(refused);
  world.finish();
  const model::Verdict v = verdict(world, "liveness");
  ASSERT_EQ(v.valid, Validity::No) << why(v);
  EXPECT_EQ(v.anomaly, model::anomaly::kStarved);
  // From B's first attempt, which showed the planted key, to the end: held for nobody, forever.
  bool forever = false;
  for (const model::Evidence& e : v.evidence) forever = forever || (e.role == "free" && e.state == "forever" && e.to_ms == 60000);
  EXPECT_TRUE(forever) << why(v);
}

TEST(WorldStories, AnExplicitLeaseShorterThanTheWorkBreaksMutualExclusion) {
  auto made = make_world("rlock");
  World& world = made->world;
  world.op(0, "A", 1, lock_op(10000));
  world.op(0, "A", 1, work_op(20000));
  world.op(0, "A", 1, unlock_op());
  world.op(1000, "B", 1, try_lock_op(15000));
  world.run_until(30000);
  const model::Verdict v = verdict(world, "mutual_exclusion");
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, model::anomaly::kMutexOverlap);
  EXPECT_NE(v.explanation.find("A:1"), std::string::npos) << v.explanation;
  EXPECT_NE(v.explanation.find("B:1"), std::string::npos) << v.explanation;
  EXPECT_EQ(verdict(world, "watchdog").valid, Validity::Yes) << why(verdict(world, "watchdog"));
}

TEST(WorldStories, APauseLongerThanTheLeaseBreaksTheWatchdogRLock) {
  auto made = make_world("rlock");
  World& world = made->world;
  world.op(0, "A", 1, lock_op());
  world.inject(1000, {.kind = world::FaultKind::Pause, .client = "A", .for_ms = 40000});  // the watchdog pauses with its client
  world.op(1000, "A", 1, work_op(100));
  world.op(1000, "A", 1, unlock_op());
  world.op(35000, "B", 1, try_lock_op(0));
  world.run_until(60000);
  EXPECT_EQ(verdict(world, "mutual_exclusion").valid, Validity::No);
  // The lapse is excused: the holder was paused.
  EXPECT_EQ(verdict(world, "watchdog").valid, Validity::Yes) << why(verdict(world, "watchdog"));
}

TEST(WorldStories, APauseBreaksTheTokenLockButFencingKeepsTheResourceInOrder) {
  auto made = make_world("token");
  World& world = made->world;
  world.op(0, "A", 1, lock_op(10000));
  world.inject(100, {.kind = world::FaultKind::Pause, .client = "A", .for_ms = 15000});
  world.op(100, "A", 1, write_op());
  world.op(100, "A", 1, unlock_op());
  world.op(11000, "B", 1, try_lock_op(0, 10000));
  world.op(11000, "B", 1, write_op());
  world.op(11000, "B", 1, unlock_op());
  world.run_until(20000);
  EXPECT_EQ(verdict(world, "mutual_exclusion", "token").valid, Validity::No);
  EXPECT_EQ(verdict(world, "fencing", "token").valid, Validity::Yes) << why(verdict(world, "fencing", "token"));
}

TEST(WorldStories, SetnxThenExpireWithACrashBetweenViolatesLiveness) {
  WorldOptions options;
  options.link.latency_min_ms = options.link.latency_max_ms = 1;
  sim::Simulation sim(options);
  World& world = sim.world;
  client::LockSpec spec;
  spec.type = "setnx";
  spec.name = "orders";
  world.add_lock(spec);
  world.add_client("A");
  world.add_client("B");
  world.op(0, "A", 1, lock_op(5000));
  world.inject(2, {.kind = world::FaultKind::Crash, .client = "A"});
  world.op(100, "B", 1, try_lock_op(60000));
  world.run_until(70000);
  const model::Verdict v = verdict(world, "liveness");
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, model::anomaly::kStarved);
}

TEST(WorldStories, TheNaiveDelDeletesTheNextHoldersLock) {
  auto made = make_world("naive", {"A", "B", "C"});
  World& world = made->world;
  world.op(0, "A", 1, lock_op(1000));
  world.op(0, "A", 1, work_op(2000));
  world.op(0, "A", 1, unlock_op());
  world.op(1500, "B", 1, try_lock_op(0, 10000));
  world.op(1500, "B", 1, work_op(3000));
  world.op(1500, "B", 1, unlock_op());
  world.op(2100, "C", 1, try_lock_op(0, 10000));
  world.run_until(6000);
  const model::Verdict v = verdict(world, "mutual_exclusion", "naive");
  ASSERT_EQ(v.valid, Validity::No);
  // The first overlap is the timeout problem itself (A works past its lease while B holds); the
  // DEL then hands C the lock under B as well (World.TheNaiveDelReleasesSomeoneElsesLock).
  EXPECT_NE(v.explanation.find("B:1"), std::string::npos) << v.explanation;
}

TEST(WorldStories, ARedisRestartWithoutPersistenceHandsTheLockToASecondClient) {
  auto made = make_world("rlock");
  World& world = made->world;
  world.op(0, "A", 1, lock_op());
  world.op(0, "A", 1, work_op(20000));
  world.op(0, "A", 1, unlock_op());
  world.inject(5000, {.kind = world::FaultKind::RedisRestart, .persistence = Persistence::None});
  world.op(6000, "B", 1, try_lock_op(0));
  world.run_until(30000);
  EXPECT_EQ(verdict(world, "mutual_exclusion").valid, Validity::No);
}

TEST(WorldStories, ARestartFromTheAofKeepsALockTakenMoreThanASecondBefore) {
  auto made = make_world("rlock");
  World& world = made->world;
  world.op(0, "A", 1, lock_op());
  world.op(0, "A", 1, work_op(20000));
  world.op(0, "A", 1, unlock_op());
  world.inject(5000, {.kind = world::FaultKind::RedisRestart, .persistence = Persistence::AofEverySec});
  world.op(6000, "B", 1, try_lock_op(0));
  world.run_until(30000);
  EXPECT_EQ(verdict(world, "mutual_exclusion").valid, Validity::Yes) << why(verdict(world, "mutual_exclusion"));
  EXPECT_EQ(verdict(world, "reentrancy").valid, Validity::Yes) << why(verdict(world, "reentrancy"));
}

TEST(WorldStories, FailoverToALaggingReplicaLosesTheLock) {
  auto made = make_world("rlock");
  World& world = made->world;
  world.op(0, "A", 1, lock_op());
  world.op(0, "A", 1, work_op(20000));
  world.op(0, "A", 1, unlock_op());
  world.inject(500, {.kind = world::FaultKind::Failover, .lag_ms = 1000});  // the replica is a second behind: it never saw A's lock
  world.op(1000, "B", 1, try_lock_op(0));
  world.run_until(30000);
  EXPECT_EQ(verdict(world, "mutual_exclusion").valid, Validity::No);
}

TEST(WorldStories, FailoverToAReplicaThatCaughtUpKeepsTheLock) {
  auto made = make_world("rlock");
  World& world = made->world;
  world.op(0, "A", 1, lock_op());
  world.op(0, "A", 1, work_op(20000));
  world.op(0, "A", 1, unlock_op());
  world.inject(5000, {.kind = world::FaultKind::Failover, .lag_ms = 1000});
  world.op(6000, "B", 1, try_lock_op(0));
  world.run_until(30000);
  EXPECT_EQ(verdict(world, "mutual_exclusion").valid, Validity::Yes) << why(verdict(world, "mutual_exclusion"));
}

// A replica with no lag has everything the master had (found by review: it was promoted empty).
TEST(WorldStories, FailoverToAReplicaWithNoLagKeepsTheLock) {
  auto made = make_world("rlock");
  World& world = made->world;
  world.op(0, "A", 1, lock_op());
  world.op(0, "A", 1, work_op(20000));
  world.op(0, "A", 1, unlock_op());
  world.inject(500, {.kind = world::FaultKind::Failover, .lag_ms = 0});
  world.op(1000, "B", 1, try_lock_op(0));
  world.run_until(30000);
  EXPECT_EQ(verdict(world, "mutual_exclusion").valid, Validity::Yes) << why(verdict(world, "mutual_exclusion"));
}

TEST(WorldStories, ABackwardClockJumpStretchesAWaitersDeadline) {
  auto made = make_world("rlock");
  World& world = made->world;
  world.op(0, "A", 1, lock_op());
  world.op(0, "A", 1, work_op(30000));
  world.op(0, "A", 1, unlock_op());
  world.op(100, "B", 1, try_lock_op(10000));
  // B's wall clock steps back 20 s. Redisson measures the time left with the wall clock, so after
  // its first 10 s wait it believes -10 s have passed and keeps waiting.
  world.inject(200, {.kind = world::FaultKind::ClockJump, .client = "B", .by_ms = -20000});
  world.run_until(40000);
  int64_t outcome_at = -1;
  model::EventKind outcome = model::EventKind::Info;
  for (const auto& e : world.history().events()) {
    if (e.process == "B" && e.f == "try_lock" && (e.kind == model::EventKind::Ok || e.kind == model::EventKind::Fail)) {
      outcome_at = e.at_ms;
      outcome = e.kind;
    }
  }
  EXPECT_EQ(outcome, model::EventKind::Ok);
  EXPECT_GE(outcome_at, 30000) << "B was still waiting 20 s after its 10 s tryLock should have given up";
}

}  // namespace
}  // namespace locksim::world
