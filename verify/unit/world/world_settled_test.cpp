// World::settled(): the question a live run without run_ms asks each second to end early. It must
// say yes once nothing more can happen, and no while anything could: an operation queued or running,
// a hold (alive or crashed), a paused client, a lasting fault, an awaited failover.
#include <gtest/gtest.h>

#include "sim/simulation.hpp"

namespace locksim::world {
namespace {

client::LockSpec rlock() {
  client::LockSpec spec;
  spec.type = "rlock";
  spec.name = "orders";
  return spec;
}

struct Settling : ::testing::Test {
  sim::Simulation sim{WorldOptions{}};
  World& world = sim.world;
  void SetUp() override {
    world.add_lock(rlock());
    world.add_client("A");
    world.add_client("B");
  }
};

TEST_F(Settling, AWorldWithNothingScheduledIsSettled) {
  world.run_until(1000);
  EXPECT_TRUE(world.settled());
}

TEST_F(Settling, AnOperationStillToComeKeepsItUnsettled) {
  world.op(5000, "A", 1, OpSpec::try_lock("orders", 0, 1000));
  world.run_until(1000);
  EXPECT_FALSE(world.settled());
}

TEST_F(Settling, ItSettlesOnceTheLastHoldIsReleasedAndTheWatchdogHasStopped) {
  world.op(0, "A", 1, OpSpec::lock_op("orders", -1));
  world.op(0, "A", 1, OpSpec::work(2000));
  world.op(0, "A", 1, OpSpec::unlock("orders"));
  world.op(100, "B", 1, OpSpec::try_lock("orders", 0, -1));
  world.run_until(1000);
  EXPECT_FALSE(world.settled()) << "A holds the lock and works";
  world.run_until(30000);
  EXPECT_TRUE(world.settled()) << "A unlocked at 2 s; B gave up at once";
}

TEST_F(Settling, AHeldLockKeepsItUnsettled) {
  world.op(0, "A", 1, OpSpec::lock_op("orders", 5000));
  world.run_until(30000);  // its lease ran out long ago, but A still believes it holds the lock
  EXPECT_FALSE(world.settled());
}

TEST_F(Settling, ACrashedHoldersLockKeepsItUnsettled) {
  world.op(0, "A", 1, OpSpec::lock_op("orders", 5000));
  world.inject(1000, Fault{.kind = FaultKind::Crash, .client = "A"});
  world.run_until(30000);
  EXPECT_FALSE(world.settled()) << "the key a crashed holder left may still be on the server";
}

TEST_F(Settling, APausedClientKeepsItUnsettledUntilItResumes) {
  world.inject(1000, Fault{.kind = FaultKind::Pause, .client = "A", .for_ms = 5000});
  world.run_until(3000);
  EXPECT_FALSE(world.settled());
  world.run_until(7000);
  EXPECT_TRUE(world.settled());
}

TEST_F(Settling, ALastingFaultWithNoEventOfItsOwnKeepsItUnsettledUntilItEnds) {
  world.inject(1000, Fault{.kind = FaultKind::Delay, .client = "B", .for_ms = 8000, .extra_ms = 300});
  world.run_until(5000);
  EXPECT_FALSE(world.settled());
  world.run_until(9000);
  EXPECT_TRUE(world.settled());
}

TEST(SettlingFailover, ASentinelFailoverKeepsItUnsettledUntilThePromotionIsRecorded) {
  sim::Simulation sim{WorldOptions{}};
  World& world = sim.world;
  world.add_lock(rlock());
  world.add_client("A");
  world.inject(1000, Fault{.kind = FaultKind::Failover, .sentinel = true, .down_ms = 3000});
  world.run_until(2000);
  EXPECT_FALSE(world.settled()) << "the master is down, its replica not yet promoted";
  world.run_until(10000);
  bool promoted = false;
  for (const auto& e : world.history().events()) promoted = promoted || (e.kind == model::EventKind::Fault && e.f == "failover");
  ASSERT_TRUE(promoted);
  EXPECT_TRUE(world.settled());
}

}  // namespace
}  // namespace locksim::world
