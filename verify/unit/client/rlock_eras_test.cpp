// RLock with the scripts of each Redisson era (RLockScripts): the client sends the ARGV each script
// takes, so a waiter is woken by the unlock's message and a forceUnlock deletes and tells. With a
// script that takes the publish command as an ARGV and a client that did not send it, the unlock
// would fail after its DEL and the waiter would sleep its whole ttl.
#include <gtest/gtest.h>

#include "model/checkers.hpp"
#include "sim/simulation.hpp"

namespace locksim::world {
namespace {

using model::EventKind;

struct Era {
  const char* name;
  client::RLockScripts scripts;
  bool latch;
};

client::RLockScripts scripts(const char* acquire, const char* unlock, const char* force, bool publish_as_argv) {
  client::RLockScripts s;
  s.acquire = acquire;
  s.unlock = unlock;
  s.force_unlock = force;
  s.publish_as_argv = publish_as_argv;
  return s;
}

const Era kEras[] = {
    {"3.10.5", scripts("rlock_acquire_hset", "rlock_unlock_silent_missing", "rlock_force_unlock", false), false},
    {"3.12.3", scripts("rlock_acquire_hincrby", "rlock_unlock", "rlock_force_unlock", false), false},
    {"3.19.0", scripts("rlock_acquire_one_condition", "rlock_unlock", "rlock_force_unlock", false), false},
    {"3.22.0", scripts("rlock_acquire_one_condition", "rlock_unlock_3_22", "rlock_force_unlock_3_22", true), false},
    {"3.24.0", scripts("rlock_acquire_one_condition", "rlock_unlock", "rlock_force_unlock_3_22", true), true},
};

std::unique_ptr<sim::Simulation> rlock_world(const Era& era) {
  WorldOptions options;
  options.link.latency_min_ms = options.link.latency_max_ms = 1;
  auto made = std::make_unique<sim::Simulation>(options);
  client::LockSpec spec;
  spec.type = "rlock";
  spec.name = "orders";
  spec.rlock_scripts = era.scripts;
  spec.redisson.unlock_latch = era.latch;
  made->world.add_lock(spec);
  for (const char* c : {"A", "B", "C"}) made->world.add_client(c);
  return made;
}

int64_t time_of(World& world, EventKind kind, const std::string& client, int nth = 1) {
  for (const auto& e : world.history().events())
    if (e.kind == kind && e.process == client && --nth == 0) return e.at_ms;
  return -1;
}

const model::Event* outcome(World& world, const std::string& client, const std::string& f) {
  for (const auto& e : world.history().events())
    if ((e.kind == EventKind::Ok || e.kind == EventKind::Fail || e.kind == EventKind::Info) && e.process == client &&
        e.f == f)
      return &e;
  return nullptr;
}

TEST(RLockEras, TheUnlockMessageWakesTheWaiterInEveryEra) {
  for (const Era& era : kEras) {
    SCOPED_TRACE(era.name);
    auto w = rlock_world(era);
    w->world.op(0, "A", 1, OpSpec::lock_op("orders"));
    w->world.op(0, "A", 1, OpSpec::work(2000));
    w->world.op(0, "A", 1, OpSpec::unlock("orders"));
    w->world.op(100, "B", 1, OpSpec::lock_op("orders"));
    w->world.op(100, "B", 1, OpSpec::work(100));
    w->world.op(100, "B", 1, OpSpec::unlock("orders"));
    w->world.run_until(60000);
    const model::Event* a_unlock = outcome(w->world, "A", "unlock");
    ASSERT_NE(a_unlock, nullptr);
    EXPECT_EQ(a_unlock->kind, EventKind::Ok);
    const int64_t released = time_of(w->world, EventKind::Release, "A");
    const int64_t b_holds = time_of(w->world, EventKind::Hold, "B");
    ASSERT_GE(released, 2000);
    // Woken by the message within a few round trips, not after A's ~30 s ttl.
    EXPECT_GT(b_holds, released - 5);
    EXPECT_LT(b_holds, released + 20);
    ASSERT_NE(outcome(w->world, "B", "unlock"), nullptr);
    EXPECT_EQ(outcome(w->world, "B", "unlock")->kind, EventKind::Ok);
  }
}

TEST(RLockEras, ForceUnlockDeletesAndWakesTheWaiterInEveryEra) {
  for (const Era& era : kEras) {
    SCOPED_TRACE(era.name);
    auto w = rlock_world(era);
    w->world.op(0, "A", 1, OpSpec::lock_op("orders"));
    w->world.op(0, "A", 1, OpSpec::work(20000));
    w->world.op(100, "B", 1, OpSpec::lock_op("orders"));
    w->world.op(1000, "C", 1, OpSpec::force_unlock("orders"));
    w->world.run_until(5000);
    const model::Event* forced = outcome(w->world, "C", "force_unlock");
    ASSERT_NE(forced, nullptr);
    EXPECT_EQ(forced->kind, EventKind::Ok);
    EXPECT_EQ(forced->value, 1);
    const int64_t b_holds = time_of(w->world, EventKind::Hold, "B");
    EXPECT_GT(b_holds, 1000);
    EXPECT_LT(b_holds, 1030);
  }
}

}  // namespace
}  // namespace locksim::world
