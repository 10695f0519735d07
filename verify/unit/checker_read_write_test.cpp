#include <gtest/gtest.h>

#include "model/anomaly.hpp"
#include "model/checkers.hpp"
#include "model/read_write.hpp"
#include "verify/unit/checker_history_builder.hpp"

namespace locksim::model {
namespace {

using test::HistoryBuilder;
using W = std::vector<int64_t>;

TEST(CheckerReadWrite, ReadersShareAndWritersFollowInTurn) {
  HistoryBuilder b;
  b.hold(100, "A", 1, "orders:read", 1);
  b.hold(110, "B", 1, "orders:read", 1);  // readers overlap: fine
  b.hold(120, "B", 1, "orders:read", 2);
  b.release(200, "A", 1, "orders:read", 0);
  b.release(210, "B", 1, "orders:read", 1);
  b.release(220, "B", 1, "orders:read", 0);
  b.hold(220, "C", 1, "orders:write", 1);  // the same ms, recorded after the last reader left
  b.release(300, "C", 1, "orders:write", 0);
  b.hold(300, "A", 1, "orders:write", 1);
  b.release(400, "A", 1, "orders:write", 0);
  const Verdict v = check_read_write(b.history());
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(v.property, "read_write");
  EXPECT_EQ(v.explanation, "2 write and 2 read holding intervals on 1 read-write locks, no writer overlapping another holder");
}

TEST(CheckerReadWrite, AWriterMayAlsoReadAndOtherNamesAndLocksAreIndependent) {
  HistoryBuilder b;
  b.hold(100, "A", 1, "orders:write", 1);
  b.hold(110, "A", 1, "orders:read", 1);   // the writer's own read lock, as Redisson allows
  b.hold(120, "B", 1, "stock:write", 1);   // another read-write lock
  b.hold(130, "C", 1, "orders", 1);        // a plain lock of the same name is not judged
  b.hold(140, "D", 1, "orders:read:x", 1);  // nor a lock that only contains ":read"
  b.release(150, "A", 1, "orders:write", 0);
  b.hold(160, "B", 1, "orders:read", 1);   // A now only reads
  const Verdict v = check_read_write(b.history());
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

TEST(CheckerReadWrite, AReaderWhileAnotherOwnerWritesIsAReadWriteOverlap) {
  HistoryBuilder b;
  const int64_t w = b.hold(100, "A", 1, "orders:write", 1);
  b.fault(150, "A", "pause", 20000);
  const int64_t r = b.hold(31000, "B", 2, "orders:read", 1);
  const int64_t rel = b.release(40000, "A", 1, "orders:write", 0);
  const Verdict v = check_read_write(b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kReadWriteOverlap);
  EXPECT_EQ(v.witness, (W{w, r, rel}));
  EXPECT_EQ(v.explanation,
            "Let A:1 hold orders:write from 100 ms. Then B:2 acquired orders:read at 31000 ms while A:1 still "
            "believed it held orders:write (until 40000 ms).");
}

TEST(CheckerReadWrite, AWriterWhileAnotherOwnerReadsIsAReadWriteOverlap) {
  HistoryBuilder b;
  b.hold(50, "C", 1, "orders:read", 1);
  b.release(60, "C", 1, "orders:read", 0);
  const int64_t r1 = b.hold(100, "A", 1, "orders:read", 1);
  b.hold(110, "B", 1, "orders:read", 1);
  const int64_t w = b.hold(200, "D", 1, "orders:write", 1);
  const Verdict v = check_read_write(b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kReadWriteOverlap);
  EXPECT_EQ(v.witness, (W{r1, w}));  // the earliest open reader; A never released
  EXPECT_NE(v.explanation.find("(until the end of the history)"), std::string::npos) << v.explanation;
}

TEST(CheckerReadWrite, TwoWritersAreAWriteOverlapEvenWhileReadersAreOpen) {
  HistoryBuilder b;
  const int64_t w1 = b.hold(100, "A", 1, "orders:write", 1);
  b.hold(110, "A", 1, "orders:read", 1);
  const int64_t w2 = b.hold(200, "B", 1, "orders:write", 1);
  const int64_t rel = b.release(300, "A", 1, "orders:write", 0);
  const Verdict v = check_read_write(b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kWriteOverlap);
  EXPECT_EQ(v.witness, (W{w1, w2, rel}));
}

TEST(CheckerReadWrite, AReentryOrAPartialReleaseKeepsTheIntervalOpen) {
  HistoryBuilder b;
  const int64_t w = b.hold(100, "A", 1, "orders:write", 1);
  b.hold(110, "A", 1, "orders:write", 2);
  b.release(120, "A", 1, "orders:write", 1);
  const int64_t r = b.hold(130, "B", 1, "orders:read", 1);
  const Verdict v = check_read_write(b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kReadWriteOverlap);
  EXPECT_EQ(v.witness, (W{w, r}));
}

TEST(CheckerReadWrite, ACrashEndsTheInterval) {
  HistoryBuilder b;
  b.hold(100, "A", 1, "orders:write", 1);
  b.fault(1000, "A", "crash");
  b.release(1000, "A", 1, "orders:write", 0, "crash");
  b.hold(31000, "B", 1, "orders:read", 1);
  EXPECT_EQ(check_read_write(b.history()).valid, Validity::Yes);
  EXPECT_EQ(run_checkers(b.history(), {"read_write"}).at(0).valid, Validity::Yes);
}

}  // namespace
}  // namespace locksim::model
