#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "model/anomaly.hpp"
#include "model/checkers.hpp"
#include "model/facts.hpp"
#include "model/lock_types.hpp"
#include "model/read_write.hpp"
#include "verify/unit/model/evidence.hpp"
#include "verify/unit/model/history_builder.hpp"

namespace locksim::model {
namespace {

using test::HistoryBuilder;
using test::evidence;
using test::expect_evidence;
using test::Want;
using W = std::vector<int64_t>;

// The checker on `b`'s history, its facts worked out for the lock type `type` ("" for an unknown one).
Verdict check(const HistoryBuilder& b, const char* type = "rwlock") {
  const Facts facts(b.history(), find_lock_type(type));
  return check_read_write(facts);
}




// Redisson's ReadWriteLock "orders" as the world records it: the sides are the locks "orders:read"
// and "orders:write", every execution runs on the one hash "orders" (a reader's field "A:1", a
// writer's "A:1:write", and the mode).
struct Step {
  int64_t exec = -1;
  int64_t event = -1;  // the Hold of an acquire, the Release of an unlock
};

// An acquire of `lock` by process:1 that the server grants: Invoke at t, Exec at t+1, Ok and Hold at t+2.
Step granted(HistoryBuilder& b, int64_t t, const std::string& process, int64_t op, const std::string& lock,
             int64_t depth, const std::string& before, const std::string& after) {
  b.invoke(t, process, 1, op, "lock", lock);
  Step s;
  s.exec = b.exec(t + 1, 1, op, "orders", "acquire", "nil", before, after, "redis0", 30000, "", t);
  b.ok(t + 2, process, 1, op, "lock", lock);
  s.event = b.hold(t + 2, process, 1, lock, depth, -1, op);
  return s;
}

// An unlock of `lock` by process:1 that takes effect: Invoke and Release at t, Exec at t+1, Ok at t+2.
Step unlocked(HistoryBuilder& b, int64_t t, const std::string& process, int64_t op, const std::string& lock,
              int64_t depth_after, const std::string& before, const std::string& after) {
  b.invoke(t, process, 1, op, "unlock", lock);
  Step s;
  s.event = b.release(t, process, 1, lock, depth_after, "unlock", op);
  s.exec = b.exec(t + 1, 1, op, "orders", "unlock", depth_after == 0 ? "1" : "0", before, after, "redis0",
                  after.empty() ? -2 : 30000, "", t);
  b.ok(t + 2, process, 1, op, "unlock", lock, depth_after == 0 ? 1 : 0);
  return s;
}

TEST(CheckerReadWrite, ReadersShareAndWritersFollowInTurn) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders:read", 1, "", "A:1=1,mode=read");
  granted(b, 110, "B", 2, "orders:read", 1, "A:1=1,mode=read", "A:1=1,B:1=1,mode=read");  // readers share
  granted(b, 120, "B", 3, "orders:read", 2, "A:1=1,B:1=1,mode=read", "A:1=1,B:1=2,mode=read");
  unlocked(b, 200, "A", 4, "orders:read", 0, "A:1=1,B:1=2,mode=read", "B:1=2,mode=read");
  unlocked(b, 210, "B", 5, "orders:read", 1, "B:1=2,mode=read", "B:1=1,mode=read");
  unlocked(b, 220, "B", 6, "orders:read", 0, "B:1=1,mode=read", "");
  granted(b, 230, "C", 7, "orders:write", 1, "", "C:1:write=1,mode=write");
  unlocked(b, 300, "C", 8, "orders:write", 0, "C:1:write=1,mode=write", "");
  granted(b, 310, "A", 9, "orders:write", 1, "", "A:1:write=1,mode=write");
  unlocked(b, 400, "A", 10, "orders:write", 0, "A:1:write=1,mode=write", "");
  const Verdict v = check(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(v.property, "read_write");
  EXPECT_TRUE(v.witness.empty());
  // B's re-entry and partial release keep one interval: reads A, B; writes C, A.
  EXPECT_EQ(v.explanation, "2 write and 2 read holding intervals on 1 read-write locks, no writer overlapping another holder");
}

TEST(CheckerReadWrite, AWriterReadingItsOwnLockHolds) {
  HistoryBuilder b;
  granted(b, 100, "A", 1, "orders:write", 1, "", "A:1:write=1,mode=write");
  // Redisson lets the writer take the read lock too.
  granted(b, 110, "A", 2, "orders:read", 1, "A:1:write=1,mode=write", "A:1:write=1,A:1=1,mode=write");
  unlocked(b, 200, "A", 3, "orders:write", 0, "A:1:write=1,A:1=1,mode=write", "A:1=1,mode=read");
  granted(b, 210, "B", 4, "orders:read", 1, "A:1=1,mode=read", "A:1=1,B:1=1,mode=read");  // A now only reads
  const Verdict v = check(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(v.explanation, "1 write and 2 read holding intervals on 1 read-write locks, no writer overlapping another holder");
}

TEST(CheckerReadWrite, LocksOfOtherNamesAreJudgedApartOrIgnored) {
  HistoryBuilder b;
  b.hold(100, "A", 1, "orders:write", 1);
  b.hold(120, "B", 1, "stock:write", 1);    // another read-write lock
  b.hold(130, "C", 1, "orders", 1);         // a plain lock of the same name is not judged
  b.hold(140, "D", 1, "orders:read:x", 1);  // nor a lock that only contains ":read"
  b.hold(150, "E", 1, ":write", 1);         // nor a side without a name
  const Verdict v = check(b, "");
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(v.explanation, "2 write and 0 read holding intervals on 2 read-write locks, no writer overlapping another holder");
}

// A takes the write side with a lease of 10000 ms and works 15000 ms; its hold expires at 10100;
// B takes a side at 11000. With `unlock_first`, A's unlock begins at 10500, before B comes.
struct LongJob {
  HistoryBuilder b;
  int64_t a_grant = -1, a_hold = -1, expired = -1, b_grant = -1, b_hold = -1, a_release = -1;

  LongJob(const std::string& b_side, bool unlock_first) {
    b.invoke(0, "A", 1, 1, "lock", "orders:write", -1, 10000);
    b.key(2, "orders", "created");
    b.key(2, "orders", "expire_set", 10002);
    a_grant = b.exec(2, 1, 1, "orders", "acquire", "nil", "", "A:1:write=1,mode=write", "redis0", 10000, "", 0);
    b.ok(4, "A", 1, 1, "lock", "orders:write");
    a_hold = b.hold(4, "A", 1, "orders:write", 1, 10000, 1);
    b.invoke(4, "A", 1, 2, "work", "");
    expired = b.key(10100, "orders", "expired", 10002);
    const int64_t end_of_work = unlock_first ? 10500 : 15004;
    if (unlock_first) b.ok(end_of_work, "A", 1, 2, "work", "", 15000);
    if (unlock_first) a_release = a_unlock(end_of_work, "");
    const bool write = b_side == "write";
    b.invoke(11000, "B", 1, 4, "try_lock", "orders:" + b_side, 0, 10000);
    b.key(11002, "orders", "created");
    if (!write) b.key(11002, "{orders}:B:1:rwlock_timeout:1", "created");
    b.key(11002, "orders", "expire_set", 21002);
    const std::string field = write ? "B:1:write=1,mode=write" : "B:1=1,mode=read";
    b_grant = b.exec(11002, 1, 4, "orders", "acquire", "nil", "", field, "redis0", 10000, "", 11000);
    b.ok(11004, "B", 1, 4, "try_lock", "orders:" + b_side);
    b_hold = b.hold(11004, "B", 1, "orders:" + b_side, 1, 10000, 4);
    if (!unlock_first) b.ok(end_of_work, "A", 1, 2, "work", "", 15000);
    if (!unlock_first) a_release = a_unlock(end_of_work, field);
  }

  // A's unlock at t, finding the hash as `now` (its own hold long gone).
  int64_t a_unlock(int64_t t, const std::string& now) {
    b.invoke(t, "A", 1, 3, "unlock", "orders:write");
    const int64_t release = b.release(t, "A", 1, "orders:write", 0, "unlock", 3);
    b.exec(t + 1, 1, 3, "orders", "unlock", "nil", now, now, "redis0", now.empty() ? -2 : 21002 - (t + 1), "", t);
    b.fail(t + 2, "A", 1, 3, "unlock", "orders:write", "IllegalMonitorStateException");
    return release;
  }
};

TEST(CheckerReadWrite, AReaderLetInAfterTheWritersHoldExpiredIsAReadWriteOverlap) {
  const LongJob h("read", /*unlock_first=*/false);
  const Verdict v = check(h.b);
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.property, "read_write");
  EXPECT_EQ(v.anomaly, anomaly::kReadWriteOverlap);
  EXPECT_EQ(v.witness, (W{h.a_grant, h.a_hold, h.expired, h.b_grant, h.b_hold, h.a_release}));
  expect_evidence(v, "first_hold", {h.a_hold, 4, "A:1", "orders:write", "unlocked", 10000});
  EXPECT_EQ(evidence(v, "first_hold").end_event, h.a_release);
  expect_evidence(v, "second_hold", {h.b_hold, 11004, "B:1", "orders:read", "lock", 1});
  expect_evidence(v, "first_grant", {h.a_grant, 2, "redis0", "redis0/orders", "nil", 2});
  expect_evidence(v, "second_grant", {h.b_grant, 11002, "redis0", "redis0/orders", "nil", 2});
  expect_evidence(v, "first_claim", {h.expired, 10002, "A:1", "redis0/orders", "expired", 0});
  EXPECT_EQ(v.explanation,
            "Let A:1 hold orders:write from 4 ms (its acquire ran on redis0 at 2 ms; the reply reached it 2 ms later). "
            "Then B:1 acquired orders:read at 11004 ms (its acquire ran on redis0 at 11002 ms; the reply reached "
            "it 2 ms later) while A:1 still believed it held orders:write (until 15004 ms); in redis0/orders, A:1's "
            "hold had expired at 10002 ms.");
}

TEST(CheckerReadWrite, ASecondWriterLetInAfterTheFirstsHoldExpiredIsAWriteOverlap) {
  const LongJob h("write", /*unlock_first=*/false);
  const Verdict v = check(h.b);
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kWriteOverlap);
  EXPECT_EQ(v.witness, (W{h.a_grant, h.a_hold, h.expired, h.b_grant, h.b_hold, h.a_release}));
  expect_evidence(v, "second_hold", {h.b_hold, 11004, "B:1", "orders:write", "lock", 1});
  expect_evidence(v, "first_claim", {h.expired, 10002, "A:1", "redis0/orders", "expired", 0});
  EXPECT_EQ(v.explanation,
            "Let A:1 hold orders:write from 4 ms (its acquire ran on redis0 at 2 ms; the reply reached it 2 ms later). "
            "Then B:1 acquired orders:write at 11004 ms (its acquire ran on redis0 at 11002 ms; the reply reached "
            "it 2 ms later) while A:1 still believed it held orders:write (until 15004 ms); in redis0/orders, A:1's "
            "hold had expired at 10002 ms.");
}

TEST(CheckerReadWrite, AWriterWhoseUnlockBeganBeforeTheNextHolderCameOverlapsNobody) {
  for (const char* side : {"read", "write"}) {
    SCOPED_TRACE(side);
    const LongJob h(side, /*unlock_first=*/true);
    const Verdict v = check(h.b);
    EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  }
}

TEST(CheckerReadWrite, AWriterLetInBesideOpenReadersOverlapsTheEarliestOfThem) {
  HistoryBuilder b;
  granted(b, 50, "C", 1, "orders:read", 1, "", "C:1=1,mode=read");
  unlocked(b, 60, "C", 2, "orders:read", 0, "C:1=1,mode=read", "");  // gone before the writer comes
  const Step a = granted(b, 100, "A", 3, "orders:read", 1, "", "A:1=1,mode=read");
  granted(b, 110, "B", 4, "orders:read", 1, "A:1=1,mode=read", "A:1=1,B:1=1,mode=read");
  // A planted write script that lets D in beside the readers.
  const Step d = granted(b, 200, "D", 5, "orders:write", 1, "A:1=1,B:1=1,mode=read",
                         "A:1=1,B:1=1,D:1:write=1,mode=write");
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kReadWriteOverlap);
  EXPECT_EQ(v.witness, (W{a.exec, a.event, d.exec, d.event}));
  expect_evidence(v, "first_hold", {a.event, 102, "A:1", "orders:read", "open", -1});
  expect_evidence(v, "second_hold", {d.event, 202, "D:1", "orders:write", "lock", 1});
  expect_evidence(v, "first_grant", {a.exec, 101, "redis0", "redis0/orders", "nil", 1});
  expect_evidence(v, "second_grant", {d.exec, 201, "redis0", "redis0/orders", "nil", 1});
  const Evidence* claim = v.find("first_claim");
  ASSERT_NE(claim, nullptr) << v.explanation;
  EXPECT_EQ(claim->state, "held");
  EXPECT_EQ(claim->who, "A:1");
  EXPECT_EQ(claim->where, "redis0/orders");
  EXPECT_NE(v.explanation.find("in redis0/orders, A:1's hold was still there."), std::string::npos) << v.explanation;
}

TEST(CheckerReadWrite, ASecondWriterLetInAfterAFailoverLostTheFirstsHoldIsAWriteOverlap) {
  HistoryBuilder b;
  b.invoke(0, "A", 1, 1, "lock", "orders:write");
  b.key(2, "orders", "created");
  const int64_t a_grant = b.exec(2, 1, 1, "orders", "acquire", "nil", "", "A:1:write=1,mode=write", "redis0", 30000, "", 0);
  b.ok(4, "A", 1, 1, "lock", "orders:write");
  const int64_t a_hold = b.hold(4, "A", 1, "orders:write", 1, -1, 1);
  const int64_t failover = b.fault(500, "redis0", "failover", 1000);  // the replica had not seen A's hold
  b.invoke(1000, "B", 1, 2, "lock", "orders:write");
  b.key(1002, "orders", "created");
  const int64_t b_grant =
      b.exec(1002, 1, 2, "orders", "acquire", "nil", "", "B:1:write=1,mode=write", "redis0", 30000, "", 1000);
  b.ok(1004, "B", 1, 2, "lock", "orders:write");
  const int64_t b_hold = b.hold(1004, "B", 1, "orders:write", 1, -1, 2);
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kWriteOverlap);
  expect_evidence(v, "first_grant", {a_grant, 2, "redis0", "redis0/orders", "nil", 2});
  expect_evidence(v, "second_grant", {b_grant, 1002, "redis0", "redis0/orders", "nil", 2});
  expect_evidence(v, "first_claim", {failover, 500, "redis0 failover", "redis0/orders", "lost", 0});
  EXPECT_EQ(evidence(v, "first_hold").event, a_hold);
  EXPECT_EQ(evidence(v, "second_hold").event, b_hold);
  EXPECT_NE(v.explanation.find("A:1's hold had been lost in the redis0 failover at 500 ms."), std::string::npos)
      << v.explanation;
}

TEST(CheckerReadWrite, TwoWritersAreAWriteOverlapEvenWhileReadersAreOpen) {
  HistoryBuilder b;
  const int64_t w1 = b.hold(100, "A", 1, "orders:write", 1);
  b.hold(110, "A", 1, "orders:read", 1);
  const int64_t w2 = b.hold(200, "B", 1, "orders:write", 1);
  const int64_t rel = b.release(300, "A", 1, "orders:write", 0);
  const Verdict v = check(b, "");
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kWriteOverlap);
  EXPECT_EQ(v.witness, (W{w1, w2, rel}));
  EXPECT_EQ(evidence(v, "first_hold").where, "orders:write");
}

TEST(CheckerReadWrite, AReentryOrAPartialReleaseKeepsTheIntervalOpen) {
  HistoryBuilder b;
  const int64_t w = b.hold(100, "A", 1, "orders:write", 1);
  b.hold(110, "A", 1, "orders:write", 2);
  b.release(120, "A", 1, "orders:write", 1);
  const int64_t r = b.hold(130, "B", 1, "orders:read", 1);
  const Verdict v = check(b, "");
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kReadWriteOverlap);
  EXPECT_EQ(v.witness, (W{w, r}));
}

TEST(CheckerReadWrite, AtOneMillisecondTheRecordedOrderDecides) {
  {
    HistoryBuilder b;
    b.hold(100, "A", 1, "orders:read", 1);
    b.release(500, "A", 1, "orders:read", 0);
    b.hold(500, "B", 1, "orders:write", 1);
    const Verdict v = check(b, "");
    EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  }
  {
    HistoryBuilder b;
    const int64_t r = b.hold(100, "A", 1, "orders:read", 1);
    const int64_t w = b.hold(500, "B", 1, "orders:write", 1);
    const int64_t rel = b.release(500, "A", 1, "orders:read", 0);
    const Verdict v = check(b, "");
    ASSERT_EQ(v.valid, Validity::No);
    EXPECT_EQ(v.anomaly, anomaly::kReadWriteOverlap);
    EXPECT_EQ(v.witness, (W{r, w, rel}));
  }
}

TEST(CheckerReadWrite, ACrashEndsTheInterval) {
  HistoryBuilder b;
  b.hold(100, "A", 1, "orders:write", 1);
  b.fault(1000, "A", "crash");
  b.release(1000, "A", 1, "orders:write", 0, "crash");
  b.hold(31000, "B", 1, "orders:read", 1);
  EXPECT_EQ(check(b).valid, Validity::Yes);
  CheckerOptions options;
  options.lock_type = "rwlock";
  EXPECT_EQ(run_checkers(b.history(), {"read_write"}, options).at(0).valid, Validity::Yes);
}

}  // namespace
}  // namespace locksim::model
