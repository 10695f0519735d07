#include "model/checkers.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "model/anomaly.hpp"
#include "verify/unit/model/history_builder.hpp"

namespace locksim::model {
namespace {

using test::HistoryBuilder;

const std::vector<std::string> kAll{"mutual_exclusion", "fencing",    "reentrancy", "watchdog",
                                    "liveness",         "fair_queue", "read_write"};

// An RLock-like history: A locks, writes the fenced resource with its token, unlocks. Every
// checker runs, in the order named; the two whose inputs it lacks (nobody queued, no read-write
// side) say they had nothing to judge, which keeps the whole from "holds".
TEST(CheckerCompose, RunsTheNamedCheckersInOrder) {
  HistoryBuilder b;
  b.acquire({.t = 100, .p = "A", .op = 1, .depth = 1, .after = "A:1=1"});
  Event write;
  write.kind = EventKind::Write;
  write.at_ms = 150;
  write.process = "A";
  write.thread = 1;
  write.lock = "orders";
  write.f = "accepted";
  write.value = 1;
  b.add(std::move(write));
  b.unlock({.t = 200, .p = "A", .op = 2, .depth = 0, .before = "A:1=1"});
  const auto verdicts = run_checkers(b.history(), kAll);
  ASSERT_EQ(verdicts.size(), 7u);
  for (size_t i = 0; i < kAll.size(); ++i) {
    EXPECT_EQ(verdicts[i].property, kAll[i]);
    const bool judged = kAll[i] != "fair_queue" && kAll[i] != "read_write";
    EXPECT_EQ(verdicts[i].valid, judged ? Validity::Yes : Validity::Unknown) << kAll[i] << ": " << verdicts[i].explanation;
    EXPECT_EQ(verdicts[i].anomaly, judged ? "" : anomaly::kNothingToJudge) << kAll[i];
  }
  EXPECT_EQ(overall(verdicts), Validity::Unknown);
  EXPECT_EQ(overall(std::vector<Verdict>(verdicts.begin(), verdicts.begin() + 5)), Validity::Yes);
  EXPECT_EQ(standard_checkers().size(), 8u);
}

// A history with none of any property's inputs: every checker says so, none says "holds".
TEST(CheckerCompose, NothingToJudgeIsUnknownForEveryProperty) {
  for (const NamedChecker& c : standard_checkers()) {
    const Verdict v = run_checkers(History(), {c.name})[0];
    EXPECT_EQ(v.valid, Validity::Unknown) << c.name << ": " << v.explanation;
    EXPECT_EQ(v.anomaly, anomaly::kNothingToJudge) << c.name;
    EXPECT_TRUE(v.explanation.ends_with(": nothing to judge")) << c.name << ": " << v.explanation;
  }
}

TEST(CheckerCompose, AViolationMakesTheWholeVerdictFalse) {
  HistoryBuilder b;
  b.hold({.t = 100, .p = "A", .depth = 1});
  b.hold({.t = 200, .p = "B", .depth = 1});
  const auto verdicts = run_checkers(b.history(), {"liveness", "mutual_exclusion"});
  ASSERT_EQ(verdicts.size(), 2u);
  // The holds were written without their acquires: liveness has nothing to judge, and false still
  // beats unknown.
  EXPECT_EQ(verdicts[0].anomaly, anomaly::kNothingToJudge);
  EXPECT_EQ(verdicts[1].anomaly, anomaly::kMutexOverlap);
  EXPECT_EQ(overall(verdicts), Validity::No);
}

// B's tryLock sleeps through the 699 ms the lock is free before it gives up: starved with the
// default grace (500 ms), not with a grace of 1000 ms.
TEST(CheckerCompose, OptionsReachTheirChecker) {
  HistoryBuilder b;
  b.acquire({.t = 0, .p = "A", .op = 1, .lock = "seed", .depth = 1, .after = "A:1=1"});
  b.invoke({.t = 500, .p = "B", .op = 3, .f = "try_lock", .lock = "seed", .wait_ms = 800});
  b.exec({.t = 501, .op = 3, .lock = "seed", .f = "acquire", .reply = "29500", .before = "A:1=1", .after = "A:1=1"});
  b.unlock({.t = 600, .p = "A", .op = 2, .lock = "seed", .depth = 0, .before = "A:1=1"});
  b.fail({.t = 1300, .p = "B", .op = 3, .f = "try_lock", .lock = "seed"});
  EXPECT_EQ(run_checkers(b.history(), {"liveness"})[0].valid, Validity::No);
  CheckerOptions options;
  options.liveness.grace_ms = 1000;
  EXPECT_EQ(run_checkers(b.history(), {"liveness"}, options)[0].valid, Validity::Yes);
}

TEST(CheckerCompose, AThrowingCheckerGivesUnknownWithItsMessage) {
  std::vector<NamedChecker> table = standard_checkers();
  table.push_back(
      {"broken", "nothing", [](const LockType&) { return true; },
       [](const Facts&, const CheckerOptions&) -> std::unique_ptr<Judge> { throw std::runtime_error("cannot read event 7"); }});
  const auto verdicts = run_checkers(History(), {"broken", "liveness"}, {}, table);
  ASSERT_EQ(verdicts.size(), 2u);
  EXPECT_EQ(verdicts[0].property, "broken");
  EXPECT_EQ(verdicts[0].valid, Validity::Unknown);
  EXPECT_EQ(verdicts[0].explanation, "cannot read event 7");
  EXPECT_EQ(verdicts[0].anomaly, "");
  EXPECT_EQ(verdicts[1].property, "liveness");
  EXPECT_EQ(verdicts[1].anomaly, anomaly::kNothingToJudge);
  EXPECT_EQ(overall(verdicts), Validity::Unknown);
}

TEST(CheckerCompose, APropertyThatDoesNotApplyToTheLockTypeIsRefused) {
  CheckerOptions options;
  options.lock_type = "token";
  try {
    run_checkers(History(), {"fencing", "reentrancy"}, options);
    FAIL() << "expected invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "property 'reentrancy' does not apply to a token lock (it judges that every acquire and unlock moves its "
              "holder's count by exactly one); for token use mutual_exclusion, fencing or liveness");
  }
}

// Every lock type has properties that apply, and each property applies to some lock type.
TEST(CheckerCompose, ApplicabilityTableCoversEveryTypeAndProperty) {
  EXPECT_EQ(applicable_properties("rlock"),
            (std::vector<std::string>{"mutual_exclusion", "reentrancy", "watchdog", "liveness"}));
  EXPECT_EQ(applicable_properties("fair"),
            (std::vector<std::string>{"mutual_exclusion", "reentrancy", "watchdog", "liveness", "fair_queue"}));
  EXPECT_EQ(applicable_properties("rwlock"),
            (std::vector<std::string>{"reentrancy", "watchdog", "liveness", "read_write"}));
  EXPECT_EQ(applicable_properties("setnx"), (std::vector<std::string>{"mutual_exclusion", "liveness"}));
  EXPECT_EQ(applicable_properties("client-reentrant"),
            (std::vector<std::string>{"mutual_exclusion", "fencing", "reentrancy", "liveness"}));
  EXPECT_EQ(applicable_properties("no-such-type").size(), 8u);  // unknown: nothing is refused
  // Every property but resource (serve's histories only) applies to some modelled lock type.
  EXPECT_EQ(scenario_property_names().size(), property_names().size() - 1);
  for (const std::string& p : scenario_property_names()) {
    bool somewhere = false;
    for (const LockType& t : lock_types()) somewhere = somewhere || applicability_problem(p, t.name).empty();
    EXPECT_TRUE(somewhere) << p;
  }
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
