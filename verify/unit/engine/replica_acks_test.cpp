// WAIT's answer against replicas that acknowledge each write a fixed lag after it ran, as Redis 7.0's
// waitCommand gives it: the count at once when enough acknowledged, else at the acknowledgement or at
// the timeout.
#include <gtest/gtest.h>

#include "engine/replica_acks.hpp"

namespace locksim::engine {
namespace {

TEST(AnswerWait, WithNoReplicaNoneIsAnsweredAtOnceAndSomeBlocksItsTimeout) {
  EXPECT_EQ(answer_wait(1000, 900, 0, -1, 0, 0).replicas, 0);
  EXPECT_EQ(answer_wait(1000, 900, 0, -1, 0, 0).at_ms, 1000);
  const WaitAnswer some = answer_wait(1000, 900, 0, -1, 1, 250);
  EXPECT_EQ(some.replicas, 0);
  EXPECT_EQ(some.at_ms, 1250);
  EXPECT_EQ(answer_wait(1000, 900, 0, -1, 1, 0).at_ms, kNeverMs);  // timeout 0: for good
}

TEST(AnswerWait, AReplicaAcknowledgesTheClientsLastWriteItsLagLater) {
  const WaitAnswer fresh = answer_wait(1000, 1000, 1, 300, 1, 1000);
  EXPECT_EQ(fresh.replicas, 1);
  EXPECT_EQ(fresh.at_ms, 1300);
  // A write long enough ago is acknowledged already: answered at once, WAIT 0 included.
  EXPECT_EQ(answer_wait(1000, 600, 1, 300, 1, 1000).at_ms, 1000);
  EXPECT_EQ(answer_wait(1000, 600, 1, 300, 0, 0).replicas, 1);
  // No write on the connection yet: nothing to wait for.
  EXPECT_EQ(answer_wait(1000, -1, 1, 300, 1, 1000).at_ms, 1000);
}

TEST(AnswerWait, ALagPastTheTimeoutAnswersNoneAtTheTimeout) {
  const WaitAnswer late = answer_wait(1000, 1000, 1, 1500, 1, 1000);
  EXPECT_EQ(late.replicas, 0);
  EXPECT_EQ(late.at_ms, 2000);
  // Exactly at the timeout still counts, as the acknowledgement is read before the timeout fires.
  EXPECT_EQ(answer_wait(1000, 1000, 1, 1000, 1, 1000).replicas, 1);
  // More replicas than there are: the timeout, with none.
  const WaitAnswer more = answer_wait(1000, 1000, 1, 10, 2, 500);
  EXPECT_EQ(more.replicas, 0);
  EXPECT_EQ(more.at_ms, 1500);
}

TEST(AnswerWait, AHugeTimeoutNeverOverflows) {
  EXPECT_EQ(answer_wait(1000, 1000, 0, -1, 1, 4848378279948546481).at_ms, 1000 + 4848378279948546481);
  EXPECT_EQ(answer_wait(1000, 1000, 0, -1, 1, kNeverMs - 10).at_ms, kNeverMs);
  EXPECT_EQ(answer_wait(1000, 1000, 1, 300, 1, kNeverMs).at_ms, 1300);
}

}  // namespace
}  // namespace locksim::engine
