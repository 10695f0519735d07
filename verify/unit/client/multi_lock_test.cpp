// MultiLock and RedLock in the simulated world, judged by mutual exclusion over the resource they
// guard (the multi-lock's name).
#include <gtest/gtest.h>

#include <cstdlib>

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

std::unique_ptr<sim::Simulation> make_world(const std::string& type, int parts, int servers,
                                            client::MultiOptions multi = {}) {
  WorldOptions options;
  options.servers = servers;
  auto made = std::make_unique<sim::Simulation>(options);
  World* world = &made->world;
  client::LockSpec spec;
  spec.type = type;
  spec.name = "orders";
  spec.parts = parts;
  spec.multi = multi;
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

// --- Behaviours that changed across Redisson versions (redisson-versions.md)

bool has_key(sim::Simulation& s, const std::string& key, int server = 0) {
  return s.servers.node(server).engine().keyspace().entries().count(key) > 0;
}

int64_t pttl(sim::Simulation& s, const std::string& key) {
  return s.servers.node(0).engine().keyspace().entries().at(key).expire_at_ms - s.world.epoch_now();
}

// The Exec events of `client`'s requests with script role `role` on `lock`.
std::vector<model::Event> execs(World& w, const std::string& client, const std::string& role, const std::string& lock) {
  std::vector<model::Event> out;
  for (const auto& e : w.history().events())
    if (e.kind == EventKind::Exec && e.client == client && e.f == role && e.lock == lock) out.push_back(e);
  return out;
}

// #2172: A and B both tryLock(-1, 10 s) the MultiLock, B while A holds it.
std::unique_ptr<sim::Simulation> try_lock_minus_one(bool negative_sub_lease) {
  auto w = make_world("multi", 3, 1, {.negative_sub_lease = negative_sub_lease});
  w->world.op(0, "A", 1, try_lock_op(-1, 10000));
  w->world.op(0, "A", 1, work_op(5000));
  w->world.op(0, "A", 1, unlock_op());
  w->world.op(100, "B", 1, try_lock_op(-1, 10000));
  w->world.run_until(200);
  return w;
}

TEST(MultiLock, UpTo3_11_0TryLockMinusOneWithALeaseDeletesEverySubLockAndEveryCallerHolds) {
  auto w = try_lock_minus_one(true);
  EXPECT_EQ(outcome(w->world, "A", "try_lock").kind, EventKind::Ok);
  EXPECT_EQ(outcome(w->world, "B", "try_lock").kind, EventKind::Ok) << "B holds while A does";
  for (const char* key : {"orders-1", "orders-2", "orders-3"}) {
    EXPECT_FALSE(has_key(*w, key)) << key;
    // Each sub-lock's script PEXPIREd the key it had just taken into the past (-2 ms, sent as 0):
    // it took the key and deleted it in the same run.
    const std::vector<model::Event> taken = execs(w->world, "B", "acquire", key);
    ASSERT_EQ(taken.size(), 1u) << key;
    EXPECT_EQ(taken[0].reply, "nil") << key;
    EXPECT_EQ(taken[0].ttl_ms, -2) << key << ": no key after the acquire";
    // The final PEXPIRE to the lease finds no key.
    const std::vector<model::Event> expired = execs(w->world, "B", "expire", key);
    ASSERT_EQ(expired.size(), 1u) << key;
    EXPECT_EQ(expired[0].reply, "0") << key;
  }
  w->world.run_until(10000);
  EXPECT_EQ(mutual_exclusion(w->world), Validity::No);
}

TEST(MultiLock, From3_11_1TryLockMinusOneTakesTheLeaseAndASecondCallerFails) {
  auto w = try_lock_minus_one(false);
  EXPECT_EQ(outcome(w->world, "A", "try_lock").kind, EventKind::Ok);
  EXPECT_EQ(outcome(w->world, "B", "try_lock").kind, EventKind::Fail);
  for (const char* key : {"orders-1", "orders-2", "orders-3"}) {
    ASSERT_TRUE(has_key(*w, key)) << key;
    EXPECT_GT(pttl(*w, key), 9700) << key;
    EXPECT_LE(pttl(*w, key), 10000) << key;
  }
  // B tried orders-1 once, found it held, and gave up at once.
  EXPECT_EQ(execs(w->world, "B", "acquire", "orders-1").size(), 1u);
  EXPECT_EQ(execs(w->world, "B", "acquire", "orders-2").size(), 0u);
  w->world.run_until(10000);
  EXPECT_EQ(mutual_exclusion(w->world), Validity::Yes);
}

TEST(MultiLock, UpTo3_11_0TryLockMinusOneWithALeaseStartsAgainWhileASubLockIsHeld) {
  // A holds with lock() (the watchdog); B's tryLock(-1, lease) keeps trying orders-1 instead of
  // giving up, and gets the lock once A unlocks.
  for (const bool buggy : {true, false}) {
    auto w = make_world("multi", 2, 1, {.negative_sub_lease = buggy});
    w->world.op(0, "A", 1, lock_op());
    w->world.op(0, "A", 1, work_op(1000));
    w->world.op(0, "A", 1, unlock_op());
    w->world.op(100, "B", 1, try_lock_op(-1, 10000));
    w->world.run_until(3000);
    const model::Event b = outcome(w->world, "B", "try_lock");
    EXPECT_EQ(b.kind, buggy ? EventKind::Ok : EventKind::Fail) << buggy;
    if (buggy) {
      EXPECT_GT(b.at_ms, 1000) << "B got it only after A's unlock";
      EXPECT_GT(execs(w->world, "B", "acquire", "orders-1").size(), 10u);
    } else {
      EXPECT_LT(b.at_ms, 200);
      EXPECT_EQ(execs(w->world, "B", "acquire", "orders-1").size(), 1u);
    }
  }
}

// #5484: A calls lock(5, SECONDS) and works for 3 s; B calls lock() at 1 s.
std::unique_ptr<sim::Simulation> lock_five_seconds(bool lease_unit_ignored) {
  auto w = make_world("multi", 3, 1, {.lease_unit_ignored = lease_unit_ignored});
  OpSpec five_seconds = lock_op(5000);
  five_seconds.lease_unit_ms = 1000;
  w->world.op(0, "A", 1, five_seconds);
  w->world.op(0, "A", 1, work_op(3000));
  w->world.op(0, "A", 1, unlock_op());
  w->world.op(1000, "B", 1, lock_op());
  w->world.op(1000, "B", 1, work_op(100));
  w->world.op(1000, "B", 1, unlock_op());
  w->world.run_until(500);
  return w;
}

TEST(MultiLock, From3_17_0To3_25_0LockWithALeaseInSecondsExpiresAfterThatManyMilliseconds) {
  auto w = lock_five_seconds(true);
  EXPECT_EQ(outcome(w->world, "A", "lock").kind, EventKind::Ok);
  for (const char* key : {"orders-1", "orders-2", "orders-3"}) {
    EXPECT_FALSE(has_key(*w, key)) << key << " expired 5 ms after A took it";
    const std::vector<model::Event> expired = execs(w->world, "A", "expire", key);
    ASSERT_EQ(expired.size(), 1u) << key;
    EXPECT_NE(expired[0].text.find(" 5"), std::string::npos) << expired[0].text;
    EXPECT_EQ(expired[0].ttl_ms, 5) << key;
  }
  w->world.run_until(10000);
  const model::Event b = outcome(w->world, "B", "lock");
  EXPECT_EQ(b.kind, EventKind::Ok);
  EXPECT_LT(b.at_ms, 1100) << "B got the lock A still believed it held";
  EXPECT_EQ(mutual_exclusion(w->world), Validity::No);
}

TEST(MultiLock, From3_25_1LockWithALeaseInSecondsHoldsForThoseSeconds) {
  auto w = lock_five_seconds(false);
  EXPECT_EQ(outcome(w->world, "A", "lock").kind, EventKind::Ok);
  for (const char* key : {"orders-1", "orders-2", "orders-3"}) {
    ASSERT_TRUE(has_key(*w, key)) << key;
    EXPECT_GT(pttl(*w, key), 4400) << key;
    EXPECT_LE(pttl(*w, key), 5000) << key;
  }
  w->world.run_until(10000);
  const model::Event b = outcome(w->world, "B", "lock");
  EXPECT_EQ(b.kind, EventKind::Ok);
  EXPECT_GT(b.at_ms, 3000) << "B waited for A's unlock";
  EXPECT_EQ(mutual_exclusion(w->world), Validity::Yes);
}

// #4050: B's lock(20 s) waits rounds of tryLock while A holds; the rounds start where B's
// acquire of orders-1 is first sent after a gap.
std::vector<int64_t> round_lengths(bool fixed_retry_wait, int64_t lease_ms) {
  auto w = make_world("multi", 3, 1, {.fixed_retry_wait = fixed_retry_wait});
  w->world.op(0, "A", 1, lock_op());
  w->world.op(0, "A", 1, work_op(60000));
  w->world.op(0, "A", 1, unlock_op());
  w->world.op(100, "B", 1, lock_op(lease_ms));
  w->world.run_until(59000);
  std::vector<int64_t> starts;
  for (const model::Event& e : execs(w->world, "B", "acquire", "orders-1"))
    if (starts.empty() || e.at_ms - starts.back() > 100) starts.push_back(e.at_ms);
  std::vector<int64_t> lengths;
  for (size_t i = 1; i < starts.size(); ++i) lengths.push_back(starts[i] - starts[i - 1]);
  return lengths;
}

TEST(MultiLock, UpTo3_16LockDrawsItsRetryWaitOnceFrom3_17EveryRound) {
  const std::vector<int64_t> fixed = round_lengths(true, 20000);
  ASSERT_GE(fixed.size(), 3u);
  // One draw in [4500, 20000): every round as long as the first, give or take the messages' latency.
  EXPECT_GE(fixed[0], 4500);
  EXPECT_LT(fixed[0], 20000 + 20);
  for (int64_t length : fixed) EXPECT_NEAR(length, fixed[0], 12) << "a round of " << length;
  const std::vector<int64_t> drawn = round_lengths(false, 20000);
  ASSERT_GE(drawn.size(), 3u);
  int64_t spread = 0;
  for (int64_t length : drawn) {
    EXPECT_GE(length, 4500);
    EXPECT_LT(length, 20000 + 20);
    spread = std::max(spread, std::abs(length - drawn[0]));
  }
  EXPECT_GT(spread, 100) << "the rounds differ";
}

TEST(MultiLock, UpTo3_16ALeaseOf2000MsOrLessWaits2000MsARound) {
  const std::vector<int64_t> fixed = round_lengths(true, 1000);
  ASSERT_GE(fixed.size(), 3u);
  for (int64_t length : fixed) EXPECT_NEAR(length, 2000, 12);
  // 3.17.0 on: a random time in [500, 1000).
  const std::vector<int64_t> drawn = round_lengths(false, 1000);
  ASSERT_GE(drawn.size(), 3u);
  for (int64_t length : drawn) {
    EXPECT_GE(length, 500 - 12);
    EXPECT_LT(length, 1000 + 12);
  }
}

}  // namespace
}  // namespace locksim::world
