// The simulated world with Redisson's RLock and the seed-001 locks: the seeds' stories, asserted on
// the recorded history.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <sstream>

#include "client/redisson_version.hpp"
#include "sim/simulation.hpp"

namespace locksim::world {
namespace {

using client::LockSpec;
using model::EventKind;

OpSpec lock_op(const std::string& lock, int64_t lease_ms = -1) { return OpSpec::lock_op(lock, lease_ms); }
OpSpec try_lock_op(const std::string& lock, int64_t wait_ms, int64_t lease_ms = -1) {
  return OpSpec::try_lock(lock, wait_ms, lease_ms);
}
OpSpec unlock_op(const std::string& lock) { return OpSpec::unlock(lock); }
OpSpec work_op(int64_t ms) { return OpSpec::work(ms); }
OpSpec write_op(const std::string& lock) { return OpSpec::write(lock); }

std::vector<model::Event> events_of(const model::History& h, EventKind kind, const std::string& process = "",
                                    const std::string& f = "") {
  std::vector<model::Event> out;
  for (const auto& e : h.events())
    if (e.kind == kind && (process.empty() || e.process == process) && (f.empty() || e.f == f) &&
        e.reply.rfind("-NOSCRIPT", 0) != 0)  // the first EVALSHA of a script the server has not seen
      out.push_back(e);
  return out;
}

// The outcome (Ok/Fail/Info) of the n-th operation `f` of `process`.
model::Event outcome(const model::History& h, const std::string& process, const std::string& f, size_t n = 0) {
  size_t seen = 0;
  for (const auto& e : h.events()) {
    if (e.process != process || e.f != f) continue;
    if (e.kind != EventKind::Ok && e.kind != EventKind::Fail && e.kind != EventKind::Info) continue;
    if (seen++ == n) return e;
  }
  ADD_FAILURE() << "no outcome #" << n << " of " << process << " " << f;
  return {};
}

LockSpec rlock(const std::string& name = "orders") {
  LockSpec spec;
  spec.type = "rlock";
  spec.name = name;
  return spec;
}

// The same run twice, once streaming its history: the file holds what the whole history would write,
// line for line, and the history in memory only its latest events.
TEST(World, AStreamedHistoryIsTheFileAndOnlyTheLatestEventsStay) {
  auto run = [](std::ostream* out) {
    auto sim = std::make_unique<sim::Simulation>(WorldOptions{});
    World& world = sim->world;
    if (out) world.stream_history(*out);
    world.add_lock(rlock());
    for (const std::string name : {"A", "B", "C"}) {
      world.add_client(name);
      for (int i = 0; i < 40; ++i) {
        world.op(0, name, 1, lock_op("orders"));
        world.op(0, name, 1, work_op(20));
        world.op(0, name, 1, unlock_op("orders"));
      }
    }
    world.run_until(60000);
    world.finish();
    return sim;
  };
  const auto whole = run(nullptr);
  std::ostringstream streamed;
  const auto stream = run(&streamed);
  const model::History& all = whole->world.history();
  ASSERT_GT(all.size(), 1000u);
  EXPECT_EQ(streamed.str(), all.to_jsonl());
  const model::History& kept = stream->world.history();
  EXPECT_EQ(kept.size(), all.size());
  EXPECT_GT(kept.events().first(), all.size() - 200);
  EXPECT_EQ(kept.events().back().kind, EventKind::End);
}

TEST(World, WatchdogKeepsALockHeldForTenTimesTheLease) {
  sim::Simulation sim({});
  World& world = sim.world;
  world.add_lock(rlock());
  world.add_client("A");
  world.add_client("B");
  world.op(0, "A", 1, lock_op("orders"));
  world.op(0, "A", 1, work_op(300000));
  world.op(0, "A", 1, unlock_op("orders"));
  for (int64_t t = 40000; t < 300000; t += 40000) world.op(t, "B", 1, try_lock_op("orders", 0));
  world.run_until(320000);
  const auto& h = world.history();
  EXPECT_EQ(outcome(h, "A", "lock").kind, EventKind::Ok);
  for (size_t i = 0; i < 7; ++i) EXPECT_EQ(outcome(h, "B", "try_lock", i).kind, EventKind::Fail) << "try #" << i;
  EXPECT_TRUE(events_of(h, EventKind::Key, "redis0", "expired").empty());
  const auto renewals = events_of(h, EventKind::Renew, "A");
  EXPECT_GE(renewals.size(), 29u);  // every 10 s for 300 s
  for (const auto& r : renewals) EXPECT_EQ(r.value, 1);
  EXPECT_EQ(outcome(h, "A", "unlock").kind, EventKind::Ok);
}

TEST(World, AnExplicitLeaseExpiresAndASecondClientGetsIn) {
  sim::Simulation sim({});
  World& world = sim.world;
  world.add_lock(rlock());
  world.add_client("A");
  world.add_client("B");
  world.op(0, "A", 1, lock_op("orders", 10000));
  world.op(0, "A", 1, work_op(20000));
  world.op(0, "A", 1, unlock_op("orders"));
  world.op(1000, "B", 1, try_lock_op("orders", 15000));
  world.run_until(30000);
  const auto& h = world.history();
  const model::Event b = outcome(h, "B", "try_lock");
  ASSERT_EQ(b.kind, EventKind::Ok);
  EXPECT_GE(b.at_ms, 10000);
  EXPECT_LT(b.at_ms, 10100);
  EXPECT_TRUE(events_of(h, EventKind::Renew, "A").empty()) << "an explicit lease is never renewed";
  EXPECT_FALSE(events_of(h, EventKind::Renew, "B").empty()) << "B took it with no lease: its watchdog renews";
  // A's unlock finds B's lock: Redisson 3.10.6+ answers nil, IllegalMonitorStateException.
  const model::Event a_unlock = outcome(h, "A", "unlock");
  EXPECT_EQ(a_unlock.kind, EventKind::Fail);
  EXPECT_NE(a_unlock.text.find("IllegalMonitorStateException"), std::string::npos);
}

TEST(World, AWaiterIsWokenByTheUnlockMessage) {
  sim::Simulation sim({});
  World& world = sim.world;
  world.add_lock(rlock());
  world.add_client("A");
  world.add_client("B");
  world.op(0, "A", 1, lock_op("orders"));
  world.op(0, "A", 1, work_op(5000));
  world.op(0, "A", 1, unlock_op("orders"));
  world.op(100, "B", 1, try_lock_op("orders", 20000));
  world.run_until(30000);
  const auto& h = world.history();
  const model::Event b = outcome(h, "B", "try_lock");
  ASSERT_EQ(b.kind, EventKind::Ok);
  // Woken by pub/sub a few ms after the unlock, not after the 30 s ttl.
  EXPECT_GE(b.at_ms, 5000);
  EXPECT_LT(b.at_ms, 5030);
  EXPECT_FALSE(events_of(h, EventKind::Message, "B", "delivered").empty());
}

TEST(World, ALostUnlockMessageMakesTheWaiterWaitOutTheTtl) {
  sim::Simulation sim({});
  World& world = sim.world;
  world.add_lock(rlock());
  world.add_client("A");
  world.add_client("B");
  world.op(0, "A", 1, lock_op("orders", 8000));
  world.op(0, "A", 1, work_op(2000));
  world.op(0, "A", 1, unlock_op("orders"));
  world.op(100, "B", 1, try_lock_op("orders", 20000));
  world.inject(1900, {.kind = world::FaultKind::Loss, .client = "B", .for_ms = 300, .per_thousand = 1000});  // B's link drops everything around the unlock
  world.run_until(30000);
  const auto& h = world.history();
  const model::Event b = outcome(h, "B", "try_lock");
  ASSERT_EQ(b.kind, EventKind::Ok);
  EXPECT_GE(b.at_ms, 8000) << "B slept the ttl it was told (8 s), since the wake-up was lost";
  EXPECT_FALSE(events_of(h, EventKind::Message, "B", "lost").empty());
}

TEST(World, ReentrantHoldsCountUpAndDown) {
  sim::Simulation sim({});
  World& world = sim.world;
  world.add_lock(rlock());
  world.add_client("A");
  world.add_client("B");
  world.op(0, "A", 1, lock_op("orders"));
  world.op(0, "A", 1, lock_op("orders"));
  world.op(0, "A", 1, unlock_op("orders"));
  world.op(0, "A", 1, work_op(100));
  world.op(0, "A", 1, unlock_op("orders"));
  world.op(50, "B", 1, unlock_op("orders"));
  world.run_until(1000);
  const auto& h = world.history();
  const auto execs = events_of(h, EventKind::Exec, "redis0");
  std::vector<std::string> after_a;
  for (const auto& e : execs)
    if (e.text.rfind("A ", 0) == 0 && (e.f == "acquire" || e.f == "unlock")) after_a.push_back(e.after);
  ASSERT_EQ(after_a.size(), 4u);
  const std::string id = world.client("A").uuid + ":1";
  EXPECT_EQ(after_a[0], id + "=1");
  EXPECT_EQ(after_a[1], id + "=2");
  EXPECT_EQ(after_a[2], id + "=1");
  EXPECT_EQ(after_a[3], "");
  EXPECT_EQ(outcome(h, "A", "unlock", 0).value, 0);
  EXPECT_EQ(outcome(h, "A", "unlock", 1).value, 1);
  const model::Event b = outcome(h, "B", "unlock");
  EXPECT_EQ(b.kind, EventKind::Fail) << "B never held it";
}

TEST(World, CrashedHoldersKeyExpiresOneLeaseAfterItsLastRenewal) {
  sim::Simulation sim({});
  World& world = sim.world;
  world.add_lock(rlock());
  world.add_client("A");
  world.op(0, "A", 1, lock_op("orders"));
  world.inject(25000, {.kind = world::FaultKind::Crash, .client = "A"});
  world.run_until(70000);
  const auto& h = world.history();
  const auto renewals = events_of(h, EventKind::Exec, "redis0", "renew");
  ASSERT_EQ(renewals.size(), 2u);  // at 10 s and 20 s
  const auto expired = events_of(h, EventKind::Key, "redis0", "expired");
  ASSERT_EQ(expired.size(), 1u);
  EXPECT_GT(expired[0].at_ms, renewals.back().at_ms + 30000 - 1);
  EXPECT_LE(expired[0].at_ms, renewals.back().at_ms + 30000 + 100);
  EXPECT_EQ(events_of(h, EventKind::Release, "A", "crash").size(), 1u);
}

TEST(World, APauseLongerThanTheLeaseBreaksTheTokenLockButFencingHolds) {
  sim::Simulation sim({});
  World& world = sim.world;
  LockSpec token;
  token.type = "token";
  token.name = "orders";
  world.add_lock(token);
  world.add_client("A");
  world.add_client("B");
  world.op(0, "A", 1, lock_op("orders", 10000));
  world.inject(100, {.kind = world::FaultKind::Pause, .client = "A", .for_ms = 15000});
  world.op(100, "A", 1, write_op("orders"));
  world.op(11000, "B", 1, try_lock_op("orders", 0, 10000));
  world.op(11000, "B", 1, write_op("orders"));
  world.run_until(20000);
  const auto& h = world.history();
  EXPECT_EQ(outcome(h, "B", "try_lock").kind, EventKind::Ok);
  const auto writes = events_of(h, EventKind::Write);
  ASSERT_EQ(writes.size(), 2u);
  EXPECT_EQ(writes[0].process, "B");
  EXPECT_EQ(writes[0].f, "accepted");
  EXPECT_EQ(writes[1].process, "A");
  EXPECT_EQ(writes[1].f, "rejected") << "A's token 1 is older than B's token 2";
}

TEST(World, SetnxThenExpireWithACrashInBetweenLeavesAKeyForever) {
  WorldOptions options;
  options.link.latency_min_ms = options.link.latency_max_ms = 1;
  sim::Simulation sim(options);
  World& world = sim.world;
  LockSpec setnx;
  setnx.type = "setnx";
  setnx.name = "orders";
  world.add_lock(setnx);
  world.add_client("A");
  world.add_client("B");
  world.op(0, "A", 1, lock_op("orders", 5000));
  world.inject(2, {.kind = world::FaultKind::Crash, .client = "A"});  // SETNX ran at 1 ms; its reply (and so the EXPIRE) never makes it
  world.op(100, "B", 1, try_lock_op("orders", 60000));
  world.run_until(70000);
  const auto& h = world.history();
  EXPECT_EQ(outcome(h, "B", "try_lock").kind, EventKind::Fail);
  EXPECT_EQ(sim.servers.node(0).engine().keyspace().entries().at("orders").expire_at_ms, engine::kNoExpire);
}

TEST(World, TheNaiveDelReleasesSomeoneElsesLock) {
  sim::Simulation sim({});
  World& world = sim.world;
  LockSpec naive;
  naive.type = "naive";
  naive.name = "orders";
  world.add_lock(naive);
  world.add_client("A");
  world.add_client("B");
  world.add_client("C");
  world.op(0, "A", 1, lock_op("orders", 1000));
  world.op(0, "A", 1, work_op(2000));
  world.op(0, "A", 1, unlock_op("orders"));
  world.op(1500, "B", 1, try_lock_op("orders", 0, 10000));
  world.op(2100, "C", 1, try_lock_op("orders", 0, 10000));
  world.run_until(5000);
  const auto& h = world.history();
  EXPECT_EQ(outcome(h, "B", "try_lock").kind, EventKind::Ok);
  EXPECT_EQ(outcome(h, "A", "unlock").kind, EventKind::Ok) << "A's DEL deleted B's key";
  EXPECT_EQ(outcome(h, "C", "try_lock").kind, EventKind::Ok) << "so C got in while B held it";
}

// A busy world: several clients, a watchdog, message loss, a pause and a crash.
std::string busy_history(uint64_t seed) {
  WorldOptions options;
  options.seed = seed;
  options.link.latency_min_ms = 1;
  options.link.latency_max_ms = 5;
  options.link.loss_numerator = 20;  // 2 %
  sim::Simulation sim(options);
  World& world = sim.world;
  world.add_lock(rlock());
  for (const char* name : {"A", "B", "C", "D"}) world.add_client(name);
  for (int i = 0; i < 20; ++i) {
    for (const char* name : {"A", "B", "C", "D"}) {
      world.op(i * 3000, name, 1, try_lock_op("orders", 2500));
      world.op(i * 3000, name, 1, work_op(200));
      world.op(i * 3000, name, 1, unlock_op("orders"));
    }
  }
  world.inject(10000, {.kind = world::FaultKind::Pause, .client = "B", .for_ms = 4000});
  world.inject(31000, {.kind = world::FaultKind::Crash, .client = "C"});
  world.run_until(80000);
  return world.history().to_jsonl();
}

TEST(World, TheSameSeedGivesTheSameHistoryByteForByte) {
  const std::string first = busy_history(42);
  const std::string second = busy_history(42);
  EXPECT_GT(first.size(), 10000u);
  EXPECT_EQ(first, second);
  EXPECT_NE(first, busy_history(43));
}

// Redisson 4.7.0 on a server with a replica (a failover planned on it): each lock script is followed by
// WAIT 1 1000, answered when the replica, lag_ms behind, has the write; a lag past slavesSyncTimeout
// answers 0 at the timeout, which is NoSyncedSlavesException: the acquire is undone and tried again,
// and lock() fails once retryAttempts are spent.
model::History synced_run(int64_t lag_ms) {
  sim::Simulation sim(WorldOptions{});
  World& world = sim.world;
  LockSpec spec = client::redisson_spec(client::Version{4, 7, 0}, "rlock", "orders");
  spec.redisson.replicated_servers = 1;
  world.add_lock(spec);
  world.add_client("A");
  world.op(0, "A", 1, lock_op("orders"));
  world.inject(50000, {.kind = world::FaultKind::Failover, .lag_ms = lag_ms});
  world.run_until(40000);
  return world.history();
}

TEST(World, ARedissonLockWaitsForItsReplicaAndFailsWhenNoneAcknowledges) {
  {
    const model::History h = synced_run(300);
    std::vector<model::Event> waits;
    for (const auto& e : h.events())
      if (e.kind == EventKind::Exec && e.f == "wait") waits.push_back(e);
    ASSERT_FALSE(waits.empty());
    EXPECT_EQ(waits.back().reply, "1");
    const model::Event got = outcome(h, "A", "lock");
    EXPECT_EQ(got.kind, EventKind::Ok);
    // Answered once the replica had the acquire: 300 ms after it ran, not a round trip after.
    int64_t acquired_at = -1;
    for (const auto& e : h.events())
      if (e.kind == EventKind::Exec && e.f == "acquire" && e.reply == "nil") acquired_at = e.at_ms;
    ASSERT_GE(acquired_at, 0);
    EXPECT_GE(got.at_ms, acquired_at + 300);
    EXPECT_LT(got.at_ms, acquired_at + 320);
  }
  {
    const model::History h = synced_run(1500);
    int zero_waits = 0, undoes = 0;
    for (const auto& e : h.events()) {
      if (e.kind == EventKind::Exec && e.f == "wait" && e.reply == "0") ++zero_waits;
      if (e.kind == EventKind::Exec && e.f == "unlock" && e.op == 1) ++undoes;
    }
    const model::Event got = outcome(h, "A", "lock");
    EXPECT_EQ(got.kind, EventKind::Fail);
    EXPECT_NE(got.text.find("NoSyncedSlavesException"), std::string::npos) << got.text;
    EXPECT_GE(zero_waits, 5);  // the first attempt and retryAttempts (4) more
    EXPECT_GE(undoes, 5);      // each undone by an unlock of its own
  }
}

}  // namespace
}  // namespace locksim::world
