// MultiLock and RedLock in the simulated world, judged by mutual exclusion over the resource they
// guard (the multi-lock's name).
#include <gtest/gtest.h>

#include "model/checkers.hpp"
#include "sim/simulation.hpp"

namespace locksim::world {
namespace {

using model::EventKind;
using model::Validity;

OpSpec lock_op(int64_t lease_ms = -1) { return OpSpec::lock_op("orders", lease_ms); }
OpSpec try_lock_op(int64_t wait_ms, int64_t lease_ms = -1) { return OpSpec::try_lock("orders", wait_ms, lease_ms); }
OpSpec unlock_op() { return OpSpec::unlock("orders"); }
OpSpec work_op(int64_t ms) { return OpSpec::work(ms); }

std::unique_ptr<sim::Simulation> make_world(const std::string& type, int parts, int servers) {
  WorldOptions options;
  options.servers = servers;
  auto made = std::make_unique<sim::Simulation>(options);
  World* world = &made->world;
  client::LockSpec spec;
  spec.type = type;
  spec.name = "orders";
  spec.parts = parts;
  world->add_lock(spec);
  world->add_client("A");
  world->add_client("B");
  return made;
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
  w->world.op(0, "A", 1, lock_op());
  w->world.op(0, "A", 1, work_op(1000));
  w->world.op(0, "A", 1, unlock_op());
  w->world.op(500, "B", 1, try_lock_op(0));
  w->world.op(2000, "B", 1, try_lock_op(0));
  w->world.op(2000, "B", 1, unlock_op());
  w->world.run_until(5000);
  EXPECT_EQ(outcome(w->world, "A", "lock").kind, EventKind::Ok);
  EXPECT_EQ(outcome(w->world, "B", "try_lock", 0).kind, EventKind::Fail);
  EXPECT_EQ(outcome(w->world, "B", "try_lock", 1).kind, EventKind::Ok);
  EXPECT_EQ(outcome(w->world, "B", "unlock").kind, EventKind::Ok);
  // All three keys were taken by A, then by B, and are gone at the end.
  for (const char* key : {"orders-1", "orders-2", "orders-3"})
    EXPECT_EQ(w->servers.node(0).engine().keyspace().entries().count(key), 0u) << key;
  EXPECT_EQ(mutual_exclusion(w->world), Validity::Yes);
}

TEST(MultiLock, TryLockGivesUpWithinItsWait) {
  auto w = make_world("multi", 3, 1);
  w->world.op(0, "A", 1, lock_op());
  w->world.op(100, "B", 1, try_lock_op(3000));
  w->world.run_until(10000);
  const model::Event b = outcome(w->world, "B", "try_lock");
  EXPECT_EQ(b.kind, EventKind::Fail);
  EXPECT_GE(b.at_ms, 100 + 3000 - 10);
  EXPECT_LE(b.at_ms, 100 + 3000 + 50) << "gave up at " << b.at_ms;
  EXPECT_EQ(mutual_exclusion(w->world), Validity::Yes);
}

TEST(MultiLock, AnExplicitLeaseIsSetOnEveryLockAtTheEnd) {
  auto w = make_world("multi", 2, 1);
  w->world.op(0, "A", 1, try_lock_op(1000, 20000));
  w->world.run_until(100);
  EXPECT_EQ(outcome(w->world, "A", "try_lock").kind, EventKind::Ok);
  // During tryLock the sub-locks take 2 x wait (2000 ms); the end PEXPIREs them to the lease.
  for (const char* key : {"orders-1", "orders-2"}) {
    const auto& entry = w->servers.node(0).engine().keyspace().entries().at(key);
    EXPECT_GT(entry.expire_at_ms - w->world.epoch_now(), 19000) << key;
  }
}

TEST(RedLock, SurvivesOneOfFiveServersRestarting) {
  auto w = make_world("red", 5, 5);
  w->world.op(0, "A", 1, lock_op());
  w->world.op(0, "A", 1, work_op(20000));
  w->world.op(0, "A", 1, unlock_op());
  w->world.inject(1000, {.kind = world::FaultKind::RedisRestart, .server = 2, .persistence = Persistence::None});
  w->world.op(2000, "B", 1, try_lock_op(0));
  w->world.run_until(25000);
  EXPECT_EQ(outcome(w->world, "A", "lock").kind, EventKind::Ok);
  EXPECT_EQ(outcome(w->world, "B", "try_lock").kind, EventKind::Fail) << "B can take only the restarted server's copy";
  EXPECT_EQ(mutual_exclusion(w->world), Validity::Yes);
}

TEST(RedLock, DoesNotSurviveThreeOfFiveServersRestarting) {
  auto w = make_world("red", 5, 5);
  w->world.op(0, "A", 1, lock_op());
  w->world.op(0, "A", 1, work_op(20000));
  w->world.op(0, "A", 1, unlock_op());
  for (int server : {0, 2, 4}) w->world.inject(1000, {.kind = world::FaultKind::RedisRestart, .server = server, .persistence = Persistence::None});
  w->world.op(2000, "B", 1, try_lock_op(0));
  w->world.run_until(25000);
  EXPECT_EQ(outcome(w->world, "B", "try_lock").kind, EventKind::Ok) << "three of five is a majority for B";
  EXPECT_EQ(mutual_exclusion(w->world), Validity::No);
}

// RedissonRedLockTest.testLockSuccess / testLockFailed: a foreign holder on some servers.
void hold_elsewhere(sim::Simulation& s, int server) {
  engine::Engine& engine = s.servers.node(server).engine();
  const engine::SessionId session = engine.open_session();
  EXPECT_EQ(engine.execute(session, {"HSET", "orders", "someone-else:1", "1"}), Reply::integer_of(1));
  EXPECT_EQ(engine.execute(session, {"PEXPIRE", "orders", "60000"}), Reply::integer_of(1));
}

TEST(RedLock, OneServerHeldElsewhereStillLeavesAMajority) {
  auto w = make_world("red", 3, 3);
  hold_elsewhere(*w, 2);
  w->world.op(100, "B", 1, try_lock_op(0));
  w->world.run_until(5000);
  EXPECT_EQ(outcome(w->world, "B", "try_lock").kind, EventKind::Ok);
}

TEST(RedLock, TwoServersHeldElsewhereLeaveNoMajority) {
  auto w = make_world("red", 3, 3);
  hold_elsewhere(*w, 1);
  hold_elsewhere(*w, 2);
  w->world.op(100, "B", 1, try_lock_op(0));
  w->world.run_until(5000);
  EXPECT_EQ(outcome(w->world, "B", "try_lock").kind, EventKind::Fail);
  // What B took on server 0 was released again.
  EXPECT_EQ(w->servers.node(0).engine().keyspace().entries().count("orders"), 0u);
}

}  // namespace
}  // namespace locksim::world
