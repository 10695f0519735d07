// MultiLock and RedLock in the simulated world, judged by mutual exclusion over the resource they
// guard (the multi-lock's name).
#include <gtest/gtest.h>

#include "model/checkers.hpp"
#include "world/world.hpp"

namespace locksim::world {
namespace {

using model::EventKind;
using model::Validity;

OpSpec lock_op(int64_t lease_ms = -1) { return {OpSpec::Kind::Lock, "orders", -1, lease_ms, 0}; }
OpSpec try_lock_op(int64_t wait_ms, int64_t lease_ms = -1) { return {OpSpec::Kind::TryLock, "orders", wait_ms, lease_ms, 0}; }
OpSpec unlock_op() { return {OpSpec::Kind::Unlock, "orders", -1, -1, 0}; }
OpSpec work_op(int64_t ms) { return {OpSpec::Kind::Work, "", -1, -1, ms}; }

std::unique_ptr<World> make_world(const std::string& type, int parts, int servers) {
  WorldOptions options;
  options.servers = servers;
  auto world = std::make_unique<World>(options);
  LockSpec spec;
  spec.type = type;
  spec.name = "orders";
  spec.parts = parts;
  world->add_lock(spec);
  world->add_client("A");
  world->add_client("B");
  return world;
}

model::Event outcome(const World& w, const std::string& process, const std::string& f, size_t n = 0) {
  size_t seen = 0;
  for (const auto& e : const_cast<World&>(w).history().events())
    if (e.process == process && e.f == f &&
        (e.kind == EventKind::Ok || e.kind == EventKind::Fail || e.kind == EventKind::Info) && seen++ == n)
      return e;
  ADD_FAILURE() << "no outcome of " << process << " " << f;
  return {};
}

Validity mutual_exclusion(World& w) { return model::run_checkers(w.history(), {"mutual_exclusion"})[0].valid; }

TEST(MultiLock, TakesEveryLockAndKeepsOthersOut) {
  auto w = make_world("multi", 3, 1);
  w->op(0, "A", 1, lock_op());
  w->op(0, "A", 1, work_op(1000));
  w->op(0, "A", 1, unlock_op());
  w->op(500, "B", 1, try_lock_op(0));
  w->op(2000, "B", 1, try_lock_op(0));
  w->op(2000, "B", 1, unlock_op());
  w->run_until(5000);
  EXPECT_EQ(outcome(*w, "A", "lock").kind, EventKind::Ok);
  EXPECT_EQ(outcome(*w, "B", "try_lock", 0).kind, EventKind::Fail);
  EXPECT_EQ(outcome(*w, "B", "try_lock", 1).kind, EventKind::Ok);
  EXPECT_EQ(outcome(*w, "B", "unlock").kind, EventKind::Ok);
  // All three keys were taken by A, then by B, and are gone at the end.
  for (const char* key : {"orders-1", "orders-2", "orders-3"})
    EXPECT_EQ(w->node().engine().keyspace().entries().count(key), 0u) << key;
  EXPECT_EQ(mutual_exclusion(*w), Validity::Yes);
}

TEST(MultiLock, TryLockGivesUpWithinItsWait) {
  auto w = make_world("multi", 3, 1);
  w->op(0, "A", 1, lock_op());
  w->op(100, "B", 1, try_lock_op(3000));
  w->run_until(10000);
  const model::Event b = outcome(*w, "B", "try_lock");
  EXPECT_EQ(b.kind, EventKind::Fail);
  EXPECT_GE(b.at_ms, 100 + 3000 - 10);
  EXPECT_LE(b.at_ms, 100 + 3000 + 50) << "gave up at " << b.at_ms;
  EXPECT_EQ(mutual_exclusion(*w), Validity::Yes);
}

TEST(MultiLock, AnExplicitLeaseIsSetOnEveryLockAtTheEnd) {
  auto w = make_world("multi", 2, 1);
  w->op(0, "A", 1, try_lock_op(1000, 20000));
  w->run_until(100);
  EXPECT_EQ(outcome(*w, "A", "try_lock").kind, EventKind::Ok);
  // During tryLock the sub-locks take 2 x wait (2000 ms); the end PEXPIREs them to the lease.
  for (const char* key : {"orders-1", "orders-2"}) {
    const auto& entry = w->node().engine().keyspace().entries().at(key);
    EXPECT_GT(entry.expire_at_ms - w->epoch_now(), 19000) << key;
  }
}

TEST(RedLock, SurvivesOneOfFiveServersRestarting) {
  auto w = make_world("red", 5, 5);
  w->op(0, "A", 1, lock_op());
  w->op(0, "A", 1, work_op(20000));
  w->op(0, "A", 1, unlock_op());
  w->redis_restart(1000, Persistence::None, 2);
  w->op(2000, "B", 1, try_lock_op(0));
  w->run_until(25000);
  EXPECT_EQ(outcome(*w, "A", "lock").kind, EventKind::Ok);
  EXPECT_EQ(outcome(*w, "B", "try_lock").kind, EventKind::Fail) << "B can take only the restarted server's copy";
  EXPECT_EQ(mutual_exclusion(*w), Validity::Yes);
}

TEST(RedLock, DoesNotSurviveThreeOfFiveServersRestarting) {
  auto w = make_world("red", 5, 5);
  w->op(0, "A", 1, lock_op());
  w->op(0, "A", 1, work_op(20000));
  w->op(0, "A", 1, unlock_op());
  for (int server : {0, 2, 4}) w->redis_restart(1000, Persistence::None, server);
  w->op(2000, "B", 1, try_lock_op(0));
  w->run_until(25000);
  EXPECT_EQ(outcome(*w, "B", "try_lock").kind, EventKind::Ok) << "three of five is a majority for B";
  EXPECT_EQ(mutual_exclusion(*w), Validity::No);
}

// RedissonRedLockTest.testLockSuccess / testLockFailed: a foreign holder on some servers.
void hold_elsewhere(World& w, int server) {
  engine::Engine& engine = w.node(server).engine();
  const engine::SessionId session = engine.open_session();
  EXPECT_EQ(engine.execute(session, {"HSET", "orders", "someone-else:1", "1"}), Reply::integer_of(1));
  EXPECT_EQ(engine.execute(session, {"PEXPIRE", "orders", "60000"}), Reply::integer_of(1));
}

TEST(RedLock, OneServerHeldElsewhereStillLeavesAMajority) {
  auto w = make_world("red", 3, 3);
  hold_elsewhere(*w, 2);
  w->op(100, "B", 1, try_lock_op(0));
  w->run_until(5000);
  EXPECT_EQ(outcome(*w, "B", "try_lock").kind, EventKind::Ok);
}

TEST(RedLock, TwoServersHeldElsewhereLeaveNoMajority) {
  auto w = make_world("red", 3, 3);
  hold_elsewhere(*w, 1);
  hold_elsewhere(*w, 2);
  w->op(100, "B", 1, try_lock_op(0));
  w->run_until(5000);
  EXPECT_EQ(outcome(*w, "B", "try_lock").kind, EventKind::Fail);
  // What B took on server 0 was released again.
  EXPECT_EQ(w->node(0).engine().keyspace().entries().count("orders"), 0u);
}

}  // namespace
}  // namespace locksim::world
