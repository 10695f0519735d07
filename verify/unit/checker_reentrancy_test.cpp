#include <gtest/gtest.h>

#include "model/anomaly.hpp"
#include "model/reentrancy.hpp"
#include "verify/unit/checker_history_builder.hpp"

namespace locksim::model {
namespace {

using test::HistoryBuilder;
using W = std::vector<int64_t>;

bool mentions(const Verdict& v, const std::string& s) { return v.explanation.find(s) != std::string::npos; }

TEST(CheckerReentrancy, StepCountsSuccessfulOpsOnly) {
  EXPECT_EQ(reentrancy_step(0, "lock", EventKind::Ok), 1);
  EXPECT_EQ(reentrancy_step(1, "try_lock", EventKind::Ok), 2);
  EXPECT_EQ(reentrancy_step(2, "unlock", EventKind::Ok), 1);
  EXPECT_EQ(reentrancy_step(2, "lock", EventKind::Fail), 2);
  EXPECT_EQ(reentrancy_step(0, "unlock", EventKind::Ok), std::nullopt);
}

TEST(CheckerReentrancy, NestedAcquiresAndUnlocksMatchTheHash) {
  HistoryBuilder b;
  b.acquire(100, "A", 1, 1, "orders", 1, "", "A:1=1");
  b.acquire(200, "A", 1, 2, "orders", 2, "A:1=1", "A:1=2");
  b.unlock(300, "A", 1, 3, "orders", 1, "A:1=2", "A:1=1");
  b.unlock(400, "A", 1, 4, "orders", 0, "A:1=1", "");
  b.acquire(500, "B", 1, 5, "orders", 1, "", "B:1=1");
  const Verdict v = check_reentrancy(b.history());
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(v.property, "reentrancy");
}

TEST(CheckerReentrancy, HashNotIncrementedOnReentryIsACountViolation) {
  HistoryBuilder b;
  b.acquire(100, "A", 1, 1, "orders", 1, "", "A:1=1");
  const auto again = b.acquire(200, "A", 1, 2, "orders", 2, "A:1=1", "A:1=1");
  b.unlock(300, "A", 1, 3, "orders", 1, "A:1=1", "");
  const Verdict v = check_reentrancy(b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kReentryCount);
  EXPECT_EQ(v.witness, (W{again.invoke, again.exec, again.ok}));
  EXPECT_EQ(v.explanation,
            "Let A:1 have 2 unmatched acquires of orders after its lock at 201 ms. Then the server's hash holds "
            "A:1=1 (key: \"A:1=1\").");
}

TEST(CheckerReentrancy, KeyLeftAtZeroIsNotFreed) {
  HistoryBuilder b;
  b.acquire(100, "A", 1, 1, "orders", 1, "", "A:1=1");
  const auto u = b.unlock(200, "A", 1, 2, "orders", 0, "A:1=1", "A:1=0");
  const Verdict v = check_reentrancy(b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kNotFreedAtZero);
  EXPECT_EQ(v.witness, (W{u.invoke, u.exec, u.ok}));
  EXPECT_TRUE(mentions(v, "Let A:1 unlock orders at 201 ms")) << v.explanation;
  EXPECT_TRUE(mentions(v, "A:1=0")) << v.explanation;
}

TEST(CheckerReentrancy, KeyDeletedWhileStillHeldIsACountViolation) {
  HistoryBuilder b;
  b.acquire(100, "A", 1, 1, "orders", 1, "", "A:1=1");
  b.acquire(200, "A", 1, 2, "orders", 2, "A:1=1", "A:1=2");
  const auto u = b.unlock(300, "A", 1, 3, "orders", 1, "A:1=2", "");
  const Verdict v = check_reentrancy(b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, "reentry-count");
  EXPECT_EQ(v.witness, (W{u.invoke, u.exec, u.ok}));
  EXPECT_TRUE(mentions(v, "A:1 have 1 unmatched acquires")) << v.explanation;
}

TEST(CheckerReentrancy, FailedUnlockByANonHolderChangingNothingPasses) {
  HistoryBuilder b;
  b.acquire(100, "A", 1, 1, "orders", 1, "", "A:1=1");
  b.invoke(200, "B", 1, 2, "unlock", "orders");
  b.exec(201, 1, 2, "orders", "unlock", "nil", "A:1=1", "A:1=1");
  b.fail(202, "B", 1, 2, "unlock", "orders", "IllegalMonitorStateException");
  EXPECT_EQ(check_reentrancy(b.history()).valid, Validity::Yes);
}

TEST(CheckerReentrancy, SuccessfulUnlockByANonHolderIsReported) {
  HistoryBuilder b;
  b.acquire(100, "A", 1, 1, "orders", 1, "", "A:1=1");
  const int64_t inv = b.invoke(200, "B", 1, 2, "unlock", "orders");
  const int64_t ex = b.exec(201, 1, 2, "orders", "unlock", "1", "A:1=1", "");
  const int64_t ok = b.ok(202, "B", 1, 2, "unlock", "orders");
  const Verdict v = check_reentrancy(b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kUnlockByNonHolder);
  EXPECT_EQ(v.witness, (W{inv, ex, ok}));
  EXPECT_EQ(v.explanation, "Let B:1 hold no orders at 200 ms. Then its unlock succeeded at 202 ms.");
}

TEST(CheckerReentrancy, FailedUnlockByANonHolderThatChangedTheKeyIsReported) {
  HistoryBuilder b;
  b.acquire(100, "A", 1, 1, "orders", 1, "", "A:1=1");
  const int64_t inv = b.invoke(200, "B", 2, 2, "unlock", "orders");
  const int64_t ex = b.exec(201, 2, 2, "orders", "unlock", "nil", "A:1=1", "");
  const int64_t fail = b.fail(202, "B", 2, 2, "unlock", "orders", "IllegalMonitorStateException");
  const Verdict v = check_reentrancy(b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kUnlockByNonHolder);
  EXPECT_EQ(v.witness, (W{inv, ex, fail}));
  EXPECT_TRUE(mentions(v, "B:2")) << v.explanation;
  EXPECT_TRUE(mentions(v, "changed the key from \"A:1=1\" to \"\"")) << v.explanation;
}

TEST(CheckerReentrancy, ExpiryResetsTheCountSoTheLateUnlockMustFail) {
  HistoryBuilder b;
  b.acquire(100, "A", 1, 1, "orders", 1, "", "A:1=1", 1000);
  b.key(1103, "orders", "expired");
  b.invoke(2000, "A", 1, 2, "unlock", "orders");
  b.exec(2001, 1, 2, "orders", "unlock", "nil", "", "");
  b.fail(2002, "A", 1, 2, "unlock", "orders", "IllegalMonitorStateException");
  EXPECT_EQ(check_reentrancy(b.history()).valid, Validity::Yes);

  const int64_t inv = b.invoke(3000, "A", 1, 3, "unlock", "orders");
  b.exec(3001, 1, 3, "orders", "unlock", "1", "", "");
  const int64_t ok = b.ok(3002, "A", 1, 3, "unlock", "orders");
  const Verdict v = check_reentrancy(b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kUnlockByNonHolder);
  EXPECT_EQ(v.witness, (W{inv, inv + 1, ok}));
}

TEST(CheckerReentrancy, KeyLostInARestartResetsTheCounts) {
  HistoryBuilder b;
  b.acquire(100, "A", 1, 1, "orders", 1, "", "A:1=1");
  b.acquire(200, "A", 1, 2, "orders", 2, "A:1=1", "A:1=2");
  b.fault(300, "redis0", "restart");
  b.acquire(400, "B", 1, 3, "orders", 1, "", "B:1=1");
  b.invoke(500, "A", 1, 4, "unlock", "orders");
  b.exec(501, 1, 4, "orders", "unlock", "nil", "B:1=1", "B:1=1");
  b.fail(502, "A", 1, 4, "unlock", "orders", "IllegalMonitorStateException");
  EXPECT_EQ(check_reentrancy(b.history()).valid, Validity::Yes);
}

TEST(CheckerReentrancy, TimedOutOpResynchronisesFromTheServer) {
  HistoryBuilder b;
  b.acquire(100, "A", 1, 1, "orders", 1, "", "A:1=1");
  // A re-entrant acquire that the server ran but whose reply was lost: the count follows the server.
  b.invoke(200, "A", 1, 2, "lock", "orders");
  b.exec(201, 1, 2, "orders", "acquire", "nil", "A:1=1", "A:1=2");
  b.info(3200, "A", 1, 2, "lock", "orders");
  b.unlock(4000, "A", 1, 3, "orders", 0, "A:1=2", "A:1=1");
  EXPECT_EQ(check_reentrancy(b.history()).valid, Validity::Yes);
}

TEST(CheckerReentrancy, OpWithoutExecResynchronisesFromTheNextExec) {
  HistoryBuilder b;
  b.acquire(100, "A", 1, 1, "orders", 1, "", "A:1=1");
  b.invoke(200, "A", 1, 2, "lock", "orders");
  b.info(3200, "A", 1, 2, "lock", "orders");  // no Exec recorded: did it happen?
  b.unlock(4000, "A", 1, 3, "orders", 0, "A:1=2", "A:1=1");
  b.unlock(5000, "A", 1, 4, "orders", 0, "A:1=1", "");
  EXPECT_EQ(check_reentrancy(b.history()).valid, Validity::Yes);
}

TEST(CheckerReentrancy, HolderFieldsNamedByClientIdAreLearned) {
  HistoryBuilder b;
  b.acquire(100, "A", 1, 1, "orders", 1, "", "9f1c-aa:1=1");
  b.unlock(200, "A", 1, 2, "orders", 0, "9f1c-aa:1=1", "");
  b.acquire(300, "B", 1, 3, "orders", 1, "", "77d0-bb:1=1");
  EXPECT_EQ(check_reentrancy(b.history()).valid, Validity::Yes);
  const auto again = b.acquire(400, "B", 1, 4, "orders", 2, "77d0-bb:1=1", "77d0-bb:1=1");
  const Verdict v = check_reentrancy(b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kReentryCount);
  EXPECT_EQ(v.witness, (W{again.invoke, again.exec, again.ok}));
  EXPECT_TRUE(mentions(v, "B:1 have 2")) << v.explanation;
  EXPECT_TRUE(mentions(v, "77d0-bb:1=1")) << v.explanation;
}

TEST(CheckerReentrancy, StringKeyLocksAreNotChecked) {
  HistoryBuilder b;
  b.acquire(100, "A", 1, 1, "seed", 1, "", "9f1c-aa:1");
  b.acquire(200, "A", 1, 2, "seed", 2, "9f1c-aa:1", "9f1c-aa:1");
  EXPECT_EQ(check_reentrancy(b.history()).valid, Validity::Yes);
}

TEST(CheckerReentrancy, NoExecsAtAllIsUnknown) {
  HistoryBuilder b;
  b.invoke(100, "A", 1, 1, "lock", "orders");
  b.ok(110, "A", 1, 1, "lock", "orders");
  b.hold(110, "A", 1, "orders", 1);
  const Verdict v = check_reentrancy(b.history());
  EXPECT_EQ(v.valid, Validity::Unknown);
  EXPECT_TRUE(v.anomaly.empty());
}

}  // namespace
}  // namespace locksim::model
