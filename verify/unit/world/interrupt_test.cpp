// Thread.interrupt() (the interrupt fault) as Redisson 3.17.0 and later meet it in lock() and
// tryLock() (docs/scenario-format.md, "What an interrupt does"): the op each case's thread ran, what
// it ended with and when, and what the request on its way still did. Every message takes 5 ms each
// way, so the times asserted are worked out from the messages, never read from a run.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "client/lock.hpp"
#include "client/redisson_version.hpp"
#include "model/history.hpp"
#include "sim/simulation.hpp"

namespace locksim::world {
namespace {

std::unique_ptr<sim::Simulation> world_of(const std::string& type = "rlock") {
  WorldOptions options;
  options.link.latency_min_ms = 5;
  options.link.latency_max_ms = 5;
  auto sim = std::make_unique<sim::Simulation>(options);
  sim->world.add_lock(client::redisson_spec(client::newest_modelled(), type, "orders"));
  sim->world.add_client("A");
  sim->world.add_client("B");
  return sim;
}

Fault interrupt(const std::string& client, int64_t thread = 1) {
  Fault f;
  f.kind = FaultKind::Interrupt;
  f.client = client;
  f.thread = thread;
  return f;
}

// The outcomes (Ok, Fail, Info) of `client`'s ops named `f`, in order.
std::vector<const model::Event*> outcomes(sim::Simulation& sim, const std::string& client, const std::string& f) {
  std::vector<const model::Event*> out;
  for (const model::Event& e : sim.world.history().events())
    if (model::is_outcome(e.kind) && e.process == client && e.f == f) out.push_back(&e);
  return out;
}

int count(sim::Simulation& sim, model::EventKind kind, const std::string& process, const std::string& f = "") {
  int n = 0;
  for (const model::Event& e : sim.world.history().events())
    if (e.kind == kind && (kind == model::EventKind::Exec ? e.client == process : e.process == process) && (f.empty() || e.f == f))
      ++n;
  return n;
}

// A's lock() sends its first EVALSHA at 0 (answered NOSCRIPT at 10, loaded by 20, run at 25): an
// interrupt at 2 ends the call then. The acquire still runs and takes the free lock, and its answer
// still starts the watchdog, which renews a lock A does not believe it holds (#7272).
TEST(Interrupt, AnAttemptOnItsWayEndsTheCallAtOnceAndItsGrantStartsTheWatchdog) {
  auto sim = world_of();
  sim->world.op(0, "A", 1, OpSpec::lock_op("orders"));
  sim->world.inject(2, interrupt("A"));
  sim->world.run_until(25'000);
  const auto ends = outcomes(*sim, "A", "lock");
  ASSERT_EQ(ends.size(), 1u);
  EXPECT_EQ(ends[0]->kind, model::EventKind::Info);
  EXPECT_EQ(ends[0]->at_ms, 2);
  EXPECT_EQ(ends[0]->text, client::kInterruptedGet);
  EXPECT_EQ(count(*sim, model::EventKind::Hold, "A"), 0) << "A never believes it holds the lock";
  // The watchdog renews every 10 s from the grant's answer at 30 ms: at about 10 and 20 s.
  int renewed = 0;
  for (const model::Event& e : sim->world.history().events())
    renewed += e.kind == model::EventKind::Exec && e.client == "A" && e.f == "renew" && e.reply == "1";
  EXPECT_EQ(renewed, 2);
}

// Set while A works, the status waits for A's next wait: its lock() sends the acquire at 100 and
// ends at once; get() sets the status again, so the lock() after it ends the same way.
TEST(Interrupt, TheStatusWaitsForTheNextWaitAndEveryAcquireAfterEndsAtOnce) {
  auto sim = world_of();
  sim->world.op(0, "A", 1, OpSpec::work(100));
  sim->world.op(0, "A", 1, OpSpec::lock_op("orders"));
  sim->world.op(0, "A", 1, OpSpec::lock_op("orders"));
  sim->world.inject(50, interrupt("A"));
  sim->world.run_until(1000);
  const auto ends = outcomes(*sim, "A", "lock");
  ASSERT_EQ(ends.size(), 2u);
  for (const model::Event* e : ends) {
    EXPECT_EQ(e->kind, model::EventKind::Info);
    EXPECT_EQ(e->at_ms, 100);
  }
}

// B holds with a 1 s lease from 25 ms (its EVALSHA answered NOSCRIPT, the script loaded, run again)
// and never unlocks. A's lock() at 50 runs at 55 (the script cached by then), is answered a ttl at
// 60, subscribes (confirmed at 70), tries again (run at 75: a ttl of 950 ms, answered at 80) and
// waits that ttl for a message. Uninterrupted it tries again at 1030, after B's key expired at 1025.
struct Waiter {
  std::unique_ptr<sim::Simulation> sim;
  explicit Waiter(const std::string& op, const std::vector<int64_t>& interrupts) : sim(world_of()) {
    sim->world.op(0, "B", 1, OpSpec::lock_op("orders", 1000));
    sim->world.op(0, "B", 1, OpSpec::work(100'000));
    sim->world.op(50, "A", 1, op == "lock" ? OpSpec::lock_op("orders") : OpSpec::try_lock("orders", 5000));
    for (const int64_t t : interrupts) sim->world.inject(t, interrupt("A"));
    sim->world.run_until(10'000);
  }
  const model::Event& end(const std::string& f) const {
    const auto ends = outcomes(*sim, "A", f);
    EXPECT_EQ(ends.size(), 1u);
    return *ends.at(0);
  }
};

TEST(Interrupt, ALockWaitingForAMessageClearsItAndWaitsItsTtlAgain) {
  const Waiter calm("lock", {});
  const Waiter woken("lock", {300});
  const model::Event& first = calm.end("lock");
  const model::Event& later = woken.end("lock");
  ASSERT_EQ(first.kind, model::EventKind::Ok);
  ASSERT_EQ(later.kind, model::EventKind::Ok);
  // The wait restarted at 300 with the same ttl: the acquire comes 300 - 80 ms later than it would.
  EXPECT_EQ(first.at_ms, 1030 + 10);
  EXPECT_EQ(later.at_ms - first.at_ms, 300 - 80);
}

TEST(Interrupt, ASecondInterruptInThatWaitEscapesLockAsIllegalStateException) {
  const Waiter twice("lock", {300, 400});
  const model::Event& end = twice.end("lock");
  EXPECT_EQ(end.kind, model::EventKind::Fail);
  EXPECT_EQ(end.at_ms, 400);
  EXPECT_EQ(end.text, "IllegalStateException: InterruptedException");
}

// tryLock's latch throws InterruptedException: the call fails at once, without acquireFailed, and
// the status is cleared (nothing else of A's is interrupted).
TEST(Interrupt, ATryLockWaitingForAMessageFailsAtOnce) {
  const Waiter once("try_lock", {300});
  const model::Event& end = once.end("try_lock");
  EXPECT_EQ(end.kind, model::EventKind::Fail);
  EXPECT_EQ(end.at_ms, 300);
  EXPECT_EQ(end.text, client::kInterrupted);
  EXPECT_EQ(count(*once.sim, model::EventKind::Exec, "A", "acquire_failed"), 0);
  const auto* thread = &once.sim->world.client("A").threads.at(1);
  EXPECT_FALSE(thread->interrupted);
}

// A's lock() is answered a ttl at 60 and subscribes; the confirmation would come at 70. Interrupted
// at 65, its get() throws RedisException at once, and sets the status again.
TEST(Interrupt, ALockSubscribingFailsAtOnceAndKeepsTheStatus) {
  const Waiter subscribing("lock", {65});
  const model::Event& end = subscribing.end("lock");
  EXPECT_EQ(end.kind, model::EventKind::Fail);
  EXPECT_EQ(end.at_ms, 65);
  EXPECT_EQ(end.text, client::kInterruptedGet);
  EXPECT_TRUE(subscribing.sim->world.client("A").threads.at(1).interrupted);
}

// A thread that is not interrupted is never touched by another's interrupt.
TEST(Interrupt, OnlyTheThreadNamedIsInterrupted) {
  auto sim = world_of();
  sim->world.op(0, "A", 1, OpSpec::lock_op("orders"));
  sim->world.op(0, "A", 2, OpSpec::work(50));
  sim->world.op(0, "A", 2, OpSpec::lock_op("orders", 500));
  sim->world.inject(2, interrupt("A", 2));
  sim->world.run_until(5000);
  const auto ends = outcomes(*sim, "A", "lock");
  ASSERT_EQ(ends.size(), 2u);
  EXPECT_EQ(ends[0]->kind, model::EventKind::Ok);
  EXPECT_EQ(ends[0]->thread, 1);
  EXPECT_EQ(ends[1]->kind, model::EventKind::Info);
  EXPECT_EQ(ends[1]->thread, 2);
  EXPECT_EQ(ends[1]->at_ms, 50);
}

}  // namespace
}  // namespace locksim::world
