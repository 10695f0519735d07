#include <gtest/gtest.h>

#include "model/anomaly.hpp"
#include "model/watchdog.hpp"
#include "verify/unit/checker_history_builder.hpp"

namespace locksim::model {
namespace {

using test::HistoryBuilder;
using W = std::vector<int64_t>;

bool mentions(const Verdict& v, const std::string& s) { return v.explanation.find(s) != std::string::npos; }

// A renewal as the watchdog sends it: no op, the holder's thread, the key before and after.
int64_t renew(HistoryBuilder& b, int64_t t, int64_t thread, const std::string& field, const std::string& reply = "1") {
  const std::string key = field + "=1";
  return b.exec(t, thread, 0, "orders", "renew", reply, reply == "1" ? key : "", reply == "1" ? key : "");
}

TEST(CheckerWatchdog, RenewedHoldUnlockedCleanlyPasses) {
  HistoryBuilder b;
  b.acquire(100, "A", 1, 1, "orders", 1, "", "A:1=1");
  renew(b, 10100, 1, "A:1");
  renew(b, 20100, 1, "A:1");
  renew(b, 30100, 1, "A:1");
  b.unlock(35000, "A", 1, 2, "orders", 0, "A:1=1", "");
  b.key(35002, "orders", "deleted");
  renew(b, 40100, 1, "A:1", "0");  // a refused renewal after unlock is fine
  const Verdict v = check_watchdog(b.history());
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(v.property, "watchdog");
}

TEST(CheckerWatchdog, ExpiryUnderALiveWatchdogHolderIsALapse) {
  HistoryBuilder b;
  const auto a = b.acquire(100, "A", 1, 1, "orders", 1, "", "A:1=1");
  b.fault(5000, "B", "pause", 1000);  // someone else's fault does not excuse it
  const int64_t expired = b.key(30101, "orders", "expired");
  const Verdict v = check_watchdog(b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kWatchdogLapse);
  EXPECT_EQ(v.witness, (W{a.hold, expired}));
  EXPECT_EQ(v.explanation,
            "Let A:1 hold orders from 102 ms with the watchdog (no lease). Then the key expired on redis0 at "
            "30101 ms while A:1 still believed it held it, with no fault on A or the servers in between.");
}

TEST(CheckerWatchdog, FaultsOnTheHolderOrTheServersExcuseAnExpiry) {
  for (const auto& [process, f] : std::vector<std::pair<std::string, std::string>>{
           {"A", "pause"}, {"A", "partition"}, {"A", "clock_jump"}, {"redis0", "restart"}, {"world", "failover"}}) {
    HistoryBuilder b;
    b.acquire(100, "A", 1, 1, "orders", 1, "", "A:1=1");
    b.fault(5000, process, f);
    b.key(30101, "orders", "expired");
    EXPECT_EQ(check_watchdog(b.history()).valid, Validity::Yes) << process << " " << f;
  }
}

TEST(CheckerWatchdog, ExpiryOfAnExplicitLeaseIsNoLapse) {
  HistoryBuilder b;
  b.acquire(100, "A", 1, 1, "orders", 1, "", "A:1=1", 1000);
  b.key(1101, "orders", "expired");
  EXPECT_EQ(check_watchdog(b.history()).valid, Validity::Yes);
}

TEST(CheckerWatchdog, CrashedHoldersKeyExpiresWithinALease) {
  HistoryBuilder b;
  b.acquire(100, "A", 1, 1, "orders", 1, "", "A:1=1");
  renew(b, 10000, 1, "A:1");
  b.fault(15000, "A", "crash");
  b.release(15000, "A", 1, "orders", 0, "crash");
  b.key(40050, "orders", "expired");
  b.key(50000, "other", "created");
  EXPECT_EQ(check_watchdog(b.history()).valid, Validity::Yes);
}

TEST(CheckerWatchdog, CrashedHoldersKeyOutlivingTheLeaseIsLate) {
  HistoryBuilder b;
  b.acquire(100, "A", 1, 1, "orders", 1, "", "A:1=1");
  const int64_t last = renew(b, 10000, 1, "A:1");
  b.fault(15000, "A", "crash");
  const int64_t crash = b.release(15000, "A", 1, "orders", 0, "crash");
  const int64_t expired = b.key(50000, "orders", "expired");
  const Verdict v = check_watchdog(b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kLateExpiry);
  EXPECT_EQ(v.witness, (W{last, crash, expired}));
  EXPECT_EQ(v.explanation,
            "Let A:1 hold orders with the watchdog; its last renewal was at 10000 ms. Then A crashed at 15000 ms, "
            "so the key should have gone by 40100 ms (30000 ms lease + 100 ms slack), but it went only at "
            "50000 ms.");
}

TEST(CheckerWatchdog, KeyLeftForeverAfterACrashIsLateOnceTheDeadlinePassed) {
  HistoryBuilder b;
  const auto a = b.acquire(100, "A", 1, 1, "orders", 1, "", "A:1=1");
  b.fault(1000, "A", "crash");
  const int64_t crash = b.release(1000, "A", 1, "orders", 0, "crash");
  b.key(30000, "other", "created");
  EXPECT_EQ(check_watchdog(b.history()).valid, Validity::Yes);  // ends before 101 + 30100: not judged
  b.key(31000, "other", "deleted");
  const Verdict v = check_watchdog(b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kLateExpiry);
  EXPECT_EQ(v.witness, (W{a.exec, crash}));
  EXPECT_TRUE(mentions(v, "it acquired it at 101 ms")) << v.explanation;
  EXPECT_TRUE(mentions(v, "still there when the history ended at 31000 ms")) << v.explanation;
  WatchdogOptions longer;
  longer.watchdog_lease_ms = 60000;
  EXPECT_EQ(check_watchdog(b.history(), longer).valid, Validity::Yes);
}

TEST(CheckerWatchdog, RenewalOfAnExplicitLeaseIsReported) {
  HistoryBuilder b;
  const auto a = b.acquire(100, "A", 1, 1, "orders", 1, "", "A:1=1", 10000);
  const int64_t r = renew(b, 3433, 1, "A:1");
  const Verdict v = check_watchdog(b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kRenewedExplicitLease);
  EXPECT_EQ(v.witness, (W{a.hold, r}));
  EXPECT_EQ(v.explanation,
            "Let A:1 hold orders from 102 ms with an explicit lease of 10000 ms. Then redis0 renewed it at 3433 ms.");
}

TEST(CheckerWatchdog, RenewalAfterTheUnlockTookEffectRevivesTheLock) {
  HistoryBuilder b;
  b.acquire(100, "A", 1, 1, "orders", 1, "", "A:1=1");
  const int64_t inv = b.invoke(5000, "A", 1, 2, "unlock", "orders");
  const int64_t rel = b.release(5000, "A", 1, "orders", 0, "unlock", 2);
  renew(b, 5001, 1, "A:1");  // in flight before the unlock reached the server: fine
  b.exec(5002, 1, 2, "orders", "unlock", "1", "A:1=1", "");
  b.ok(5003, "A", 1, 2, "unlock", "orders");
  EXPECT_EQ(check_watchdog(b.history()).valid, Validity::Yes);
  const int64_t r = renew(b, 6000, 1, "A:1");
  const Verdict v = check_watchdog(b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kRevivedAfterUnlock);
  EXPECT_EQ(v.witness, (W{rel, r}));
  EXPECT_EQ(v.explanation,
            "Let A:1 unlock orders at 5000 ms. Then redis0 renewed it for A:1 at 6000 ms, before A:1 acquired it "
            "again.");
  (void)inv;
}

TEST(CheckerWatchdog, RenewalsAreAttributedByTheLearnedHolderField) {
  HistoryBuilder b;
  b.acquire(100, "B", 1, 1, "orders", 1, "", "77d0-bb:1=1");
  const auto u = b.unlock(200, "B", 1, 2, "orders", 0, "77d0-bb:1=1", "");
  b.acquire(300, "A", 1, 3, "orders", 1, "", "9f1c-aa:1=1");
  renew(b, 10300, 1, "9f1c-aa:1");  // A's, though B:1 has the same thread number
  EXPECT_EQ(check_watchdog(b.history()).valid, Validity::Yes);
  const int64_t r = renew(b, 10400, 1, "77d0-bb:1");
  const Verdict v = check_watchdog(b.history());
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kRevivedAfterUnlock);
  EXPECT_EQ(v.witness, (W{u.release, r}));
  EXPECT_TRUE(mentions(v, "for B:1")) << v.explanation;
}

}  // namespace
}  // namespace locksim::model
