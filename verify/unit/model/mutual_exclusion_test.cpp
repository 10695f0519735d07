#include "model/mutual_exclusion.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/anomaly.hpp"
#include "model/checkers.hpp"
#include "model/facts.hpp"
#include "model/lock_types.hpp"
#include "verify/unit/model/evidence.hpp"
#include "verify/unit/model/history_builder.hpp"
#include "verify/unit/model/streamed.hpp"

namespace locksim::model {
namespace {

using test::evidence;
using test::expect_evidence;
using test::HistoryBuilder;
using test::Want;
using W = std::vector<int64_t>;

// The checker on `b`'s history, its facts worked out for the lock type `type` ("" for an unknown one).
Verdict check(const HistoryBuilder& b, const char* type = "rlock") {
  const Facts facts(b.history(), find_lock_type(type));
  return test::streamed_alike(b.history(), "mutual_exclusion", test::options_for(type), check_mutual_exclusion(facts));
}

std::vector<const Evidence*> all_of(const Verdict& v, const std::string& role) {
  std::vector<const Evidence*> out;
  for (const Evidence& e : v.evidence)
    if (e.role == role) out.push_back(&e);
  return out;
}

TEST(CheckerMutualExclusion, SuccessiveHoldersHold) {
  HistoryBuilder b;
  b.acquire({.t = 100, .p = "A", .op = 1, .depth = 1, .after = "A:1=1"});
  b.unlock({.t = 200, .p = "A", .op = 2, .depth = 0, .before = "A:1=1"});
  b.acquire({.t = 300, .p = "B", .op = 3, .depth = 1, .after = "B:1=1"});
  b.unlock({.t = 400, .p = "B", .op = 4, .depth = 0, .before = "B:1=1"});
  const Verdict v = check(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(v.property, "mutual_exclusion");
  EXPECT_TRUE(v.anomaly.empty());
  EXPECT_TRUE(v.witness.empty());
  EXPECT_EQ(v.explanation, "2 holding intervals on 1 lock, none overlapping");
}

// A holds with a lease of 1000 ms that runs out; B is let in; A's unlock begins at the ms B's reply
// arrives. Whether that is an overlap depends only on which of A's Release and B's Hold the history
// recorded first.
struct SameMillisecond {
  HistoryBuilder b;
  int64_t a_grant = -1, a_hold = -1, expired = -1, b_grant = -1, b_hold = -1, a_release = -1;

  explicit SameMillisecond(bool release_first) {
    b.invoke({.t = 100, .p = "A", .op = 1, .f = "lock", .lease_ms = 1000});
    b.key({.t = 101, .f = "created"});
    b.key({.t = 101, .f = "expire_set", .value = 1101});
    a_grant = b.exec({.t = 101, .op = 1, .f = "acquire", .reply = "nil", .after = "A:1=1", .ttl = 1000, .sent = 100});
    b.ok({.t = 102, .p = "A", .op = 1, .f = "lock"});
    a_hold = b.hold({.t = 102, .p = "A", .depth = 1, .lease_ms = 1000, .op = 1});
    expired = b.key({.t = 1150, .f = "expired", .value = 1101});
    b.invoke({.t = 1400, .p = "B", .op = 2, .f = "lock", .lease_ms = 1000});
    b.key({.t = 1401, .f = "created"});
    b.key({.t = 1401, .f = "expire_set", .value = 2401});
    b_grant = b.exec({.t = 1401, .op = 2, .f = "acquire", .reply = "nil", .after = "B:1=1", .ttl = 1000, .sent = 1400});
    b.ok({.t = 1402, .p = "B", .op = 2, .f = "lock"});
    if (!release_first) b_hold = b.hold({.t = 1402, .p = "B", .depth = 1, .lease_ms = 1000, .op = 2});
    b.invoke({.t = 1402, .p = "A", .op = 3, .f = "unlock"});
    a_release = b.release({.t = 1402, .p = "A", .depth = 0, .op = 3});
    if (release_first) b_hold = b.hold({.t = 1402, .p = "B", .depth = 1, .lease_ms = 1000, .op = 2});
    b.exec({.t = 1403,
            .op = 3,
            .f = "unlock",
            .reply = "nil",
            .before = "B:1=1",
            .after = "B:1=1",
            .ttl = 998,
            .sent = 1402});
    b.fail({.t = 1404, .p = "A", .op = 3, .f = "unlock", .text = "IllegalMonitorStateException"});
  }
};

TEST(CheckerMutualExclusion, AReleaseRecordedBeforeTheOtherHoldAtTheSameMillisecondIsNoOverlap) {
  const SameMillisecond h(/*release_first=*/true);
  const Verdict v = check(h.b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_TRUE(v.witness.empty());
}

TEST(CheckerMutualExclusion, AHoldRecordedBeforeTheOtherReleaseAtTheSameMillisecondOverlaps) {
  const SameMillisecond h(/*release_first=*/false);
  const Verdict v = check(h.b);
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kMutexOverlap);
  EXPECT_EQ(v.witness, (W{h.a_grant, h.a_hold, h.expired, h.b_grant, h.b_hold, h.a_release}));
  expect_evidence(v, "first_hold", {h.a_hold, 102, "A:1", "orders", "unlocked", 1000});
  EXPECT_EQ(evidence(v, "first_hold").end_event, h.a_release);
  EXPECT_EQ(evidence(v, "first_hold").to_ms, 1402);
  expect_evidence(v, "second_hold", {h.b_hold, 1402, "B:1", "orders", "lock", 1});
  // The claim tells when A's hold expired (101 + 1000), not when the server noticed.
  expect_evidence(v, "first_claim", {h.expired, 1101, "A:1", "redis0/orders", "expired", 0});
  EXPECT_EQ(v.find("fault"), nullptr);
}

TEST(CheckerMutualExclusion, ReentryIsNotAnOverlapAndOtherLocksAreIndependent) {
  HistoryBuilder b;
  b.acquire({.t = 100, .p = "A", .op = 1, .depth = 1, .after = "A:1=1"});
  // re-entry: the same owner
  b.acquire({.t = 110, .p = "A", .op = 2, .depth = 2, .before = "A:1=1", .after = "A:1=2"});
  // another lock, while A holds orders
  b.acquire({.t = 120, .p = "B", .op = 3, .lock = "stock", .depth = 1, .after = "B:1=1"});
  b.unlock({.t = 130, .p = "A", .op = 4, .depth = 1, .before = "A:1=2", .after = "A:1=1"});
  b.unlock({.t = 140, .p = "A", .op = 5, .depth = 0, .before = "A:1=1"});
  b.acquire({.t = 150, .p = "B", .op = 6, .depth = 1, .after = "B:1=1"});
  const Verdict v = check(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  // A's two holds of orders are one interval; B holds stock and then orders.
  EXPECT_EQ(v.explanation, "3 holding intervals on 2 locks, none overlapping");
}

TEST(CheckerMutualExclusion, ACrashEndsTheCrashedOwnersInterval) {
  HistoryBuilder b;
  b.acquire({.t = 100, .p = "A", .op = 1, .depth = 1, .after = "A:1=1"});  // its key expires at 30101
  b.fault({.t = 1000, .p = "A", .f = "crash"});
  b.release({.t = 1000, .p = "A", .depth = 0, .f = "crash"});
  b.key({.t = 30200, .f = "expired", .value = 30101});
  b.acquire({.t = 40000, .p = "B", .op = 2, .depth = 1, .after = "B:1=1"});
  const Verdict v = check(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

TEST(CheckerMutualExclusion, ASecondHolderLetInAfterTheFirstsHoldExpiredIsAnOverlap) {
  HistoryBuilder b;
  b.invoke({.t = 0, .p = "A", .op = 1, .f = "lock"});
  b.key({.t = 2, .f = "created"});
  b.key({.t = 2, .f = "expire_set", .value = 30002});
  const int64_t a_grant =
      b.exec({.t = 2, .op = 1, .f = "acquire", .reply = "nil", .after = "A:1=1", .ttl = 30000, .sent = 0});
  b.ok({.t = 4, .p = "A", .op = 1, .f = "lock"});
  const int64_t a_hold = b.hold({.t = 4, .p = "A", .depth = 1, .op = 1});
  const int64_t pause = b.fault({.t = 1000, .p = "A", .f = "pause", .for_ms = 40000});  // no renewal gets through
  const int64_t expired = b.key({.t = 30100, .f = "expired", .value = 30002});
  b.invoke({.t = 35000, .p = "B", .op = 2, .f = "try_lock", .wait_ms = 0});
  b.key({.t = 35001, .f = "created"});
  b.key({.t = 35001, .f = "expire_set", .value = 65001});
  const int64_t b_grant =
      b.exec({.t = 35001, .op = 2, .f = "acquire", .reply = "nil", .after = "B:1=1", .ttl = 30000, .sent = 35000});
  b.ok({.t = 35003, .p = "B", .op = 2, .f = "try_lock"});
  const int64_t b_hold = b.hold({.t = 35003, .p = "B", .depth = 1, .op = 2});
  b.fault({.t = 41000, .p = "A", .f = "resume"});
  b.invoke({.t = 41000, .p = "A", .op = 3, .f = "unlock"});
  const int64_t a_release = b.release({.t = 41000, .p = "A", .depth = 0, .op = 3});
  b.exec({.t = 41001,
          .op = 3,
          .f = "unlock",
          .reply = "nil",
          .before = "B:1=1",
          .after = "B:1=1",
          .ttl = 24000,
          .sent = 41000});
  b.fail({.t = 41002, .p = "A", .op = 3, .f = "unlock", .text = "IllegalMonitorStateException"});

  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.property, "mutual_exclusion");
  EXPECT_EQ(v.anomaly, anomaly::kMutexOverlap);
  EXPECT_EQ(v.witness, (W{a_grant, a_hold, pause, expired, b_grant, b_hold, a_release}));
  expect_evidence(v, "first_hold", {a_hold, 4, "A:1", "orders", "unlocked", -1});
  expect_evidence(v, "second_hold", {b_hold, 35003, "B:1", "orders", "lock", 1});
  expect_evidence(v, "first_grant", {a_grant, 2, "redis0", "redis0/orders", "nil", 2});
  expect_evidence(v, "second_grant", {b_grant, 35001, "redis0", "redis0/orders", "nil", 2});
  expect_evidence(v, "first_claim", {expired, 30002, "A:1", "redis0/orders", "expired", 0});
  expect_evidence(v, "fault", {pause, 1000, "A", "", "pause", 0});
  EXPECT_EQ(evidence(v, "fault").to_ms, 41000);
  EXPECT_EQ(v.explanation,
            "Let A:1 hold orders from 4 ms (its acquire ran on redis0 at 2 ms; the reply reached it 2 ms later). "
            "Then B:1 acquired orders at 35003 ms (its acquire ran on redis0 at 35001 ms; the reply reached it 2 ms "
            "later) while A:1 still believed it held orders (until 41000 ms); in redis0/orders, A:1's hold had expired "
            "at 30002 ms. "
            "Faults meanwhile: pause of A at 1000 ms for 40000 ms.");
}

// A holds; redis0 restarts at 5000 (with or without its data); B tries at 6000.
struct Restart {
  HistoryBuilder b;
  int64_t a_grant = -1, a_hold = -1, restart = -1, b_grant = -1, b_hold = -1, a_release = -1;

  explicit Restart(bool keeps_data) {
    b.invoke({.t = 0, .p = "A", .op = 1, .f = "lock"});
    b.key({.t = 2, .f = "created"});
    a_grant = b.exec({.t = 2, .op = 1, .f = "acquire", .reply = "nil", .after = "A:1=1", .ttl = 30000, .sent = 0});
    b.ok({.t = 3, .p = "A", .op = 1, .f = "lock"});
    a_hold = b.hold({.t = 3, .p = "A", .depth = 1, .op = 1});
    restart = b.fault({.t = 5000, .p = "redis0", .f = "restart"});
    b.invoke({.t = 6000, .p = "B", .op = 2, .f = "try_lock", .wait_ms = 0});
    if (keeps_data) {
      b.exec({.t = 6002,
              .op = 2,
              .f = "acquire",
              .reply = "24998",
              .before = "A:1=1",
              .after = "A:1=1",
              .ttl = 24998,
              .sent = 6000});
      b.fail({.t = 6004, .p = "B", .op = 2, .f = "try_lock"});
    } else {
      // The first execution after the restart shows the key gone.
      b_grant =
          b.exec({.t = 6002, .op = 2, .f = "acquire", .reply = "nil", .after = "B:1=1", .ttl = 30000, .sent = 6000});
      b.ok({.t = 6004, .p = "B", .op = 2, .f = "try_lock"});
      b_hold = b.hold({.t = 6004, .p = "B", .depth = 1, .op = 2});
    }
    b.invoke({.t = 20000, .p = "A", .op = 3, .f = "unlock"});
    a_release = b.release({.t = 20000, .p = "A", .depth = 0, .op = 3});
  }
};

TEST(CheckerMutualExclusion, ASecondHolderLetInAfterARestartLostTheFirstsHoldIsAnOverlap) {
  const Restart h(/*keeps_data=*/false);
  const Verdict v = check(h.b);
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kMutexOverlap);
  EXPECT_EQ(v.witness, (W{h.a_grant, h.a_hold, h.restart, h.b_grant, h.b_hold, h.a_release}));
  expect_evidence(v, "first_grant", {h.a_grant, 2, "redis0", "redis0/orders", "nil", 1});
  expect_evidence(v, "second_grant", {h.b_grant, 6002, "redis0", "redis0/orders", "nil", 2});
  expect_evidence(v, "first_claim", {h.restart, 5000, "redis0 restart", "redis0/orders", "lost", 0});
  expect_evidence(v, "fault", {h.restart, 5000, "redis0", "", "restart", 0});
  EXPECT_NE(v.explanation.find("; in redis0/orders, A:1's hold had been lost in the redis0 restart at 5000 ms. "
                               "Faults meanwhile: restart of redis0 at 5000 ms."),
            std::string::npos)
      << v.explanation;
}

TEST(CheckerMutualExclusion, ARestartThatKeptTheFirstsHoldLetsNobodyInAndHolds) {
  const Restart h(/*keeps_data=*/true);
  const Verdict v = check(h.b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(v.explanation, "1 holding interval on 1 lock, none overlapping");
}

TEST(CheckerMutualExclusion, AScriptThatLetsTheSecondInBesideTheFirstsFieldShowsTheFirstStillHeld) {
  HistoryBuilder b;
  b.invoke({.t = 100, .p = "A", .op = 1, .f = "lock"});
  const int64_t a_grant =
      b.exec({.t = 101, .op = 1, .f = "acquire", .reply = "nil", .after = "A:1=1", .ttl = 30000, .sent = 100});
  b.ok({.t = 102, .p = "A", .op = 1, .f = "lock"});
  const int64_t a_hold = b.hold({.t = 102, .p = "A", .depth = 1, .op = 1});
  b.invoke({.t = 200, .p = "B", .op = 2, .f = "lock"});
  // A planted acquire script that adds B's field although A's is there.
  const int64_t b_grant = b.exec({.t = 203,
                                  .op = 2,
                                  .f = "acquire",
                                  .reply = "nil",
                                  .before = "A:1=1",
                                  .after = "A:1=1,B:1=1",
                                  .ttl = 30000,
                                  .sent = 200});
  b.ok({.t = 205, .p = "B", .op = 2, .f = "lock"});
  const int64_t b_hold = b.hold({.t = 205, .p = "B", .depth = 1, .op = 2});

  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kMutexOverlap);
  // A still believes at the end; its hold was still in the key when B's acquire ran.
  EXPECT_EQ(v.witness, (W{a_grant, a_hold, b_grant, b_hold}));
  expect_evidence(v, "second_grant", {b_grant, 203, "redis0", "redis0/orders", "nil", 2});
  const Evidence* claim = v.find("first_claim");
  ASSERT_NE(claim, nullptr) << v.explanation;
  EXPECT_EQ(claim->state, "held");
  EXPECT_EQ(claim->who, "A:1");
  EXPECT_EQ(claim->where, "redis0/orders");
  EXPECT_EQ(claim->event, b_grant);
  EXPECT_EQ(claim->from_ms, 203);
  EXPECT_EQ(evidence(v, "first_hold").state, "open");
  EXPECT_NE(v.explanation.find("(to the end of the history); in redis0/orders, A:1's hold was still there."),
            std::string::npos)
      << v.explanation;
}

TEST(CheckerMutualExclusion, AForceUnlockThatRemovedTheFirstsHoldIsNamedInTheClaim) {
  HistoryBuilder b;
  b.invoke({.t = 100, .p = "A", .op = 1, .f = "lock"});
  const int64_t a_grant =
      b.exec({.t = 101, .op = 1, .f = "acquire", .reply = "nil", .after = "A:1=1", .ttl = 30000, .sent = 100});
  b.ok({.t = 102, .p = "A", .op = 1, .f = "lock"});
  const int64_t a_hold = b.hold({.t = 102, .p = "A", .depth = 1, .op = 1});
  b.invoke({.t = 500, .p = "C", .op = 2, .f = "force_unlock"});
  b.key({.t = 501, .f = "deleted"});
  // Redisson's forceUnlock runs on no thread of its client.
  const int64_t removal = b.exec(
      {.t = 501, .thread = 0, .op = 2, .f = "force_unlock", .reply = "1", .before = "A:1=1", .ttl = -2, .sent = 500});
  b.ok({.t = 502, .p = "C", .op = 2, .f = "force_unlock"});
  b.invoke({.t = 600, .p = "B", .op = 3, .f = "lock"});
  const int64_t b_grant =
      b.exec({.t = 601, .op = 3, .f = "acquire", .reply = "nil", .after = "B:1=1", .ttl = 30000, .sent = 600});
  b.ok({.t = 602, .p = "B", .op = 3, .f = "lock"});
  const int64_t b_hold = b.hold({.t = 602, .p = "B", .depth = 1, .op = 3});

  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kMutexOverlap);
  expect_evidence(v, "first_hold", {a_hold, 102, "A:1", "orders", "open", -1});
  expect_evidence(v, "second_hold", {b_hold, 602, "B:1", "orders", "lock", 1});
  expect_evidence(v, "second_grant", {b_grant, 601, "redis0", "redis0/orders", "nil", 1});
  expect_evidence(v, "first_claim", {removal, 501, "C:0 force_unlock", "redis0/orders", "removed", 0});
  EXPECT_NE(v.explanation.find("A:1's hold had been removed by C:0 force_unlock at 501 ms."), std::string::npos)
      << v.explanation;
  EXPECT_EQ(v.witness, (W{a_grant, a_hold, removal, b_grant, b_hold}));
}

// A holds with a lease of 1000 ms (to 1101); at `t` an execution for B finds the key and leaves B's
// hold in it, with no key event in between (as a live server that sends no notification records it).
struct Replaced {
  HistoryBuilder b;
  int64_t b_grant = -1;

  explicit Replaced(int64_t t) {
    b.invoke({.t = 100, .p = "A", .op = 1, .f = "lock", .lease_ms = 1000});
    b.exec({.t = 101, .op = 1, .f = "acquire", .reply = "nil", .after = "A:1=1", .ttl = 1000, .sent = 100});
    b.ok({.t = 102, .p = "A", .op = 1, .f = "lock"});
    b.hold({.t = 102, .p = "A", .depth = 1, .lease_ms = 1000, .op = 1});
    b.invoke({.t = t, .p = "B", .op = 2, .f = "lock"});
    // Past A's expiry the server treats the key as gone; before it, only a planted script replaces A's field.
    const std::string before = t > 1101 ? "" : "A:1=1";
    b_grant = b.exec({.t = t + 1,
                      .op = 2,
                      .f = "acquire",
                      .reply = "nil",
                      .before = before,
                      .after = "B:1=1",
                      .ttl = 30000,
                      .sent = t});
    b.ok({.t = t + 2, .p = "B", .op = 2, .f = "lock"});
    b.hold({.t = t + 2, .p = "B", .depth = 1, .op = 2});
    // B's unlock, which changes B's field alone, tells that the field prefix "B" is B's. (The
    // acquire cannot: it changed A's field of the same thread number too.)
    b.unlock({.t = t + 100, .p = "B", .op = 3, .depth = 0, .before = "B:1=1"});
  }
};

TEST(CheckerMutualExclusion, AnExecutionThatFindsTheFirstsHoldPastItsExpiryShowsItExpired) {
  const Replaced h(1500);
  const Verdict v = check(h.b);
  ASSERT_EQ(v.valid, Validity::No);
  expect_evidence(v, "first_claim", {h.b_grant, 1101, "A:1", "redis0/orders", "expired", 0});
  EXPECT_NE(v.explanation.find("A:1's hold had expired at 1101 ms."), std::string::npos) << v.explanation;
}

TEST(CheckerMutualExclusion, AnExecutionThatReplacesTheFirstsHoldBeforeItsExpiryRemovedIt) {
  const Replaced h(600);
  const Verdict v = check(h.b);
  ASSERT_EQ(v.valid, Validity::No);
  expect_evidence(v, "first_claim", {h.b_grant, 601, "B:1 acquire", "redis0/orders", "removed", 0});
  EXPECT_NE(v.explanation.find("A:1's hold had been removed by B:1 acquire at 601 ms."), std::string::npos)
      << v.explanation;
}

TEST(CheckerMutualExclusion, ALaterBelieverWhoseReplyCameAfterItsHoldExpiredShowsItsOwnClaim) {
  HistoryBuilder b;
  b.fault({.t = 0, .p = "B", .f = "delay", .value = 1500, .for_ms = 2000});  // B's link: 1500 ms more per message
  b.invoke({.t = 0, .p = "B", .op = 1, .f = "lock", .lease_ms = 1000});
  b.key({.t = 2, .f = "created"});
  const int64_t b_grant =
      b.exec({.t = 2, .op = 1, .f = "acquire", .reply = "nil", .after = "B:1=1", .ttl = 1000, .sent = 0});
  const int64_t b_expired = b.key({.t = 1100, .f = "expired", .value = 1002});
  b.invoke({.t = 1200, .p = "A", .op = 2, .f = "lock", .lease_ms = 1000});
  b.key({.t = 1201, .f = "created"});
  const int64_t a_grant =
      b.exec({.t = 1201, .op = 2, .f = "acquire", .reply = "nil", .after = "A:1=1", .ttl = 1000, .sent = 1200});
  b.ok({.t = 1202, .p = "A", .op = 2, .f = "lock"});
  const int64_t a_hold = b.hold({.t = 1202, .p = "A", .depth = 1, .lease_ms = 1000, .op = 2});
  b.ok({.t = 1500, .p = "B", .op = 1, .f = "lock"});  // the reply, late
  const int64_t b_hold = b.hold({.t = 1500, .p = "B", .depth = 1, .lease_ms = 1000, .op = 1});

  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kMutexOverlap);
  // A believed first; B's acquire ran first, and its hold had expired before A's ran.
  expect_evidence(v, "first_hold", {a_hold, 1202, "A:1", "orders", "open", 1000});
  expect_evidence(v, "second_hold", {b_hold, 1500, "B:1", "orders", "lock", 1});
  expect_evidence(v, "first_grant", {a_grant, 1201, "redis0", "redis0/orders", "nil", 1});
  expect_evidence(v, "second_grant", {b_grant, 2, "redis0", "redis0/orders", "nil", 1498});
  expect_evidence(v, "second_claim", {b_expired, 1002, "B:1", "redis0/orders", "expired", 0});
  EXPECT_EQ(v.find("first_claim"), nullptr);
  for (int64_t i : {b_grant, b_expired, a_grant, a_hold, b_hold})
    EXPECT_NE(std::find(v.witness.begin(), v.witness.end(), i), v.witness.end()) << "event " << i;
  EXPECT_NE(v.explanation.find("Then B:1 acquired orders at 1500 ms (its acquire ran on redis0 at 2 ms; the reply "
                               "reached it 1498 ms later) while A:1 still believed it held orders (to the end of the "
                               "history); in redis0/orders, B:1's hold had expired at 1002 ms, before A:1's acquire "
                               "ran there."),
            std::string::npos)
      << v.explanation;
}

TEST(CheckerMutualExclusion, AMultiLockOverlapTellsWhatBecameOfTheFirstsHoldInEachPart) {
  HistoryBuilder b;
  b.invoke({.t = 0, .p = "A", .op = 1, .f = "lock"});
  b.key({.t = 2, .lock = "orders-1", .f = "created"});
  const int64_t a_part1 = b.exec(
      {.t = 2, .op = 1, .lock = "orders-1", .f = "acquire", .reply = "nil", .after = "A:1=1", .ttl = 30000, .sent = 0});
  b.key({.t = 4, .lock = "orders-2", .f = "created"});
  const int64_t a_part2 = b.exec(
      {.t = 4, .op = 1, .lock = "orders-2", .f = "acquire", .reply = "nil", .after = "A:1=1", .ttl = 30000, .sent = 2});
  b.ok({.t = 6, .p = "A", .op = 1, .f = "lock"});
  const int64_t a_hold = b.hold({.t = 6, .p = "A", .depth = 1, .op = 1});
  const int64_t pause = b.fault({.t = 1000, .p = "A", .f = "pause", .for_ms = 40000});
  const int64_t expired1 = b.key({.t = 30100, .lock = "orders-1", .f = "expired", .value = 30002});
  const int64_t expired2 = b.key({.t = 30100, .lock = "orders-2", .f = "expired", .value = 30004});
  b.invoke({.t = 35000, .p = "B", .op = 2, .f = "try_lock", .wait_ms = 0});
  b.key({.t = 35002, .lock = "orders-1", .f = "created"});
  const int64_t b_part1 = b.exec({.t = 35002,
                                  .op = 2,
                                  .lock = "orders-1",
                                  .f = "acquire",
                                  .reply = "nil",
                                  .after = "B:1=1",
                                  .ttl = 30000,
                                  .sent = 35000});
  b.key({.t = 35004, .lock = "orders-2", .f = "created"});
  const int64_t b_part2 = b.exec({.t = 35004,
                                  .op = 2,
                                  .lock = "orders-2",
                                  .f = "acquire",
                                  .reply = "nil",
                                  .after = "B:1=1",
                                  .ttl = 30000,
                                  .sent = 35002});
  b.ok({.t = 35006, .p = "B", .op = 2, .f = "try_lock"});
  const int64_t b_hold = b.hold({.t = 35006, .p = "B", .depth = 1, .op = 2});

  const Verdict v = check(b, "multi");
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kMutexOverlap);
  EXPECT_EQ(v.witness, (W{a_part1, a_part2, a_hold, pause, expired1, expired2, b_part1, b_part2, b_hold}));
  expect_evidence(v, "first_hold", {a_hold, 6, "A:1", "orders", "open", -1});
  // One grant per part, in the order they ran (number: ms until the Hold), and per part the fate of A's hold.
  const auto first_grants = all_of(v, "first_grant");
  ASSERT_EQ(first_grants.size(), 2u) << v.explanation;
  EXPECT_EQ(first_grants[0]->event, a_part1);
  EXPECT_EQ(first_grants[0]->where, "redis0/orders-1");
  EXPECT_EQ(first_grants[0]->number, 4);
  EXPECT_EQ(first_grants[1]->event, a_part2);
  EXPECT_EQ(first_grants[1]->where, "redis0/orders-2");
  EXPECT_EQ(first_grants[1]->number, 2);
  const auto second_grants = all_of(v, "second_grant");
  ASSERT_EQ(second_grants.size(), 2u) << v.explanation;
  EXPECT_EQ(second_grants[0]->event, b_part1);
  EXPECT_EQ(second_grants[1]->event, b_part2);
  const auto claims = all_of(v, "first_claim");
  ASSERT_EQ(claims.size(), 2u) << v.explanation;
  EXPECT_EQ(claims[0]->where, "redis0/orders-1");
  EXPECT_EQ(claims[0]->state, "expired");
  EXPECT_EQ(claims[0]->event, expired1);
  EXPECT_EQ(claims[0]->from_ms, 30002);
  EXPECT_EQ(claims[1]->where, "redis0/orders-2");
  EXPECT_EQ(claims[1]->state, "expired");
  EXPECT_EQ(claims[1]->event, expired2);
  EXPECT_EQ(claims[1]->from_ms, 30004);
  EXPECT_EQ(all_of(v, "fault").size(), 1u);
  EXPECT_NE(v.explanation.find("; in redis0/orders-1, A:1's hold had expired at 30002 ms; in redis0/orders-2, A:1's "
                               "hold had expired at 30004 ms."),
            std::string::npos)
      << v.explanation;
}

TEST(CheckerMutualExclusion, ARedLockOverlapTellsTheServerWhereBothWereLetIn) {
  HistoryBuilder b;
  b.invoke({.t = 0, .p = "A", .op = 1, .f = "lock"});
  const int64_t a_on0 =
      b.exec({.t = 2, .op = 1, .f = "acquire", .reply = "nil", .after = "A:1=1", .ttl = 30000, .sent = 0});
  const int64_t a_on1 = b.exec(
      {.t = 3, .op = 1, .f = "acquire", .reply = "nil", .after = "A:1=1", .p = "redis1", .ttl = 30000, .sent = 0});
  // A's request to redis2 was lost; two of three servers are a majority.
  b.ok({.t = 5, .p = "A", .op = 1, .f = "lock"});
  const int64_t a_hold = b.hold({.t = 5, .p = "A", .depth = 1, .op = 1});
  const int64_t restart = b.fault({.t = 1000, .p = "redis0", .f = "restart"});
  b.invoke({.t = 2000, .p = "B", .op = 2, .f = "lock"});
  const int64_t b_on0 =
      b.exec({.t = 2002, .op = 2, .f = "acquire", .reply = "nil", .after = "B:1=1", .ttl = 30000, .sent = 2000});
  b.exec({.t = 2003,
          .op = 2,
          .f = "acquire",
          .reply = "27997",
          .before = "A:1=1",
          .after = "A:1=1",
          .p = "redis1",
          .ttl = 27997,
          .sent = 2000});
  const int64_t b_on2 = b.exec({.t = 2004,
                                .op = 2,
                                .f = "acquire",
                                .reply = "nil",
                                .after = "B:1=1",
                                .p = "redis2",
                                .ttl = 30000,
                                .sent = 2000});
  b.ok({.t = 2005, .p = "B", .op = 2, .f = "lock"});
  const int64_t b_hold = b.hold({.t = 2005, .p = "B", .depth = 1, .op = 2});

  const Verdict v = check(b, "red");
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kMutexOverlap);
  EXPECT_EQ(v.witness, (W{a_on0, a_on1, a_hold, restart, b_on0, b_on2, b_hold}));
  const auto first_grants = all_of(v, "first_grant");
  ASSERT_EQ(first_grants.size(), 2u) << v.explanation;
  EXPECT_EQ(first_grants[0]->where, "redis0/orders");
  EXPECT_EQ(first_grants[1]->where, "redis1/orders");
  const auto second_grants = all_of(v, "second_grant");
  ASSERT_EQ(second_grants.size(), 2u) << v.explanation;
  EXPECT_EQ(second_grants[0]->where, "redis0/orders");
  EXPECT_EQ(second_grants[1]->where, "redis2/orders");
  // Only redis0 let both in: there A's hold had been lost in the restart.
  const auto claims = all_of(v, "first_claim");
  ASSERT_EQ(claims.size(), 1u) << v.explanation;
  EXPECT_EQ(claims[0]->where, "redis0/orders");
  EXPECT_EQ(claims[0]->state, "lost");
  EXPECT_EQ(claims[0]->who, "redis0 restart");
  EXPECT_EQ(claims[0]->event, restart);
  expect_evidence(v, "fault", {restart, 1000, "redis0", "", "restart", 0});
}

TEST(CheckerMutualExclusion, AMultiLockWaiterRefusedOnAPartWaitsItsTurnAndHolds) {
  HistoryBuilder b;
  b.invoke({.t = 0, .p = "A", .op = 1, .f = "lock"});
  b.exec(
      {.t = 2, .op = 1, .lock = "orders-1", .f = "acquire", .reply = "nil", .after = "A:1=1", .ttl = 30000, .sent = 0});
  b.exec(
      {.t = 4, .op = 1, .lock = "orders-2", .f = "acquire", .reply = "nil", .after = "A:1=1", .ttl = 30000, .sent = 2});
  b.ok({.t = 6, .p = "A", .op = 1, .f = "lock"});
  b.hold({.t = 6, .p = "A", .depth = 1, .op = 1});
  b.invoke({.t = 100, .p = "B", .op = 2, .f = "try_lock", .wait_ms = 0});
  b.exec({.t = 102,
          .op = 2,
          .lock = "orders-1",
          .f = "acquire",
          .reply = "29900",
          .before = "A:1=1",
          .after = "A:1=1",
          .ttl = 29900,
          .sent = 100});
  b.fail({.t = 104, .p = "B", .op = 2, .f = "try_lock"});
  b.invoke({.t = 5000, .p = "A", .op = 3, .f = "unlock"});
  b.release({.t = 5000, .p = "A", .depth = 0, .op = 3});
  b.exec({.t = 5002,
          .op = 3,
          .lock = "orders-1",
          .f = "unlock",
          .reply = "1",
          .before = "A:1=1",
          .ttl = -2,
          .sent = 5000});
  b.exec({.t = 5004,
          .op = 3,
          .lock = "orders-2",
          .f = "unlock",
          .reply = "1",
          .before = "A:1=1",
          .ttl = -2,
          .sent = 5002});
  b.ok({.t = 5006, .p = "A", .op = 3, .f = "unlock"});
  b.invoke({.t = 6000, .p = "B", .op = 4, .f = "try_lock", .wait_ms = 0});
  b.exec({.t = 6002,
          .op = 4,
          .lock = "orders-1",
          .f = "acquire",
          .reply = "nil",
          .after = "B:1=1",
          .ttl = 30000,
          .sent = 6000});
  b.exec({.t = 6004,
          .op = 4,
          .lock = "orders-2",
          .f = "acquire",
          .reply = "nil",
          .after = "B:1=1",
          .ttl = 30000,
          .sent = 6002});
  b.ok({.t = 6006, .p = "B", .op = 4, .f = "try_lock"});
  b.hold({.t = 6006, .p = "B", .depth = 1, .op = 4});
  const Verdict v = check(b, "multi");
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(v.explanation, "2 holding intervals on 1 lock, none overlapping");
}

TEST(CheckerMutualExclusion, BeliefsAloneAreJudgedAndAnOwnerThatNeverReleasesOverlapsToTheEnd) {
  HistoryBuilder b;
  const int64_t a = b.hold({.t = 100, .p = "A", .depth = 1});
  const int64_t partition = b.fault({.t = 200, .p = "A", .f = "partition"});
  const int64_t c = b.hold({.t = 31000, .p = "B", .thread = 7, .depth = 1});
  const int64_t heal = b.fault({.t = 32000, .p = "A", .f = "heal"});
  const Verdict v = check(b, "");  // a lock type locksim does not know
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kMutexOverlap);
  // No execution, so no grant and no claim; the partition (ended by the heal) is the fault meanwhile.
  EXPECT_EQ(v.witness, (W{a, partition, c, heal}));
  EXPECT_EQ(v.find("first_grant"), nullptr);
  EXPECT_EQ(v.find("second_grant"), nullptr);
  EXPECT_EQ(v.find("first_claim"), nullptr);
  EXPECT_EQ(v.explanation,
            "Let A:1 hold orders from 100 ms. Then B:7 acquired orders at 31000 ms while A:1 still believed it held "
            "orders (to the end of the history). Faults meanwhile: partition of A at 200 ms for 31800 ms.");
}

TEST(CheckerMutualExclusion, TwoThreadsOfOneProcessAreDifferentOwners) {
  HistoryBuilder b;
  const int64_t a = b.hold({.t = 100, .p = "A", .depth = 1});
  const int64_t c = b.hold({.t = 200, .p = "A", .thread = 2, .depth = 1});
  const Verdict v = check(b, "");
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.witness, (W{a, c}));
  EXPECT_EQ(evidence(v, "first_hold").who, "A:1");
  EXPECT_EQ(evidence(v, "second_hold").who, "A:2");
}

TEST(CheckerMutualExclusion, TheFirstOverlapInTheHistoryIsReported) {
  HistoryBuilder b;
  const int64_t first = b.hold({.t = 100, .p = "A", .lock = "stock", .depth = 1});
  b.hold({.t = 200, .p = "B", .depth = 1});
  const int64_t second = b.hold({.t = 300, .p = "B", .lock = "stock", .depth = 1});  // overlaps A on stock
  b.hold({.t = 400, .p = "C", .depth = 1});                                          // overlaps B on orders, later
  const Verdict v = check(b, "");
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.witness, (W{first, second}));
  EXPECT_EQ(evidence(v, "first_hold").who, "A:1");
  EXPECT_EQ(evidence(v, "second_hold").who, "B:1");
  EXPECT_EQ(evidence(v, "second_hold").where, "stock");
}

TEST(CheckerMutualExclusion, DoesNotJudgeReadWriteLocks) {
  HistoryBuilder b;
  b.hold({.t = 100, .p = "A", .lock = "orders:read", .depth = 1});
  b.hold({.t = 110, .p = "B", .lock = "orders:read", .depth = 1});
  CheckerOptions options;
  options.lock_type = "rwlock";
  EXPECT_THROW(run_checkers(b.history(), {"mutual_exclusion"}, options), std::invalid_argument);
  options.lock_type = "rlock";
  EXPECT_EQ(run_checkers(b.history(), {"mutual_exclusion"}, options).at(0).valid, Validity::No);
}

}  // namespace
}  // namespace locksim::model
