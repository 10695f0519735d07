#include <gtest/gtest.h>

#include <stdexcept>

#include "model/anomaly.hpp"
#include "model/checkers.hpp"
#include "verify/unit/checker_history_builder.hpp"

namespace locksim::model {
namespace {

using test::HistoryBuilder;

const std::vector<std::string> kAll{"mutual_exclusion", "fencing", "reentrancy", "watchdog", "liveness", "fair_queue",
                                   "read_write"};

TEST(CheckerCompose, RunsTheNamedCheckersInOrder) {
  HistoryBuilder b;
  b.acquire(100, "A", 1, 1, "orders", 1, "", "A:1=1");
  b.unlock(200, "A", 1, 2, "orders", 0, "A:1=1", "");
  const auto verdicts = run_checkers(b.history(), kAll);
  ASSERT_EQ(verdicts.size(), 7u);
  for (size_t i = 0; i < kAll.size(); ++i) {
    EXPECT_EQ(verdicts[i].property, kAll[i]);
    EXPECT_EQ(verdicts[i].valid, Validity::Yes) << kAll[i] << ": " << verdicts[i].explanation;
  }
  EXPECT_EQ(overall(verdicts), Validity::Yes);
  EXPECT_EQ(standard_checkers().size(), 7u);
}

TEST(CheckerCompose, AViolationMakesTheWholeVerdictFalse) {
  HistoryBuilder b;
  b.hold(100, "A", 1, "orders", 1);
  b.hold(200, "B", 1, "orders", 1);
  const auto verdicts = run_checkers(b.history(), {"liveness", "mutual_exclusion"});
  ASSERT_EQ(verdicts.size(), 2u);
  EXPECT_EQ(verdicts[0].valid, Validity::Yes);
  EXPECT_EQ(verdicts[1].anomaly, anomaly::kMutexOverlap);
  EXPECT_EQ(overall(verdicts), Validity::No);
}

TEST(CheckerCompose, OptionsReachTheirChecker) {
  HistoryBuilder b;
  b.invoke(500, "B", 1, 2, "try_lock", "seed", 800);
  b.fail(1300, "B", 1, 2, "try_lock", "seed");
  EXPECT_EQ(run_checkers(b.history(), {"liveness"})[0].valid, Validity::Yes);
  CheckerOptions options;
  options.liveness.grace_ms = 100;
  EXPECT_EQ(run_checkers(b.history(), {"liveness"}, options)[0].valid, Validity::No);
}

TEST(CheckerCompose, AThrowingCheckerGivesUnknownWithItsMessage) {
  std::vector<NamedChecker> table = standard_checkers();
  table.push_back({"broken", [](const History&, const CheckerOptions&) -> Verdict {
                     throw std::runtime_error("cannot read event 7");
                   }});
  const auto verdicts = run_checkers(History(), {"broken", "fencing"}, {}, table);
  ASSERT_EQ(verdicts.size(), 2u);
  EXPECT_EQ(verdicts[0].property, "broken");
  EXPECT_EQ(verdicts[0].valid, Validity::Unknown);
  EXPECT_EQ(verdicts[0].explanation, "cannot read event 7");
  EXPECT_EQ(verdicts[1].valid, Validity::Yes);
  EXPECT_EQ(overall(verdicts), Validity::Unknown);
}

TEST(CheckerCompose, AnUnknownNameIsRefusedBeforeAnythingRuns) {
  try {
    run_checkers(History(), {"fencing", "fifo"});
    FAIL() << "expected invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "no checker named 'fifo'");
  }
}

}  // namespace
}  // namespace locksim::model
