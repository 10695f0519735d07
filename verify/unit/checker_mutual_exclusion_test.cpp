#include <gtest/gtest.h>

#include "model/anomaly.hpp"
#include "model/mutual_exclusion.hpp"
#include "verify/unit/checker_history_builder.hpp"

namespace locksim::model {
namespace {

using test::HistoryBuilder;
using W = std::vector<int64_t>;

TEST(CheckerMutualExclusion, SuccessiveHoldersPass) {
  HistoryBuilder b;
  b.acquire(100, "A", 1, 1, "orders", 1, "", "A:1=1");
  b.unlock(200, "A", 1, 2, "orders", 0, "A:1=1", "");
  b.acquire(300, "B", 1, 3, "orders", 1, "", "B:1=1");
  b.unlock(400, "B", 1, 4, "orders", 0, "B:1=1", "");
  const Verdict v = check_mutual_exclusion(b.history());
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(v.property, "mutual_exclusion");
  EXPECT_TRUE(v.witness.empty());
}

TEST(CheckerMutualExclusion, ReleaseThenHoldAtTheSameMillisecondPasses) {
  HistoryBuilder b;
  b.hold(100, "A", 1, "orders", 1);
  b.release(500, "A", 1, "orders", 0);
  b.hold(500, "B", 1, "orders", 1);
  EXPECT_EQ(check_mutual_exclusion(b.history()).valid, Validity::Yes);
}

TEST(CheckerMutualExclusion, ReentryKeepsOneIntervalAndOtherLocksAreIndependent) {
  HistoryBuilder b;
  b.hold(100, "A", 1, "orders", 1);
  b.hold(110, "A", 1, "orders", 2);
  b.hold(120, "B", 1, "stock", 1);  // another lock
  b.release(130, "A", 1, "orders", 1);
  b.release(140, "A", 1, "orders", 0);
  b.hold(150, "B", 2, "orders", 1);
  EXPECT_EQ(check_mutual_exclusion(b.history()).valid, Validity::Yes);
}

TEST(CheckerMutualExclusion, CrashEndsTheCrashedOwnersInterval) {
  HistoryBuilder b;
  b.hold(100, "A", 1, "orders", 1);
  b.fault(1000, "A", "crash");
  b.release(1000, "A", 1, "orders", 0, "crash");
  b.hold(40000, "B", 1, "orders", 1);
  EXPECT_EQ(check_mutual_exclusion(b.history()).valid, Validity::Yes);
}

TEST(CheckerMutualExclusion, PausedHolderOverlapsTheNextHolder) {
  HistoryBuilder b;
  b.key(0, "other", "created");
  const auto a = b.acquire(98, "A", 1, 1, "orders", 1, "", "A:1=1");
  b.fault(1000, "A", "pause", 14000);
  const auto c = b.acquire(10998, "B", 1, 2, "orders", 1, "", "B:1=1");
  b.fault(15000, "A", "resume");
  const auto u = b.unlock(15200, "A", 1, 3, "orders", 0, "B:1=1", "B:1=1");
  b.unlock(16000, "B", 1, 4, "orders", 0, "B:1=1", "");
  const Verdict v = check_mutual_exclusion(b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kMutexOverlap);
  EXPECT_EQ(v.witness, (W{a.hold, c.hold, u.release}));
  EXPECT_EQ(v.explanation,
            "Let A:1 hold orders from 100 ms. Then B:1 acquired orders at 11000 ms while A:1 still believed it "
            "held it (until 15200 ms).");
}

TEST(CheckerMutualExclusion, OverlapWithAHolderThatNeverReleases) {
  HistoryBuilder b;
  const int64_t a = b.hold(100, "A", 1, "orders", 1);
  b.fault(200, "A", "partition");
  const int64_t c = b.hold(31000, "B", 7, "orders", 1);
  b.fault(32000, "A", "heal");
  const Verdict v = check_mutual_exclusion(b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, "mutex-overlap");
  EXPECT_EQ(v.witness, (W{a, c}));
  EXPECT_NE(v.explanation.find("B:7 acquired orders at 31000 ms"), std::string::npos) << v.explanation;
  EXPECT_NE(v.explanation.find("until the end of the history"), std::string::npos) << v.explanation;
}

TEST(CheckerMutualExclusion, HoldRecordedBeforeReleaseAtTheSameMillisecondOverlaps) {
  HistoryBuilder b;
  const int64_t a = b.hold(100, "A", 1, "orders", 1);
  const int64_t c = b.hold(500, "B", 1, "orders", 1);
  const int64_t r = b.release(500, "A", 1, "orders", 0);
  const Verdict v = check_mutual_exclusion(b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.witness, (W{a, c, r}));
}

TEST(CheckerMutualExclusion, TwoThreadsOfOneProcessAreDifferentOwners) {
  HistoryBuilder b;
  const int64_t a = b.hold(100, "A", 1, "orders", 1);
  const int64_t c = b.hold(200, "A", 2, "orders", 1);
  const Verdict v = check_mutual_exclusion(b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.witness, (W{a, c}));
  EXPECT_NE(v.explanation.find("Then A:2 acquired"), std::string::npos);
}

}  // namespace
}  // namespace locksim::model
