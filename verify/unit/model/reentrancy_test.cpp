#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/anomaly.hpp"
#include "model/facts.hpp"
#include "model/lock_types.hpp"
#include "model/reentrancy.hpp"
#include "verify/unit/model/evidence.hpp"
#include "verify/unit/model/history_builder.hpp"

namespace locksim::model {
namespace {

using test::HistoryBuilder;
using test::evidence;
using test::figure;
using W = std::vector<int64_t>;

// The checker on `b`'s history, its facts worked out for the lock type `type` (nullptr: not known).
Verdict check(const HistoryBuilder& b, const char* type = "rlock") {
  const Facts facts(b.history(), type ? find_lock_type(type) : nullptr);
  return check_reentrancy(facts);
}



// What the "count" evidence of a hash verdict must say: whose count, which field, what the
// reference model expected, and the count before and after the execution.
void expect_count(const Verdict& v, const std::string& who, const std::string& field, const std::string& expected,
                  int64_t before, int64_t after) {
  const Evidence* c = v.find("count");
  ASSERT_NE(c, nullptr) << v.explanation;
  EXPECT_EQ(c->who, who);
  EXPECT_EQ(c->where, field);
  EXPECT_EQ(c->state, expected);
  EXPECT_EQ(figure(v, "count_before"), before);
  EXPECT_EQ(figure(v, "count_after"), after);
}

// The judged execution: its event and the key it ran on.
void expect_execution(const Verdict& v, int64_t event, const std::string& key) {
  const Evidence* x = v.find("execution");
  ASSERT_NE(x, nullptr) << v.explanation;
  EXPECT_EQ(x->event, event);
  EXPECT_EQ(x->where, key);
}

// One acquire operation of `lock` by `who`:1, granted on `key` (before -> after) on `server`, as the
// world records it: Invoke, Exec, Ok, Hold (depth).
struct Acquire {
  int64_t invoke, exec, ok, hold;
};
Acquire granted(HistoryBuilder& b, int64_t t, const std::string& who, int64_t op, const std::string& lock,
                const std::string& key, int64_t depth, const std::string& before, const std::string& after,
                const std::string& server = "redis0") {
  Acquire a{};
  a.invoke = b.invoke(t, who, 1, op, "lock", lock);
  a.exec = b.exec(t + 1, 1, op, key, "acquire", "nil", before, after, server);
  a.ok = b.ok(t + 2, who, 1, op, "lock", lock);
  a.hold = b.hold(t + 2, who, 1, lock, depth, -1, op);
  return a;
}

// One unlock operation: Invoke, Release (depth after), Exec (reply), Ok.
struct Unlock {
  int64_t invoke, release, exec, ok;
};
Unlock unlocked(HistoryBuilder& b, int64_t t, const std::string& who, int64_t op, const std::string& lock,
                const std::string& key, int64_t depth, const std::string& reply, const std::string& before,
                const std::string& after, const std::string& server = "redis0") {
  Unlock u{};
  u.invoke = b.invoke(t, who, 1, op, "unlock", lock);
  u.release = b.release(t, who, 1, lock, depth, "unlock", op);
  u.exec = b.exec(t + 1, 1, op, key, "unlock", reply, before, after, server);
  u.ok = b.ok(t + 2, who, 1, op, "unlock", lock, depth == 0 ? 1 : 0);
  return u;
}

// A try_lock the server refused (reply: the holder's remaining ttl), the key unchanged.
int64_t refused(HistoryBuilder& b, int64_t t, const std::string& who, int64_t op, const std::string& key,
                const std::string& value, const std::string& server = "redis0") {
  b.invoke(t, who, 1, op, "try_lock", key, 0);
  const int64_t x = b.exec(t + 1, 1, op, key, "acquire", "29000", value, value, server, 29000);
  b.fail(t + 2, who, 1, op, "try_lock", key, "not acquired within 0 ms");
  return x;
}

// ---------------------------------------------------------------------------------------------
// The reference model's step.

TEST(CheckerReentrancy, StepAddsOneForAGrantedAcquireAndNothingForARefusedOne) {
  EXPECT_EQ(reentrancy_step(0, "acquire", true), 1);
  EXPECT_EQ(reentrancy_step(2, "try_acquire", true), 3);
  EXPECT_EQ(reentrancy_step(2, "acquire", false), 2);
  EXPECT_EQ(reentrancy_step(0, "try_acquire", false), 0);
}

TEST(CheckerReentrancy, StepTakesOneOffForAHolderAndIsUndefinedForANonHolder) {
  EXPECT_EQ(reentrancy_step(3, "unlock", true), 2);
  EXPECT_EQ(reentrancy_step(1, "unlock", true), 0);
  EXPECT_EQ(reentrancy_step(0, "unlock", true), std::nullopt);
}

// ---------------------------------------------------------------------------------------------
// RLock: each execution judged on its own before and after.

TEST(CheckerReentrancy, NestedAcquiresAndUnlocksThatMatchTheReferenceStepsHold) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  granted(b, 200, "A", 2, "orders", "orders", 2, "A:1=1", "A:1=2");
  refused(b, 250, "B", 3, "orders", "A:1=2");
  unlocked(b, 300, "A", 4, "orders", "orders", 1, "0", "A:1=2", "A:1=1");
  unlocked(b, 400, "A", 5, "orders", "orders", 0, "1", "A:1=1", "");
  granted(b, 500, "B", 6, "orders", "orders", 1, "", "B:1=1");
  const Verdict v = check(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(v.property, "reentrancy");
  EXPECT_TRUE(v.anomaly.empty());
  EXPECT_TRUE(v.witness.empty());
  EXPECT_EQ(figure(v, "executions"), 6);
  EXPECT_EQ(v.explanation, "6 lock executions agree with the reference counts");
}

TEST(CheckerReentrancy, HolderFieldsNamedByAClientUuidAreAttributedToTheirClient) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "u1:1=1");
  granted(b, 200, "A", 2, "orders", "orders", 2, "u1:1=1", "u1:1=2");
  unlocked(b, 300, "A", 3, "orders", "orders", 1, "0", "u1:1=2", "u1:1=1");
  unlocked(b, 400, "A", 4, "orders", "orders", 0, "1", "u1:1=1", "");
  EXPECT_EQ(check(b).valid, Validity::Yes) << check(b).explanation;

  // B's execution that bumps A's uuid field is a change to A's count (u1 is A's id), not to B's.
  HistoryBuilder c;
  granted(c, 50, "B", 1, "orders", "orders", 1, "", "u2:1=1");
  unlocked(c, 80, "B", 2, "orders", "orders", 0, "1", "u2:1=1", "");
  granted(c, 100, "A", 3, "orders", "orders", 1, "", "u1:1=1");
  const int64_t inv = c.invoke(300, "B", 1, 4, "try_lock", "orders", 0);
  const int64_t x = c.exec(301, 1, 4, "orders", "acquire", "29700", "u1:1=1", "u1:1=2", "redis0", 29700);
  const int64_t fail = c.fail(302, "B", 1, 4, "try_lock", "orders", "not acquired within 0 ms");
  const Verdict v = check(c);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kReentryCount);
  EXPECT_EQ(v.witness, (W{inv, x, fail}));
  expect_execution(v, x, "redis0/orders");
  expect_count(v, "A:1", "u1:1", "unchanged by B:1's acquire", 1, 2);
}

TEST(CheckerReentrancy, GrantedAcquireThatAddsNothingIsAReentryCount) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  const Acquire again = granted(b, 200, "A", 2, "orders", "orders", 2, "A:1=1", "A:1=1");
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.property, "reentrancy");
  EXPECT_EQ(v.anomaly, anomaly::kReentryCount);
  EXPECT_EQ(v.witness, (W{again.invoke, again.exec, again.ok}));
  EXPECT_EQ(evidence(v, "operation").event, again.invoke);
  EXPECT_EQ(evidence(v, "outcome").event, again.ok);
  expect_execution(v, again.exec, "redis0/orders");
  expect_count(v, "A:1", "A:1", "granted: 2", 1, 1);
  EXPECT_EQ(evidence(v, "key").state, "A:1=1 -> A:1=1");
  EXPECT_EQ(v.explanation,
            "Let A:1 lock orders at 200 ms. Then its execution on redis0/orders at 201 ms (reply nil) took A:1's "
            "count from 1 to 1, where the reference model says granted: 2 (the key: A:1=1 -> A:1=1).");
}

TEST(CheckerReentrancy, GrantedAcquireThatAddsTwoIsAReentryCount) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  const Acquire again = granted(b, 200, "A", 2, "orders", "orders", 2, "A:1=1", "A:1=3");
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kReentryCount);
  EXPECT_EQ(v.witness, (W{again.invoke, again.exec, again.ok}));
  expect_count(v, "A:1", "A:1", "granted: 2", 1, 3);
}

TEST(CheckerReentrancy, GrantedAcquireThatLeavesNoFieldForItsOwnerIsAReentryCount) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  unlocked(b, 200, "A", 2, "orders", "orders", 0, "1", "A:1=1", "");
  // The server answers nil (granted) but the hash never gets A's field.
  const Acquire a = granted(b, 300, "A", 3, "orders", "orders", 1, "", "");
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kReentryCount);
  EXPECT_EQ(v.witness, (W{a.invoke, a.exec, a.ok}));
  expect_count(v, "A:1", "A:1", "granted: 1", 0, 0);
}

TEST(CheckerReentrancy, RefusedAcquireThatChangesItsCallersCountIsAReentryCount) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  const int64_t inv = b.invoke(200, "B", 1, 2, "try_lock", "orders", 0);
  const int64_t x = b.exec(201, 1, 2, "orders", "acquire", "29900", "A:1=1", "A:1=1,B:1=1", "redis0", 29900);
  const int64_t fail = b.fail(202, "B", 1, 2, "try_lock", "orders", "not acquired within 0 ms");
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kReentryCount);
  EXPECT_EQ(v.witness, (W{inv, x, fail}));
  expect_count(v, "B:1", "B:1", "refused: 0", 0, 1);
  EXPECT_EQ(evidence(v, "outcome").state, "fail");
}

TEST(CheckerReentrancy, AcquireOfAnotherClientThatChangesTheHoldersCountIsAReentryCount) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  granted(b, 200, "A", 2, "orders", "orders", 2, "A:1=1", "A:1=2");
  const int64_t inv = b.invoke(300, "B", 1, 3, "try_lock", "orders", 0);
  const int64_t x = b.exec(301, 1, 3, "orders", "acquire", "29800", "A:1=2", "A:1=1", "redis0", 29800);
  const int64_t fail = b.fail(302, "B", 1, 3, "try_lock", "orders", "not acquired within 0 ms");
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kReentryCount);
  EXPECT_EQ(v.witness, (W{inv, x, fail}));
  expect_count(v, "A:1", "A:1", "unchanged by B:1's acquire", 2, 1);
}

TEST(CheckerReentrancy, HolderUnlockThatTakesOffTwoIsAReentryCount) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  granted(b, 200, "A", 2, "orders", "orders", 2, "A:1=1", "A:1=2");
  const Unlock u = unlocked(b, 300, "A", 3, "orders", "orders", 1, "1", "A:1=2", "");
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kReentryCount);
  EXPECT_EQ(v.witness, (W{u.invoke, u.exec, u.ok}));
  expect_execution(v, u.exec, "redis0/orders");
  expect_count(v, "A:1", "A:1", "1", 2, 0);
}

// A holder's unlock that is not a resend (no earlier execution of it took 1 off) must take exactly 1
// off; Redisson's unlock script always does (hincrby -1) unless it errs.
TEST(CheckerReentrancy, HolderUnlockThatTakesNothingOffWithoutALatchIsAReentryCount) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  granted(b, 200, "A", 2, "orders", "orders", 2, "A:1=1", "A:1=2");
  const Unlock u = unlocked(b, 300, "A", 3, "orders", "orders", 1, "0", "A:1=2", "A:1=2");
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kReentryCount);
  EXPECT_EQ(v.witness, (W{u.invoke, u.exec, u.ok}));
  expect_execution(v, u.exec, "redis0/orders");
  expect_count(v, "A:1", "A:1", "1", 2, 2);
}

TEST(CheckerReentrancy, UnlockWhoseFirstSendErredAndWhoseResendTookOneOffHolds) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  granted(b, 200, "A", 2, "orders", "orders", 2, "A:1=1", "A:1=2");
  b.invoke(300, "A", 1, 3, "unlock", "orders");
  b.release(300, "A", 1, "orders", 1, "unlock", 3);
  b.exec(301, 1, 3, "orders", "unlock", "-NOSCRIPT No matching script. Please use EVAL.", "A:1=2", "A:1=2");
  b.exec(303, 1, 3, "orders", "unlock", "0", "A:1=2", "A:1=1");
  b.ok(304, "A", 1, 3, "unlock", "orders", 0);
  const Verdict v = check(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(figure(v, "executions"), 4);
}

TEST(CheckerReentrancy, UnlockResentBehindTheLatchTakesOneOffOnceAndHolds) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  granted(b, 200, "A", 2, "orders", "orders", 2, "A:1=1", "A:1=2");
  b.invoke(1000, "A", 1, 3, "unlock", "orders");
  b.release(1000, "A", 1, "orders", 1, "unlock", 3);
  b.exec(1001, 1, 3, "orders", "unlock", "0", "A:1=2", "A:1=1");
  // The reply was lost; the resend finds the latch and answers from it, changing nothing.
  b.exec(5501, 1, 3, "orders", "unlock", "0", "A:1=1", "A:1=1");
  b.ok(5502, "A", 1, 3, "unlock", "orders", 0);
  unlocked(b, 25502, "A", 4, "orders", "orders", 0, "1", "A:1=1", "");
  const Verdict v = check(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(figure(v, "executions"), 5);
}

TEST(CheckerReentrancy, UnlockResentWithoutTheLatchTakesOneOffTwiceAndIsAReentryCount) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  granted(b, 200, "A", 2, "orders", "orders", 2, "A:1=1", "A:1=2");
  const int64_t inv = b.invoke(1000, "A", 1, 3, "unlock", "orders");
  b.release(1000, "A", 1, "orders", 1, "unlock", 3);
  b.exec(1001, 1, 3, "orders", "unlock", "0", "A:1=2", "A:1=1");
  b.key(5501, "orders", "deleted");
  const int64_t resend = b.exec(5501, 1, 3, "orders", "unlock", "1", "A:1=1", "");
  const int64_t ok = b.ok(5502, "A", 1, 3, "unlock", "orders", 1);
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kReentryCount);
  EXPECT_EQ(v.witness, (W{inv, resend, ok}));
  expect_execution(v, resend, "redis0/orders");
  expect_count(v, "A:1", "A:1", "taken off once per unlock: this unlock already was", 1, 0);
}

TEST(CheckerReentrancy, AcquireResentAndGrantedTwiceIsAReentryCount) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  const int64_t inv = b.invoke(200, "A", 1, 2, "lock", "orders");
  b.exec(201, 1, 2, "orders", "acquire", "nil", "A:1=1", "A:1=2");
  // The reply was lost and the client sent the acquire again: the server added 1 once more.
  const int64_t resend = b.exec(3201, 1, 2, "orders", "acquire", "nil", "A:1=2", "A:1=3");
  const int64_t ok = b.ok(3202, "A", 1, 2, "lock", "orders");
  b.hold(3202, "A", 1, "orders", 2, -1, 2);
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kReentryCount);
  EXPECT_EQ(v.witness, (W{inv, resend, ok}));
  expect_execution(v, resend, "redis0/orders");
  expect_count(v, "A:1", "A:1", "counted once per operation: this lock was already counted on redis0/orders", 2, 3);
}

TEST(CheckerReentrancy, AcquireResentAfterAnErrorReplyIsCountedOnceAndHolds) {
  HistoryBuilder b;
  b.invoke(100, "A", 1, 1, "lock", "orders");
  b.exec(101, 1, 1, "orders", "acquire", "-NOSCRIPT No matching script. Please use EVAL.", "", "");
  b.exec(103, 1, 1, "orders", "acquire", "nil", "", "A:1=1");
  b.ok(104, "A", 1, 1, "lock", "orders");
  b.hold(104, "A", 1, "orders", 1, -1, 1);
  unlocked(b, 200, "A", 2, "orders", "orders", 0, "1", "A:1=1", "");
  const Verdict v = check(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(figure(v, "executions"), 3);
}

TEST(CheckerReentrancy, KeyLeftWithAZeroCountIsNotFreedAtZero) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  const Unlock u = unlocked(b, 200, "A", 2, "orders", "orders", 0, "1", "A:1=1", "A:1=0");
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kNotFreedAtZero);
  EXPECT_EQ(v.witness, (W{u.invoke, u.exec, u.ok}));
  expect_count(v, "A:1", "A:1", "the key gone", 1, 0);
  EXPECT_EQ(evidence(v, "key").where, "redis0/orders");
  EXPECT_EQ(v.explanation,
            "Let A:1 unlock orders at 200 ms. Then its execution on redis0/orders at 201 ms (reply 1) took A:1's "
            "count from 1 to 0, where the reference model says the key gone (the key: A:1=1 -> A:1=0).");
}

TEST(CheckerReentrancy, ExpiredKeyTakesItsCountsAlongAndTheNextAcquireStartsAtOne) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  b.key(30101, "orders", "expired");
  // A still believes it holds the lock (depth 1) and re-enters: the server starts over at 1.
  granted(b, 31000, "A", 2, "orders", "orders", 2, "", "A:1=1");
  const Verdict v = check(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

// ---------------------------------------------------------------------------------------------
// Unlocks by an owner with no count.

TEST(CheckerReentrancy, NonHolderUnlockThatRemovesTheHoldersFieldIsAnUnlockByNonHolder) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  const int64_t inv = b.invoke(200, "B", 1, 2, "unlock", "orders");
  const int64_t x = b.exec(201, 1, 2, "orders", "unlock", "1", "A:1=1", "");
  const int64_t fail = b.fail(202, "B", 1, 2, "unlock", "orders", "IllegalMonitorStateException");
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kUnlockByNonHolder);
  EXPECT_EQ(v.witness, (W{inv, x, fail}));
  expect_execution(v, x, "redis0/orders");
  expect_count(v, "A:1", "A:1", "unchanged by B:1's unlock", 1, 0);
  EXPECT_EQ(v.explanation,
            "Let B:1 unlock orders at 200 ms. Then its execution on redis0/orders at 201 ms (reply 1) took A:1's "
            "count from 1 to 0, where the reference model says unchanged by B:1's unlock (the key: A:1=1 -> ).");
}

TEST(CheckerReentrancy, NonHolderUnlockThatAddsANegativeFieldIsAnUnlockByNonHolder) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  // An unlock script without the hexists check: hincrby B:1 -1 on a field B never had.
  const int64_t inv = b.invoke(200, "B", 1, 2, "unlock", "orders");
  const int64_t x = b.exec(201, 1, 2, "orders", "unlock", "0", "A:1=1", "A:1=1,B:1=-1");
  const int64_t ok = b.ok(202, "B", 1, 2, "unlock", "orders", 0);
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kUnlockByNonHolder);
  EXPECT_EQ(v.witness, (W{inv, x, ok}));
  expect_count(v, "B:1", "B:1", "no change to the key", 0, -1);
}

TEST(CheckerReentrancy, NonHolderUnlockThatChangesNothingButSucceedsIsAnUnlockByNonHolder) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  const int64_t inv = b.invoke(200, "B", 1, 2, "unlock", "orders");
  const int64_t x = b.exec(201, 1, 2, "orders", "unlock", "nil", "A:1=1", "A:1=1", "redis0", 29900);
  const int64_t ok = b.ok(202, "B", 1, 2, "unlock", "orders");
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kUnlockByNonHolder);
  EXPECT_EQ(v.witness, (W{inv, x, ok}));
  EXPECT_EQ(v.find("count"), nullptr);
  EXPECT_EQ(evidence(v, "operation").event, inv);
  EXPECT_EQ(evidence(v, "outcome").event, ok);
  EXPECT_EQ(evidence(v, "execution").event, x);
  EXPECT_EQ(v.explanation, "Let B:1 unlock orders at 200 ms holding nothing in the key. Then its unlock succeeded at 202 ms.");
}

TEST(CheckerReentrancy, NonHolderUnlockThatChangesNothingAndFailsHolds) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  b.invoke(200, "B", 1, 2, "unlock", "orders");
  b.exec(201, 1, 2, "orders", "unlock", "nil", "A:1=1", "A:1=1", "redis0", 29900);
  b.fail(202, "B", 1, 2, "unlock", "orders", "IllegalMonitorStateException");
  const Verdict v = check(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(figure(v, "executions"), 2);
}

TEST(CheckerReentrancy, UnlockAfterTheHoldExpiredMustFailAndMayNotSucceed) {
  // The hold expired; the owner's late unlock finds no key. Failing is right (Redisson 3.44's read
  // unlock answers nil); succeeding is not (3.11's answers 1 for a missing key).
  for (const bool succeeds : {false, true}) {
    SCOPED_TRACE(succeeds ? "succeeds" : "fails");
    HistoryBuilder b;
    b.invoke(0, "A", 1, 1, "lock", "orders", -1, 1000);
    b.exec(1, 1, 1, "orders", "acquire", "nil", "", "A:1=1", "redis0", 1000);
    b.ok(2, "A", 1, 1, "lock", "orders");
    b.hold(2, "A", 1, "orders", 1, 1000, 1);
    b.key(1001, "orders", "expired");
    const int64_t inv = b.invoke(5000, "A", 1, 2, "unlock", "orders");
    b.release(5000, "A", 1, "orders", 0, "unlock", 2);
    const int64_t x = b.exec(5001, 1, 2, "orders", "unlock", succeeds ? "1" : "nil", "", "");
    const int64_t out = succeeds ? b.ok(5002, "A", 1, 2, "unlock", "orders")
                                 : b.fail(5002, "A", 1, 2, "unlock", "orders", "IllegalMonitorStateException");
    const Verdict v = check(b);
    if (!succeeds) {
      EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
      continue;
    }
    ASSERT_EQ(v.valid, Validity::No) << v.explanation;
    EXPECT_EQ(v.anomaly, anomaly::kUnlockByNonHolder);
    EXPECT_EQ(v.witness, (W{inv, x, out}));
  }
}

// ---------------------------------------------------------------------------------------------
// RedLock: an execution on each server, each judged.

TEST(CheckerReentrancy, RedLockExecutionsOnEveryServerAreEachCountedOnce) {
  HistoryBuilder b;
  b.invoke(100, "A", 1, 1, "lock", "orders");
  for (const char* s : {"redis0", "redis1", "redis2"}) b.exec(101, 1, 1, "orders", "acquire", "nil", "", "A:1=1", s);
  b.ok(102, "A", 1, 1, "lock", "orders");
  b.hold(102, "A", 1, "orders", 1, -1, 1);
  b.invoke(200, "A", 1, 2, "unlock", "orders");
  b.release(200, "A", 1, "orders", 0, "unlock", 2);
  for (const char* s : {"redis0", "redis1", "redis2"}) b.exec(201, 1, 2, "orders", "unlock", "1", "A:1=1", "", s);
  b.ok(202, "A", 1, 2, "unlock", "orders");
  const Verdict v = check(b, "red");
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(figure(v, "executions"), 6);
}

TEST(CheckerReentrancy, RedLockExecutionOnOneServerThatMissesTheCountIsAReentryCount) {
  HistoryBuilder b;
  const int64_t inv = b.invoke(100, "A", 1, 1, "lock", "orders");
  b.exec(101, 1, 1, "orders", "acquire", "nil", "", "A:1=1", "redis0");
  b.exec(102, 1, 1, "orders", "acquire", "nil", "", "A:1=1", "redis1");
  const int64_t bad = b.exec(103, 1, 1, "orders", "acquire", "nil", "A:1=1", "A:1=1", "redis2");
  const int64_t ok = b.ok(104, "A", 1, 1, "lock", "orders");
  b.hold(104, "A", 1, "orders", 1, -1, 1);
  const Verdict v = check(b, "red");
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kReentryCount);
  EXPECT_EQ(v.witness, (W{inv, bad, ok}));
  expect_execution(v, bad, "redis2/orders");
  EXPECT_EQ(evidence(v, "key").where, "redis2/orders");
  expect_count(v, "A:1", "A:1", "granted: 2", 1, 1);
}

TEST(CheckerReentrancy, RedLockUnlockThatLeavesAZeroFieldOnOneServerIsNotFreedAtZero) {
  HistoryBuilder b;
  b.invoke(100, "A", 1, 1, "lock", "orders");
  for (const char* s : {"redis0", "redis1", "redis2"}) b.exec(101, 1, 1, "orders", "acquire", "nil", "", "A:1=1", s);
  b.ok(102, "A", 1, 1, "lock", "orders");
  b.hold(102, "A", 1, "orders", 1, -1, 1);
  b.invoke(200, "A", 1, 2, "unlock", "orders");
  b.release(200, "A", 1, "orders", 0, "unlock", 2);
  b.exec(201, 1, 2, "orders", "unlock", "1", "A:1=1", "", "redis0");
  const int64_t bad = b.exec(202, 1, 2, "orders", "unlock", "1", "A:1=1", "A:1=0", "redis1");
  b.exec(203, 1, 2, "orders", "unlock", "1", "A:1=1", "", "redis2");
  b.ok(204, "A", 1, 2, "unlock", "orders");
  const Verdict v = check(b, "red");
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kNotFreedAtZero);
  expect_execution(v, bad, "redis1/orders");
}

// ---------------------------------------------------------------------------------------------
// MultiLock: one operation over several parts.

// B holds the part orders-2 on its own; A's MultiLock acquire takes orders-1, finds orders-2 busy,
// gives orders-1 back and, once B is gone, takes all three parts: one operation, orders-1 counted
// +1, -1, +1.
struct MultiRetry {
  HistoryBuilder b;
  int64_t invoke = -1, retake = -1, ok = -1;

  explicit MultiRetry(bool gives_back) {
    granted(b, 10, "B", 1, "orders-2", "orders-2", 1, "", "B:1=1");
    invoke = b.invoke(100, "A", 1, 2, "lock", "orders");
    b.exec(101, 1, 2, "orders-1", "acquire", "nil", "", "A:1=1");
    b.exec(102, 1, 2, "orders-2", "acquire", "29900", "B:1=1", "B:1=1", "redis0", 29900);
    if (gives_back) b.exec(103, 1, 2, "orders-1", "unlock", "1", "A:1=1", "");
    unlocked(b, 200, "B", 3, "orders-2", "orders-2", 0, "1", "B:1=1", "");
    retake = b.exec(210, 1, 2, "orders-1", "acquire", "nil", gives_back ? "" : "A:1=1", gives_back ? "A:1=1" : "A:1=2");
    b.exec(211, 1, 2, "orders-2", "acquire", "nil", "", "A:1=1");
    b.exec(212, 1, 2, "orders-3", "acquire", "nil", "", "A:1=1");
    ok = b.ok(213, "A", 1, 2, "lock", "orders");
    b.hold(213, "A", 1, "orders", 1, -1, 2);
  }
};

TEST(CheckerReentrancy, MultiLockOpThatTakesGivesBackAndRetakesAPartHolds) {
  MultiRetry m(true);
  const Verdict v = check(m.b, "multi");
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(figure(v, "executions"), 8);
}

TEST(CheckerReentrancy, MultiLockOpThatTakesAPartTwiceWithoutGivingItBackIsAReentryCount) {
  MultiRetry m(false);
  const Verdict v = check(m.b, "multi");
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kReentryCount);
  EXPECT_EQ(v.witness, (W{m.invoke, m.retake, m.ok}));
  expect_execution(v, m.retake, "redis0/orders-1");
  expect_count(v, "A:1", "A:1", "counted once per operation: this lock was already counted on redis0/orders-1", 1, 2);
}

// ---------------------------------------------------------------------------------------------
// ReadWriteLock: one hash, a read field "<id>:<thread>" and a write field "<id>:<thread>:write".

TEST(CheckerReentrancy, ReadWriteLockCountsAnOwnersReadAndWriteFieldsApart) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders:write", "orders", 1, "", "mode=write,u1:1:write=1");
  granted(b, 200, "A", 2, "orders:read", "orders", 1, "mode=write,u1:1:write=1", "mode=write,u1:1:write=1,u1:1=1");
  granted(b, 300, "A", 3, "orders:write", "orders", 2, "mode=write,u1:1:write=1,u1:1=1",
          "mode=write,u1:1:write=2,u1:1=1");
  unlocked(b, 400, "A", 4, "orders:read", "orders", 0, "0", "mode=write,u1:1:write=2,u1:1=1", "mode=write,u1:1:write=2");
  unlocked(b, 500, "A", 5, "orders:write", "orders", 1, "0", "mode=write,u1:1:write=2", "mode=write,u1:1:write=1");
  unlocked(b, 600, "A", 6, "orders:write", "orders", 0, "1", "mode=write,u1:1:write=1", "");
  const Verdict v = check(b, "rwlock");
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(figure(v, "executions"), 6);
}

TEST(CheckerReentrancy, ReadAcquireCountedInTheWriteFieldIsAReentryCount) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders:write", "orders", 1, "", "mode=write,u1:1:write=1");
  const Acquire r = granted(b, 200, "A", 2, "orders:read", "orders", 1, "mode=write,u1:1:write=1", "mode=write,u1:1:write=2");
  const Verdict v = check(b, "rwlock");
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kReentryCount);
  EXPECT_EQ(v.witness, (W{r.invoke, r.exec, r.ok}));
  expect_count(v, "A:1", "u1:1:write", "unchanged by A:1's acquire", 1, 2);
  EXPECT_EQ(v.explanation,
            "Let A:1 lock orders:read at 200 ms. Then its execution on redis0/orders at 201 ms (reply nil) took A:1's "
            "write count from 1 to 2, where the reference model says unchanged by A:1's acquire (the key: "
            "mode=write,u1:1:write=1 -> mode=write,u1:1:write=2).");
}

TEST(CheckerReentrancy, LastReaderLeavingOnlyTheModeBehindIsNotFreedAtZero) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders:read", "orders", 1, "", "mode=read,u1:1=1");
  const Unlock u = unlocked(b, 200, "A", 2, "orders:read", "orders", 0, "1", "mode=read,u1:1=1", "mode=read");
  const Verdict v = check(b, "rwlock");
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kNotFreedAtZero);
  EXPECT_EQ(v.witness, (W{u.invoke, u.exec, u.ok}));
  expect_count(v, "A:1", "u1:1", "the key gone", 1, 0);
}

// Two readers share the hash; A's read lease (1000 ms) lives in its timeout key. `a_expires`: that
// key expires (A's hold has run out, its field stays); `a_holds`: A's read holds (timeout keys).
struct SharedReaders {
  HistoryBuilder b;
  int64_t unlock_invoke = -1, unlock_exec = -1, unlock_ok = -1;

  SharedReaders(bool a_expires, int a_holds) {
    const std::string a_field = "u1:1=" + std::to_string(a_holds);
    b.invoke(0, "A", 1, 1, "lock", "orders:read", -1, 1000);
    b.key(7, "orders", "created");
    b.key(7, "{orders}:u1:1:rwlock_timeout:1", "created");
    b.key(7, "{orders}:u1:1:rwlock_timeout:1", "expire_set", 1007);
    b.exec(7, 1, 1, "orders", "acquire", "nil", "", "mode=read,u1:1=1", "redis0", 1000);
    b.ok(8, "A", 1, 1, "lock", "orders:read");
    b.hold(8, "A", 1, "orders:read", 1, 1000, 1);
    if (a_holds == 2) {
      b.invoke(20, "A", 1, 2, "lock", "orders:read", -1, 30000);
      b.key(21, "{orders}:u1:1:rwlock_timeout:2", "created");
      b.key(21, "{orders}:u1:1:rwlock_timeout:2", "expire_set", 30021);
      b.exec(21, 1, 2, "orders", "acquire", "nil", "mode=read,u1:1=1", "mode=read,u1:1=2", "redis0", 30000);
      b.ok(22, "A", 1, 2, "lock", "orders:read");
      b.hold(22, "A", 1, "orders:read", 2, 30000, 2);
    }
    b.invoke(100, "B", 1, 3, "lock", "orders:read");
    b.key(102, "{orders}:u2:1:rwlock_timeout:1", "created");
    b.key(102, "{orders}:u2:1:rwlock_timeout:1", "expire_set", 30102);
    b.key(102, "orders", "expire_set", 30102);
    b.exec(102, 1, 3, "orders", "acquire", "nil", "mode=read," + a_field, "mode=read," + a_field + ",u2:1=1", "redis0",
           30000);
    b.ok(103, "B", 1, 3, "lock", "orders:read");
    b.hold(103, "B", 1, "orders:read", 1, -1, 3);
    if (a_expires) b.key(1010, "{orders}:u1:1:rwlock_timeout:1", "expired", 1007);
    unlock_invoke = b.invoke(2000, "B", 1, 4, "unlock", "orders:read");
    b.release(2000, "B", 1, "orders:read", 0, "unlock", 4);
    b.key(2001, "{orders}:u2:1:rwlock_timeout:1", "deleted");
    b.key(2001, "orders", "deleted");
    // The script finds no live timeout key left for any remaining field and deletes the hash.
    unlock_exec = b.exec(2001, 1, 4, "orders", "unlock", "1", "mode=read," + a_field + ",u2:1=1", "");
    unlock_ok = b.ok(2002, "B", 1, 4, "unlock", "orders:read");
  }
};

TEST(CheckerReentrancy, StaleReaderDroppedByAnotherReadersUnlockHolds) {
  SharedReaders r(true, 1);
  const Verdict v = check(r.b, "rwlock");
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(figure(v, "executions"), 3);
}

TEST(CheckerReentrancy, LiveReaderDroppedByAnotherReadersUnlockIsAReentryCount) {
  SharedReaders r(false, 1);
  const Verdict v = check(r.b, "rwlock");
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kReentryCount);
  EXPECT_EQ(v.witness, (W{r.unlock_invoke, r.unlock_exec, r.unlock_ok}));
  expect_count(v, "A:1", "u1:1", "unchanged by B:1's unlock", 1, 0);
}

TEST(CheckerReentrancy, ReaderWithOneOfTwoTimeoutKeysExpiredIsNotStaleAndMayNotBeDropped) {
  SharedReaders r(true, 2);
  const Verdict v = check(r.b, "rwlock");
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kReentryCount);
  expect_count(v, "A:1", "u1:1", "unchanged by B:1's unlock", 2, 0);
}

// ---------------------------------------------------------------------------------------------
// The client-reentrant lock: a token in a string key, the count on the client.

// A takes the lock (SET NX), re-enters twice on the client alone and unlocks down to 0; the last
// unlock's first send errs and its resend deletes the key. `variant` breaks one step.
enum class ClientVariant { Good, ReentrySends, PartialUnlockDeletes, LastUnlockKeepsKey };
struct ClientCounted {
  HistoryBuilder b;
  int64_t reentry_invoke = -1, reentry_exec = -1, reentry_ok = -1;
  int64_t partial_invoke = -1, partial_exec = -1, partial_ok = -1;
  int64_t last_invoke = -1, last_exec = -1, last_ok = -1;

  explicit ClientCounted(ClientVariant variant) {
    b.invoke(0, "A", 1, 1, "lock", "orders", -1, 30000);
    b.key(2, "orders", "created");
    b.exec(2, 1, 1, "orders", "acquire", "+OK", "", "tok-a", "redis0", 30000);
    b.exec(6, 1, 1, "orders", "fence", "1", "tok-a", "tok-a", "redis0", 29996);
    b.ok(7, "A", 1, 1, "lock", "orders", 1);
    b.hold(7, "A", 1, "orders", 1, 30000, 1);

    b.invoke(8, "B", 1, 4, "try_lock", "orders", 0, 30000);
    b.exec(9, 1, 4, "orders", "acquire", "nil", "tok-a", "tok-a", "redis0", 29993);
    b.fail(9, "B", 1, 4, "try_lock", "orders", "not acquired within 0 ms");

    reentry_invoke = b.invoke(10, "A", 1, 2, "lock", "orders", -1, 30000);
    if (variant == ClientVariant::ReentrySends)
      reentry_exec = b.exec(11, 1, 2, "orders", "acquire", "+OK", "tok-a", "tok-b", "redis0", 30000);
    reentry_ok = b.ok(12, "A", 1, 2, "lock", "orders", 1);
    b.hold(12, "A", 1, "orders", 2, 30000, 2);

    partial_invoke = b.invoke(20, "A", 1, 3, "unlock", "orders");
    b.release(20, "A", 1, "orders", 1, "unlock", 3);
    if (variant == ClientVariant::PartialUnlockDeletes) {
      b.key(21, "orders", "deleted");
      partial_exec = b.exec(21, 1, 3, "orders", "unlock", "1", "tok-a", "");
    }
    partial_ok = b.ok(22, "A", 1, 3, "unlock", "orders", 0);

    const std::string token = variant == ClientVariant::ReentrySends ? "tok-b" : "tok-a";
    if (variant == ClientVariant::PartialUnlockDeletes) return;
    last_invoke = b.invoke(200, "A", 1, 5, "unlock", "orders");
    b.release(200, "A", 1, "orders", 0, "unlock", 5);
    b.exec(203, 1, 5, "orders", "unlock", "-NOSCRIPT No matching script. Please use EVAL.", token, token, "redis0",
           29799);
    if (variant == ClientVariant::LastUnlockKeepsKey) {
      last_exec = b.exec(208, 1, 5, "orders", "unlock", "1", token, token, "redis0", 29794);
    } else {
      b.key(208, "orders", "deleted");
      last_exec = b.exec(208, 1, 5, "orders", "unlock", "1", token, "");
    }
    last_ok = b.ok(211, "A", 1, 5, "unlock", "orders", 1);
  }
};

TEST(CheckerReentrancy, ClientCountedLockReleasedOnlyAtDepthZeroHolds) {
  ClientCounted c(ClientVariant::Good);
  const Verdict v = check(c.b, "client-reentrant");
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(figure(v, "executions"), 5);  // the operations judged: 2 locks, 1 try_lock, 2 unlocks
}

TEST(CheckerReentrancy, ClientCountedUnlockThatReleasesTheKeyAboveDepthZeroIsAReentryCount) {
  ClientCounted c(ClientVariant::PartialUnlockDeletes);
  const Verdict v = check(c.b, "client-reentrant");
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kReentryCount);
  EXPECT_EQ(v.witness, (W{c.partial_invoke, c.partial_exec, c.partial_ok}));
  EXPECT_EQ(figure(v, "depth_after"), 1);
  EXPECT_EQ(v.explanation, "Let A:1 unlock orders at 20 ms, leaving its count at 1. Then the key was released on the server.");
}

TEST(CheckerReentrancy, ClientCountedReentryThatChangesTheKeyIsAReentryCount) {
  ClientCounted c(ClientVariant::ReentrySends);
  const Verdict v = check(c.b, "client-reentrant");
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kReentryCount);
  EXPECT_EQ(v.witness, (W{c.reentry_invoke, c.reentry_exec, c.reentry_ok}));
  EXPECT_EQ(figure(v, "depth_after"), 2);
  EXPECT_EQ(v.explanation,
            "Let A:1 lock orders at 10 ms, leaving its count at 2. Then the re-entry changed the key on the server.");
}

TEST(CheckerReentrancy, ClientCountedUnlockToZeroThatSucceedsButLeavesTheKeyIsNotFreedAtZero) {
  ClientCounted c(ClientVariant::LastUnlockKeepsKey);
  const Verdict v = check(c.b, "client-reentrant");
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kNotFreedAtZero);
  EXPECT_EQ(v.witness, (W{c.last_invoke, c.last_ok}));
  EXPECT_EQ(figure(v, "depth_after"), 0);
  EXPECT_EQ(v.explanation,
            "Let A:1 unlock orders at 200 ms, taking its count to 0. Then the unlock reported success and the key "
            "stayed.");
}

TEST(CheckerReentrancy, ClientCountedUnlockByANonHolderMustNeitherSucceedNorTouchTheKey) {
  // Refused on the client, nothing sent: fine.
  {
    ClientCounted c(ClientVariant::Good);
    c.b.invoke(300, "B", 1, 6, "unlock", "orders");
    c.b.fail(300, "B", 1, 6, "unlock", "orders", "IllegalMonitorStateException: not held by this thread");
    const Verdict v = check(c.b, "client-reentrant");
    EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  }
  // Reported a success with nothing held (no Release).
  {
    HistoryBuilder b;
    b.invoke(0, "A", 1, 1, "lock", "orders", -1, 30000);
    b.exec(2, 1, 1, "orders", "acquire", "+OK", "", "tok-a", "redis0", 30000);
    b.ok(7, "A", 1, 1, "lock", "orders", 1);
    b.hold(7, "A", 1, "orders", 1, 30000, 1);
    const int64_t inv = b.invoke(300, "B", 1, 2, "unlock", "orders");
    const int64_t ok = b.ok(302, "B", 1, 2, "unlock", "orders");
    const Verdict v = check(b, "client-reentrant");
    ASSERT_EQ(v.valid, Validity::No) << v.explanation;
    EXPECT_EQ(v.anomaly, anomaly::kUnlockByNonHolder);
    EXPECT_EQ(v.witness, (W{inv, ok}));
    EXPECT_EQ(v.explanation, "Let B:1 unlock orders at 300 ms holding nothing in the key. Then its unlock succeeded at 302 ms.");
  }
  // Failed, but its request deleted the holder's key.
  {
    HistoryBuilder b;
    b.invoke(0, "A", 1, 1, "lock", "orders", -1, 30000);
    b.exec(2, 1, 1, "orders", "acquire", "+OK", "", "tok-a", "redis0", 30000);
    b.ok(7, "A", 1, 1, "lock", "orders", 1);
    b.hold(7, "A", 1, "orders", 1, 30000, 1);
    const int64_t inv = b.invoke(300, "B", 1, 2, "unlock", "orders");
    const int64_t x = b.exec(301, 1, 2, "orders", "unlock", "0", "tok-a", "");
    const int64_t fail = b.fail(302, "B", 1, 2, "unlock", "orders", "lock not held with this token");
    const Verdict v = check(b, "client-reentrant");
    ASSERT_EQ(v.valid, Validity::No) << v.explanation;
    EXPECT_EQ(v.anomaly, anomaly::kUnlockByNonHolder);
    EXPECT_EQ(v.witness, (W{inv, x, fail}));
    EXPECT_EQ(evidence(v, "count").who, "A:1");
    EXPECT_EQ(evidence(v, "count").where, "redis0/orders");
    EXPECT_EQ(evidence(v, "count").state, "its hold left alone");
    EXPECT_EQ(v.explanation,
              "Let B:1 unlock orders at 300 ms. Then its execution on redis0/orders at 301 ms removed the key, which "
              "held A:1's hold.");
  }
}

// One unlock releases the key once: a resend of A's unlock that runs after A took the lock again
// removes A's new hold too.
TEST(CheckerReentrancy, ClientCountedUnlockThatRemovesTheKeyTwiceIsAReentryCount) {
  for (const bool resend_runs : {false, true}) {
    SCOPED_TRACE(resend_runs ? "the resend removes the new key" : "no resend");
    HistoryBuilder b;
    b.invoke(0, "A", 1, 1, "lock", "orders", -1, 30000);
    b.exec(2, 1, 1, "orders", "acquire", "+OK", "", "tok-a", "redis0", 30000);
    b.ok(7, "A", 1, 1, "lock", "orders", 1);
    b.hold(7, "A", 1, "orders", 1, 30000, 1);
    const int64_t inv = b.invoke(200, "A", 1, 2, "unlock", "orders");
    b.release(200, "A", 1, "orders", 0, "unlock", 2);
    const int64_t first = b.exec(201, 1, 2, "orders", "unlock", "1", "tok-a", "");
    const int64_t info = b.info(3200, "A", 1, 2, "unlock", "orders");
    b.invoke(3300, "A", 1, 3, "lock", "orders", -1, 30000);
    b.exec(3301, 1, 3, "orders", "acquire", "+OK", "", "tok-c", "redis0", 30000);
    b.ok(3302, "A", 1, 3, "lock", "orders", 2);
    b.hold(3302, "A", 1, "orders", 1, 30000, 3);
    int64_t second = -1;
    if (resend_runs) second = b.exec(3400, 1, 2, "orders", "unlock", "1", "tok-c", "");
    const Verdict v = check(b, "client-reentrant");
    if (!resend_runs) {
      EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
      continue;
    }
    ASSERT_EQ(v.valid, Validity::No) << v.explanation;
    EXPECT_EQ(v.anomaly, anomaly::kReentryCount);
    EXPECT_EQ(v.witness, (W{inv, first, info, second}));
    EXPECT_EQ(figure(v, "removals"), 2);
  }
}

// ---------------------------------------------------------------------------------------------
// Lock types whose keys hold no counts.

// With the lock type unknown, a string-keyed lock (a token in the key) has no hash counts to hold
// its executions to; its holder's own successful unlock is no unlock by a non-holder.
TEST(CheckerReentrancy, StringKeyLockOfAnUnknownTypeIsNotAnUnlockByNonHolder) {
  HistoryBuilder b;
  b.invoke(100, "A", 1, 1, "lock", "seed", -1, 30000);
  b.exec(101, 1, 1, "seed", "acquire", "+OK", "", "tok-a", "redis0", 30000);
  b.ok(102, "A", 1, 1, "lock", "seed");
  b.hold(102, "A", 1, "seed", 1, 30000, 1);
  b.invoke(200, "A", 1, 2, "unlock", "seed");
  b.release(200, "A", 1, "seed", 0, "unlock", 2);
  b.exec(201, 1, 2, "seed", "unlock", "1", "tok-a", "");
  b.ok(202, "A", 1, 2, "unlock", "seed");
  const Verdict v = check(b, nullptr);
  EXPECT_NE(v.valid, Validity::No) << v.anomaly << ": " << v.explanation;
}

}  // namespace
}  // namespace locksim::model
