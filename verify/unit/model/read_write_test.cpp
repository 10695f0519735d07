#include "model/read_write.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "model/anomaly.hpp"
#include "model/checkers.hpp"
#include "model/facts.hpp"
#include "model/lock_types.hpp"
#include "verify/unit/model/evidence.hpp"
#include "verify/unit/model/history_builder.hpp"
#include "verify/unit/model/streamed.hpp"

namespace locksim::model {
namespace {

using test::evidence;
using test::expect_evidence;
using test::HistoryBuilder;
using test::Want;
using W = std::vector<int64_t>;

// The checker on `b`'s history, its facts worked out for the lock type `type` ("" for an unknown one).
Verdict check(const HistoryBuilder& b, const char* type = "rwlock") {
  const Facts facts(b.history(), find_lock_type(type));
  return test::streamed_alike(b.history(), "read_write", test::options_for(type), check_read_write(facts));
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
  b.invoke({.t = t, .p = process, .op = op, .f = "lock", .lock = lock});
  Step s;
  s.exec = b.exec({.t = t + 1,
                   .op = op,
                   .f = "acquire",
                   .reply = "nil",
                   .before = before,
                   .after = after,
                   .ttl = 30000,
                   .sent = t});
  b.ok({.t = t + 2, .p = process, .op = op, .f = "lock", .lock = lock});
  s.event = b.hold({.t = t + 2, .p = process, .lock = lock, .depth = depth, .op = op});
  return s;
}

// An unlock of `lock` by process:1 that takes effect: Invoke and Release at t, Exec at t+1, Ok at t+2.
Step unlocked(HistoryBuilder& b, int64_t t, const std::string& process, int64_t op, const std::string& lock,
              int64_t depth_after, const std::string& before, const std::string& after) {
  b.invoke({.t = t, .p = process, .op = op, .f = "unlock", .lock = lock});
  Step s;
  s.event = b.release({.t = t, .p = process, .lock = lock, .depth = depth_after, .op = op});
  s.exec = b.exec({.t = t + 1,
                   .op = op,
                   .f = "unlock",
                   .reply = depth_after == 0 ? "1" : "0",
                   .before = before,
                   .after = after,
                   .ttl = after.empty() ? -2 : 30000,
                   .sent = t});
  b.ok({.t = t + 2, .p = process, .op = op, .f = "unlock", .lock = lock, .value = depth_after == 0 ? 1 : 0});
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
  EXPECT_EQ(v.explanation,
            "2 write and 2 read holding intervals on 1 read-write lock, no writer overlapping another holder");
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
  EXPECT_EQ(v.explanation,
            "1 write and 2 read holding intervals on 1 read-write lock, no writer overlapping another holder");
}

TEST(CheckerReadWrite, LocksOfOtherNamesAreJudgedApartOrIgnored) {
  HistoryBuilder b;
  b.hold({.t = 100, .p = "A", .lock = "orders:write", .depth = 1});
  b.hold({.t = 120, .p = "B", .lock = "stock:write", .depth = 1});    // another read-write lock
  b.hold({.t = 130, .p = "C", .depth = 1});                           // a plain lock of the same name is not judged
  b.hold({.t = 140, .p = "D", .lock = "orders:read:x", .depth = 1});  // nor a lock that only contains ":read"
  b.hold({.t = 150, .p = "E", .lock = ":write", .depth = 1});         // nor a side without a name
  const Verdict v = check(b, "");
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(v.explanation,
            "2 write and 0 read holding intervals on 2 read-write locks, no writer overlapping another holder");
}

// A takes the write side with a lease of 10000 ms and works 15000 ms; its hold expires at 10100;
// B takes a side at 11000. With `unlock_first`, A's unlock begins at 10500, before B comes.
struct LongJob {
  HistoryBuilder b;
  int64_t a_grant = -1, a_hold = -1, expired = -1, b_grant = -1, b_hold = -1, a_release = -1;

  LongJob(const std::string& b_side, bool unlock_first) {
    b.invoke({.t = 0, .p = "A", .op = 1, .f = "lock", .lock = "orders:write", .lease_ms = 10000});
    b.key({.t = 2, .f = "created"});
    b.key({.t = 2, .f = "expire_set", .value = 10002});
    a_grant = b.exec(
        {.t = 2, .op = 1, .f = "acquire", .reply = "nil", .after = "A:1:write=1,mode=write", .ttl = 10000, .sent = 0});
    b.ok({.t = 4, .p = "A", .op = 1, .f = "lock", .lock = "orders:write"});
    a_hold = b.hold({.t = 4, .p = "A", .lock = "orders:write", .depth = 1, .lease_ms = 10000, .op = 1});
    b.invoke({.t = 4, .p = "A", .op = 2, .f = "work", .lock = ""});
    expired = b.key({.t = 10100, .f = "expired", .value = 10002});
    const int64_t end_of_work = unlock_first ? 10500 : 15004;
    if (unlock_first) b.ok({.t = end_of_work, .p = "A", .op = 2, .f = "work", .lock = "", .value = 15000});
    if (unlock_first) a_release = a_unlock(end_of_work, "");
    const bool write = b_side == "write";
    b.invoke(
        {.t = 11000, .p = "B", .op = 4, .f = "try_lock", .lock = "orders:" + b_side, .wait_ms = 0, .lease_ms = 10000});
    b.key({.t = 11002, .f = "created"});
    if (!write) b.key({.t = 11002, .lock = "{orders}:B:1:rwlock_timeout:1", .f = "created"});
    b.key({.t = 11002, .f = "expire_set", .value = 21002});
    const std::string field = write ? "B:1:write=1,mode=write" : "B:1=1,mode=read";
    b_grant =
        b.exec({.t = 11002, .op = 4, .f = "acquire", .reply = "nil", .after = field, .ttl = 10000, .sent = 11000});
    b.ok({.t = 11004, .p = "B", .op = 4, .f = "try_lock", .lock = "orders:" + b_side});
    b_hold = b.hold({.t = 11004, .p = "B", .lock = "orders:" + b_side, .depth = 1, .lease_ms = 10000, .op = 4});
    if (!unlock_first) b.ok({.t = end_of_work, .p = "A", .op = 2, .f = "work", .lock = "", .value = 15000});
    if (!unlock_first) a_release = a_unlock(end_of_work, field);
  }

  // A's unlock at t, finding the hash as `now` (its own hold long gone).
  int64_t a_unlock(int64_t t, const std::string& now) {
    b.invoke({.t = t, .p = "A", .op = 3, .f = "unlock", .lock = "orders:write"});
    const int64_t release = b.release({.t = t, .p = "A", .lock = "orders:write", .depth = 0, .op = 3});
    b.exec({.t = t + 1,
            .op = 3,
            .f = "unlock",
            .reply = "nil",
            .before = now,
            .after = now,
            .ttl = now.empty() ? -2 : 21002 - (t + 1),
            .sent = t});
    b.fail(
        {.t = t + 2, .p = "A", .op = 3, .f = "unlock", .lock = "orders:write", .text = "IllegalMonitorStateException"});
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
  const Step d =
      granted(b, 200, "D", 5, "orders:write", 1, "A:1=1,B:1=1,mode=read", "A:1=1,B:1=1,D:1:write=1,mode=write");
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
  b.invoke({.t = 0, .p = "A", .op = 1, .f = "lock", .lock = "orders:write"});
  b.key({.t = 2, .f = "created"});
  const int64_t a_grant = b.exec(
      {.t = 2, .op = 1, .f = "acquire", .reply = "nil", .after = "A:1:write=1,mode=write", .ttl = 30000, .sent = 0});
  b.ok({.t = 4, .p = "A", .op = 1, .f = "lock", .lock = "orders:write"});
  const int64_t a_hold = b.hold({.t = 4, .p = "A", .lock = "orders:write", .depth = 1, .op = 1});
  // the replica had not seen A's hold
  const int64_t failover = b.fault({.t = 500, .p = "redis0", .f = "failover", .value = 1000});
  b.invoke({.t = 1000, .p = "B", .op = 2, .f = "lock", .lock = "orders:write"});
  b.key({.t = 1002, .f = "created"});
  const int64_t b_grant = b.exec({.t = 1002,
                                  .op = 2,
                                  .f = "acquire",
                                  .reply = "nil",
                                  .after = "B:1:write=1,mode=write",
                                  .ttl = 30000,
                                  .sent = 1000});
  b.ok({.t = 1004, .p = "B", .op = 2, .f = "lock", .lock = "orders:write"});
  const int64_t b_hold = b.hold({.t = 1004, .p = "B", .lock = "orders:write", .depth = 1, .op = 2});
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
  const int64_t w1 = b.hold({.t = 100, .p = "A", .lock = "orders:write", .depth = 1});
  b.hold({.t = 110, .p = "A", .lock = "orders:read", .depth = 1});
  const int64_t w2 = b.hold({.t = 200, .p = "B", .lock = "orders:write", .depth = 1});
  const int64_t rel = b.release({.t = 300, .p = "A", .lock = "orders:write", .depth = 0});
  const Verdict v = check(b, "");
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kWriteOverlap);
  EXPECT_EQ(v.witness, (W{w1, w2, rel}));
  EXPECT_EQ(evidence(v, "first_hold").where, "orders:write");
}

TEST(CheckerReadWrite, AReentryOrAPartialReleaseKeepsTheIntervalOpen) {
  HistoryBuilder b;
  const int64_t w = b.hold({.t = 100, .p = "A", .lock = "orders:write", .depth = 1});
  b.hold({.t = 110, .p = "A", .lock = "orders:write", .depth = 2});
  b.release({.t = 120, .p = "A", .lock = "orders:write", .depth = 1});
  const int64_t r = b.hold({.t = 130, .p = "B", .lock = "orders:read", .depth = 1});
  const Verdict v = check(b, "");
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kReadWriteOverlap);
  EXPECT_EQ(v.witness, (W{w, r}));
}

TEST(CheckerReadWrite, AtOneMillisecondTheRecordedOrderDecides) {
  {
    HistoryBuilder b;
    b.hold({.t = 100, .p = "A", .lock = "orders:read", .depth = 1});
    b.release({.t = 500, .p = "A", .lock = "orders:read", .depth = 0});
    b.hold({.t = 500, .p = "B", .lock = "orders:write", .depth = 1});
    const Verdict v = check(b, "");
    EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  }
  {
    HistoryBuilder b;
    const int64_t r = b.hold({.t = 100, .p = "A", .lock = "orders:read", .depth = 1});
    const int64_t w = b.hold({.t = 500, .p = "B", .lock = "orders:write", .depth = 1});
    const int64_t rel = b.release({.t = 500, .p = "A", .lock = "orders:read", .depth = 0});
    const Verdict v = check(b, "");
    ASSERT_EQ(v.valid, Validity::No);
    EXPECT_EQ(v.anomaly, anomaly::kReadWriteOverlap);
    EXPECT_EQ(v.witness, (W{r, w, rel}));
  }
}

TEST(CheckerReadWrite, ACrashEndsTheInterval) {
  HistoryBuilder b;
  b.hold({.t = 100, .p = "A", .lock = "orders:write", .depth = 1});
  b.fault({.t = 1000, .p = "A", .f = "crash"});
  b.release({.t = 1000, .p = "A", .lock = "orders:write", .depth = 0, .f = "crash"});
  b.hold({.t = 31000, .p = "B", .lock = "orders:read", .depth = 1});
  EXPECT_EQ(check(b).valid, Validity::Yes);
  CheckerOptions options;
  options.lock_type = "rwlock";
  EXPECT_EQ(run_checkers(b.history(), {"read_write"}, options).at(0).valid, Validity::Yes);
}

}  // namespace
}  // namespace locksim::model
