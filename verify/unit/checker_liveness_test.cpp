#include <gtest/gtest.h>

#include "model/anomaly.hpp"
#include "model/liveness.hpp"
#include "verify/unit/checker_history_builder.hpp"

namespace locksim::model {
namespace {

using test::HistoryBuilder;
using W = std::vector<int64_t>;

bool mentions(const Verdict& v, const std::string& s) { return v.explanation.find(s) != std::string::npos; }

TEST(CheckerLiveness, WaiterThatGetsTheLockPasses) {
  HistoryBuilder b;
  b.hold(100, "A", 1, "orders", 1);
  b.invoke(200, "B", 1, 2, "lock", "orders");
  b.release(5000, "A", 1, "orders", 0);
  b.ok(5010, "B", 1, 2, "lock", "orders");
  b.hold(5010, "B", 1, "orders", 1);
  const Verdict v = check_liveness(b.history());
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(v.property, "liveness");
}

TEST(CheckerLiveness, FailingWhileTheLockIsHeldPasses) {
  HistoryBuilder b;
  b.hold(100, "A", 1, "orders", 1);
  b.fault(150, "A", "pause", 10000);  // a paused holder still holds
  b.invoke(200, "B", 1, 2, "try_lock", "orders", 3000);
  b.fail(3200, "B", 1, 2, "try_lock", "orders");
  b.fault(10150, "A", "resume");
  EXPECT_EQ(check_liveness(b.history()).valid, Validity::Yes);
}

TEST(CheckerLiveness, KeyLeftByACrashedHolderStarvesTheWaiter) {
  HistoryBuilder b;
  b.hold(100, "A", 1, "seed", 1);
  b.fault(1000, "A", "crash");
  const int64_t crash = b.release(1000, "A", 1, "seed", 0, "crash");
  const int64_t inv = b.invoke(2000, "B", 1, 2, "lock", "seed");
  b.key(60000, "other", "created");
  const Verdict v = check_liveness(b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kStarved);
  EXPECT_EQ(v.witness, (W{crash, inv}));
  EXPECT_EQ(v.explanation,
            "Let A:1 release seed by crashing at 1000 ms. Then B:1 waited for seed from 2000 ms until the history "
            "ended at 60000 ms without an answer, while the lock was free for 57500 ms of it (grace 500 ms).");
}

TEST(CheckerLiveness, FailingAfterTheLockWasFreedLongEnoughIsStarved) {
  HistoryBuilder b;
  b.hold(100, "A", 1, "orders", 1);
  const int64_t inv = b.invoke(500, "B", 2, 2, "try_lock", "orders", 3000);
  const int64_t rel = b.release(1000, "A", 1, "orders", 0);
  const int64_t fail = b.fail(3500, "B", 2, 2, "try_lock", "orders");
  const Verdict v = check_liveness(b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kStarved);
  EXPECT_EQ(v.witness, (W{inv, rel, fail}));
  EXPECT_TRUE(mentions(v, "Let A:1 release orders at 1000 ms.")) << v.explanation;
  EXPECT_TRUE(mentions(v, "B:2 waited for orders from 500 ms until its failure at 3500 ms")) << v.explanation;
  EXPECT_TRUE(mentions(v, "free for 2500 ms")) << v.explanation;
}

TEST(CheckerLiveness, FreeForLessThanTheGraceIsNoStarvation) {
  HistoryBuilder b;
  b.hold(100, "A", 1, "orders", 1);
  b.invoke(500, "B", 1, 2, "try_lock", "orders", 3000);
  b.release(3200, "A", 1, "orders", 0);
  b.fail(3500, "B", 1, 2, "try_lock", "orders");
  EXPECT_EQ(check_liveness(b.history()).valid, Validity::Yes);
  EXPECT_EQ(check_liveness(b.history(), LivenessOptions{.grace_ms = 200}).valid, Validity::No);
}

TEST(CheckerLiveness, TimeTheWaiterCouldNotActDoesNotCount) {
  HistoryBuilder b;
  b.hold(100, "A", 1, "orders", 1);
  b.invoke(500, "B", 1, 2, "lock", "orders");
  b.fault(600, "B", "partition");
  b.release(1000, "A", 1, "orders", 0);
  b.fault(20000, "B", "heal");
  b.hold(20100, "C", 1, "orders", 1);
  b.fault(30000, "B", "crash");
  b.key(90000, "other", "created");
  EXPECT_EQ(check_liveness(b.history()).valid, Validity::Yes);
}

TEST(CheckerLiveness, UnknownOutcomeIsNotJudged) {
  HistoryBuilder b;
  b.invoke(500, "B", 1, 2, "lock", "orders");
  b.info(30500, "B", 1, 2, "lock", "orders");
  EXPECT_EQ(check_liveness(b.history()).valid, Validity::Yes);
}

TEST(CheckerLiveness, ANeverHeldLockThatCannotBeTakenStarves) {
  HistoryBuilder b;
  const int64_t inv = b.invoke(500, "B", 1, 2, "try_lock", "seed", 2000);
  const int64_t fail = b.fail(2500, "B", 1, 2, "try_lock", "seed");
  const Verdict v = check_liveness(b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.witness, (W{inv, fail}));
  EXPECT_TRUE(mentions(v, "Let seed be free. Then B:1 waited")) << v.explanation;
}

}  // namespace
}  // namespace locksim::model
