#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/anomaly.hpp"
#include "model/checkers.hpp"
#include "model/facts.hpp"
#include "model/lock_types.hpp"
#include "model/mutual_exclusion.hpp"
#include "verify/unit/model/evidence.hpp"
#include "verify/unit/model/history_builder.hpp"

namespace locksim::model {
namespace {

using test::HistoryBuilder;
using test::evidence;
using test::expect_evidence;
using test::Want;
using W = std::vector<int64_t>;

// The checker on `b`'s history, its facts worked out for the lock type `type` ("" for an unknown one).
Verdict check(const HistoryBuilder& b, const char* type = "rlock") {
  const Facts facts(b.history(), find_lock_type(type));
  return check_mutual_exclusion(facts);
}




std::vector<const Evidence*> all_of(const Verdict& v, const std::string& role) {
  std::vector<const Evidence*> out;
  for (const Evidence& e : v.evidence)
    if (e.role == role) out.push_back(&e);
  return out;
}

TEST(CheckerMutualExclusion, SuccessiveHoldersHold) {
  HistoryBuilder b;
  b.acquire(100, "A", 1, 1, "orders", 1, "", "A:1=1");
  b.unlock(200, "A", 1, 2, "orders", 0, "A:1=1", "");
  b.acquire(300, "B", 1, 3, "orders", 1, "", "B:1=1");
  b.unlock(400, "B", 1, 4, "orders", 0, "B:1=1", "");
  const Verdict v = check(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(v.property, "mutual_exclusion");
  EXPECT_TRUE(v.anomaly.empty());
  EXPECT_TRUE(v.witness.empty());
  EXPECT_EQ(v.explanation, "2 holding intervals on 1 locks, none overlapping");
}

// A holds with a lease of 1000 ms that runs out; B is let in; A's unlock begins at the ms B's reply
// arrives. Whether that is an overlap depends only on which of A's Release and B's Hold the history
// recorded first.
struct SameMillisecond {
  HistoryBuilder b;
  int64_t a_grant = -1, a_hold = -1, expired = -1, b_grant = -1, b_hold = -1, a_release = -1;

  explicit SameMillisecond(bool release_first) {
    b.invoke(100, "A", 1, 1, "lock", "orders", -1, 1000);
    b.key(101, "orders", "created");
    b.key(101, "orders", "expire_set", 1101);
    a_grant = b.exec(101, 1, 1, "orders", "acquire", "nil", "", "A:1=1", "redis0", 1000, "", 100);
    b.ok(102, "A", 1, 1, "lock", "orders");
    a_hold = b.hold(102, "A", 1, "orders", 1, 1000, 1);
    expired = b.key(1150, "orders", "expired", 1101);
    b.invoke(1400, "B", 1, 2, "lock", "orders", -1, 1000);
    b.key(1401, "orders", "created");
    b.key(1401, "orders", "expire_set", 2401);
    b_grant = b.exec(1401, 1, 2, "orders", "acquire", "nil", "", "B:1=1", "redis0", 1000, "", 1400);
    b.ok(1402, "B", 1, 2, "lock", "orders");
    if (!release_first) b_hold = b.hold(1402, "B", 1, "orders", 1, 1000, 2);
    b.invoke(1402, "A", 1, 3, "unlock", "orders");
    a_release = b.release(1402, "A", 1, "orders", 0, "unlock", 3);
    if (release_first) b_hold = b.hold(1402, "B", 1, "orders", 1, 1000, 2);
    b.exec(1403, 1, 3, "orders", "unlock", "nil", "B:1=1", "B:1=1", "redis0", 998, "", 1402);
    b.fail(1404, "A", 1, 3, "unlock", "orders", "IllegalMonitorStateException");
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
  b.acquire(100, "A", 1, 1, "orders", 1, "", "A:1=1");
  b.acquire(110, "A", 1, 2, "orders", 2, "A:1=1", "A:1=2");  // re-entry: the same owner
  b.acquire(120, "B", 1, 3, "stock", 1, "", "B:1=1");        // another lock, while A holds orders
  b.unlock(130, "A", 1, 4, "orders", 1, "A:1=2", "A:1=1");
  b.unlock(140, "A", 1, 5, "orders", 0, "A:1=1", "");
  b.acquire(150, "B", 1, 6, "orders", 1, "", "B:1=1");
  const Verdict v = check(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  // A's two holds of orders are one interval; B holds stock and then orders.
  EXPECT_EQ(v.explanation, "3 holding intervals on 2 locks, none overlapping");
}

TEST(CheckerMutualExclusion, ACrashEndsTheCrashedOwnersInterval) {
  HistoryBuilder b;
  b.acquire(100, "A", 1, 1, "orders", 1, "", "A:1=1");  // its key expires at 30101
  b.fault(1000, "A", "crash");
  b.release(1000, "A", 1, "orders", 0, "crash");
  b.key(30200, "orders", "expired", 30101);
  b.acquire(40000, "B", 1, 2, "orders", 1, "", "B:1=1");
  const Verdict v = check(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

TEST(CheckerMutualExclusion, ASecondHolderLetInAfterTheFirstsHoldExpiredIsAnOverlap) {
  HistoryBuilder b;
  b.invoke(0, "A", 1, 1, "lock", "orders");
  b.key(2, "orders", "created");
  b.key(2, "orders", "expire_set", 30002);
  const int64_t a_grant = b.exec(2, 1, 1, "orders", "acquire", "nil", "", "A:1=1", "redis0", 30000, "", 0);
  b.ok(4, "A", 1, 1, "lock", "orders");
  const int64_t a_hold = b.hold(4, "A", 1, "orders", 1, -1, 1);
  const int64_t pause = b.fault(1000, "A", "pause", 0, 40000);  // no renewal gets through
  const int64_t expired = b.key(30100, "orders", "expired", 30002);
  b.invoke(35000, "B", 1, 2, "try_lock", "orders", 0);
  b.key(35001, "orders", "created");
  b.key(35001, "orders", "expire_set", 65001);
  const int64_t b_grant = b.exec(35001, 1, 2, "orders", "acquire", "nil", "", "B:1=1", "redis0", 30000, "", 35000);
  b.ok(35003, "B", 1, 2, "try_lock", "orders");
  const int64_t b_hold = b.hold(35003, "B", 1, "orders", 1, -1, 2);
  b.fault(41000, "A", "resume");
  b.invoke(41000, "A", 1, 3, "unlock", "orders");
  const int64_t a_release = b.release(41000, "A", 1, "orders", 0, "unlock", 3);
  b.exec(41001, 1, 3, "orders", "unlock", "nil", "B:1=1", "B:1=1", "redis0", 24000, "", 41000);
  b.fail(41002, "A", 1, 3, "unlock", "orders", "IllegalMonitorStateException");

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
    b.invoke(0, "A", 1, 1, "lock", "orders");
    b.key(2, "orders", "created");
    a_grant = b.exec(2, 1, 1, "orders", "acquire", "nil", "", "A:1=1", "redis0", 30000, "", 0);
    b.ok(3, "A", 1, 1, "lock", "orders");
    a_hold = b.hold(3, "A", 1, "orders", 1, -1, 1);
    restart = b.fault(5000, "redis0", "restart");
    b.invoke(6000, "B", 1, 2, "try_lock", "orders", 0);
    if (keeps_data) {
      b.exec(6002, 1, 2, "orders", "acquire", "24998", "A:1=1", "A:1=1", "redis0", 24998, "", 6000);
      b.fail(6004, "B", 1, 2, "try_lock", "orders");
    } else {
      // The first execution after the restart shows the key gone.
      b_grant = b.exec(6002, 1, 2, "orders", "acquire", "nil", "", "B:1=1", "redis0", 30000, "", 6000);
      b.ok(6004, "B", 1, 2, "try_lock", "orders");
      b_hold = b.hold(6004, "B", 1, "orders", 1, -1, 2);
    }
    b.invoke(20000, "A", 1, 3, "unlock", "orders");
    a_release = b.release(20000, "A", 1, "orders", 0, "unlock", 3);
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
  EXPECT_EQ(v.explanation, "1 holding intervals on 1 locks, none overlapping");
}

TEST(CheckerMutualExclusion, AScriptThatLetsTheSecondInBesideTheFirstsFieldShowsTheFirstStillHeld) {
  HistoryBuilder b;
  b.invoke(100, "A", 1, 1, "lock", "orders");
  const int64_t a_grant = b.exec(101, 1, 1, "orders", "acquire", "nil", "", "A:1=1", "redis0", 30000, "", 100);
  b.ok(102, "A", 1, 1, "lock", "orders");
  const int64_t a_hold = b.hold(102, "A", 1, "orders", 1, -1, 1);
  b.invoke(200, "B", 1, 2, "lock", "orders");
  // A planted acquire script that adds B's field although A's is there.
  const int64_t b_grant =
      b.exec(203, 1, 2, "orders", "acquire", "nil", "A:1=1", "A:1=1,B:1=1", "redis0", 30000, "", 200);
  b.ok(205, "B", 1, 2, "lock", "orders");
  const int64_t b_hold = b.hold(205, "B", 1, "orders", 1, -1, 2);

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
  b.invoke(100, "A", 1, 1, "lock", "orders");
  const int64_t a_grant = b.exec(101, 1, 1, "orders", "acquire", "nil", "", "A:1=1", "redis0", 30000, "", 100);
  b.ok(102, "A", 1, 1, "lock", "orders");
  const int64_t a_hold = b.hold(102, "A", 1, "orders", 1, -1, 1);
  b.invoke(500, "C", 1, 2, "force_unlock", "orders");
  b.key(501, "orders", "deleted");
  // Redisson's forceUnlock runs on no thread of its client.
  const int64_t removal = b.exec(501, 0, 2, "orders", "force_unlock", "1", "A:1=1", "", "redis0", -2, "", 500);
  b.ok(502, "C", 1, 2, "force_unlock", "orders");
  b.invoke(600, "B", 1, 3, "lock", "orders");
  const int64_t b_grant = b.exec(601, 1, 3, "orders", "acquire", "nil", "", "B:1=1", "redis0", 30000, "", 600);
  b.ok(602, "B", 1, 3, "lock", "orders");
  const int64_t b_hold = b.hold(602, "B", 1, "orders", 1, -1, 3);

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
    b.invoke(100, "A", 1, 1, "lock", "orders", -1, 1000);
    b.exec(101, 1, 1, "orders", "acquire", "nil", "", "A:1=1", "redis0", 1000, "", 100);
    b.ok(102, "A", 1, 1, "lock", "orders");
    b.hold(102, "A", 1, "orders", 1, 1000, 1);
    b.invoke(t, "B", 1, 2, "lock", "orders");
    // Past A's expiry the server treats the key as gone; before it, only a planted script replaces A's field.
    const std::string before = t > 1101 ? "" : "A:1=1";
    b_grant = b.exec(t + 1, 1, 2, "orders", "acquire", "nil", before, "B:1=1", "redis0", 30000, "", t);
    b.ok(t + 2, "B", 1, 2, "lock", "orders");
    b.hold(t + 2, "B", 1, "orders", 1, -1, 2);
    // B's unlock, which changes B's field alone, tells that the field prefix "B" is B's. (The
    // acquire cannot: it changed A's field of the same thread number too.)
    b.unlock(t + 100, "B", 1, 3, "orders", 0, "B:1=1", "");
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
  b.fault(0, "B", "delay", 1500, 2000);  // B's link: 1500 ms more per message
  b.invoke(0, "B", 1, 1, "lock", "orders", -1, 1000);
  b.key(2, "orders", "created");
  const int64_t b_grant = b.exec(2, 1, 1, "orders", "acquire", "nil", "", "B:1=1", "redis0", 1000, "", 0);
  const int64_t b_expired = b.key(1100, "orders", "expired", 1002);
  b.invoke(1200, "A", 1, 2, "lock", "orders", -1, 1000);
  b.key(1201, "orders", "created");
  const int64_t a_grant = b.exec(1201, 1, 2, "orders", "acquire", "nil", "", "A:1=1", "redis0", 1000, "", 1200);
  b.ok(1202, "A", 1, 2, "lock", "orders");
  const int64_t a_hold = b.hold(1202, "A", 1, "orders", 1, 1000, 2);
  b.ok(1500, "B", 1, 1, "lock", "orders");  // the reply, late
  const int64_t b_hold = b.hold(1500, "B", 1, "orders", 1, 1000, 1);

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
  b.invoke(0, "A", 1, 1, "lock", "orders");
  b.key(2, "orders-1", "created");
  const int64_t a_part1 = b.exec(2, 1, 1, "orders-1", "acquire", "nil", "", "A:1=1", "redis0", 30000, "", 0);
  b.key(4, "orders-2", "created");
  const int64_t a_part2 = b.exec(4, 1, 1, "orders-2", "acquire", "nil", "", "A:1=1", "redis0", 30000, "", 2);
  b.ok(6, "A", 1, 1, "lock", "orders");
  const int64_t a_hold = b.hold(6, "A", 1, "orders", 1, -1, 1);
  const int64_t pause = b.fault(1000, "A", "pause", 0, 40000);
  const int64_t expired1 = b.key(30100, "orders-1", "expired", 30002);
  const int64_t expired2 = b.key(30100, "orders-2", "expired", 30004);
  b.invoke(35000, "B", 1, 2, "try_lock", "orders", 0);
  b.key(35002, "orders-1", "created");
  const int64_t b_part1 = b.exec(35002, 1, 2, "orders-1", "acquire", "nil", "", "B:1=1", "redis0", 30000, "", 35000);
  b.key(35004, "orders-2", "created");
  const int64_t b_part2 = b.exec(35004, 1, 2, "orders-2", "acquire", "nil", "", "B:1=1", "redis0", 30000, "", 35002);
  b.ok(35006, "B", 1, 2, "try_lock", "orders");
  const int64_t b_hold = b.hold(35006, "B", 1, "orders", 1, -1, 2);

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
  b.invoke(0, "A", 1, 1, "lock", "orders");
  const int64_t a_on0 = b.exec(2, 1, 1, "orders", "acquire", "nil", "", "A:1=1", "redis0", 30000, "", 0);
  const int64_t a_on1 = b.exec(3, 1, 1, "orders", "acquire", "nil", "", "A:1=1", "redis1", 30000, "", 0);
  // A's request to redis2 was lost; two of three servers are a majority.
  b.ok(5, "A", 1, 1, "lock", "orders");
  const int64_t a_hold = b.hold(5, "A", 1, "orders", 1, -1, 1);
  const int64_t restart = b.fault(1000, "redis0", "restart");
  b.invoke(2000, "B", 1, 2, "lock", "orders");
  const int64_t b_on0 = b.exec(2002, 1, 2, "orders", "acquire", "nil", "", "B:1=1", "redis0", 30000, "", 2000);
  b.exec(2003, 1, 2, "orders", "acquire", "27997", "A:1=1", "A:1=1", "redis1", 27997, "", 2000);
  const int64_t b_on2 = b.exec(2004, 1, 2, "orders", "acquire", "nil", "", "B:1=1", "redis2", 30000, "", 2000);
  b.ok(2005, "B", 1, 2, "lock", "orders");
  const int64_t b_hold = b.hold(2005, "B", 1, "orders", 1, -1, 2);

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
  b.invoke(0, "A", 1, 1, "lock", "orders");
  b.exec(2, 1, 1, "orders-1", "acquire", "nil", "", "A:1=1", "redis0", 30000, "", 0);
  b.exec(4, 1, 1, "orders-2", "acquire", "nil", "", "A:1=1", "redis0", 30000, "", 2);
  b.ok(6, "A", 1, 1, "lock", "orders");
  b.hold(6, "A", 1, "orders", 1, -1, 1);
  b.invoke(100, "B", 1, 2, "try_lock", "orders", 0);
  b.exec(102, 1, 2, "orders-1", "acquire", "29900", "A:1=1", "A:1=1", "redis0", 29900, "", 100);
  b.fail(104, "B", 1, 2, "try_lock", "orders");
  b.invoke(5000, "A", 1, 3, "unlock", "orders");
  b.release(5000, "A", 1, "orders", 0, "unlock", 3);
  b.exec(5002, 1, 3, "orders-1", "unlock", "1", "A:1=1", "", "redis0", -2, "", 5000);
  b.exec(5004, 1, 3, "orders-2", "unlock", "1", "A:1=1", "", "redis0", -2, "", 5002);
  b.ok(5006, "A", 1, 3, "unlock", "orders");
  b.invoke(6000, "B", 1, 4, "try_lock", "orders", 0);
  b.exec(6002, 1, 4, "orders-1", "acquire", "nil", "", "B:1=1", "redis0", 30000, "", 6000);
  b.exec(6004, 1, 4, "orders-2", "acquire", "nil", "", "B:1=1", "redis0", 30000, "", 6002);
  b.ok(6006, "B", 1, 4, "try_lock", "orders");
  b.hold(6006, "B", 1, "orders", 1, -1, 4);
  const Verdict v = check(b, "multi");
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(v.explanation, "2 holding intervals on 1 locks, none overlapping");
}

TEST(CheckerMutualExclusion, BeliefsAloneAreJudgedAndAnOwnerThatNeverReleasesOverlapsToTheEnd) {
  HistoryBuilder b;
  const int64_t a = b.hold(100, "A", 1, "orders", 1);
  const int64_t partition = b.fault(200, "A", "partition");
  const int64_t c = b.hold(31000, "B", 7, "orders", 1);
  const int64_t heal = b.fault(32000, "A", "heal");
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
  const int64_t a = b.hold(100, "A", 1, "orders", 1);
  const int64_t c = b.hold(200, "A", 2, "orders", 1);
  const Verdict v = check(b, "");
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.witness, (W{a, c}));
  EXPECT_EQ(evidence(v, "first_hold").who, "A:1");
  EXPECT_EQ(evidence(v, "second_hold").who, "A:2");
}

TEST(CheckerMutualExclusion, TheFirstOverlapInTheHistoryIsReported) {
  HistoryBuilder b;
  const int64_t first = b.hold(100, "A", 1, "stock", 1);
  b.hold(200, "B", 1, "orders", 1);
  const int64_t second = b.hold(300, "B", 1, "stock", 1);  // overlaps A on stock
  b.hold(400, "C", 1, "orders", 1);                       // overlaps B on orders, later
  const Verdict v = check(b, "");
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.witness, (W{first, second}));
  EXPECT_EQ(evidence(v, "first_hold").who, "A:1");
  EXPECT_EQ(evidence(v, "second_hold").who, "B:1");
  EXPECT_EQ(evidence(v, "second_hold").where, "stock");
}

TEST(CheckerMutualExclusion, DoesNotJudgeReadWriteLocks) {
  HistoryBuilder b;
  b.hold(100, "A", 1, "orders:read", 1);
  b.hold(110, "B", 1, "orders:read", 1);
  CheckerOptions options;
  options.lock_type = "rwlock";
  EXPECT_THROW(run_checkers(b.history(), {"mutual_exclusion"}, options), std::invalid_argument);
  options.lock_type = "rlock";
  EXPECT_EQ(run_checkers(b.history(), {"mutual_exclusion"}, options).at(0).valid, Validity::No);
}

}  // namespace
}  // namespace locksim::model
