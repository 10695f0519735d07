// The fair-queue checker on hand-built FairLock histories shaped like the world's: the lock hash
// "<id>:<thread>=<count>" before and after every script, waits answered with a ttl, grants with nil.
// FIFO grants pass; a grant past a live earlier waiter (or to a newcomer that never queued) is a
// fifo-inversion; a waiter silent for threadWaitTime loses its place, must not hold up the others
// (blocked-by-evicted) and queues at the back when it returns; a live waiter is not kept waiting on
// a free lock (starved); a waiter that gave up holds no place.
#include "model/fair_queue.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "model/anomaly.hpp"
#include "model/facts.hpp"
#include "model/lock_types.hpp"
#include "verify/unit/model/evidence.hpp"
#include "verify/unit/model/history_builder.hpp"
#include "verify/unit/model/streamed.hpp"

namespace locksim::model {
namespace {

using test::all;
using test::figure;
using test::HistoryBuilder;
using W = std::vector<int64_t>;

// One FairLock story on "orders" (redis0), thread 1 everywhere, the client ids the process names.
struct Story {
  HistoryBuilder b;
  std::string hash;       // the lock hash now, rendered
  int64_t expire_at = 0;  // its expiry, when there is one

  int64_t ttl_at(int64_t t) const { return hash.empty() ? -2 : expire_at - t; }

  // The Invoke of a lock() (or tryLock) by `p`, op id `op`.
  int64_t wants(int64_t t, const std::string& p, int64_t op, const std::string& f = "lock", int64_t wait_ms = -1) {
    return b.invoke({.t = t, .p = p, .op = op, .f = f, .wait_ms = wait_ms});
  }
  // An attempt the script answered with a ttl ("wait"): the first one of a stay enqueues.
  int64_t queued(int64_t t, int64_t op, int64_t reply = 29000) {
    return b.exec({.t = t,
                   .op = op,
                   .f = "acquire",
                   .reply = std::to_string(reply),
                   .before = hash,
                   .after = hash,
                   .ttl = ttl_at(t),
                   .sent = t - 1});
  }
  // An attempt the script answered nil, putting `p`'s hold in the hash, then the client's Ok and
  // Hold; returns the Exec. A hold `p` still has in the hash is counted up (a server-side re-entry).
  int64_t granted(int64_t t, const std::string& p, int64_t op, const std::string& role = "acquire", int64_t depth = 1) {
    const std::string before = hash;
    const std::string field = p + ":1=";
    if (hash.empty()) {
      b.key({.t = t, .f = "created"});
      hash = field + "1";
    } else if (hash.rfind(field, 0) == 0) {
      hash = field + std::to_string(std::stoll(hash.substr(field.size())) + 1);
    } else {
      throw std::logic_error("one holder at a time in these stories");
    }
    expire_at = t + 30000;
    const int64_t exec = b.exec(
        {.t = t, .op = op, .f = role, .reply = "nil", .before = before, .after = hash, .ttl = 30000, .sent = t - 1});
    b.ok({.t = t + 1, .p = p, .op = op, .f = role == "try_acquire" ? "try_lock" : "lock"});
    b.hold({.t = t + 1, .p = p, .depth = depth, .op = op});
    return exec;
  }
  // `p` unlocks at t (its Release), the script deleting the hash at t+1; returns that Exec.
  int64_t releases(int64_t t, const std::string& p, int64_t op) {
    b.invoke({.t = t, .p = p, .op = op, .f = "unlock"});
    b.release({.t = t, .p = p, .depth = 0, .op = op});
    b.key({.t = t + 1, .f = "deleted"});
    const std::string before = hash;
    hash.clear();
    const int64_t exec =
        b.exec({.t = t + 1, .op = op, .f = "unlock", .reply = "1", .before = before, .ttl = -2, .sent = t});
    b.ok({.t = t + 2, .p = p, .op = op, .f = "unlock"});
    return exec;
  }
  Verdict judge(FairQueueOptions options = {}) const {
    const Facts facts(b.history(), find_lock_type("fair"));
    CheckerOptions streamed = test::options_for("fair");
    streamed.fair_queue = options;
    return test::streamed_alike(b.history(), "fair_queue", streamed, check_fair_queue(facts, options));
  }
};

// A holds from 1 ms; B enqueues at 101 ms and C at 201 ms.
Story two_waiters_behind_a(int64_t* b_enqueued = nullptr, int64_t* c_enqueued = nullptr) {
  Story s;
  s.wants(0, "A", 1);
  s.granted(1, "A", 1);
  s.wants(100, "B", 2);
  const int64_t be = s.queued(101, 2);
  s.wants(200, "C", 3);
  const int64_t ce = s.queued(201, 3, 34000);
  if (b_enqueued) *b_enqueued = be;
  if (c_enqueued) *c_enqueued = ce;
  return s;
}

// ---------------------------------------------------------------- fifo-inversion

TEST(CheckerFairQueue, WaitersGrantedInTheOrderTheyEnqueuedPass) {
  Story s = two_waiters_behind_a();
  s.releases(1000, "A", 4);
  s.granted(1003, "B", 2);
  s.releases(2000, "B", 5);
  s.granted(2003, "C", 3);
  const Verdict v = s.judge();
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(v.property, "fair_queue");
  EXPECT_EQ(v.explanation, "2 queue stays and 3 grants, in FIFO order, none kept waiting while the lock was free");
}

// The server's queue is per thread: B:1 queued, gave up (its entry stays in the queue), C queued
// behind that entry, and B:1's next lock() is granted at once as the queue's head. B:1 enqueued
// before C, so that is FIFO order, not an inversion; the checker reads where B:1 stood from the
// queue the history records.
Story a_thread_that_left_its_entry_behind(const std::string& b_queue_at_c) {
  Story s;
  s.wants(0, "A", 1);
  s.granted(1, "A", 1);
  s.wants(50, "B", 2);
  s.b.exec({.t = 51, .op = 2, .f = "acquire", .reply = "29000", .before = s.hash, .after = s.hash, .ttl = 29950,
            .sent = 50, .queue = "[B:1]"});
  s.b.fail({.t = 60, .p = "B", .op = 2, .f = "lock"});
  s.wants(100, "C", 3);
  s.b.exec({.t = 101, .op = 3, .f = "acquire", .reply = "34000", .before = s.hash, .after = s.hash, .ttl = 29900,
            .sent = 100, .queue = b_queue_at_c});
  s.releases(1000, "A", 4);
  s.wants(1005, "B", 5);
  s.granted(1006, "B", 5);
  s.releases(2000, "B", 6);
  s.granted(2003, "C", 3);
  return s;
}

TEST(CheckerFairQueue, AThreadGrantedFromTheQueueEntryItLeftBehindKeepsItsPlace) {
  const Verdict v = a_thread_that_left_its_entry_behind("[B:1,C:1]").judge();
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

// The same grant with B:1 gone from the queue before C queued: B:1 jumped it.
TEST(CheckerFairQueue, AThreadNoLongerInTheQueueIsANewcomer) {
  const Verdict v = a_thread_that_left_its_entry_behind("[C:1]").judge();
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kFifoInversion);
}

TEST(CheckerFairQueue, ALaterWaiterGrantedBeforeALiveEarlierOneIsAFifoInversion) {
  int64_t b_enqueued = 0, c_enqueued = 0;
  Story s = two_waiters_behind_a(&b_enqueued, &c_enqueued);
  s.releases(1000, "A", 4);
  const int64_t c_granted = s.granted(1003, "C", 3);
  const Verdict v = s.judge();
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.property, "fair_queue");
  EXPECT_EQ(v.anomaly, anomaly::kFifoInversion);
  EXPECT_EQ(v.witness, (W{b_enqueued, c_enqueued, c_granted}));
  EXPECT_EQ(v.find("earlier_enqueue")->who, "B:1");
  EXPECT_EQ(v.find("grant")->who, "C:1");
  EXPECT_EQ(v.find("later_enqueue")->event, c_enqueued);
  EXPECT_EQ(
      v.explanation,
      "Let B:1 enqueue for orders at 101 ms. Then C:1, which had enqueued at 201 ms, was granted orders at 1003 ms "
      "while B:1 was still waiting and live (never silent for the thread wait of 5000 ms).");
}

// Its place is where the server queued it, not when it asked: B asked after C but its request came
// first. (Judged as it streams, C's grant waits until B, begun before it, is settled.)
TEST(CheckerFairQueue, AWaiterThatAskedLaterButQueuedFirstIsAhead) {
  Story s;
  s.wants(0, "A", 1);
  s.granted(1, "A", 1);
  s.wants(100, "C", 3);
  s.wants(150, "B", 2);
  const int64_t b_enqueued = s.queued(151, 2);
  const int64_t c_enqueued = s.queued(201, 3);
  s.releases(1000, "A", 4);
  const int64_t c_granted = s.granted(1003, "C", 3);
  s.releases(2000, "C", 5);
  const Verdict v = s.judge();
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kFifoInversion);
  EXPECT_EQ(v.witness, (W{b_enqueued, c_enqueued, c_granted}));
  EXPECT_EQ(v.find("earlier_enqueue")->who, "B:1");
}

TEST(CheckerFairQueue, ANewcomerThatNeverQueuedMayNotBargePastALiveWaiter) {
  Story s;
  s.wants(0, "A", 1);
  s.granted(1, "A", 1);
  s.wants(100, "B", 2);
  const int64_t b_enqueued = s.queued(101, 2);
  s.releases(1000, "A", 4);
  s.wants(1002, "D", 5, "try_lock", 0);
  const int64_t d_granted = s.granted(1002, "D", 5, "try_acquire");  // tryLock(): never queues
  const Verdict v = s.judge();
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kFifoInversion);
  EXPECT_EQ(v.witness, (W{b_enqueued, d_granted}));
  EXPECT_EQ(v.find("later_enqueue"), nullptr);
  EXPECT_NE(v.explanation.find("D:1, which had never queued, was granted orders at 1002 ms"), std::string::npos)
      << v.explanation;
}

TEST(CheckerFairQueue, AReentryTheServerCountedOnAHoldItStillHadIsNoGrant) {
  // A's unlock never reached the server; A's next lock() is a re-entry there, whatever A believed.
  Story s;
  s.wants(0, "A", 1);
  s.granted(1, "A", 1);
  s.wants(100, "B", 2);
  s.queued(101, 2);
  s.b.invoke({.t = 500, .p = "A", .op = 3, .f = "unlock"});
  s.b.release({.t = 500, .p = "A", .depth = 0, .op = 3});
  s.b.info({.t = 600, .p = "A", .op = 3, .f = "unlock"});
  s.wants(700, "A", 4);
  s.granted(701, "A", 4, "acquire", /*depth=*/1);  // A:1=1 -> A:1=2
  const Verdict v = s.judge();
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(figure(v, "grants"), 1);
  EXPECT_EQ(figure(v, "queue_stays"), 1);
}

TEST(CheckerFairQueue, ASilentWaiterKeepsItsPlaceForTheThreadWait) {
  int64_t b_enqueued = 0, c_enqueued = 0;
  Story s;
  s.wants(0, "A", 1);
  s.granted(1, "A", 1);
  s.wants(100, "B", 2);
  b_enqueued = s.queued(101, 2);
  s.b.fault({.t = 150, .p = "B", .f = "crash"});
  s.wants(200, "C", 3);
  c_enqueued = s.queued(201, 3);
  s.releases(1000, "A", 4);
  const int64_t c_granted = s.granted(3000, "C", 3);  // B is due for eviction only at 5150 ms
  const Verdict v = s.judge();
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kFifoInversion);
  EXPECT_EQ(v.witness, (W{b_enqueued, c_enqueued, c_granted}));
}

TEST(CheckerFairQueue, AWaiterSilentForTheThreadWaitIsEvictedAndTheNextMayGo) {
  Story s;
  s.wants(0, "A", 1);
  s.granted(1, "A", 1);
  s.wants(100, "B", 2);
  s.queued(101, 2);
  s.b.fault({.t = 150, .p = "B", .f = "crash"});
  s.wants(200, "C", 3);
  s.queued(201, 3);
  s.releases(1000, "A", 4);
  // B was due at 5150 ms; C waits 50 ms of free lock past that, under the 500 ms grace.
  s.granted(5200, "C", 3);
  const Verdict v = s.judge();
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

TEST(CheckerFairQueue, ASilentWaiterBackWithinTheThreadWaitKeepsItsPlace) {
  Story s;
  s.wants(0, "A", 1);
  s.granted(1, "A", 1);
  s.wants(100, "B", 2);
  s.queued(101, 2);
  s.b.fault({.t = 150, .p = "B", .f = "pause", .for_ms = 3000});
  s.wants(200, "C", 3);
  s.queued(201, 3);
  s.releases(1000, "A", 4);
  s.b.fault({.t = 3150, .p = "B", .f = "resume"});
  s.granted(3200, "B", 2);
  s.releases(4000, "B", 5);
  s.granted(4003, "C", 3);
  const Verdict v = s.judge();
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

TEST(CheckerFairQueue, AWaiterThatGaveUpHoldsNoPlace) {
  Story s;
  s.wants(0, "A", 1);
  s.granted(1, "A", 1);
  s.wants(100, "B", 2, "try_lock", 300);
  s.queued(101, 2);
  s.wants(200, "C", 3);
  s.queued(201, 3);
  s.b.exec({.t = 400,
            .op = 2,
            .f = "acquire_failed",
            .reply = "nil",
            .before = s.hash,
            .after = s.hash,
            .ttl = s.ttl_at(400),
            .sent = 400});
  s.b.fail({.t = 402, .p = "B", .op = 2, .f = "try_lock", .text = "not acquired within 300 ms"});
  s.releases(1000, "A", 4);
  s.granted(1003, "C", 3);
  const Verdict v = s.judge();
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

TEST(CheckerFairQueue, AWaiterWhoseAttemptEndedWithoutAnAnswerHoldsNoPlace) {
  Story s;
  s.wants(0, "A", 1);
  s.granted(1, "A", 1);
  s.wants(100, "B", 2);
  s.queued(101, 2);
  s.wants(200, "C", 3);
  s.queued(201, 3);
  // gave up on a timeout, no acquireFailed seen
  s.b.info({.t = 400, .p = "B", .op = 2, .f = "lock"});
  s.releases(1000, "A", 4);
  s.granted(1003, "C", 3);
  const Verdict v = s.judge();
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

TEST(CheckerFairQueue, AnEvictedWaiterThatComesBackQueuesAtTheBack) {
  Story s;
  s.wants(0, "A", 1);
  s.granted(1, "A", 1);
  s.wants(100, "B", 2);
  s.queued(101, 2);
  s.b.fault({.t = 150, .p = "B", .f = "pause", .for_ms = 9850});
  s.wants(200, "C", 3);
  s.queued(201, 3);
  s.releases(5000, "A", 4);
  s.granted(5200, "C", 3);  // B was due for eviction at 5150 ms
  s.wants(7000, "D", 5);
  const int64_t d_enqueued = s.queued(7001, 5);
  s.b.fault({.t = 10000, .p = "B", .f = "resume"});
  const int64_t b_again = s.queued(10010, 2);  // B's retry enqueues it afresh, behind D
  s.releases(11000, "C", 6);
  const int64_t b_granted = s.granted(11003, "B", 2);
  const Verdict v = s.judge();
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kFifoInversion);
  EXPECT_EQ(v.witness, (W{d_enqueued, b_again, b_granted}));
  EXPECT_EQ(v.find("earlier_enqueue")->who, "D:1");
}

TEST(CheckerFairQueue, AnEvictedWaiterThatComesBackAndWaitsItsTurnPasses) {
  Story s;
  s.wants(0, "A", 1);
  s.granted(1, "A", 1);
  s.wants(100, "B", 2);
  s.queued(101, 2);
  s.b.fault({.t = 150, .p = "B", .f = "pause", .for_ms = 9850});
  s.wants(200, "C", 3);
  s.queued(201, 3);
  s.releases(5000, "A", 4);
  s.granted(5200, "C", 3);
  s.wants(7000, "D", 5);
  s.queued(7001, 5);
  s.b.fault({.t = 10000, .p = "B", .f = "resume"});
  s.queued(10010, 2);
  s.releases(11000, "C", 6);
  s.granted(11003, "D", 5);
  s.releases(12000, "D", 7);
  s.granted(12003, "B", 2);
  const Verdict v = s.judge();
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(figure(v, "queue_stays"), 4);  // B twice, C, D
}

// ---------------------------------------------------------------- blocked-by-evicted

TEST(CheckerFairQueue, AWaiterHeldUpByAnEvictedOneIsBlockedByEvicted) {
  int64_t b_enqueued = 0, c_enqueued = 0;
  Story s;
  s.wants(0, "A", 1);
  s.granted(1, "A", 1);
  s.wants(100, "B", 2);
  b_enqueued = s.queued(101, 2);
  const int64_t crash = s.b.fault({.t = 150, .p = "B", .f = "crash"});
  s.wants(200, "C", 3);
  c_enqueued = s.queued(201, 3);
  const int64_t freed = s.releases(1000, "A", 4);
  // Redisson's story: B's timeout was its enqueue + the lock's ttl + threadWaitTime.
  const int64_t c_granted = s.granted(35101, "C", 3);
  const Verdict v = s.judge();
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kBlockedByEvicted);
  EXPECT_EQ(v.witness, (W{b_enqueued, crash, c_enqueued, freed, c_granted}));
  const Evidence* ghost = v.find("ghost_enqueue");
  ASSERT_NE(ghost, nullptr);
  EXPECT_EQ(ghost->who, "B:1");
  EXPECT_EQ(ghost->to_ms, 5150);
  EXPECT_EQ(ghost->number, 5000);
  EXPECT_EQ(v.find("silenced")->event, crash);
  EXPECT_EQ(v.find("free")->event, freed);
  EXPECT_EQ(figure(v, "free_ms"), 29951);
  EXPECT_EQ(figure(v, "blocked_ms"), 29951);
  EXPECT_EQ(
      v.explanation,
      "Let B:1, enqueued for orders at 101 ms, fall silent so that it was due for eviction at 5150 ms (thread "
      "wait 5000 ms). Then C:1 enqueued for orders at 201 ms and waited until it was granted at 35101 ms, while "
      "the lock was free for 29951 ms of it (grace 500 ms); 29951 ms of that came after B:1 was due for eviction.");
}

// The silence that evicts B began before B asked (a partition a recorded history shows from 50 ms,
// B's request reaching the server all the same): the fault is the evidence, and a stream, which has
// dropped its event by the time B is judged, kept it as it went by.
TEST(CheckerFairQueue, ASilenceBegunBeforeTheWaiterAskedIsItsEvidence) {
  Story s;
  s.wants(0, "A", 1);
  s.granted(1, "A", 1);
  const int64_t partition = s.b.fault({.t = 50, .p = "B", .f = "partition", .for_ms = 60000});
  // D works meanwhile: events enough that a stream drops the partition's before B's (by the 128).
  for (int64_t i = 0; i < 200; ++i) {
    s.b.invoke({.t = 51 + i / 5, .p = "D", .op = 100 + i, .f = "work"});
    s.b.ok({.t = 51 + i / 5, .p = "D", .op = 100 + i, .f = "work"});
  }
  s.wants(100, "B", 2);
  s.queued(101, 2);
  s.wants(200, "C", 3);
  s.queued(201, 3);
  s.releases(1000, "A", 4);
  s.granted(35101, "C", 3);
  const Verdict v = s.judge();
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kBlockedByEvicted);
  ASSERT_NE(v.find("silenced"), nullptr);
  EXPECT_EQ(v.find("silenced")->event, partition);
}

TEST(CheckerFairQueue, TryLockWaitReplacesTheThreadWaitWhenAsked) {
  // B's tryLock(60 s) makes its thread wait 60 s (Redisson 3.13.3+): silent from 150 ms, it is not
  // due for eviction at 35101 ms, so C was granted past a live waiter; with the plain 5 s, B was a
  // ghost from 5150 ms and C was held up behind it.
  Story s;
  s.wants(0, "A", 1);
  s.granted(1, "A", 1);
  s.wants(100, "B", 2, "try_lock", 60000);
  const int64_t b_enqueued = s.queued(101, 2);
  s.b.fault({.t = 150, .p = "B", .f = "crash"});
  s.wants(200, "C", 3);
  s.queued(201, 3);
  s.releases(1000, "A", 4);
  s.granted(35101, "C", 3);
  FairQueueOptions replaces;
  replaces.try_wait_replaces_thread_wait = true;
  const Verdict with = s.judge(replaces);
  ASSERT_EQ(with.valid, Validity::No);
  EXPECT_EQ(with.anomaly, anomaly::kFifoInversion);
  EXPECT_EQ(with.find("earlier_enqueue")->event, b_enqueued);
  EXPECT_EQ(figure(with, "thread_wait_ms"), 60000);
  const Verdict without = s.judge();
  EXPECT_EQ(without.anomaly, anomaly::kBlockedByEvicted);
}

// ---------------------------------------------------------------- starved

TEST(CheckerFairQueue, ALiveWaiterKeptWaitingOnAFreeLockIsStarved) {
  Story s;
  s.wants(0, "A", 1);
  s.granted(1, "A", 1);
  s.wants(100, "B", 2);
  const int64_t b_enqueued = s.queued(101, 2);
  const int64_t freed = s.releases(1000, "A", 4);
  const int64_t b_granted = s.granted(3000, "B", 2);  // its wake-up message was lost, say
  const Verdict v = s.judge();
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kStarved);
  EXPECT_EQ(v.witness, (W{b_enqueued, freed, b_granted}));
  EXPECT_EQ(v.find("enqueue")->who, "B:1");
  EXPECT_EQ(v.find("enqueue")->state, "granted");
  EXPECT_EQ(v.find("closing")->event, b_granted);
  EXPECT_EQ(v.find("ghost_enqueue"), nullptr);
  EXPECT_EQ(v.explanation,
            "Let B:1 be a live waiter. Then B:1 enqueued for orders at 101 ms and waited until it was granted at "
            "3000 ms, while the lock was free for 1999 ms of it (grace 500 ms).");
}

TEST(CheckerFairQueue, TheFirstSilenceOfAWaiterAheadIsNotCountedAgainstTheLock) {
  // B, ahead of C, is paused 150..3150 ms and then takes the lock at 3200 ms; the lock was free
  // from 1001 ms, but for C only the 50 ms after B was back count (and for B, its own 50 ms).
  Story s;
  s.wants(0, "A", 1);
  s.granted(1, "A", 1);
  s.wants(100, "B", 2);
  s.queued(101, 2);
  s.b.fault({.t = 150, .p = "B", .f = "pause", .for_ms = 3000});
  s.wants(200, "C", 3);
  s.queued(201, 3);
  s.releases(1000, "A", 4);
  s.b.fault({.t = 3150, .p = "B", .f = "resume"});
  s.granted(3200, "B", 2);
  s.releases(3300, "B", 5);
  s.granted(3303, "C", 3);
  EXPECT_EQ(s.judge().valid, Validity::Yes) << s.judge().explanation;
  FairQueueOptions strict;
  strict.grace_ms = 50;
  const Verdict v = s.judge(strict);
  ASSERT_EQ(v.valid, Validity::No) << "B's 50 ms reach a 50 ms grace";
  EXPECT_EQ(v.anomaly, anomaly::kStarved);
  EXPECT_EQ(v.find("enqueue")->who, "B:1");
  EXPECT_EQ(figure(v, "free_ms"), 50);
}

TEST(CheckerFairQueue, ALockNobodyEverHeldIsJudgedToo) {
  // The hash was never there, yet B was told to wait (a queue left over from before the history).
  Story s;
  s.wants(100, "B", 1);
  const int64_t b_enqueued = s.queued(101, 1, 5000);
  const int64_t b_granted = s.granted(6000, "B", 1);
  const Verdict v = s.judge();
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kStarved);
  EXPECT_EQ(v.witness, (W{b_enqueued, b_granted}));
  EXPECT_EQ(figure(v, "free_ms"), 5899);
  const Evidence* free = v.find("free");
  ASSERT_NE(free, nullptr);
  EXPECT_EQ(free->where, "redis0/orders");
  EXPECT_EQ(free->state, "open");
}

// Nobody waited in the queue, so there is no order to keep: nothing to judge, not "holds".
TEST(CheckerFairQueue, ALockGrantedAtOnceHasNothingToJudge) {
  Story s;
  s.wants(100, "B", 1);
  s.granted(101, "B", 1);
  const Verdict v = s.judge();
  EXPECT_EQ(v.valid, Validity::Unknown) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kNothingToJudge);
  EXPECT_EQ(v.explanation, "no waiter stayed in the lock's queue: nothing to judge");
}

}  // namespace
}  // namespace locksim::model
