// ReadWriteLock in the simulated world (Redisson 3.11.1 to 3.43.x scripts; RedissonReadWriteLockTest's
// stories), judged by read_write. The two sides are the locks "orders:read" and "orders:write" over
// the one hash "orders". Every link takes exactly 1 ms, so the times below are exact; a script's
// first run in a world costs an extra round trip (EVALSHA answers NOSCRIPT, then EVAL).
#include <gtest/gtest.h>

#include <stdexcept>

#include "model/anomaly.hpp"
#include "model/checkers.hpp"
#include "sim/simulation.hpp"

namespace locksim::world {
namespace {

using model::EventKind;
using model::Validity;

const std::string kRead = "orders:read", kWrite = "orders:write";

OpSpec lock_op(const std::string& side, int64_t lease_ms = -1) { return OpSpec::lock_op(side, lease_ms); }
OpSpec try_op(const std::string& side, int64_t wait_ms) { return OpSpec::try_lock(side, wait_ms); }
OpSpec unlock_op(const std::string& side) { return OpSpec::unlock(side); }
OpSpec work_op(int64_t ms) { return OpSpec::work(ms); }

std::unique_ptr<sim::Simulation> rw_world(const std::vector<std::string>& clients,
                                client::RwVariant variant = client::RwVariant::Silent,
                                client::ReadRenewal renewal = client::ReadRenewal::PerLock) {
  WorldOptions options;
  options.link.latency_min_ms = options.link.latency_max_ms = 1;
  auto made = std::make_unique<sim::Simulation>(options);
  client::LockSpec spec;
  spec.type = "rwlock";
  spec.name = "orders";
  spec.rw.variant = variant;
  spec.rw.read_renewal = renewal;
  // The batched renewal came with its rescheduling on error (3.44.0).
  if (renewal == client::ReadRenewal::Batched3_44) spec.redisson.watchdog_on_error = client::WatchdogOnError::KeepRenewing;
  made->world.add_lock(spec);
  for (const auto& c : clients) made->world.add_client(c);
  return made;
}

model::Verdict verdict(World& world, const std::string& property = "read_write") {
  model::CheckerOptions options;
  options.lock_type = "rwlock";
  return model::run_checkers(world.history(), {property}, options).at(0);
}

// The time of `client`'s n-th (from 1) event of `kind` on `lock`, -1 when none.
int64_t time_of(World& world, EventKind kind, const std::string& client, const std::string& lock, int nth = 1) {
  for (const auto& e : world.history().events())
    if (e.kind == kind && e.process == client && e.lock == lock && --nth == 0) return e.at_ms;
  return -1;
}

// The outcome event of `client`'s n-th op `f`.
const model::Event* outcome(World& world, const std::string& client, const std::string& f, int nth = 1) {
  for (const auto& e : world.history().events())
    if ((e.kind == EventKind::Ok || e.kind == EventKind::Fail || e.kind == EventKind::Info) && e.process == client &&
        e.f == f && --nth == 0)
      return &e;
  return nullptr;
}

Reply redis(sim::Simulation& s, std::vector<std::string> argv) {
  engine::Engine& engine = s.servers.node(0).engine();
  return engine.execute(engine.open_session(), argv);
}

void hold_for(World& world, int64_t at, const std::string& client, const std::string& side, int64_t ms) {
  world.op(at, client, 1, lock_op(side));
  world.op(at, client, 1, work_op(ms));
  world.op(at, client, 1, unlock_op(side));
}

TEST(RwLock, TwoReadersShareTheLock) {
  auto w = rw_world({"A", "B"});
  hold_for(w->world, 0, "A", kRead, 2000);
  hold_for(w->world, 100, "B", kRead, 2000);
  w->world.run_until(1000);
  // One hash in read mode with both readers, and a timeout key per reader.
  EXPECT_EQ(redis(*w, {"HGET", "orders", "mode"}), Reply::bulk("read"));
  EXPECT_EQ(redis(*w, {"HLEN", "orders"}), Reply::integer_of(3));
  EXPECT_EQ(redis(*w, {"EXISTS", "{orders}:" + w->world.client("A").uuid + ":1:rwlock_timeout:1",
                       "{orders}:" + w->world.client("B").uuid + ":1:rwlock_timeout:1"}),
            Reply::integer_of(2));
  w->world.run_until(10000);
  EXPECT_EQ(time_of(w->world, EventKind::Hold, "A", kRead), 4);  // NOSCRIPT, then EVAL
  EXPECT_EQ(time_of(w->world, EventKind::Hold, "B", kRead), 102);
  EXPECT_EQ(outcome(w->world, "A", "unlock")->value, 0);  // B still reads: the hash stays
  EXPECT_EQ(outcome(w->world, "B", "unlock")->value, 1);
  EXPECT_EQ(redis(*w, {"EXISTS", "orders"}), Reply::integer_of(0));
  // Readers sharing is no overlap; and with no writer there was nothing read_write could break.
  const model::Verdict v = verdict(w->world);
  EXPECT_EQ(v.valid, Validity::Unknown) << v.explanation;
  EXPECT_EQ(v.anomaly, model::anomaly::kNothingToJudge);
  // The readers do overlap, by design: mutual_exclusion, which would call that an overlap on
  // orders:read, does not apply to a ReadWriteLock (read_write is its exclusion).
  EXPECT_THROW(verdict(w->world, "mutual_exclusion"), std::invalid_argument);
}

TEST(RwLock, AWriterWaitsForEveryReader) {
  auto w = rw_world({"A", "B", "C"});
  hold_for(w->world, 0, "A", kRead, 2000);
  hold_for(w->world, 100, "B", kRead, 3000);
  hold_for(w->world, 200, "C", kWrite, 500);
  w->world.run_until(20000);
  // A's unlock (2002) leaves B's hold: no message. B's unlock reaches the server at 3103, deletes
  // the hash and publishes 0; C hears it at 3104 and takes the lock at 3106.
  EXPECT_EQ(time_of(w->world, EventKind::Release, "B", kRead), 3102);
  EXPECT_EQ(time_of(w->world, EventKind::Hold, "C", kWrite), 3106);
  const model::Verdict v = verdict(w->world);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

TEST(RwLock, ReadersWaitForTheWriterAndAllWakeOnItsUnlock) {
  auto w = rw_world({"A", "B", "C"});
  hold_for(w->world, 0, "A", kWrite, 3000);
  hold_for(w->world, 100, "B", kRead, 1000);
  hold_for(w->world, 200, "C", kRead, 1000);
  w->world.run_until(20000);
  // A holds from 4 and unlocks at 3004; the unlock (NOSCRIPT, then EVAL) publishes 1 at 3007;
  // both readers hear it at 3008 and read together from 3010.
  EXPECT_EQ(time_of(w->world, EventKind::Hold, "B", kRead), 3010);
  EXPECT_EQ(time_of(w->world, EventKind::Hold, "C", kRead), 3010);
  const model::Verdict v = verdict(w->world);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

TEST(RwLock, AWriterMayReadAndReenterButAnotherWriterWaitsForItsReadHold) {
  auto w = rw_world({"A", "B"});
  w->world.op(0, "A", 1, lock_op(kWrite));
  w->world.op(0, "A", 1, lock_op(kWrite));  // re-entry
  w->world.op(0, "A", 1, lock_op(kRead));   // the writer's own read lock
  w->world.op(0, "A", 1, work_op(1000));
  w->world.op(0, "A", 1, unlock_op(kWrite));
  w->world.op(0, "A", 1, unlock_op(kWrite));
  w->world.op(0, "A", 1, work_op(1000));
  w->world.op(0, "A", 1, unlock_op(kRead));
  w->world.op(100, "B", 1, lock_op(kWrite));
  w->world.run_until(500);
  const std::string a = w->world.client("A").uuid + ":1";
  EXPECT_EQ(redis(*w, {"HGET", "orders", "mode"}), Reply::bulk("write"));
  EXPECT_EQ(redis(*w, {"HGET", "orders", a + ":write"}), Reply::bulk("2"));
  EXPECT_EQ(redis(*w, {"HGET", "orders", a}), Reply::bulk("1"));
  w->world.run_until(1500);
  // The write holds ended; A's read hold remains, in read mode.
  EXPECT_EQ(outcome(w->world, "A", "unlock", 1)->value, 0);
  EXPECT_EQ(outcome(w->world, "A", "unlock", 2)->value, 1);
  EXPECT_EQ(redis(*w, {"HGET", "orders", "mode"}), Reply::bulk("read"));
  w->world.run_until(20000);
  const int64_t read_release = time_of(w->world, EventKind::Release, "A", kRead);
  EXPECT_GT(read_release, 2000);
  // The read unlock's first run (NOSCRIPT, EVAL) publishes 0 at +3; B hears it and acquires at +6.
  EXPECT_EQ(time_of(w->world, EventKind::Hold, "B", kWrite), read_release + 6);
  const model::Verdict v = verdict(w->world);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

TEST(RwLock, ReadThenWriteBySameThreadIsRefused) {
  // Redisson does not upgrade: a reader's own write lock waits like anyone's.
  auto w = rw_world({"A"});
  w->world.op(0, "A", 1, lock_op(kRead));
  w->world.op(0, "A", 1, try_op(kWrite, 500));
  w->world.run_until(5000);
  EXPECT_EQ(outcome(w->world, "A", "try_lock")->kind, EventKind::Fail);
}

// Either era of the read renewal: 3.44.0's batch answers [1], which counts as renewed.
TEST(RwLock, TheWatchdogRenewsBothSides) {
  for (const auto renewal : {client::ReadRenewal::PerLock, client::ReadRenewal::Batched3_44})
  for (const std::string& side : {kRead, kWrite}) {
    SCOPED_TRACE(side + " " + client::to_string(renewal));
    auto w = rw_world({"A", "B"}, client::RwVariant::Silent, renewal);
    hold_for(w->world, 0, "A", side, 70000);
    w->world.op(65000, "B", 1, try_op(side == kRead ? kWrite : kRead, 0));
    w->world.run_until(65000);
    const Reply pttl = redis(*w, {"PTTL", "orders"});
    EXPECT_GT(pttl.integer, 20000);  // renewed every 10 s to 30 s
    if (side == kRead) {
      const std::string timeout = "{orders}:" + w->world.client("A").uuid + ":1:rwlock_timeout:1";
      EXPECT_GT(redis(*w, {"PTTL", timeout}).integer, 20000);  // the reader's timeout key too
    }
    w->world.run_until(80000);
    int renewals = 0;
    for (const auto& e : w->world.history().events())
      if (e.kind == EventKind::Renew && e.process == "A" && e.lock == side && e.value == 1) ++renewals;
    EXPECT_EQ(renewals, 6);  // at 10 004, 20 004, ... 60 004 ms; the unlock at 70 004 ms ends renewal
    EXPECT_EQ(outcome(w->world, "B", "try_lock")->kind, EventKind::Fail);
    EXPECT_EQ(outcome(w->world, "A", "unlock")->value, 1);
    // B's try_lock failed: only A held, so with A reading no writer was there to judge.
    const model::Verdict v = verdict(w->world);
    EXPECT_EQ(v.valid, side == kWrite ? Validity::Yes : Validity::Unknown) << v.explanation;
  }
}

// PR #6883: from 3.44.0 to 3.52.x a reader holding twice makes every batched read renewal fail with a
// Lua error after it has renewed the hash, so the hash lives on while both timeout keys run out at
// 30 s; A's first unlock then finds no lease left, deletes the hash and is answered 1, and the next
// renewal is told [0] and ends. The per-lock script of 3.8.1-3.43.x renews both keys.
TEST(RwLock, AReaderHoldingTwiceStopsThe344BatchedRenewalOfItsTimeoutKeys) {
  for (const auto renewal : {client::ReadRenewal::PerLock, client::ReadRenewal::Batched3_44}) {
    SCOPED_TRACE(client::to_string(renewal));
    const bool batched = renewal == client::ReadRenewal::Batched3_44;
    auto w = rw_world({"A"}, client::RwVariant::Nil3_44, renewal);
    w->world.op(0, "A", 1, lock_op(kRead));
    w->world.op(0, "A", 1, lock_op(kRead));
    w->world.op(0, "A", 1, work_op(40000));
    w->world.op(0, "A", 1, unlock_op(kRead));
    w->world.op(0, "A", 1, work_op(40000));
    w->world.run_until(35000);
    const std::string timeout = "{orders}:" + w->world.client("A").uuid + ":1:rwlock_timeout:";
    EXPECT_GT(redis(*w, {"PTTL", "orders"}).integer, 20000);  // the hash is renewed in both eras
    EXPECT_EQ(redis(*w, {"EXISTS", timeout + "1", timeout + "2"}), Reply::integer_of(batched ? 0 : 2));
    w->world.run_until(80000);
    std::vector<int64_t> renewals;
    for (const auto& e : w->world.history().events())
      if (e.kind == EventKind::Renew && e.process == "A" && e.lock == kRead) renewals.push_back(e.value);
    if (batched) {
      // Failed at 10, 20 and 30 s (-1: no answer), refused at 40 s, then none.
      EXPECT_EQ(renewals, (std::vector<int64_t>{-1, -1, -1, 0}));
      EXPECT_EQ(outcome(w->world, "A", "unlock")->value, 1);  // the hash is gone under A's second hold
      EXPECT_EQ(redis(*w, {"EXISTS", "orders"}), Reply::integer_of(0));
    } else {
      EXPECT_EQ(renewals, (std::vector<int64_t>(7, 1)));  // every 10 s until the end of the run
      EXPECT_EQ(outcome(w->world, "A", "unlock")->value, 0);
      EXPECT_EQ(redis(*w, {"HGET", "orders", w->world.client("A").uuid + ":1"}), Reply::bulk("1"));
    }
  }
}

TEST(RwLock, ACrashedReadersLeaseRunsOutAndTheWriterGetsInWithinOneLease) {
  auto w = rw_world({"A", "B"});
  w->world.op(0, "A", 1, lock_op(kRead));
  w->world.inject(1000, {.kind = world::FaultKind::Crash, .client = "A"});
  w->world.op(2000, "B", 1, lock_op(kWrite));
  w->world.run_until(29000);
  EXPECT_EQ(redis(*w, {"EXISTS", "{orders}:" + w->world.client("A").uuid + ":1:rwlock_timeout:1"}),
            Reply::integer_of(1));
  w->world.run_until(60000);
  // A's hash and timeout key were set at 1 ms with 30 s; B, told the TTL at 2001, retries at its
  // end and takes the lock.
  EXPECT_EQ(redis(*w, {"EXISTS", "{orders}:" + w->world.client("A").uuid + ":1:rwlock_timeout:1"}),
            Reply::integer_of(0));
  const int64_t hold = time_of(w->world, EventKind::Hold, "B", kWrite);
  EXPECT_GE(hold, 30001);
  EXPECT_LE(hold, 30100);
  const model::Verdict v = verdict(w->world);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

TEST(RwLock, APauseLongerThanTheLeaseBreaksReadWriteExclusion) {
  auto w = rw_world({"A", "B"});
  w->world.op(0, "A", 1, lock_op(kWrite));
  w->world.inject(1000, {.kind = world::FaultKind::Pause, .client = "A", .for_ms = 40000});
  w->world.op(1000, "A", 1, work_op(100));
  w->world.op(1000, "A", 1, unlock_op(kWrite));
  w->world.op(35000, "B", 1, try_op(kRead, 0));
  w->world.run_until(60000);
  EXPECT_EQ(outcome(w->world, "B", "try_lock")->kind, EventKind::Ok);
  EXPECT_EQ(outcome(w->world, "A", "unlock")->kind, EventKind::Fail);  // the hash is B's, in read mode
  const model::Verdict v = verdict(w->world);
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, model::anomaly::kReadWriteOverlap);
  EXPECT_EQ(v.explanation.rfind("Let A:1 hold orders:write from 4 ms (its acquire ran on redis0 at 3 ms; the reply reached "
                                "it 1 ms later). Then B:1 acquired orders:read at 35004 ms",
                                0),
            0u)
      << v.explanation;
  EXPECT_NE(v.explanation.find("in redis0/orders, A:1's hold had expired at 30003 ms"), std::string::npos) << v.explanation;
}

TEST(RwLock, UnlockingAnExpiredLockIsSilentUpTo343AndFailsFrom344) {
  for (const auto variant : {client::RwVariant::Silent, client::RwVariant::Nil3_44}) {
    auto w = rw_world({"A"}, variant);
    w->world.op(0, "A", 1, lock_op(kRead, 1000));
    w->world.op(0, "A", 1, work_op(5000));
    w->world.op(0, "A", 1, unlock_op(kRead));
    w->world.op(10000, "A", 2, lock_op(kWrite, 1000));
    w->world.op(10000, "A", 2, work_op(5000));
    w->world.op(10000, "A", 2, unlock_op(kWrite));
    w->world.run_until(30000);
    const EventKind expected = variant == client::RwVariant::Silent ? EventKind::Ok : EventKind::Fail;
    EXPECT_EQ(outcome(w->world, "A", "unlock", 1)->kind, expected);
    EXPECT_EQ(outcome(w->world, "A", "unlock", 2)->kind, expected);
  }
}

}  // namespace
}  // namespace locksim::world
