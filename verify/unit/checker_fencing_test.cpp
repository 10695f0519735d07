#include <gtest/gtest.h>

#include "model/anomaly.hpp"
#include "model/fencing.hpp"
#include "verify/unit/checker_history_builder.hpp"

namespace locksim::model {
namespace {

using test::HistoryBuilder;
using W = std::vector<int64_t>;

TEST(CheckerFencing, NoWritesHolds) {
  HistoryBuilder b;
  b.hold(100, "A", 1, "orders", 1);
  b.write(200, "A", "rejected", 3);
  const Verdict v = check_fencing(b.history());
  EXPECT_EQ(v.valid, Validity::Yes);
  EXPECT_EQ(v.explanation, "no writes");
  EXPECT_EQ(v.property, "fencing");
}

TEST(CheckerFencing, RisingAndEqualTokensPass) {
  HistoryBuilder b;
  b.write(100, "A", "accepted", 1);
  b.write(200, "A", "accepted", 1);
  b.write(300, "B", "accepted", 2);
  b.write(400, "A", "rejected", 1);  // the resource did its job
  b.write(500, "C", "accepted", 5);
  EXPECT_EQ(check_fencing(b.history()).valid, Validity::Yes);
}

TEST(CheckerFencing, LowerTokenAcceptedAfterAHigherOneIsAViolation) {
  HistoryBuilder b;
  b.write(100, "A", "accepted", 1);
  const int64_t high = b.write(200, "B", "accepted", 3);
  b.write(300, "B", "accepted", 3);
  const int64_t low = b.write(400, "A", "accepted", 2);
  const Verdict v = check_fencing(b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kFencingOrder);
  EXPECT_EQ(v.witness, (W{high, low}));
  EXPECT_EQ(v.explanation,
            "Let the resource accept a write from B with token 3 at 200 ms. Then it accepted a write from A with "
            "token 2 at 400 ms, lower than 3.");
}

TEST(CheckerFencing, ResourcesAreOrderedSeparately) {
  HistoryBuilder b;
  b.write(100, "A", "accepted", 7, "db");
  b.write(200, "B", "accepted", 2, "cache");
  EXPECT_EQ(check_fencing(b.history()).valid, Validity::Yes);
  const int64_t low = b.write(300, "B", "accepted", 1, "cache");
  const Verdict v = check_fencing(b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.witness, (W{1, low}));
  EXPECT_NE(v.explanation.find("Let cache accept"), std::string::npos) << v.explanation;
}

TEST(CheckerFencing, UnfencedWritesAreIgnoredUnlessAsked) {
  HistoryBuilder b;
  const int64_t fenced = b.write(100, "A", "accepted", 4);
  const int64_t unfenced = b.write(200, "B", "accepted", 0);
  EXPECT_EQ(check_fencing(b.history()).valid, Validity::Yes);
  const Verdict v = check_fencing(b.history(), FencingOptions{.unfenced_is_zero = true});
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.witness, (W{fenced, unfenced}));
}

}  // namespace
}  // namespace locksim::model
