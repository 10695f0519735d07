#include "model/reentrancy.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/anomaly.hpp"
#include "model/facts.hpp"
#include "model/lock_types.hpp"
#include "verify/unit/model/evidence.hpp"
#include "verify/unit/model/history_builder.hpp"
#include "verify/unit/model/streamed.hpp"

namespace locksim::model {
namespace {

using test::evidence;
using test::figure;
using test::HistoryBuilder;
using W = std::vector<int64_t>;

// The checker on `b`'s history, its facts worked out for the lock type `type` (nullptr: not known).
Verdict check(const HistoryBuilder& b, const char* type = "rlock") {
  const Facts facts(b.history(), type ? find_lock_type(type) : nullptr);
  return test::streamed_alike(b.history(), "reentrancy", test::options_for(type), check_reentrancy(facts));
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
  a.invoke = b.invoke({.t = t, .p = who, .op = op, .f = "lock", .lock = lock});
  a.exec = b.exec({.t = t + 1,
                   .op = op,
                   .lock = key,
                   .f = "acquire",
                   .reply = "nil",
                   .before = before,
                   .after = after,
                   .p = server});
  a.ok = b.ok({.t = t + 2, .p = who, .op = op, .f = "lock", .lock = lock});
  a.hold = b.hold({.t = t + 2, .p = who, .lock = lock, .depth = depth, .op = op});
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
  u.invoke = b.invoke({.t = t, .p = who, .op = op, .f = "unlock", .lock = lock});
  u.release = b.release({.t = t, .p = who, .lock = lock, .depth = depth, .op = op});
  u.exec = b.exec({.t = t + 1,
                   .op = op,
                   .lock = key,
                   .f = "unlock",
                   .reply = reply,
                   .before = before,
                   .after = after,
                   .p = server});
  u.ok = b.ok({.t = t + 2, .p = who, .op = op, .f = "unlock", .lock = lock, .value = depth == 0 ? 1 : 0});
  return u;
}

// A try_lock the server refused (reply: the holder's remaining ttl), the key unchanged.
int64_t refused(HistoryBuilder& b, int64_t t, const std::string& who, int64_t op, const std::string& key,
                const std::string& value, const std::string& server = "redis0") {
  b.invoke({.t = t, .p = who, .op = op, .f = "try_lock", .lock = key, .wait_ms = 0});
  const int64_t x = b.exec({.t = t + 1,
                            .op = op,
                            .lock = key,
                            .f = "acquire",
                            .reply = "29000",
                            .before = value,
                            .after = value,
                            .p = server,
                            .ttl = 29000});
  b.fail({.t = t + 2, .p = who, .op = op, .f = "try_lock", .lock = key, .text = "not acquired within 0 ms"});
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
// A non-reentrant lock (Redisson's NonReentrantLock): a holder's second acquire is refused at once.

// A's second lock(), answered `reply` on a key that `after` leaves.
Verdict second_acquire(const std::string& reply, const std::string& after, const char* type = "nonreentrant") {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  b.invoke({.t = 200, .p = "A", .op = 2, .f = "lock", .lock = "orders"});
  b.exec({.t = 201, .op = 2, .lock = "orders", .f = "acquire", .reply = reply, .before = "A:1=1", .after = after});
  if (reply == "nil") {
    b.ok({.t = 202, .p = "A", .op = 2, .f = "lock", .lock = "orders"});
    b.hold({.t = 202, .p = "A", .lock = "orders", .depth = 2, .op = 2});
  } else {
    b.fail({.t = 202, .p = "A", .op = 2, .f = "lock", .lock = "orders", .text = "IllegalMonitorStateException"});
  }
  return check(b, type);
}

TEST(CheckerReentrancy, ANonReentrantLockRefusingItsHolderAtOnceHolds) {
  const Verdict v = second_acquire("-NON_REENTRANT_REACQUIRE", "A:1=1");
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

TEST(CheckerReentrancy, ANonReentrantLockGrantingItsHolderAgainIsViolated) {
  const Verdict v = second_acquire("nil", "A:1=2");
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kReentryNotRefused);
  expect_count(v, "A:1", "A:1", "refused at once, not granted", 1, 2);
  expect_execution(v, 5, "redis0/orders");
  EXPECT_NE(v.explanation.find("granted it again"), std::string::npos) << v.explanation;
}

TEST(CheckerReentrancy, ANonReentrantLockTellingItsHolderToWaitIsViolated) {
  const Verdict v = second_acquire("29000", "A:1=1");
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kReentryNotRefused);
  expect_count(v, "A:1", "A:1", "refused at once, not told to wait", 1, 1);
  EXPECT_NE(v.explanation.find("told it to wait"), std::string::npos) << v.explanation;
}

TEST(CheckerReentrancy, AReentrantLockMayGrantItsHolderAgain) {
  const Verdict v = second_acquire("nil", "A:1=2", "rlock");
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
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
  const int64_t inv = c.invoke({.t = 300, .p = "B", .op = 4, .f = "try_lock", .wait_ms = 0});
  const int64_t x = c.exec(
      {.t = 301, .op = 4, .f = "acquire", .reply = "29700", .before = "u1:1=1", .after = "u1:1=2", .ttl = 29700});
  const int64_t fail = c.fail({.t = 302, .p = "B", .op = 4, .f = "try_lock", .text = "not acquired within 0 ms"});
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
  const int64_t inv = b.invoke({.t = 200, .p = "B", .op = 2, .f = "try_lock", .wait_ms = 0});
  const int64_t x = b.exec(
      {.t = 201, .op = 2, .f = "acquire", .reply = "29900", .before = "A:1=1", .after = "A:1=1,B:1=1", .ttl = 29900});
  const int64_t fail = b.fail({.t = 202, .p = "B", .op = 2, .f = "try_lock", .text = "not acquired within 0 ms"});
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
  const int64_t inv = b.invoke({.t = 300, .p = "B", .op = 3, .f = "try_lock", .wait_ms = 0});
  const int64_t x =
      b.exec({.t = 301, .op = 3, .f = "acquire", .reply = "29800", .before = "A:1=2", .after = "A:1=1", .ttl = 29800});
  const int64_t fail = b.fail({.t = 302, .p = "B", .op = 3, .f = "try_lock", .text = "not acquired within 0 ms"});
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
  b.invoke({.t = 300, .p = "A", .op = 3, .f = "unlock"});
  b.release({.t = 300, .p = "A", .depth = 1, .op = 3});
  b.exec({.t = 301,
          .op = 3,
          .f = "unlock",
          .reply = "-NOSCRIPT No matching script. Please use EVAL.",
          .before = "A:1=2",
          .after = "A:1=2"});
  b.exec({.t = 303, .op = 3, .f = "unlock", .reply = "0", .before = "A:1=2", .after = "A:1=1"});
  b.ok({.t = 304, .p = "A", .op = 3, .f = "unlock", .value = 0});
  const Verdict v = check(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(figure(v, "executions"), 4);
}

TEST(CheckerReentrancy, UnlockResentBehindTheLatchTakesOneOffOnceAndHolds) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  granted(b, 200, "A", 2, "orders", "orders", 2, "A:1=1", "A:1=2");
  b.invoke({.t = 1000, .p = "A", .op = 3, .f = "unlock"});
  b.release({.t = 1000, .p = "A", .depth = 1, .op = 3});
  b.exec({.t = 1001, .op = 3, .f = "unlock", .reply = "0", .before = "A:1=2", .after = "A:1=1"});
  // The reply was lost; the resend finds the latch and answers from it, changing nothing.
  b.exec({.t = 5501, .op = 3, .f = "unlock", .reply = "0", .before = "A:1=1", .after = "A:1=1"});
  b.ok({.t = 5502, .p = "A", .op = 3, .f = "unlock", .value = 0});
  unlocked(b, 25502, "A", 4, "orders", "orders", 0, "1", "A:1=1", "");
  const Verdict v = check(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(figure(v, "executions"), 5);
}

TEST(CheckerReentrancy, UnlockResentWithoutTheLatchTakesOneOffTwiceAndIsAReentryCount) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  granted(b, 200, "A", 2, "orders", "orders", 2, "A:1=1", "A:1=2");
  const int64_t inv = b.invoke({.t = 1000, .p = "A", .op = 3, .f = "unlock"});
  b.release({.t = 1000, .p = "A", .depth = 1, .op = 3});
  b.exec({.t = 1001, .op = 3, .f = "unlock", .reply = "0", .before = "A:1=2", .after = "A:1=1"});
  b.key({.t = 5501, .f = "deleted"});
  const int64_t resend = b.exec({.t = 5501, .op = 3, .f = "unlock", .reply = "1", .before = "A:1=1"});
  const int64_t ok = b.ok({.t = 5502, .p = "A", .op = 3, .f = "unlock"});
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
  const int64_t inv = b.invoke({.t = 200, .p = "A", .op = 2, .f = "lock"});
  b.exec({.t = 201, .op = 2, .f = "acquire", .reply = "nil", .before = "A:1=1", .after = "A:1=2"});
  // The reply was lost and the client sent the acquire again: the server added 1 once more.
  const int64_t resend =
      b.exec({.t = 3201, .op = 2, .f = "acquire", .reply = "nil", .before = "A:1=2", .after = "A:1=3"});
  const int64_t ok = b.ok({.t = 3202, .p = "A", .op = 2, .f = "lock"});
  b.hold({.t = 3202, .p = "A", .depth = 2, .op = 2});
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kReentryCount);
  EXPECT_EQ(v.witness, (W{inv, resend, ok}));
  expect_execution(v, resend, "redis0/orders");
  expect_count(v, "A:1", "A:1", "counted once per operation: this lock was already counted on redis0/orders", 2, 3);
}

TEST(CheckerReentrancy, AcquireResentAfterAnErrorReplyIsCountedOnceAndHolds) {
  HistoryBuilder b;
  b.invoke({.t = 100, .p = "A", .op = 1, .f = "lock"});
  b.exec({.t = 101, .op = 1, .f = "acquire", .reply = "-NOSCRIPT No matching script. Please use EVAL."});
  b.exec({.t = 103, .op = 1, .f = "acquire", .reply = "nil", .after = "A:1=1"});
  b.ok({.t = 104, .p = "A", .op = 1, .f = "lock"});
  b.hold({.t = 104, .p = "A", .depth = 1, .op = 1});
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
  b.key({.t = 30101, .f = "expired"});
  // A still believes it holds the lock (depth 1) and re-enters: the server starts over at 1.
  granted(b, 31000, "A", 2, "orders", "orders", 2, "", "A:1=1");
  const Verdict v = check(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

// ---------------------------------------------------------------------------------------------
// Commands that are neither acquires nor unlocks: DESIGN, "Anything else that changes a live hold's
// count is a violation ...: a renewal that adds to or resets it".

TEST(CheckerReentrancy, RenewalThatAddsToItsHoldersCountIsAReentryCount) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  const int64_t renew =
      b.exec({.t = 10101, .op = 0, .f = "renew", .reply = "1", .before = "A:1=1", .after = "A:1=2", .client = "A"});
  unlocked(b, 15000, "A", 2, "orders", "orders", 0, "0", "A:1=2", "A:1=1");
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kReentryCount);
  EXPECT_EQ(v.witness, (W{renew}));
  EXPECT_EQ(v.find("operation"), nullptr);
  EXPECT_EQ(evidence(v, "sender").who, "A:1");
  EXPECT_EQ(evidence(v, "sender").state, "renew");
  expect_execution(v, renew, "redis0/orders");
  expect_count(v, "A:1", "A:1", "unchanged by A:1's renew", 1, 2);
  EXPECT_EQ(v.explanation,
            "Let A:1's renew run on redis0/orders at 10101 ms (reply 1). Then it took A:1's count from 1 to 2, where "
            "the reference model says unchanged by A:1's renew (the key: A:1=1 -> A:1=2).");
}

TEST(CheckerReentrancy, RenewalThatResetsAReenteredCountIsAReentryCount) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  granted(b, 200, "A", 2, "orders", "orders", 2, "A:1=1", "A:1=2");
  const int64_t renew =
      b.exec({.t = 10101, .op = 0, .f = "renew", .reply = "1", .before = "A:1=2", .after = "A:1=1", .client = "A"});
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kReentryCount);
  EXPECT_EQ(v.witness, (W{renew}));
  expect_count(v, "A:1", "A:1", "unchanged by A:1's renew", 2, 1);
}

TEST(CheckerReentrancy, RenewalThatLeavesTheCountsAloneHolds) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  granted(b, 200, "A", 2, "orders", "orders", 2, "A:1=1", "A:1=2");
  b.renewal({.t = 10101, .client = "A", .holds = "A:1=2"});
  unlocked(b, 15000, "A", 3, "orders", "orders", 1, "0", "A:1=2", "A:1=1");
  unlocked(b, 16000, "A", 4, "orders", "orders", 0, "1", "A:1=1", "");
  const Verdict v = check(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(figure(v, "executions"), 4);  // the acquires and unlocks
}

// A force unlock that deletes the key: the holds are lost with their whole key, and the holder's
// later unlock holds nothing.
TEST(CheckerReentrancy, ForceUnlockThatDeletesTheKeyTakesEveryCountWithIt) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  granted(b, 200, "A", 2, "orders", "orders", 2, "A:1=1", "A:1=2");
  b.invoke({.t = 300, .p = "C", .op = 3, .f = "force_unlock"});
  b.exec({.t = 301, .op = 3, .f = "force_unlock", .reply = "1", .before = "A:1=2"});
  b.ok({.t = 302, .p = "C", .op = 3, .f = "force_unlock"});
  b.invoke({.t = 400, .p = "A", .op = 4, .f = "unlock"});
  b.release({.t = 400, .p = "A", .depth = 1, .op = 4});
  b.exec({.t = 401, .op = 4, .f = "unlock", .reply = "nil"});
  b.fail({.t = 402, .p = "A", .op = 4, .f = "unlock", .text = "IllegalMonitorStateException"});
  granted(b, 500, "B", 5, "orders", "orders", 1, "", "B:1=1");
  const Verdict v = check(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

TEST(CheckerReentrancy, ForceUnlockThatChangesACountButLeavesTheKeyIsAReentryCount) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  granted(b, 200, "A", 2, "orders", "orders", 2, "A:1=1", "A:1=2");
  const int64_t inv = b.invoke({.t = 300, .p = "C", .op = 3, .f = "force_unlock"});
  const int64_t x =
      b.exec({.t = 301, .op = 3, .f = "force_unlock", .reply = "1", .before = "A:1=2", .after = "A:1=1"});
  const int64_t ok = b.ok({.t = 302, .p = "C", .op = 3, .f = "force_unlock"});
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kReentryCount);
  EXPECT_EQ(v.witness, (W{inv, x, ok}));
  expect_count(v, "A:1", "A:1", "unchanged by C:1's force_unlock", 2, 1);
}

// ---------------------------------------------------------------------------------------------
// Counts between executions: DESIGN, "a restart or failover that rolls it back (the next unlock then
// frees the lock with acquires still unmatched)", "reported at the first execution on that key that
// shows it". A hold lost with its whole key takes its count with it.

// A holds orders twice (the re-entry at 2300 ms); the server restarts at 2800 ms; A's unlock at 3500
// ms finds `found` in the restored key.
struct Restored {
  HistoryBuilder b;
  Acquire first{}, reentry{};
  int64_t restart = -1;
  Unlock unlock{};

  explicit Restored(const std::string& found, const std::string& fault = "restart", int64_t lag = 0) {
    first = granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
    reentry = granted(b, 2300, "A", 2, "orders", "orders", 2, "A:1=1", "A:1=2");
    restart = b.fault({.t = 2800, .p = "redis0", .f = fault, .value = lag});
    if (found.empty()) {  // nothing left to unlock: refused
      unlock.invoke = b.invoke({.t = 3500, .p = "A", .op = 3, .f = "unlock"});
      unlock.release = b.release({.t = 3500, .p = "A", .depth = 1, .op = 3});
      unlock.exec = b.exec({.t = 3501, .op = 3, .f = "unlock", .reply = "nil"});
      unlock.ok = b.fail({.t = 3502, .p = "A", .op = 3, .f = "unlock", .text = "IllegalMonitorStateException"});
      return;
    }
    const std::string after = found == "A:1=2" ? "A:1=1" : "";
    unlock = unlocked(b, 3500, "A", 3, "orders", "orders", 1, after.empty() ? "1" : "0", found, after);
  }
};

TEST(CheckerReentrancy, RestartFromAnAofThatMissedTheLastReentryIsAReentryCountAtTheNextExecution) {
  Restored r("A:1=1");
  const Verdict v = check(r.b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kReentryCount);
  EXPECT_EQ(v.witness, (W{r.first.exec, r.reentry.exec, r.restart, r.unlock.invoke, r.unlock.exec, r.unlock.ok}));
  expect_execution(v, r.unlock.exec, "redis0/orders");
  EXPECT_EQ(evidence(v, "count").who, "A:1");
  EXPECT_EQ(evidence(v, "count").where, "A:1");
  EXPECT_EQ(figure(v, "count_expected"), 2);
  EXPECT_EQ(figure(v, "count_found"), 1);
  const auto counted = test::all(v, "counted");
  ASSERT_EQ(counted.size(), 2u);
  EXPECT_EQ(counted[0]->event, r.first.exec);
  EXPECT_EQ(counted[1]->event, r.reentry.exec);
  EXPECT_EQ(evidence(v, "fault").event, r.restart);
  EXPECT_EQ(evidence(v, "fault").state, "restart");
  EXPECT_EQ(v.explanation,
            "Let A:1 unlock orders at 3500 ms. Then its execution on redis0/orders at 3501 ms (reply 1) found A:1's "
            "count at 1, where the acquires and unlocks that ran there make it 2 (its unmatched acquires ran at 101 ms "
            "and 2301 ms) (the key: A:1=1 -> ). Faults meanwhile: restart of redis0 at 2800 ms.");
}

TEST(CheckerReentrancy, RestartFromAnAofThatKeptTheCountHolds) {
  Restored r("A:1=2");
  unlocked(r.b, 4000, "A", 4, "orders", "orders", 0, "1", "A:1=1", "");
  const Verdict v = check(r.b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

TEST(CheckerReentrancy, RestartThatLosesTheWholeKeyTakesItsCountsAlong) {
  Restored r("");
  granted(r.b, 4000, "B", 4, "orders", "orders", 1, "", "B:1=1");
  const Verdict v = check(r.b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

TEST(CheckerReentrancy, FailoverToALaggingReplicaThatRollsBackACountIsAReentryCount) {
  Restored r("A:1=1", "failover", 1000);
  const Verdict v = check(r.b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kReentryCount);
  EXPECT_EQ(evidence(v, "fault").state, "failover");
  EXPECT_NE(v.explanation.find("Faults meanwhile: failover of redis0 at 2800 ms (replica 1000 ms behind)."),
            std::string::npos)
      << v.explanation;
}

// The first execution after the restart is a renewal: it is the one that shows the rolled-back count.
TEST(CheckerReentrancy, RenewalIsTheFirstExecutionToShowARolledBackCount) {
  HistoryBuilder b;
  const Acquire first = granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  const Acquire reentry = granted(b, 2300, "A", 2, "orders", "orders", 2, "A:1=1", "A:1=2");
  const int64_t restart = b.fault({.t = 2800, .p = "redis0", .f = "restart"});
  const int64_t renew = b.renewal({.t = 10101, .client = "A", .holds = "A:1=1"});
  unlocked(b, 12000, "A", 3, "orders", "orders", 1, "1", "A:1=1", "");
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kReentryCount);
  EXPECT_EQ(v.witness, (W{first.exec, reentry.exec, restart, renew}));
  EXPECT_EQ(v.explanation,
            "Let A:1's renew run on redis0/orders at 10101 ms (reply 1). Then it found A:1's count at 1, where the "
            "acquires and unlocks that ran there make it 2 (its unmatched acquires ran at 101 ms and 2301 ms) (the key: "
            "A:1=1 -> A:1=1). Faults meanwhile: restart of redis0 at 2800 ms.");
}

// A restored copy from before an unlock rolls the count forward: A's unmatched acquires are 1, the
// key says 2, and A's next unlock would leave the lock held.
TEST(CheckerReentrancy, RestartThatBringsBackAnUnlockedCountIsAReentryCount) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  granted(b, 200, "A", 2, "orders", "orders", 2, "A:1=1", "A:1=2");
  unlocked(b, 2300, "A", 3, "orders", "orders", 1, "0", "A:1=2", "A:1=1");
  b.fault({.t = 2800, .p = "redis0", .f = "restart"});
  const Unlock u = unlocked(b, 3500, "A", 4, "orders", "orders", 0, "0", "A:1=2", "A:1=1");
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kReentryCount);
  expect_execution(v, u.exec, "redis0/orders");
  EXPECT_EQ(figure(v, "count_expected"), 1);
  EXPECT_EQ(figure(v, "count_found"), 2);
  EXPECT_EQ(test::all(v, "counted").size(), 1u);  // the first acquire; the re-entry was matched by the unlock
}

TEST(CheckerReentrancy, FailoverOfOneRedLockServerIsJudgedOnThatServerAlone) {
  HistoryBuilder b;
  for (int64_t op : {1, 2}) {
    b.invoke({.t = op * 1000, .p = "A", .op = op, .f = "lock"});
    for (const char* s : {"redis0", "redis1", "redis2"})
      b.exec({.t = op * 1000 + 1,
              .op = op,
              .f = "acquire",
              .reply = "nil",
              .before = op == 1 ? "" : "A:1=1",
              .after = op == 1 ? "A:1=1" : "A:1=2",
              .p = s});
    b.ok({.t = op * 1000 + 2, .p = "A", .op = op, .f = "lock"});
    b.hold({.t = op * 1000 + 2, .p = "A", .depth = op, .op = op});
  }
  b.fault({.t = 2500, .p = "redis1", .f = "failover", .value = 1000});
  b.invoke({.t = 3000, .p = "A", .op = 3, .f = "unlock"});
  b.release({.t = 3000, .p = "A", .depth = 1, .op = 3});
  b.exec({.t = 3001, .op = 3, .f = "unlock", .reply = "0", .before = "A:1=2", .after = "A:1=1", .p = "redis0"});
  const int64_t bad = b.exec({.t = 3002, .op = 3, .f = "unlock", .reply = "1", .before = "A:1=1", .p = "redis1"});
  b.exec({.t = 3003, .op = 3, .f = "unlock", .reply = "0", .before = "A:1=2", .after = "A:1=1", .p = "redis2"});
  b.ok({.t = 3004, .p = "A", .op = 3, .f = "unlock", .value = 0});
  const Verdict v = check(b, "red");
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kReentryCount);
  expect_execution(v, bad, "redis1/orders");
  EXPECT_EQ(evidence(v, "fault").who, "redis1");
  for (const Evidence* c : test::all(v, "counted")) EXPECT_EQ(c->where, "redis1/orders");
}

// Live, executions are recorded as their replies come: B's refused acquire ran after A's re-entry
// but its reply came first, so the history shows B finding a count of 2 before the re-entry that made
// it. With no restart or failover of its server in between nothing else writes the key (another
// server's restart is no news for it): no count changed there.
TEST(CheckerReentrancy, ExecutionsRecordedInAnotherOrderThanTheyRanAreNoChange) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  b.fault({.t = 150, .p = "redis1", .f = "restart"});
  b.invoke({.t = 200, .p = "A", .op = 2, .f = "lock"});
  b.invoke({.t = 200, .p = "B", .op = 3, .f = "try_lock", .wait_ms = 0});
  b.exec({.t = 201, .op = 3, .f = "acquire", .reply = "29800", .before = "A:1=2", .after = "A:1=2", .ttl = 29800});
  b.exec({.t = 202, .op = 2, .f = "acquire", .reply = "nil", .before = "A:1=1", .after = "A:1=2"});
  b.fail({.t = 203, .p = "B", .op = 3, .f = "try_lock", .text = "not acquired within 0 ms"});
  b.ok({.t = 203, .p = "A", .op = 2, .f = "lock"});
  b.hold({.t = 203, .p = "A", .depth = 2, .op = 2});
  const Verdict v = check(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

// ---------------------------------------------------------------------------------------------
// Unlocks by an owner with no count.

TEST(CheckerReentrancy, NonHolderUnlockThatRemovesTheHoldersFieldIsAnUnlockByNonHolder) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  const int64_t inv = b.invoke({.t = 200, .p = "B", .op = 2, .f = "unlock"});
  const int64_t x = b.exec({.t = 201, .op = 2, .f = "unlock", .reply = "1", .before = "A:1=1"});
  const int64_t fail = b.fail({.t = 202, .p = "B", .op = 2, .f = "unlock", .text = "IllegalMonitorStateException"});
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
  const int64_t inv = b.invoke({.t = 200, .p = "B", .op = 2, .f = "unlock"});
  const int64_t x =
      b.exec({.t = 201, .op = 2, .f = "unlock", .reply = "0", .before = "A:1=1", .after = "A:1=1,B:1=-1"});
  const int64_t ok = b.ok({.t = 202, .p = "B", .op = 2, .f = "unlock", .value = 0});
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kUnlockByNonHolder);
  EXPECT_EQ(v.witness, (W{inv, x, ok}));
  expect_count(v, "B:1", "B:1", "no change to the key", 0, -1);
}

TEST(CheckerReentrancy, NonHolderUnlockThatChangesNothingButSucceedsIsAnUnlockByNonHolder) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  const int64_t inv = b.invoke({.t = 200, .p = "B", .op = 2, .f = "unlock"});
  const int64_t x =
      b.exec({.t = 201, .op = 2, .f = "unlock", .reply = "nil", .before = "A:1=1", .after = "A:1=1", .ttl = 29900});
  const int64_t ok = b.ok({.t = 202, .p = "B", .op = 2, .f = "unlock"});
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kUnlockByNonHolder);
  EXPECT_EQ(v.witness, (W{inv, x, ok}));
  EXPECT_EQ(v.find("count"), nullptr);
  EXPECT_EQ(evidence(v, "operation").event, inv);
  EXPECT_EQ(evidence(v, "outcome").event, ok);
  EXPECT_EQ(evidence(v, "execution").event, x);
  EXPECT_EQ(v.explanation,
            "Let B:1 unlock orders at 200 ms holding nothing in the key. Then its unlock succeeded at 202 ms.");
}

TEST(CheckerReentrancy, NonHolderUnlockThatChangesNothingAndFailsHolds) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders", "orders", 1, "", "A:1=1");
  b.invoke({.t = 200, .p = "B", .op = 2, .f = "unlock"});
  b.exec({.t = 201, .op = 2, .f = "unlock", .reply = "nil", .before = "A:1=1", .after = "A:1=1", .ttl = 29900});
  b.fail({.t = 202, .p = "B", .op = 2, .f = "unlock", .text = "IllegalMonitorStateException"});
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
    b.invoke({.t = 0, .p = "A", .op = 1, .f = "lock", .lease_ms = 1000});
    b.exec({.t = 1, .op = 1, .f = "acquire", .reply = "nil", .after = "A:1=1", .ttl = 1000});
    b.ok({.t = 2, .p = "A", .op = 1, .f = "lock"});
    b.hold({.t = 2, .p = "A", .depth = 1, .lease_ms = 1000, .op = 1});
    b.key({.t = 1001, .f = "expired"});
    const int64_t inv = b.invoke({.t = 5000, .p = "A", .op = 2, .f = "unlock"});
    b.release({.t = 5000, .p = "A", .depth = 0, .op = 2});
    const int64_t x = b.exec({.t = 5001, .op = 2, .f = "unlock", .reply = succeeds ? "1" : "nil"});
    const int64_t out =
        succeeds ? b.ok({.t = 5002, .p = "A", .op = 2, .f = "unlock"})
                 : b.fail({.t = 5002, .p = "A", .op = 2, .f = "unlock", .text = "IllegalMonitorStateException"});
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

// DESIGN: "An unlock by a non-holder changes nothing, neither a count nor the key's expiry".
// A holds orders with a 60 s lease (the key expires at 60001 ms); B, holding nothing, unlocks at 1000
// ms and its execution leaves the key expiring `ttl` ms after 1001 ms.
struct NonHolderExpiry {
  HistoryBuilder b;
  int64_t invoke = -1, exec = -1, fail = -1;

  explicit NonHolderExpiry(int64_t ttl, const std::string& fault = "") {
    b.invoke({.t = 0, .p = "A", .op = 1, .f = "lock", .lease_ms = 60000});
    b.exec({.t = 1, .op = 1, .f = "acquire", .reply = "nil", .after = "A:1=1", .ttl = 60000});
    b.ok({.t = 2, .p = "A", .op = 1, .f = "lock"});
    b.hold({.t = 2, .p = "A", .depth = 1, .lease_ms = 60000, .op = 1});
    if (!fault.empty()) b.fault({.t = 500, .p = "redis0", .f = fault, .value = 100});
    invoke = b.invoke({.t = 1000, .p = "B", .op = 2, .f = "unlock"});
    exec = b.exec({.t = 1001, .op = 2, .f = "unlock", .reply = "nil", .before = "A:1=1", .after = "A:1=1", .ttl = ttl});
    fail = b.fail({.t = 1002, .p = "B", .op = 2, .f = "unlock", .text = "IllegalMonitorStateException"});
  }
};

TEST(CheckerReentrancy, NonHolderUnlockThatShortensTheKeysExpiryIsAnUnlockByNonHolder) {
  NonHolderExpiry n(30000);
  const Verdict v = check(n.b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kUnlockByNonHolder);
  EXPECT_EQ(v.witness, (W{n.invoke, n.exec, n.fail}));
  expect_execution(v, n.exec, "redis0/orders");
  EXPECT_EQ(figure(v, "expiry_before"), 60001);
  EXPECT_EQ(figure(v, "expiry_after"), 31001);
  EXPECT_EQ(v.explanation,
            "Let B:1 unlock orders at 1000 ms holding nothing in the key. Then its execution on redis0/orders at 1001 "
            "ms (reply nil) moved the key's expiry from 60001 ms to 31001 ms, where an unlock by a non-holder changes "
            "nothing (the key: A:1=1 -> A:1=1).");
}

TEST(CheckerReentrancy, NonHolderUnlockThatLengthensOrRemovesTheKeysExpiryIsAnUnlockByNonHolder) {
  for (const int64_t ttl : {int64_t{90000}, int64_t{-1}}) {
    SCOPED_TRACE(ttl);
    NonHolderExpiry n(ttl);
    const Verdict v = check(n.b);
    ASSERT_EQ(v.valid, Validity::No) << v.explanation;
    EXPECT_EQ(v.anomaly, anomaly::kUnlockByNonHolder);
    EXPECT_EQ(figure(v, "expiry_after"), ttl < 0 ? kNoExpiry : 1001 + ttl);
  }
}

TEST(CheckerReentrancy, NonHolderUnlockThatLeavesTheExpiryWithinWhatAHistoryCanTellHolds) {
  // 59000 ms after 1001 ms is where the lease ends; live, a reply read 200 ms late reads the same
  // expiry that much later (kExpiryPrecisionMs).
  for (const int64_t ttl : {int64_t{59000}, int64_t{59000 + kExpiryPrecisionMs}, int64_t{59000 - kExpiryPrecisionMs}}) {
    SCOPED_TRACE(ttl);
    NonHolderExpiry n(ttl);
    const Verdict v = check(n.b);
    EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  }
}

// A failover (or restart) restores a copy of the key whose expiry the history does not show: the one
// B's unlock leaves may be the copy's.
TEST(CheckerReentrancy, NonHolderUnlockRightAfterARestoreIsNotHeldToAnExpiryTheHistoryDoesNotShow) {
  for (const char* fault : {"failover", "restart"}) {
    SCOPED_TRACE(fault);
    NonHolderExpiry n(30000, fault);
    const Verdict v = check(n.b);
    EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  }
}

// B's unlock was sent at 10000 ms; A's renewal (the key's expiry moved to 40001 ms) is recorded before
// it. Sent after the renewal was recorded, B's unlock ran after it and shortened what it set. Sent
// before, it may have run before the renewal (live, executions are recorded as their replies come),
// and the expiry it left is the one it found then.
TEST(CheckerReentrancy, NonHolderUnlockIsHeldToTheExpiriesItMayHaveFound) {
  for (const bool sent_before_renewal : {true, false}) {
    SCOPED_TRACE(sent_before_renewal ? "sent before the renewal was recorded" : "sent after");
    HistoryBuilder b;
    granted(b, 0, "A", 1, "orders", "orders", 1, "", "A:1=1");  // the key expires at 30001 ms
    const int64_t inv = b.invoke({.t = 10000, .p = "B", .op = 2, .f = "unlock"});
    const int64_t renew = b.renewal({.t = 10001, .client = "A", .holds = "A:1=1"});
    const int64_t x = b.exec({.t = 10002,
                              .op = 2,
                              .f = "unlock",
                              .reply = "nil",
                              .before = "A:1=1",
                              .after = "A:1=1",
                              .ttl = 19999,
                              .sent = sent_before_renewal ? 10000 : 10001,
                              .sent_i = sent_before_renewal ? inv + 1 : renew + 1});
    b.fail({.t = 10003, .p = "B", .op = 2, .f = "unlock", .text = "IllegalMonitorStateException"});
    const Verdict v = check(b);
    if (sent_before_renewal) {
      EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
      continue;
    }
    ASSERT_EQ(v.valid, Validity::No) << v.explanation;
    EXPECT_EQ(v.anomaly, anomaly::kUnlockByNonHolder);
    expect_execution(v, x, "redis0/orders");
    EXPECT_EQ(figure(v, "expiry_before"), 40001);
  }
}

// ---------------------------------------------------------------------------------------------
// RedLock: an execution on each server, each judged.

TEST(CheckerReentrancy, RedLockExecutionsOnEveryServerAreEachCountedOnce) {
  HistoryBuilder b;
  b.invoke({.t = 100, .p = "A", .op = 1, .f = "lock"});
  for (const char* s : {"redis0", "redis1", "redis2"})
    b.exec({.t = 101, .op = 1, .f = "acquire", .reply = "nil", .after = "A:1=1", .p = s});
  b.ok({.t = 102, .p = "A", .op = 1, .f = "lock"});
  b.hold({.t = 102, .p = "A", .depth = 1, .op = 1});
  b.invoke({.t = 200, .p = "A", .op = 2, .f = "unlock"});
  b.release({.t = 200, .p = "A", .depth = 0, .op = 2});
  for (const char* s : {"redis0", "redis1", "redis2"})
    b.exec({.t = 201, .op = 2, .f = "unlock", .reply = "1", .before = "A:1=1", .p = s});
  b.ok({.t = 202, .p = "A", .op = 2, .f = "unlock"});
  const Verdict v = check(b, "red");
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(figure(v, "executions"), 6);
}

TEST(CheckerReentrancy, RedLockExecutionOnOneServerThatMissesTheCountIsAReentryCount) {
  HistoryBuilder b;
  const int64_t inv = b.invoke({.t = 100, .p = "A", .op = 1, .f = "lock"});
  b.exec({.t = 101, .op = 1, .f = "acquire", .reply = "nil", .after = "A:1=1"});
  b.exec({.t = 102, .op = 1, .f = "acquire", .reply = "nil", .after = "A:1=1", .p = "redis1"});
  const int64_t bad =
      b.exec({.t = 103, .op = 1, .f = "acquire", .reply = "nil", .before = "A:1=1", .after = "A:1=1", .p = "redis2"});
  const int64_t ok = b.ok({.t = 104, .p = "A", .op = 1, .f = "lock"});
  b.hold({.t = 104, .p = "A", .depth = 1, .op = 1});
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
  b.invoke({.t = 100, .p = "A", .op = 1, .f = "lock"});
  for (const char* s : {"redis0", "redis1", "redis2"})
    b.exec({.t = 101, .op = 1, .f = "acquire", .reply = "nil", .after = "A:1=1", .p = s});
  b.ok({.t = 102, .p = "A", .op = 1, .f = "lock"});
  b.hold({.t = 102, .p = "A", .depth = 1, .op = 1});
  b.invoke({.t = 200, .p = "A", .op = 2, .f = "unlock"});
  b.release({.t = 200, .p = "A", .depth = 0, .op = 2});
  b.exec({.t = 201, .op = 2, .f = "unlock", .reply = "1", .before = "A:1=1"});
  const int64_t bad =
      b.exec({.t = 202, .op = 2, .f = "unlock", .reply = "1", .before = "A:1=1", .after = "A:1=0", .p = "redis1"});
  b.exec({.t = 203, .op = 2, .f = "unlock", .reply = "1", .before = "A:1=1", .p = "redis2"});
  b.ok({.t = 204, .p = "A", .op = 2, .f = "unlock"});
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
    invoke = b.invoke({.t = 100, .p = "A", .op = 2, .f = "lock"});
    b.exec({.t = 101, .op = 2, .lock = "orders-1", .f = "acquire", .reply = "nil", .after = "A:1=1"});
    b.exec({.t = 102,
            .op = 2,
            .lock = "orders-2",
            .f = "acquire",
            .reply = "29900",
            .before = "B:1=1",
            .after = "B:1=1",
            .ttl = 29900});
    if (gives_back) b.exec({.t = 103, .op = 2, .lock = "orders-1", .f = "unlock", .reply = "1", .before = "A:1=1"});
    unlocked(b, 200, "B", 3, "orders-2", "orders-2", 0, "1", "B:1=1", "");
    retake = b.exec({.t = 210,
                     .op = 2,
                     .lock = "orders-1",
                     .f = "acquire",
                     .reply = "nil",
                     .before = gives_back ? "" : "A:1=1",
                     .after = gives_back ? "A:1=1" : "A:1=2"});
    b.exec({.t = 211, .op = 2, .lock = "orders-2", .f = "acquire", .reply = "nil", .after = "A:1=1"});
    b.exec({.t = 212, .op = 2, .lock = "orders-3", .f = "acquire", .reply = "nil", .after = "A:1=1"});
    ok = b.ok({.t = 213, .p = "A", .op = 2, .f = "lock"});
    b.hold({.t = 213, .p = "A", .depth = 1, .op = 2});
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
  unlocked(b, 400, "A", 4, "orders:read", "orders", 0, "0", "mode=write,u1:1:write=2,u1:1=1",
           "mode=write,u1:1:write=2");
  unlocked(b, 500, "A", 5, "orders:write", "orders", 1, "0", "mode=write,u1:1:write=2", "mode=write,u1:1:write=1");
  unlocked(b, 600, "A", 6, "orders:write", "orders", 0, "1", "mode=write,u1:1:write=1", "");
  const Verdict v = check(b, "rwlock");
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(figure(v, "executions"), 6);
}

TEST(CheckerReentrancy, ReadAcquireCountedInTheWriteFieldIsAReentryCount) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders:write", "orders", 1, "", "mode=write,u1:1:write=1");
  const Acquire r =
      granted(b, 200, "A", 2, "orders:read", "orders", 1, "mode=write,u1:1:write=1", "mode=write,u1:1:write=2");
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
    b.invoke({.t = 0, .p = "A", .op = 1, .f = "lock", .lock = "orders:read", .lease_ms = 1000});
    b.key({.t = 7, .f = "created"});
    b.key({.t = 7, .lock = "{orders}:u1:1:rwlock_timeout:1", .f = "created"});
    b.key({.t = 7, .lock = "{orders}:u1:1:rwlock_timeout:1", .f = "expire_set", .value = 1007});
    b.exec({.t = 7, .op = 1, .f = "acquire", .reply = "nil", .after = "mode=read,u1:1=1", .ttl = 1000});
    b.ok({.t = 8, .p = "A", .op = 1, .f = "lock", .lock = "orders:read"});
    b.hold({.t = 8, .p = "A", .lock = "orders:read", .depth = 1, .lease_ms = 1000, .op = 1});
    if (a_holds == 2) {
      b.invoke({.t = 20, .p = "A", .op = 2, .f = "lock", .lock = "orders:read", .lease_ms = 30000});
      b.key({.t = 21, .lock = "{orders}:u1:1:rwlock_timeout:2", .f = "created"});
      b.key({.t = 21, .lock = "{orders}:u1:1:rwlock_timeout:2", .f = "expire_set", .value = 30021});
      b.exec({.t = 21,
              .op = 2,
              .f = "acquire",
              .reply = "nil",
              .before = "mode=read,u1:1=1",
              .after = "mode=read,u1:1=2",
              .ttl = 30000});
      b.ok({.t = 22, .p = "A", .op = 2, .f = "lock", .lock = "orders:read"});
      b.hold({.t = 22, .p = "A", .lock = "orders:read", .depth = 2, .lease_ms = 30000, .op = 2});
    }
    b.invoke({.t = 100, .p = "B", .op = 3, .f = "lock", .lock = "orders:read"});
    b.key({.t = 102, .lock = "{orders}:u2:1:rwlock_timeout:1", .f = "created"});
    b.key({.t = 102, .lock = "{orders}:u2:1:rwlock_timeout:1", .f = "expire_set", .value = 30102});
    b.key({.t = 102, .f = "expire_set", .value = 30102});
    b.exec({.t = 102,
            .op = 3,
            .f = "acquire",
            .reply = "nil",
            .before = "mode=read," + a_field,
            .after = "mode=read," + a_field + ",u2:1=1",
            .ttl = 30000});
    b.ok({.t = 103, .p = "B", .op = 3, .f = "lock", .lock = "orders:read"});
    b.hold({.t = 103, .p = "B", .lock = "orders:read", .depth = 1, .op = 3});
    if (a_expires) b.key({.t = 1010, .lock = "{orders}:u1:1:rwlock_timeout:1", .f = "expired", .value = 1007});
    unlock_invoke = b.invoke({.t = 2000, .p = "B", .op = 4, .f = "unlock", .lock = "orders:read"});
    b.release({.t = 2000, .p = "B", .lock = "orders:read", .depth = 0, .op = 4});
    b.key({.t = 2001, .lock = "{orders}:u2:1:rwlock_timeout:1", .f = "deleted"});
    b.key({.t = 2001, .f = "deleted"});
    // The script finds no live timeout key left for any remaining field and deletes the hash.
    unlock_exec =
        b.exec({.t = 2001, .op = 4, .f = "unlock", .reply = "1", .before = "mode=read," + a_field + ",u2:1=1"});
    unlock_ok = b.ok({.t = 2002, .p = "B", .op = 4, .f = "unlock", .lock = "orders:read"});
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
    b.invoke({.t = 0, .p = "A", .op = 1, .f = "lock", .lease_ms = 30000});
    b.key({.t = 2, .f = "created"});
    b.exec({.t = 2, .op = 1, .f = "acquire", .reply = "+OK", .after = "tok-a", .ttl = 30000});
    b.exec({.t = 6, .op = 1, .f = "fence", .reply = "1", .before = "tok-a", .after = "tok-a", .ttl = 29996});
    b.ok({.t = 7, .p = "A", .op = 1, .f = "lock"});
    b.hold({.t = 7, .p = "A", .depth = 1, .lease_ms = 30000, .op = 1});

    b.invoke({.t = 8, .p = "B", .op = 4, .f = "try_lock", .wait_ms = 0, .lease_ms = 30000});
    b.exec({.t = 9, .op = 4, .f = "acquire", .reply = "nil", .before = "tok-a", .after = "tok-a", .ttl = 29993});
    b.fail({.t = 9, .p = "B", .op = 4, .f = "try_lock", .text = "not acquired within 0 ms"});

    reentry_invoke = b.invoke({.t = 10, .p = "A", .op = 2, .f = "lock", .lease_ms = 30000});
    if (variant == ClientVariant::ReentrySends)
      reentry_exec =
          b.exec({.t = 11, .op = 2, .f = "acquire", .reply = "+OK", .before = "tok-a", .after = "tok-b", .ttl = 30000});
    reentry_ok = b.ok({.t = 12, .p = "A", .op = 2, .f = "lock"});
    b.hold({.t = 12, .p = "A", .depth = 2, .lease_ms = 30000, .op = 2});

    partial_invoke = b.invoke({.t = 20, .p = "A", .op = 3, .f = "unlock"});
    b.release({.t = 20, .p = "A", .depth = 1, .op = 3});
    if (variant == ClientVariant::PartialUnlockDeletes) {
      b.key({.t = 21, .f = "deleted"});
      partial_exec = b.exec({.t = 21, .op = 3, .f = "unlock", .reply = "1", .before = "tok-a"});
    }
    partial_ok = b.ok({.t = 22, .p = "A", .op = 3, .f = "unlock", .value = 0});

    const std::string token = variant == ClientVariant::ReentrySends ? "tok-b" : "tok-a";
    if (variant == ClientVariant::PartialUnlockDeletes) return;
    last_invoke = b.invoke({.t = 200, .p = "A", .op = 5, .f = "unlock"});
    b.release({.t = 200, .p = "A", .depth = 0, .op = 5});
    b.exec({.t = 203,
            .op = 5,
            .f = "unlock",
            .reply = "-NOSCRIPT No matching script. Please use EVAL.",
            .before = token,
            .after = token,
            .ttl = 29799});
    if (variant == ClientVariant::LastUnlockKeepsKey) {
      last_exec =
          b.exec({.t = 208, .op = 5, .f = "unlock", .reply = "1", .before = token, .after = token, .ttl = 29794});
    } else {
      b.key({.t = 208, .f = "deleted"});
      last_exec = b.exec({.t = 208, .op = 5, .f = "unlock", .reply = "1", .before = token});
    }
    last_ok = b.ok({.t = 211, .p = "A", .op = 5, .f = "unlock"});
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
  EXPECT_EQ(v.explanation,
            "Let A:1 unlock orders at 20 ms, leaving its count at 1. Then the key was released on the server.");
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
    c.b.invoke({.t = 300, .p = "B", .op = 6, .f = "unlock"});
    c.b.fail(
        {.t = 300, .p = "B", .op = 6, .f = "unlock", .text = "IllegalMonitorStateException: not held by this thread"});
    const Verdict v = check(c.b, "client-reentrant");
    EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  }
  // Reported a success with nothing held (no Release).
  {
    HistoryBuilder b;
    b.invoke({.t = 0, .p = "A", .op = 1, .f = "lock", .lease_ms = 30000});
    b.exec({.t = 2, .op = 1, .f = "acquire", .reply = "+OK", .after = "tok-a", .ttl = 30000});
    b.ok({.t = 7, .p = "A", .op = 1, .f = "lock"});
    b.hold({.t = 7, .p = "A", .depth = 1, .lease_ms = 30000, .op = 1});
    const int64_t inv = b.invoke({.t = 300, .p = "B", .op = 2, .f = "unlock"});
    const int64_t ok = b.ok({.t = 302, .p = "B", .op = 2, .f = "unlock"});
    const Verdict v = check(b, "client-reentrant");
    ASSERT_EQ(v.valid, Validity::No) << v.explanation;
    EXPECT_EQ(v.anomaly, anomaly::kUnlockByNonHolder);
    EXPECT_EQ(v.witness, (W{inv, ok}));
    EXPECT_EQ(v.explanation,
              "Let B:1 unlock orders at 300 ms holding nothing in the key. Then its unlock succeeded at 302 ms.");
  }
  // Failed, but its request deleted the holder's key.
  {
    HistoryBuilder b;
    b.invoke({.t = 0, .p = "A", .op = 1, .f = "lock", .lease_ms = 30000});
    b.exec({.t = 2, .op = 1, .f = "acquire", .reply = "+OK", .after = "tok-a", .ttl = 30000});
    b.ok({.t = 7, .p = "A", .op = 1, .f = "lock"});
    b.hold({.t = 7, .p = "A", .depth = 1, .lease_ms = 30000, .op = 1});
    const int64_t inv = b.invoke({.t = 300, .p = "B", .op = 2, .f = "unlock"});
    const int64_t x = b.exec({.t = 301, .op = 2, .f = "unlock", .reply = "0", .before = "tok-a"});
    const int64_t fail = b.fail({.t = 302, .p = "B", .op = 2, .f = "unlock", .text = "lock not held with this token"});
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
    b.invoke({.t = 0, .p = "A", .op = 1, .f = "lock", .lease_ms = 30000});
    b.exec({.t = 2, .op = 1, .f = "acquire", .reply = "+OK", .after = "tok-a", .ttl = 30000});
    b.ok({.t = 7, .p = "A", .op = 1, .f = "lock"});
    b.hold({.t = 7, .p = "A", .depth = 1, .lease_ms = 30000, .op = 1});
    const int64_t inv = b.invoke({.t = 200, .p = "A", .op = 2, .f = "unlock"});
    b.release({.t = 200, .p = "A", .depth = 0, .op = 2});
    const int64_t first = b.exec({.t = 201, .op = 2, .f = "unlock", .reply = "1", .before = "tok-a"});
    const int64_t info = b.info({.t = 3200, .p = "A", .op = 2, .f = "unlock"});
    b.invoke({.t = 3300, .p = "A", .op = 3, .f = "lock", .lease_ms = 30000});
    b.exec({.t = 3301, .op = 3, .f = "acquire", .reply = "+OK", .after = "tok-c", .ttl = 30000});
    b.ok({.t = 3302, .p = "A", .op = 3, .f = "lock", .value = 2});
    b.hold({.t = 3302, .p = "A", .depth = 1, .lease_ms = 30000, .op = 3});
    int64_t second = -1;
    if (resend_runs) second = b.exec({.t = 3400, .op = 2, .f = "unlock", .reply = "1", .before = "tok-c"});
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
  b.invoke({.t = 100, .p = "A", .op = 1, .f = "lock", .lock = "seed", .lease_ms = 30000});
  b.exec({.t = 101, .op = 1, .lock = "seed", .f = "acquire", .reply = "+OK", .after = "tok-a", .ttl = 30000});
  b.ok({.t = 102, .p = "A", .op = 1, .f = "lock", .lock = "seed"});
  b.hold({.t = 102, .p = "A", .lock = "seed", .depth = 1, .lease_ms = 30000, .op = 1});
  b.invoke({.t = 200, .p = "A", .op = 2, .f = "unlock", .lock = "seed"});
  b.release({.t = 200, .p = "A", .lock = "seed", .depth = 0, .op = 2});
  b.exec({.t = 201, .op = 2, .lock = "seed", .f = "unlock", .reply = "1", .before = "tok-a"});
  b.ok({.t = 202, .p = "A", .op = 2, .f = "unlock", .lock = "seed"});
  const Verdict v = check(b, nullptr);
  EXPECT_NE(v.valid, Validity::No) << v.anomaly << ": " << v.explanation;
}

}  // namespace
}  // namespace locksim::model
