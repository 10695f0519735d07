// The fair-queue checker on hand-built histories: FIFO grants pass; a grant past a live earlier
// waiter is a fifo-inversion; a waiter silent for threadWaitTime loses its place and must not hold
// up the others; a live waiter is not kept waiting on a free lock.
#include <gtest/gtest.h>

#include "model/anomaly.hpp"
#include "model/fair_queue.hpp"
#include "verify/unit/checker_history_builder.hpp"

namespace locksim::model {
namespace {

using test::HistoryBuilder;
using W = std::vector<int64_t>;

bool mentions(const Verdict& v, const std::string& s) { return v.explanation.find(s) != std::string::npos; }

// Client-side and server-side events of one fair-lock story on "orders", thread 1 everywhere.
struct Story {
  HistoryBuilder b;
  // The Invoke of a lock() by `p` (op id `op`).
  int64_t wants(int64_t t, const std::string& p, int64_t op, const std::string& f = "lock", int64_t wait_ms = -1) {
    return b.invoke(t, p, 1, op, f, "orders", wait_ms);
  }
  // An attempt the server answered with a ttl: the first one enqueues.
  int64_t queued(int64_t t, int64_t op, const std::string& ttl = "29000") {
    return b.exec(t, 1, op, "orders", "acquire", ttl, "", "");
  }
  // An attempt the server answered nil, and the client's Ok and Hold; returns the Exec.
  int64_t granted(int64_t t, const std::string& p, int64_t op, int64_t depth = 1) {
    const int64_t exec = b.exec(t, 1, op, "orders", "acquire", "nil", "", "");
    b.ok(t + 2, p, 1, op, "lock", "orders");
    b.hold(t + 2, p, 1, "orders", depth, -1, op);
    return exec;
  }
  // `p` stops believing it holds: returns the Release.
  int64_t releases(int64_t t, const std::string& p, int64_t op) {
    return b.unlock(t, p, 1, op, "orders", 0, "", "").release;
  }
};

TEST(CheckerFairQueue, WaitersGrantedInTheOrderTheyEnqueuedPass) {
  Story s;
  s.wants(0, "A", 1);
  s.granted(1, "A", 1);
  s.wants(100, "B", 2);
  s.queued(101, 2);
  s.wants(200, "C", 3);
  s.queued(201, 3, "34000");
  s.releases(1000, "A", 4);
  s.granted(1005, "B", 2);
  s.releases(2000, "B", 5);
  s.granted(2005, "C", 3);
  const Verdict v = check_fair_queue(s.b.history());
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(v.property, "fair_queue");
  EXPECT_EQ(v.explanation, "2 queue stays and 3 grants, in FIFO order, none kept waiting while the lock was free");
}

TEST(CheckerFairQueue, ALaterWaiterGrantedBeforeALiveEarlierOneIsAFifoInversion) {
  Story s;
  s.wants(0, "A", 1);
  s.granted(1, "A", 1);
  s.wants(100, "B", 2);
  const int64_t b_enqueued = s.queued(101, 2);
  s.wants(200, "C", 3);
  const int64_t c_enqueued = s.queued(201, 3);
  s.releases(1000, "A", 4);
  const int64_t c_granted = s.granted(1005, "C", 3);
  const Verdict v = check_fair_queue(s.b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kFifoInversion);
  EXPECT_EQ(v.witness, (W{b_enqueued, c_enqueued, c_granted}));
  EXPECT_EQ(v.explanation,
            "Let B:1 enqueue for orders at 101 ms. Then C:1, which had enqueued at 201 ms, was granted orders at 1005 ms "
            "while B:1 was still waiting and live (never silent for the thread wait of 5000 ms).");
}

TEST(CheckerFairQueue, ANewcomerThatNeverQueuedMayNotBargePastALiveWaiter) {
  Story s;
  s.wants(0, "A", 1);
  s.granted(1, "A", 1);
  s.wants(100, "B", 2);
  const int64_t b_enqueued = s.queued(101, 2);
  s.releases(1000, "A", 4);
  s.wants(1003, "D", 5, "try_lock", 0);
  const int64_t d_granted = s.granted(1004, "D", 5);
  const Verdict v = check_fair_queue(s.b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kFifoInversion);
  EXPECT_EQ(v.witness, (W{b_enqueued, d_granted}));
  EXPECT_TRUE(mentions(v, "D:1, which had never queued, was granted")) << v.explanation;
}

TEST(CheckerFairQueue, AReentryIsNotAGrant) {
  Story s;
  s.wants(0, "A", 1);
  s.granted(1, "A", 1);
  s.wants(100, "B", 2);
  s.queued(101, 2);
  s.wants(200, "A", 3);
  s.granted(201, "A", 3, /*depth=*/2);
  const Verdict v = check_fair_queue(s.b.history());
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

TEST(CheckerFairQueue, ASilentWaiterKeepsItsPlaceForTheThreadWait) {
  Story s;
  s.wants(0, "A", 1);
  s.granted(1, "A", 1);
  s.wants(100, "B", 2);
  const int64_t b_enqueued = s.queued(101, 2);
  s.b.fault(150, "B", "crash");
  s.wants(200, "C", 3);
  s.queued(201, 3);
  s.releases(1000, "A", 4);
  const int64_t c_granted = s.granted(3000, "C", 3);  // B is due for eviction only at 5150 ms
  const Verdict v = check_fair_queue(s.b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kFifoInversion);
  EXPECT_EQ(v.witness, (W{b_enqueued, b_enqueued + 3, c_granted}));
}

TEST(CheckerFairQueue, AWaiterSilentForTheThreadWaitIsEvictedAndTheNextMayGo) {
  Story s;
  s.wants(0, "A", 1);
  s.granted(1, "A", 1);
  s.wants(100, "B", 2);
  s.queued(101, 2);
  s.b.fault(150, "B", "crash");
  s.wants(200, "C", 3);
  s.queued(201, 3);
  s.releases(1000, "A", 4);
  // Due at 5150 ms; C waits 50 ms of free lock past it, under the 500 ms grace.
  s.granted(5200, "C", 3);
  const Verdict v = check_fair_queue(s.b.history());
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

TEST(CheckerFairQueue, AWaiterHeldUpByAnEvictedOneIsBlockedByEvicted) {
  Story s;
  s.wants(0, "A", 1);
  s.granted(1, "A", 1);
  s.wants(100, "B", 2);
  const int64_t b_enqueued = s.queued(101, 2);
  const int64_t crash = s.b.fault(150, "B", "crash");
  s.wants(200, "C", 3);
  const int64_t c_enqueued = s.queued(201, 3);
  const int64_t freed = s.releases(1000, "A", 4);
  // Redisson's story: B's score was its enqueue + the lock's ttl + threadWaitTime.
  const int64_t c_granted = s.granted(35101, "C", 3);
  const Verdict v = check_fair_queue(s.b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kBlockedByEvicted);
  EXPECT_EQ(v.witness, (W{b_enqueued, crash, c_enqueued, freed, c_granted}));
  EXPECT_EQ(v.explanation,
            "Let B:1, enqueued for orders at 101 ms, fall silent so that it was due for eviction at 5150 ms (thread wait "
            "5000 ms). Then C:1 enqueued for orders at 201 ms and waited until it was granted at 35101 ms, while the lock "
            "was free for 29951 ms of it (grace 500 ms); 29951 ms of that came after B:1 was due for eviction.");
}

TEST(CheckerFairQueue, ALiveWaiterKeptWaitingOnAFreeLockIsStarved) {
  Story s;
  s.wants(0, "A", 1);
  s.granted(1, "A", 1);
  s.wants(100, "B", 2);
  const int64_t b_enqueued = s.queued(101, 2);
  const int64_t freed = s.releases(1000, "A", 4);
  const int64_t b_granted = s.granted(3000, "B", 2);  // its wake-up message was lost, say
  const Verdict v = check_fair_queue(s.b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kStarved);
  EXPECT_EQ(v.witness, (W{b_enqueued, freed, b_granted}));
  EXPECT_TRUE(mentions(v, "while the lock was free for 2000 ms of it")) << v.explanation;
}

TEST(CheckerFairQueue, AWaiterThatGaveUpHoldsNoPlace) {
  Story s;
  s.wants(0, "A", 1);
  s.granted(1, "A", 1);
  s.wants(100, "B", 2, "try_lock", 300);
  s.queued(101, 2);
  s.wants(200, "C", 3);
  s.queued(201, 3);
  s.b.exec(400, 1, 2, "orders", "acquire_failed", "nil", "", "");
  s.b.fail(402, "B", 1, 2, "try_lock", "orders");
  s.releases(1000, "A", 4);
  s.granted(1005, "C", 3);
  const Verdict v = check_fair_queue(s.b.history());
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

TEST(CheckerFairQueue, AnEvictedWaiterThatComesBackQueuesAtTheBack) {
  Story s;
  s.wants(0, "A", 1);
  s.granted(1, "A", 1);
  s.wants(100, "B", 2);
  s.queued(101, 2);
  s.b.fault(150, "B", "pause", 9850);
  s.wants(200, "C", 3);
  s.queued(201, 3);
  s.releases(5000, "A", 4);
  s.granted(5200, "C", 3);  // B was due for eviction at 5150 ms
  s.wants(7000, "D", 5);
  const int64_t d_enqueued = s.queued(7001, 5);
  s.b.fault(10000, "B", "resume");
  const int64_t b_again = s.queued(10010, 2);  // B's retry enqueues it afresh, behind D
  s.releases(11000, "C", 6);
  const int64_t b_granted = s.granted(11005, "B", 2);
  const Verdict v = check_fair_queue(s.b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kFifoInversion);
  EXPECT_EQ(v.witness, (W{d_enqueued, b_again, b_granted}));
}

TEST(CheckerFairQueue, TryLockWaitReplacesTheThreadWaitWhenAsked) {
  // B's tryLock(60 s) makes its thread wait 60 s (Redisson 3.13.3+): silent from 150 ms, it is not
  // due for eviction at 35101 ms, so C was rightly kept waiting; with the plain 5 s it was not.
  Story s;
  s.wants(0, "A", 1);
  s.granted(1, "A", 1);
  s.wants(100, "B", 2, "try_lock", 60000);
  s.queued(101, 2);
  s.b.fault(150, "B", "crash");
  s.wants(200, "C", 3);
  s.queued(201, 3);
  s.releases(1000, "A", 4);
  s.granted(35101, "C", 3);
  FairQueueOptions replaces;
  replaces.try_wait_replaces_thread_wait = true;
  EXPECT_EQ(check_fair_queue(s.b.history(), replaces).valid, Validity::No)
      << "C was granted before B's 60 s were up: an inversion";
  EXPECT_EQ(check_fair_queue(s.b.history(), replaces).anomaly, anomaly::kFifoInversion);
  EXPECT_EQ(check_fair_queue(s.b.history()).anomaly, anomaly::kBlockedByEvicted);
}

}  // namespace
}  // namespace locksim::model
