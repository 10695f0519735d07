// Pending operations: what had not returned when the run ended, read from the events alone.
#include "model/pending.hpp"

#include <gtest/gtest.h>

#include "verify/unit/model/history_builder.hpp"

namespace locksim::model {
namespace {

using test::HistoryBuilder;

TEST(PendingOperations, AnOperationWithoutAnOutcomeIsPendingSinceItsInvoke) {
  HistoryBuilder h;
  h.invoke({.t = 0, .p = "A", .op = 1, .f = "lock"});
  h.ok({.t = 4, .p = "A", .op = 1, .f = "lock"});
  h.invoke({.t = 200, .p = "B", .op = 2, .f = "lock"});
  h.invoke({.t = 300, .p = "C", .thread = 2, .op = 3, .f = "try_lock", .wait_ms = 5000});
  h.fault({.t = 9000, .p = "A", .f = "pause", .for_ms = 10});
  const PendingOps pending = pending_operations(h.history());
  ASSERT_EQ(pending.ops.size(), 2u);
  EXPECT_EQ(pending.ops[0].owner, "B:1");
  EXPECT_EQ(pending.ops[0].f, "lock");
  EXPECT_EQ(pending.ops[0].since_ms, 200);
  EXPECT_EQ(pending.ops[1].owner, "C:2");
  EXPECT_EQ(pending.ops[1].wait_ms, 5000);
  EXPECT_EQ(pending.end_ms, 9000);
  EXPECT_EQ(pending.acquires(), 2);
  EXPECT_EQ(pending.describe(),
            "1 lock() call and 1 try_lock() call still waiting at the end (B:1 since 200 ms, C:2 since 300 ms)");
}

TEST(PendingOperations, ACrashEndsWhatItsClientWasDoingAndAnyOutcomeEndsAnOperation) {
  HistoryBuilder h;
  h.invoke({.t = 0, .p = "A", .op = 1, .f = "lock"});
  h.invoke({.t = 0, .p = "B", .op = 2, .f = "lock"});
  h.invoke({.t = 0, .p = "C", .op = 3, .f = "unlock"});
  h.invoke({.t = 0, .p = "D", .op = 4, .f = "lock"});
  h.fault({.t = 10, .p = "A", .f = "crash"});
  h.fail({.t = 20, .p = "B", .op = 2, .f = "lock"});
  h.info({.t = 30, .p = "C", .op = 3, .f = "unlock"});
  const PendingOps pending = pending_operations(h.history());
  ASSERT_EQ(pending.ops.size(), 1u);
  EXPECT_EQ(pending.ops[0].owner, "D:1");
  EXPECT_EQ(pending.describe(), "1 lock() call still waiting at the end (D:1 since 0 ms)");
}

TEST(PendingOperations, NoneIsSaidSo) {
  HistoryBuilder h;
  h.invoke({.t = 0, .p = "A", .op = 1, .f = "lock"});
  h.ok({.t = 4, .p = "A", .op = 1, .f = "lock"});
  const PendingOps pending = pending_operations(h.history());
  EXPECT_TRUE(pending.empty());
  EXPECT_EQ(pending.acquires(), 0);
  EXPECT_EQ(pending.describe(), "no operation still under way at the end");
}

}  // namespace
}  // namespace locksim::model
