// The liveness checker on hand-built histories shaped like the world's: every acquire is judged
// against what the server held (Facts::free_spans), not against what clients believed. A waiter
// kept from a free lock for the grace or more is starved, whatever its outcome; so is an attempt
// refused for a key nobody could release. A crashed holder's running lease, an acquire that ran but
// whose reply is on the way, the waiter's own silences, its own requests on their way, the lock
// being its already and a FairLock's "wait T" replies are no free time; otherwise slow or lossy
// links excuse nothing (a lost wake-up) and are shown beside the verdict.
#include "model/liveness.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <utility>

#include "model/anomaly.hpp"
#include "model/facts.hpp"
#include "model/lock_types.hpp"
#include "verify/unit/model/evidence.hpp"
#include "verify/unit/model/history_builder.hpp"
#include "verify/unit/model/streamed.hpp"

namespace locksim::model {
namespace {

using test::all;
using test::figure;
using test::HistoryBuilder;
using W = std::vector<int64_t>;

Verdict judge(const HistoryBuilder& b, const char* type = "rlock", LivenessOptions options = {}) {
  const Facts facts(b.history(), find_lock_type(type));
  CheckerOptions streamed = test::options_for(type);
  streamed.liveness = options;
  return test::streamed_alike(b.history(), "liveness", streamed, check_liveness(facts, options));
}

int64_t end_at(HistoryBuilder& b, int64_t t) {
  Event e;
  e.at_ms = t;
  e.kind = EventKind::End;
  e.process = "world";
  return b.add(std::move(e));
}

int64_t message(HistoryBuilder& b, int64_t t, const std::string& process, const std::string& f) {
  Event e;
  e.at_ms = t;
  e.kind = EventKind::Message;
  e.process = process;
  e.lock = "redisson_lock__channel:{orders}";
  e.f = f;
  return b.add(std::move(e));
}

// A lock() by `process` (thread 1) granted on the server at t+1, answered at t+2.
struct Taken {
  int64_t invoke, exec, ok, hold;
};
Taken take(HistoryBuilder& b, int64_t t, const std::string& process, int64_t op, int64_t ttl_ms = 30000) {
  Taken r{};
  r.invoke = b.invoke({.t = t, .p = process, .op = op, .f = "lock"});
  b.key({.t = t + 1, .f = "created"});
  r.exec = b.exec(
      {.t = t + 1, .op = op, .f = "acquire", .reply = "nil", .after = process + ":1=1", .ttl = ttl_ms, .sent = t});
  r.ok = b.ok({.t = t + 2, .p = process, .op = op, .f = "lock"});
  r.hold = b.hold({.t = t + 2, .p = process, .depth = 1, .op = op});
  return r;
}

// An attempt of op `op` (already invoked) that the server granted at t, answered at t+1.
struct Got {
  int64_t exec, ok;
};
Got gets(HistoryBuilder& b, int64_t t, const std::string& process, int64_t op) {
  Got r{};
  b.key({.t = t, .f = "created"});
  r.exec = b.exec(
      {.t = t, .op = op, .f = "acquire", .reply = "nil", .after = process + ":1=1", .ttl = 30000, .sent = t - 1});
  r.ok = b.ok({.t = t + 1, .p = process, .op = op, .f = "lock"});
  b.hold({.t = t + 1, .p = process, .depth = 1, .op = op});
  return r;
}

// An unlock by `process` that deleted the key at t+1; returns that Exec.
int64_t give_up(HistoryBuilder& b, int64_t t, const std::string& process, int64_t op) {
  b.invoke({.t = t, .p = process, .op = op, .f = "unlock"});
  b.release({.t = t, .p = process, .depth = 0, .op = op});
  b.key({.t = t + 1, .f = "deleted"});
  const int64_t exec =
      b.exec({.t = t + 1, .op = op, .f = "unlock", .reply = "1", .before = process + ":1=1", .ttl = -2, .sent = t});
  b.ok({.t = t + 2, .p = process, .op = op, .f = "unlock"});
  return exec;
}

// A refused attempt of op `op`: the key unchanged, `ttl` ms left on it.
int64_t refused(HistoryBuilder& b, int64_t t, int64_t op, const std::string& value, int64_t ttl) {
  return b.exec({.t = t,
                 .op = op,
                 .f = "acquire",
                 .reply = std::to_string(ttl),
                 .before = value,
                 .after = value,
                 .ttl = ttl,
                 .sent = t - 1});
}

// A SETNX lock "orders" taken by A at 2 and never given an expiry.
void setnx_taken(HistoryBuilder& b) {
  b.invoke({.t = 0, .p = "A", .op = 1, .f = "lock"});
  b.key({.t = 2, .f = "created"});
  b.exec({.t = 2, .op = 1, .f = "acquire", .reply = "1", .after = "1", .ttl = -1, .sent = 0});
  b.ok({.t = 4, .p = "A", .op = 1, .f = "lock"});
  b.hold({.t = 4, .p = "A", .depth = 1, .op = 1});
}

int64_t crash(HistoryBuilder& b, int64_t t, const std::string& process) {
  const int64_t fault = b.fault({.t = t, .p = process, .f = "crash"});
  b.release({.t = t, .p = process, .depth = 0, .f = "crash"});
  return fault;
}

// ---------------------------------------------------------------- good histories

TEST(CheckerLiveness, AWaiterHandedTheLockPromptlyPasses) {
  HistoryBuilder b;
  take(b, 100, "A", 1);
  b.invoke({.t = 500, .p = "B", .op = 2, .f = "lock"});
  refused(b, 501, 2, "A:1=1", 29600);
  give_up(b, 1000, "A", 3);
  message(b, 1002, "B", "delivered");
  gets(b, 1003, "B", 2);
  const Verdict v = judge(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(v.property, "liveness");
  EXPECT_EQ(v.explanation, "2 acquire attempts, none kept from a free lock");
}

TEST(CheckerLiveness, ATryLockRefusedWhileALiveHolderHoldsPasses) {
  HistoryBuilder b;
  take(b, 100, "A", 1);
  b.fault({.t = 150, .p = "A", .f = "pause", .for_ms = 10000});  // a paused holder still holds
  b.invoke({.t = 200, .p = "B", .op = 2, .f = "try_lock", .wait_ms = 3000});
  refused(b, 201, 2, "A:1=1", 29900);
  refused(b, 1201, 2, "A:1=1", 28900);
  b.fail({.t = 3200, .p = "B", .op = 2, .f = "try_lock", .text = "not acquired within 3000 ms"});
  b.fault({.t = 10150, .p = "A", .f = "resume"});
  EXPECT_EQ(judge(b).valid, Validity::Yes) << judge(b).explanation;
}

// ---------------------------------------------------------------- starved

TEST(CheckerLiveness, AWaitThatSleptThroughAFreeLockIsStarvedThoughItEndedWithTheLock) {
  HistoryBuilder b;
  take(b, 100, "A", 1);
  const int64_t waits = b.invoke({.t = 500, .p = "B", .op = 2, .f = "lock"});
  refused(b, 501, 2, "A:1=1", 29600);
  const int64_t freed = give_up(b, 1000, "A", 3);
  message(b, 1002, "B", "lost");
  const Got got = gets(b, 3000, "B", 2);
  const Verdict v = judge(b);
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.property, "liveness");
  EXPECT_EQ(v.anomaly, anomaly::kStarved);
  // Free from the unlock's execution (1001 ms) to its own grant (3000 ms), less its last request's
  // 1 ms on the way; from the grant on the lock was its.
  EXPECT_EQ(v.witness, (W{waits, freed, got.ok}));
  EXPECT_EQ(figure(v, "free_ms"), 1998);
  const Evidence* waiter = v.find("waiter");
  ASSERT_NE(waiter, nullptr);
  EXPECT_EQ(waiter->event, waits);
  EXPECT_EQ(waiter->who, "B:1");
  EXPECT_EQ(waiter->where, "orders");
  EXPECT_EQ(waiter->to_ms, 3001);
  ASSERT_NE(v.find("outcome"), nullptr);
  EXPECT_EQ(v.find("outcome")->event, got.ok);
  EXPECT_EQ(v.find("outcome")->state, "ok");
  const auto free = all(v, "free");
  ASSERT_EQ(free.size(), 1u);
  EXPECT_EQ(free[0]->event, freed);
  EXPECT_EQ(free[0]->from_ms, 1001);
  EXPECT_EQ(free[0]->to_ms, 3000);
  EXPECT_EQ(free[0]->state, "open");
  EXPECT_EQ(free[0]->where, "redis0/orders");
  EXPECT_EQ(free[0]->who, "");
  EXPECT_EQ(figure(v, "grace_ms"), 500);
}

TEST(CheckerLiveness, FreeTimeJustUnderTheGraceIsNoStarvationAndAtTheGraceItIs) {
  // B's tryLock gives up at F; the lock is free from 1001 ms: F - 1001 ms.
  for (const auto& [fail_at, valid] :
       std::vector<std::pair<int64_t, Validity>>{{1500, Validity::Yes}, {1501, Validity::No}}) {
    HistoryBuilder b;
    take(b, 100, "A", 1);
    b.invoke({.t = 500, .p = "B", .op = 2, .f = "try_lock", .wait_ms = fail_at - 500});
    refused(b, 501, 2, "A:1=1", 29600);
    give_up(b, 1000, "A", 3);
    b.fail({.t = fail_at, .p = "B", .op = 2, .f = "try_lock"});
    const Verdict v = judge(b);
    EXPECT_EQ(v.valid, valid) << fail_at << ": " << v.explanation;
    if (v.valid == Validity::No) {
      EXPECT_EQ(figure(v, "free_ms"), 500);
    }
  }
}

TEST(CheckerLiveness, ACrashedHoldersLeaseRunningOutIsNotFreeTime) {
  HistoryBuilder b;
  take(b, 100, "A", 1);  // its key expires at 30101
  crash(b, 1000, "A");
  b.invoke({.t = 2000, .p = "B", .op = 2, .f = "lock"});
  refused(b, 2001, 2, "A:1=1", 28100);
  b.key({.t = 30102, .f = "expired"});
  gets(b, 30150, "B", 2);
  const Verdict v = judge(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

TEST(CheckerLiveness, AWaiterThatSleepsPastTheExpiryOfACrashedHoldersKeyIsStarved) {
  HistoryBuilder b;
  take(b, 100, "A", 1);
  crash(b, 1000, "A");
  const int64_t waits = b.invoke({.t = 2000, .p = "B", .op = 2, .f = "lock"});
  refused(b, 2001, 2, "A:1=1", 28100);
  const int64_t expired = b.key({.t = 30102, .f = "expired"});
  gets(b, 31000, "B", 2);
  const Verdict v = judge(b);
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kStarved);
  ASSERT_NE(v.find("free"), nullptr);
  EXPECT_EQ(v.find("free")->event, expired);
  EXPECT_EQ(v.find("free")->from_ms, 30102);
  EXPECT_EQ(v.find("free")->to_ms, 31000);
  EXPECT_EQ(v.find("waiter")->event, waits);
}

TEST(CheckerLiveness, AKeyPastItsExpiryIsToldAbsentBeforeTheHistoryRecordsTheExpiry) {
  // The key expires at 30101; the server's active expiry records it only at 30200. The time between
  // is free, and the story says the key was absent then, not that it still carried A's hold.
  HistoryBuilder b;
  take(b, 100, "A", 1);
  crash(b, 1000, "A");
  b.invoke({.t = 2000, .p = "B", .op = 2, .f = "lock"});
  refused(b, 2001, 2, "A:1=1", 28100);
  b.key({.t = 30200, .f = "expired"});
  gets(b, 31000, "B", 2);
  const Verdict v = judge(b);
  ASSERT_EQ(v.valid, Validity::No);
  ASSERT_NE(v.find("free"), nullptr);
  EXPECT_EQ(v.find("free")->from_ms, 30102);
  EXPECT_EQ(v.find("free")->who, "");
  EXPECT_NE(v.explanation.find("from 30102 ms to 31000 ms redis0/orders absent"), std::string::npos) << v.explanation;
  EXPECT_EQ(v.explanation.find("held only by the waiter itself"), std::string::npos) << v.explanation;
}

TEST(CheckerLiveness, AnAcquireThatRanOnTheServerHoldsTheLockWhileItsReplyIsLate) {
  // A's acquire runs at 101 ms; A is paused before the reply reaches it and learns of it at 3000 ms.
  // B, waiting from 0, was free only until 101 ms (101 ms).
  HistoryBuilder b;
  b.invoke({.t = 0, .p = "B", .op = 1, .f = "lock"});
  b.invoke({.t = 100, .p = "A", .op = 2, .f = "lock"});
  b.key({.t = 101, .f = "created"});
  b.exec({.t = 101, .op = 2, .f = "acquire", .reply = "nil", .after = "A:1=1", .ttl = 30000, .sent = 100});
  b.fault({.t = 101, .p = "A", .f = "pause", .for_ms = 2899});
  refused(b, 150, 1, "A:1=1", 29951);
  b.fault({.t = 3000, .p = "A", .f = "resume"});
  b.ok({.t = 3000, .p = "A", .op = 2, .f = "lock"});
  b.hold({.t = 3000, .p = "A", .depth = 1, .op = 2});
  give_up(b, 4000, "A", 3);
  gets(b, 4003, "B", 1);
  const Verdict v = judge(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

TEST(CheckerLiveness, AWaiterIsNoLongerKeptFromTheLockOnceTheServerGrantedIt) {
  // A's acquire runs on a free lock at 101 ms; a slow link brings the reply at 3000 ms. From 101 ms
  // the lock is A's on the server: nothing kept A from it, it held it.
  HistoryBuilder b;
  b.invoke({.t = 100, .p = "A", .op = 1, .f = "lock"});
  b.fault({.t = 100, .p = "A", .f = "delay", .value = 2800, .for_ms = 3000});
  b.key({.t = 101, .f = "created"});
  b.exec({.t = 101, .op = 1, .f = "acquire", .reply = "nil", .after = "A:1=1", .ttl = 30000, .sent = 100});
  b.ok({.t = 3000, .p = "A", .op = 1, .f = "lock"});
  b.hold({.t = 3000, .p = "A", .depth = 1, .op = 1});
  const Verdict v = judge(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

TEST(CheckerLiveness, AWaiterWhoseRequestASlowLinkCarriesIsTryingNotStarved) {
  // Sent at 100 ms, run at 2999 ms: the lock was free, but A's request was on its way all along.
  HistoryBuilder b;
  b.invoke({.t = 100, .p = "A", .op = 1, .f = "lock"});
  b.fault({.t = 100, .p = "A", .f = "delay", .value = 2800, .for_ms = 3000});
  b.key({.t = 2999, .f = "created"});
  b.exec({.t = 2999, .op = 1, .f = "acquire", .reply = "nil", .after = "A:1=1", .ttl = 30000, .sent = 100});
  b.ok({.t = 3000, .p = "A", .op = 1, .f = "lock"});
  b.hold({.t = 3000, .p = "A", .depth = 1, .op = 1});
  const Verdict v = judge(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

TEST(CheckerLiveness, ACrashedWaiterStopsWaitingAtItsCrash) {
  // The lock is free from 1001 ms; B crashes at 1300 ms: 299 ms, under the grace.
  HistoryBuilder b;
  take(b, 100, "A", 1);
  b.invoke({.t = 500, .p = "B", .op = 2, .f = "lock"});
  refused(b, 501, 2, "A:1=1", 29600);
  give_up(b, 1000, "A", 3);
  b.fault({.t = 1300, .p = "B", .f = "crash"});
  end_at(b, 60000);
  const Verdict v = judge(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

TEST(CheckerLiveness, AWaiterThatCrashesLateWasStarvedUntilItsCrash) {
  HistoryBuilder b;
  take(b, 100, "A", 1);
  const int64_t waits = b.invoke({.t = 500, .p = "B", .op = 2, .f = "lock"});
  refused(b, 501, 2, "A:1=1", 29600);
  const int64_t freed = give_up(b, 1000, "A", 3);
  const int64_t crash = b.fault({.t = 1600, .p = "B", .f = "crash"});
  end_at(b, 60000);
  const Verdict v = judge(b);
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kStarved);
  EXPECT_EQ(v.witness, (W{waits, freed, crash}));
  EXPECT_EQ(v.explanation,
            "Let B:1 wait for orders from 500 ms until 1600 ms without an answer. Then for 599 ms of that, while it "
            "could act, the lock was free: nothing that a holder could still release or let expire kept it out (grace "
            "500 ms): from 1001 ms to 1600 ms redis0/orders absent. Faults meanwhile: crash of B at 1600 ms (to the "
            "end).");
}

TEST(CheckerLiveness, APausedWaiterCannotBeStarvedWhilePaused) {
  // Free from 1001 ms; B paused from 600 to 10600 ms; granted at 10700: 100 ms + 1 ms of its own hold.
  HistoryBuilder b;
  take(b, 100, "A", 1);
  b.invoke({.t = 500, .p = "B", .op = 2, .f = "lock"});
  refused(b, 501, 2, "A:1=1", 29600);
  b.fault({.t = 600, .p = "B", .f = "pause", .for_ms = 10000});
  give_up(b, 1000, "A", 3);
  b.fault({.t = 10600, .p = "B", .f = "resume"});
  gets(b, 10700, "B", 2);
  EXPECT_EQ(judge(b).valid, Validity::Yes) << judge(b).explanation;
}

TEST(CheckerLiveness, APausedWaiterIsJudgedOnTheTimeItCouldAct) {
  HistoryBuilder b;
  take(b, 100, "A", 1);
  b.invoke({.t = 500, .p = "B", .op = 2, .f = "lock"});
  refused(b, 501, 2, "A:1=1", 29600);
  const int64_t pause = b.fault({.t = 600, .p = "B", .f = "pause", .for_ms = 10000});
  give_up(b, 1000, "A", 3);
  b.fault({.t = 10600, .p = "B", .f = "resume"});
  gets(b, 11200, "B", 2);
  const Verdict v = judge(b);
  ASSERT_EQ(v.valid, Validity::No);
  ASSERT_NE(v.find("free"), nullptr);
  EXPECT_EQ(v.find("free")->from_ms, 1001);
  EXPECT_EQ(v.find("free")->to_ms, 11200);  // 600 ms of it after the pause
  const auto faults = all(v, "fault");
  ASSERT_EQ(faults.size(), 1u);
  EXPECT_EQ(faults[0]->event, pause);
  EXPECT_EQ(faults[0]->state, "pause");
}

TEST(CheckerLiveness, TimeTheWaitersLinkWasCutDoesNotCount) {
  // Free from 1001 ms; B cut off from 600 to 20000 ms; granted at 20100: 100 ms + 1 ms of its own hold.
  HistoryBuilder b;
  take(b, 100, "A", 1);
  b.invoke({.t = 500, .p = "B", .op = 2, .f = "lock"});
  refused(b, 501, 2, "A:1=1", 29600);
  b.fault({.t = 600, .p = "B", .f = "partition", .for_ms = 19400});
  give_up(b, 1000, "A", 3);
  b.fault({.t = 20000, .p = "B", .f = "heal"});
  gets(b, 20100, "B", 2);
  EXPECT_EQ(judge(b).valid, Validity::Yes) << judge(b).explanation;
}

TEST(CheckerLiveness, SlowAndLossyLinksDoNotExcuseAWaitOnAFreeLockButAreShown) {
  HistoryBuilder b;
  take(b, 100, "A", 1);
  const int64_t waits = b.invoke({.t = 500, .p = "B", .op = 2, .f = "lock"});
  refused(b, 501, 2, "A:1=1", 29600);
  const int64_t delay = b.fault({.t = 600, .p = "B", .f = "delay", .value = 900, .for_ms = 5000});
  const int64_t loss = b.fault({.t = 700, .p = "B", .f = "loss", .value = 300, .for_ms = 5000});
  b.fault({.t = 800, .p = "C", .f = "loss", .value = 1000, .for_ms = 5000});  // another client's link is not B's story
  give_up(b, 1000, "A", 3);
  message(b, 1002, "B", "lost");
  gets(b, 3000, "B", 2);
  const Verdict v = judge(b);
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kStarved);
  EXPECT_EQ(v.find("waiter")->event, waits);
  const auto faults = all(v, "fault");
  ASSERT_EQ(faults.size(), 2u);
  EXPECT_EQ(faults[0]->event, delay);
  EXPECT_EQ(faults[0]->state, "delay");
  EXPECT_EQ(faults[0]->who, "B");
  EXPECT_EQ(faults[0]->from_ms, 600);
  EXPECT_EQ(faults[0]->to_ms, 5600);
  EXPECT_EQ(faults[0]->number, 900);
  EXPECT_EQ(faults[1]->event, loss);
  EXPECT_EQ(faults[1]->number, 300);
  EXPECT_NE(v.explanation.find(" Faults meanwhile: delay of B at 600 ms for 5000 ms (+900 ms a message); loss of B at "
                               "700 ms for 5000 ms (300 per thousand)."),
            std::string::npos)
      << v.explanation;
}

TEST(CheckerLiveness, AnAttemptWhoseOutcomeIsUnknownIsJudgedToo) {
  HistoryBuilder b;
  take(b, 100, "A", 1);
  const int64_t waits = b.invoke({.t = 500, .p = "B", .op = 2, .f = "lock"});
  refused(b, 501, 2, "A:1=1", 29600);
  b.fault({.t = 900, .p = "B", .f = "loss", .value = 1000, .for_ms = 40000});
  give_up(b, 1000, "A", 3);
  const int64_t unknown = b.info({.t = 30500, .p = "B", .op = 2, .f = "lock"});
  const Verdict v = judge(b);
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kStarved);
  EXPECT_EQ(v.find("waiter")->event, waits);
  ASSERT_NE(v.find("outcome"), nullptr);
  EXPECT_EQ(v.find("outcome")->event, unknown);
  EXPECT_EQ(figure(v, "free_ms"), 29499);
  EXPECT_NE(v.explanation.find("until its unknown outcome at 30500 ms"), std::string::npos) << v.explanation;
}

TEST(CheckerLiveness, AKeptAliveKeyOfAHolderThatGaveUpStarvesTheWaiter) {
  HistoryBuilder b;
  take(b, 100, "A", 1);  // expires at 30101: the lease A set while it held
  b.invoke({.t = 5000, .p = "A", .op = 2, .f = "unlock"});
  b.release({.t = 5000, .p = "A", .depth = 0, .op = 2});
  b.info({.t = 5100, .p = "A", .op = 2, .f = "unlock"});  // the unlock never ran
  const int64_t stray = b.renewal({.t = 10000, .client = "A", .holds = "A:1=1", .sent = 9999});
  const int64_t waits = b.invoke({.t = 12000, .p = "B", .op = 3, .f = "lock"});
  refused(b, 12001, 3, "A:1=1", 27999);
  end_at(b, 20000);
  const Verdict v = judge(b);
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kStarved);
  EXPECT_EQ(v.find("waiter")->event, waits);
  const auto free = all(v, "free");
  ASSERT_FALSE(free.empty());
  EXPECT_EQ(free[0]->state, "stale");
  EXPECT_EQ(free[0]->event, stray);
  EXPECT_EQ(free[0]->number, 40000);
  EXPECT_EQ(free[0]->who, "A:1=1");
  EXPECT_EQ(figure(v, "free_ms"), 7999);  // 12000..20000 less its request's 1 ms on the way
}

TEST(CheckerLiveness, ASetnxKeyLeftWithoutExpiryByACrashedHolderStarvesItsWaiters) {
  HistoryBuilder b;
  setnx_taken(b);
  crash(b, 50, "A");
  const int64_t waits = b.invoke({.t = 100, .p = "B", .op = 2, .f = "lock"});
  b.exec({.t = 102, .op = 2, .f = "acquire", .reply = "0", .before = "1", .after = "1", .ttl = -1, .sent = 100});
  b.exec({.t = 205, .op = 2, .f = "acquire", .reply = "0", .before = "1", .after = "1", .ttl = -1, .sent = 203});
  end_at(b, 60000);
  const Verdict v = judge(b, "setnx");
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kStarved);
  EXPECT_EQ(v.find("waiter")->event, waits);
  EXPECT_EQ(v.find("outcome"), nullptr);
  EXPECT_EQ(figure(v, "free_ms"), 59896);  // 100..60000 less its two requests' 2 ms on the way
  for (const Evidence* f : all(v, "free")) {
    EXPECT_EQ(f->state, "forever");
    EXPECT_EQ(f->who, "1");
    EXPECT_EQ(f->number, kNoExpiry);
  }
}

TEST(CheckerLiveness, AShortTryLockRefusedForAKeyNobodyCanReleaseIsStarved) {
  HistoryBuilder b;
  setnx_taken(b);
  crash(b, 50, "A");
  const int64_t waits = b.invoke({.t = 100, .p = "B", .op = 2, .f = "try_lock", .wait_ms = 0});
  const int64_t refusal =
      b.exec({.t = 102, .op = 2, .f = "acquire", .reply = "0", .before = "1", .after = "1", .ttl = -1, .sent = 100});
  const int64_t failed = b.fail({.t = 104, .p = "B", .op = 2, .f = "try_lock", .text = "not acquired within 0 ms"});
  const Verdict v = judge(b, "setnx");
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kStarved);
  EXPECT_EQ(v.witness, (W{waits, refusal, failed}));
  ASSERT_NE(v.find("refusal"), nullptr);
  EXPECT_EQ(v.find("refusal")->event, refusal);
  EXPECT_EQ(v.explanation,
            "Let B:1 wait for orders from 100 ms until its failure at 104 ms. Then the server refused it at 102 ms for "
            "a key nobody could release: from 102 ms to 103 ms redis0/orders held \"1\" for holders that were gone, "
            "with no expiry.");
}

TEST(CheckerLiveness, AShortTryLockRefusedWhileTheSetnxHolderLivesIsNoStarvation) {
  HistoryBuilder b;
  setnx_taken(b);
  b.invoke({.t = 100, .p = "B", .op = 2, .f = "try_lock", .wait_ms = 0});
  b.exec({.t = 102, .op = 2, .f = "acquire", .reply = "0", .before = "1", .after = "1", .ttl = -1, .sent = 100});
  b.fail({.t = 104, .p = "B", .op = 2, .f = "try_lock", .text = "not acquired within 0 ms"});
  crash(b, 5000, "A");
  end_at(b, 60000);
  EXPECT_EQ(judge(b, "setnx").valid, Validity::Yes) << judge(b, "setnx").explanation;
}

TEST(CheckerLiveness, ARefusalByAHolderAliveAtThatMomentIsNoStarvationThoughItCrashesInTheSameMs) {
  HistoryBuilder b;
  setnx_taken(b);
  b.invoke({.t = 4998, .p = "B", .op = 2, .f = "try_lock", .wait_ms = 0});
  b.exec({.t = 5000, .op = 2, .f = "acquire", .reply = "0", .before = "1", .after = "1", .ttl = -1, .sent = 4998});
  crash(b, 5000, "A");  // after the refusal, in the same ms
  b.fail({.t = 5002, .p = "B", .op = 2, .f = "try_lock", .text = "not acquired within 0 ms"});
  const Verdict v = judge(b, "setnx");
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

TEST(CheckerLiveness, AShortTryLockRefusedWhileACrashedHoldersLeaseRunsIsNoStarvation) {
  HistoryBuilder b;
  take(b, 100, "A", 1);
  crash(b, 1000, "A");
  b.invoke({.t = 2000, .p = "B", .op = 2, .f = "try_lock", .wait_ms = 0});
  refused(b, 2001, 2, "A:1=1", 28100);
  b.fail({.t = 2002, .p = "B", .op = 2, .f = "try_lock", .text = "not acquired within 0 ms"});
  EXPECT_EQ(judge(b).valid, Validity::Yes) << judge(b).explanation;
}

TEST(CheckerLiveness, AShortTryLockRefusedForAKeyKeptAliveWithoutRightIsStarved) {
  HistoryBuilder b;
  take(b, 100, "A", 1);
  b.invoke({.t = 5000, .p = "A", .op = 2, .f = "unlock"});
  b.release({.t = 5000, .p = "A", .depth = 0, .op = 2});
  b.info({.t = 5100, .p = "A", .op = 2, .f = "unlock"});
  b.renewal({.t = 10000, .client = "A", .holds = "A:1=1", .sent = 9999});
  b.invoke({.t = 12000, .p = "B", .op = 3, .f = "try_lock", .wait_ms = 0});
  const int64_t refusal = refused(b, 12001, 3, "A:1=1", 27999);
  b.fail({.t = 12002, .p = "B", .op = 3, .f = "try_lock", .text = "not acquired within 0 ms"});
  const Verdict v = judge(b);
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kStarved);
  ASSERT_NE(v.find("refusal"), nullptr);
  EXPECT_EQ(v.find("refusal")->event, refusal);
  EXPECT_EQ(v.find("free")->state, "stale");
}

TEST(CheckerLiveness, AFairLocksWaitReplyKeepsTheWaiterForTheTimeItNames) {
  // The hash is empty, but the queue (not in the history) holds B back: "wait 5000 ms".
  HistoryBuilder b;
  b.invoke({.t = 999, .p = "B", .op = 1, .f = "lock"});
  b.exec({.t = 1000, .op = 1, .f = "acquire", .reply = "5000", .ttl = -2, .sent = 999});
  gets(b, 6001, "B", 1);
  EXPECT_EQ(judge(b, "fair").valid, Validity::Yes) << judge(b, "fair").explanation;
  // An RLock has no queue: the same reply on a free lock kept B from it.
  EXPECT_EQ(judge(b, "rlock").valid, Validity::No);
}

TEST(CheckerLiveness, AFairWaiterThatWaitsFarLongerThanItWasToldIsStarved) {
  HistoryBuilder b;
  b.invoke({.t = 999, .p = "B", .op = 1, .f = "lock"});
  b.exec({.t = 1000, .op = 1, .f = "acquire", .reply = "1000", .ttl = -2, .sent = 999});
  gets(b, 6001, "B", 1);
  const Verdict v = judge(b, "fair");
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kStarved);
  const auto free = all(v, "free");
  ASSERT_GE(free.size(), 2u);
  EXPECT_EQ(free[0]->from_ms, 999);
  EXPECT_EQ(free[0]->to_ms, 1000);
  EXPECT_EQ(free[1]->from_ms, 2001);  // told to wait 1000 ms at 1000 ms
  EXPECT_EQ(free[1]->to_ms, 6001);
}

TEST(CheckerLiveness, TheGraceIsAnOption) {
  HistoryBuilder b;
  take(b, 100, "A", 1);
  b.invoke({.t = 500, .p = "B", .op = 2, .f = "try_lock", .wait_ms = 3000});
  refused(b, 501, 2, "A:1=1", 29600);
  give_up(b, 3200, "A", 3);
  b.fail({.t = 3500, .p = "B", .op = 2, .f = "try_lock", .text = "not acquired within 3000 ms"});
  EXPECT_EQ(judge(b).valid, Validity::Yes) << "free 299 ms";
  LivenessOptions strict;
  strict.grace_ms = 200;
  EXPECT_EQ(judge(b, "rlock", strict).valid, Validity::No);
}

}  // namespace
}  // namespace locksim::model
