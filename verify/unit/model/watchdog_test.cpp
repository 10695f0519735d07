#include "model/watchdog.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/anomaly.hpp"
#include "model/facts.hpp"
#include "model/lock_types.hpp"
#include "verify/unit/model/evidence.hpp"
#include "verify/unit/model/history_builder.hpp"
#include "verify/unit/model/streamed.hpp"

namespace locksim::model {
namespace {

using test::evidence;
using test::figure;
using test::HistoryBuilder;
using W = std::vector<int64_t>;

// The checker on `b`'s history, its facts worked out for the lock type `type`.
Verdict check(const HistoryBuilder& b, const char* type = "rlock", const WatchdogOptions& options = {}) {
  const Facts facts(b.history(), find_lock_type(type));
  CheckerOptions streamed = test::options_for(type);
  streamed.watchdog = options;
  return test::streamed_alike(b.history(), "watchdog", streamed, check_watchdog(facts, options));
}

std::vector<int64_t> events_of(const Verdict& v, const std::string& role) {
  std::vector<int64_t> out;
  for (const Evidence& e : v.evidence)
    if (e.role == role) out.push_back(e.event);
  return out;
}

// An acquire of `lock` by `who`:1 granted on `key` at `server`, as the world records it: Invoke (with
// its lease), Exec at t+1 (the key's ttl after it), Ok and Hold at t+2.
struct Acquire {
  int64_t invoke, exec, ok, hold;
};
Acquire acquire(HistoryBuilder& b, int64_t t, const std::string& who, int64_t op, int64_t depth,
                const std::string& before, const std::string& after, int64_t lease_ms, int64_t ttl_ms,
                const std::string& lock = "orders", const std::string& key = "orders",
                const std::string& server = "redis0") {
  Acquire a{};
  a.invoke = b.invoke({.t = t, .p = who, .op = op, .f = "lock", .lock = lock, .lease_ms = lease_ms});
  a.exec = b.exec({.t = t + 1,
                   .op = op,
                   .lock = key,
                   .f = "acquire",
                   .reply = "nil",
                   .before = before,
                   .after = after,
                   .p = server,
                   .ttl = ttl_ms,
                   .sent = t});
  a.ok = b.ok({.t = t + 2, .p = who, .op = op, .f = "lock", .lock = lock});
  a.hold = b.hold({.t = t + 2, .p = who, .lock = lock, .depth = depth, .lease_ms = lease_ms, .op = op});
  return a;
}

// A watchdog renewal of `who`:1's hold as the server ran it at t (op 0, sent a ms earlier unless
// `sent_ms` says otherwise), the key before and after unchanged, its ttl after.
int64_t renewal(HistoryBuilder& b, int64_t t, const std::string& who, const std::string& value, int64_t ttl_ms = 30000,
                const std::string& reply = "1", int64_t sent_ms = -2, const std::string& key = "orders",
                const std::string& server = "redis0") {
  return b.exec({.t = t,
                 .op = 0,
                 .lock = key,
                 .f = "renew",
                 .reply = reply,
                 .before = value,
                 .after = value,
                 .p = server,
                 .ttl = ttl_ms,
                 .client = who,
                 .sent = sent_ms == -2 ? t - 1 : sent_ms});
}

// The client-side end of a renewal: 1 renewed, 0 refused, -1 no reply.
int64_t renew_result(HistoryBuilder& b, int64_t t, const std::string& who, int64_t value) {
  Event e;
  e.at_ms = t;
  e.kind = EventKind::Renew;
  e.process = who;
  e.thread = 1;
  e.lock = "orders";
  e.f = "renew";
  e.value = value;
  return b.add(std::move(e));
}

// A client crash as the world records it: the fault, then a Release (f crash) per believed hold.
int64_t crash(HistoryBuilder& b, int64_t t, const std::string& who, const std::string& lock = "orders") {
  b.fault({.t = t, .p = who, .f = "crash"});
  return b.release({.t = t, .p = who, .lock = lock, .depth = 0, .f = "crash"});
}

int64_t end(HistoryBuilder& b, int64_t t) {
  Event e;
  e.at_ms = t;
  e.kind = EventKind::End;
  e.process = "world";
  return b.add(std::move(e));
}

// ---------------------------------------------------------------------------------------------
// A clean run.

TEST(CheckerWatchdog, RenewedHoldUnlockedCleanlyHolds) {
  HistoryBuilder b;
  acquire(b, 100, "A", 1, 1, "", "A:1=1", -1, 30000);
  for (int64_t t : {10101, 20101, 30101}) {
    renewal(b, t, "A", "A:1=1");
    renew_result(b, t + 1, "A", 1);
  }
  b.invoke({.t = 35000, .p = "A", .op = 2, .f = "unlock"});
  b.release({.t = 35000, .p = "A", .depth = 0, .op = 2});
  b.key({.t = 35001, .f = "deleted"});
  b.exec({.t = 35001, .op = 2, .f = "unlock", .reply = "1", .before = "A:1=1", .ttl = -2, .sent = 35000});
  b.ok({.t = 35002, .p = "A", .op = 2, .f = "unlock"});
  // A renewal refused after the unlock changes nothing and is no stray renewal.
  renewal(b, 40101, "A", "", -2, "0");
  end(b, 60000);
  const Verdict v = check(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(v.property, "watchdog");
  EXPECT_TRUE(v.anomaly.empty());
  EXPECT_TRUE(v.witness.empty());
  EXPECT_EQ(figure(v, "holds"), 1);
  EXPECT_EQ(figure(v, "renewals"), 3);
  EXPECT_EQ(v.explanation, "1 hold, 3 successful renewals, no lapse, late expiry or stray renewal");
}

// ---------------------------------------------------------------------------------------------
// a. watchdog-lapse

TEST(CheckerWatchdog, ExpiryUnderALiveWatchdogHolderIsALapse) {
  HistoryBuilder b;
  const Acquire a = acquire(b, 100, "A", 1, 1, "", "A:1=1", -1, 30000);
  const int64_t r1 = renew_result(b, 10101, "A", -1);
  const int64_t r2 = renew_result(b, 20101, "A", 0);
  renew_result(b, 25000, "B", -1);  // another client's renewal is not A's
  const int64_t expired = b.key({.t = 30101, .f = "expired"});
  end(b, 31000);
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kWatchdogLapse);
  EXPECT_EQ(v.witness, (W{a.exec, a.hold, r1, r2, expired}));
  EXPECT_EQ(evidence(v, "hold").who, "A:1");
  EXPECT_EQ(evidence(v, "hold").where, "orders");
  EXPECT_EQ(evidence(v, "expiry_set").event, a.exec);
  EXPECT_EQ(evidence(v, "expiry_set").number, 30101);
  EXPECT_EQ(evidence(v, "expired").event, expired);
  EXPECT_EQ(evidence(v, "expired").where, "redis0/orders");
  EXPECT_EQ(events_of(v, "failed_renewal"), (W{r1, r2}));
  EXPECT_EQ(v.explanation,
            "Let A:1 hold orders from 102 ms with the watchdog (no lease). Then its hold in redis0/orders expired at "
            "30101 ms (the expiry it ran out of was set at 101 ms) while it still believed it held the lock, with no "
            "fault on A or redis0 in between; renewals without success at 10101 ms, 20101 ms.");
}

// A holds from 100 ms (its expiry set at 101 ms, 30101 ms) and the key expires at 30101 ms with
// one fault in between (or around).
Verdict lapse_with_fault(const std::string& process, const std::string& f, int64_t at, int64_t for_ms,
                         int64_t value = 0) {
  HistoryBuilder b;
  acquire(b, 100, "A", 1, 1, "", "A:1=1", -1, 30000);
  b.key({.t = 150, .lock = "other", .f = "created", .p = "redis1"});  // redis1 is a server of this run too
  if (at < 30101) b.fault({.t = at, .p = process, .f = f, .value = value, .for_ms = for_ms});
  b.key({.t = 30101, .f = "expired"});
  if (at >= 30101) b.fault({.t = at, .p = process, .f = f, .value = value, .for_ms = for_ms});
  end(b, 40000);
  return check(b);
}

// A fault on the holder's process or link, or on the key's server, that left the holder less than
// one renewal period (10 s) of working connection in one stretch between the expiry's setting
// (101 ms) and the expiry (30101 ms).
TEST(CheckerWatchdog, FaultOnTheHoldersProcessOrLinkOrTheKeysServerExcusesALapse) {
  struct Case {
    std::string process, f;
    int64_t at, for_ms, value;
  };
  for (const Case& c : std::vector<Case>{{"A", "pause", 8000, 20000, 0},       // works 7.9 s, then 2.1 s
                                         {"A", "partition", 8000, 20000, 0},
                                         {"A", "delay", 5000, 30000, 1500},    // round trip past 3 s: 4.9 s
                                         {"A", "loss", 5000, 30000, 1000},
                                         {"redis0", "pause", 9000, 21500, 0},  // works 8.9 s
                                         {"redis0", "down", 9000, -1, 0}}) {   // down to the end
    const Verdict v = lapse_with_fault(c.process, c.f, c.at, c.for_ms, c.value);
    EXPECT_EQ(v.valid, Validity::Yes) << c.process << " " << c.f << ": " << v.explanation;
  }
}

// DESIGN: "A fault excuses a lapse only when the holder had less than one renewal period (lease/3)
// of working connection ... in one stretch, before the expiry." A short fault, one long over before
// the expiry, or an instant (a restart or failover that restored the same key) leaves more.
TEST(CheckerWatchdog, AFaultThatLeftARenewalPeriodOfWorkingConnectionExcusesNothing) {
  struct Case {
    std::string process, f;
    int64_t at, for_ms, value;
    int64_t working;  // the longest stretch of working connection in [101, 30101]
  };
  for (const Case& c : std::vector<Case>{{"A", "pause", 20000, 5000, 0, 19899},
                                         {"A", "partition", 20000, 15000, 0, 19899},
                                         {"A", "loss", 12000, 2, 1000, 18099},    // 2 ms of total loss
                                         {"A", "delay", 5000, 30000, 1000, 30000},  // slow, commands complete
                                         {"redis0", "pause", 29000, 500, 0, 28899},
                                         {"redis0", "down", 25000, -1, 0, 24899},
                                         {"redis0", "restart", 15000, -1, 0, 30000},
                                         {"redis0", "failover", 15000, -1, 0, 30000}}) {
    const Verdict v = lapse_with_fault(c.process, c.f, c.at, c.for_ms, c.value);
    ASSERT_EQ(v.valid, Validity::No) << c.process << " " << c.f << ": " << v.explanation;
    EXPECT_EQ(v.anomaly, anomaly::kWatchdogLapse);
    EXPECT_EQ(figure(v, "working_ms"), c.working) << c.process << " " << c.f;
    EXPECT_EQ(figure(v, "renewal_period_ms"), 10000);
  }
  const Verdict v = lapse_with_fault("A", "pause", 20000, 5000);
  EXPECT_EQ(v.explanation,
            "Let A:1 hold orders from 102 ms with the watchdog (no lease). Then its hold in redis0/orders expired at "
            "30101 ms (the expiry it ran out of was set at 101 ms) while it still believed it held the lock, although "
            "A's connection to redis0 had worked for 19899 ms in one stretch in between, more than one renewal "
            "period (10000 ms): the faults in between do not explain it.");
  // The renewal period follows the watchdog's lease.
  HistoryBuilder b;
  acquire(b, 100, "A", 1, 1, "", "A:1=1", -1, 30000);
  b.fault({.t = 20000, .p = "A", .f = "pause", .for_ms = 5000});
  b.key({.t = 30101, .f = "expired"});
  end(b, 40000);
  WatchdogOptions long_lease;
  long_lease.watchdog_lease_ms = 90000;  // renewal every 30 s: 19.9 s of working connection is less
  EXPECT_EQ(check(b, "rlock", long_lease).valid, Validity::Yes);
}

TEST(CheckerWatchdog, FaultElsewhereOrOfAnotherKindDoesNotExcuseALapse) {
  struct Case {
    std::string process, f;
    int64_t at, for_ms, value;
  };
  for (const Case& c : std::vector<Case>{{"A", "clock_jump", 20000, -1, 5000},
                                         {"B", "pause", 20000, 15000, 0},
                                         {"B", "partition", 20000, 15000, 0},
                                         {"redis1", "pause", 20000, 15000, 0},
                                         {"redis1", "restart", 20000, -1, 0},
                                         {"A", "pause", 30200, 5000, 0}}) {  // after the expiry
    const Verdict v = lapse_with_fault(c.process, c.f, c.at, c.for_ms, c.value);
    EXPECT_EQ(v.valid, Validity::No) << c.process << " " << c.f << ": " << v.explanation;
    EXPECT_EQ(v.anomaly, anomaly::kWatchdogLapse) << c.process << " " << c.f;
  }
}

// The expiry that ran out was set by the renewal at 10101 ms: a pause of A that ended before it does
// not explain the lapse; one within [10101 ms, 40101 ms] does.
TEST(CheckerWatchdog, OnlyAFaultBetweenTheExpirysSettingAndTheExpiryExcusesIt) {
  for (const bool within : {false, true}) {
    HistoryBuilder b;
    acquire(b, 100, "A", 1, 1, "", "A:1=1", -1, 30000);
    if (!within) b.fault({.t = 1000, .p = "A", .f = "pause", .for_ms = 5000});  // to 6000 ms
    const int64_t r = renewal(b, 10101, "A", "A:1=1", 30000, "1", 10100);
    if (within) b.fault({.t = 12000, .p = "A", .f = "pause", .for_ms = 21000});  // to 33000 ms: 7.1 s left
    const int64_t expired = b.key({.t = 40101, .f = "expired"});
    end(b, 41000);
    const Verdict v = check(b);
    if (within) {
      EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
      continue;
    }
    ASSERT_EQ(v.valid, Validity::No) << v.explanation;
    EXPECT_EQ(v.anomaly, anomaly::kWatchdogLapse);
    EXPECT_EQ(evidence(v, "expiry_set").event, r);
    EXPECT_EQ(evidence(v, "expiry_set").from_ms, 10101);
    EXPECT_EQ(evidence(v, "expired").event, expired);
  }
}

TEST(CheckerWatchdog, ExpiryOfAHoldWithAnExplicitLeaseIsNoLapse) {
  HistoryBuilder b;
  acquire(b, 100, "A", 1, 1, "", "A:1=1", 1000, 1000);
  b.key({.t = 1101, .f = "expired"});
  end(b, 5000);
  const Verdict v = check(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

// A re-entry with a lease on top of a lease-less hold asked for that lease: the hold is Mixed and
// its expiry is no lapse. Once that re-entry is unlocked the watchdog hold is judged again.
TEST(CheckerWatchdog, LeaseReentryOnAWatchdogHoldIsNotJudgedForLapse) {
  HistoryBuilder b;
  acquire(b, 100, "A", 1, 1, "", "A:1=1", -1, 30000);
  acquire(b, 200, "A", 2, 2, "A:1=1", "A:1=2", 5000, 5000);
  b.key({.t = 5201, .f = "expired"});
  end(b, 10000);
  const Verdict v = check(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

TEST(CheckerWatchdog, WatchdogHoldIsJudgedAgainOnceTheLeaseReentryIsUnlocked) {
  HistoryBuilder b;
  const Acquire outer = acquire(b, 100, "A", 1, 1, "", "A:1=1", -1, 30000);
  acquire(b, 200, "A", 2, 2, "A:1=1", "A:1=2", 5000, 5000);
  b.invoke({.t = 1000, .p = "A", .op = 3, .f = "unlock"});
  b.release({.t = 1000, .p = "A", .depth = 1, .op = 3});
  const int64_t inner_unlock = b.exec({.t = 1001,
                                       .op = 3,
                                       .f = "unlock",
                                       .reply = "0",
                                       .before = "A:1=2",
                                       .after = "A:1=1",
                                       .ttl = 30000,
                                       .sent = 1000});
  b.ok({.t = 1002, .p = "A", .op = 3, .f = "unlock", .value = 0});
  const int64_t expired = b.key({.t = 31001, .f = "expired"});
  end(b, 32000);
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kWatchdogLapse);
  EXPECT_EQ(evidence(v, "hold").event, outer.hold);
  EXPECT_EQ(evidence(v, "expiry_set").event, inner_unlock);
  EXPECT_EQ(evidence(v, "expired").event, expired);
}

TEST(CheckerWatchdog, WatchdogReentryOnALeaseHoldAsksForRenewalAndIsJudged) {
  HistoryBuilder b;
  acquire(b, 100, "A", 1, 1, "", "A:1=1", 5000, 5000);
  const Acquire inner = acquire(b, 200, "A", 2, 2, "A:1=1", "A:1=2", -1, 30000);
  const int64_t expired = b.key({.t = 30201, .f = "expired"});
  end(b, 31000);
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kWatchdogLapse);
  EXPECT_EQ(evidence(v, "expiry_set").event, inner.exec);
  EXPECT_EQ(evidence(v, "expired").event, expired);
}

// RedLock: the hold lives on three servers, each key judged; only redis2's expires.
Verdict red_lapse(const std::string& paused_server, int64_t* exec2 = nullptr, int64_t* expired_at = nullptr) {
  HistoryBuilder b;
  b.invoke({.t = 100, .p = "A", .op = 1, .f = "lock"});
  int64_t x = -1;
  for (const char* s : {"redis0", "redis1", "redis2"})
    x = b.exec({.t = 101, .op = 1, .f = "acquire", .reply = "nil", .after = "A:1=1", .p = s, .ttl = 30000});
  b.ok({.t = 102, .p = "A", .op = 1, .f = "lock"});
  b.hold({.t = 102, .p = "A", .depth = 1, .op = 1});
  if (!paused_server.empty()) b.fault({.t = 5000, .p = paused_server, .f = "pause", .for_ms = 20000});
  for (const char* s : {"redis0", "redis1"}) renewal(b, 10101, "A", "A:1=1", 30000, "1", 10100, "orders", s);
  const int64_t expired = b.key({.t = 30101, .f = "expired", .p = "redis2"});
  end(b, 31000);
  if (exec2) *exec2 = x;
  if (expired_at) *expired_at = expired;
  return check(b, "red");
}

TEST(CheckerWatchdog, RedLockHoldThatExpiresOnOneServerIsALapse) {
  int64_t exec2 = -1, expired = -1;
  const Verdict v = red_lapse("", &exec2, &expired);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kWatchdogLapse);
  EXPECT_EQ(evidence(v, "expiry_set").event, exec2);
  EXPECT_EQ(evidence(v, "expiry_set").where, "redis2/orders");
  EXPECT_EQ(evidence(v, "expired").event, expired);
  EXPECT_EQ(evidence(v, "expired").who, "redis2");
  EXPECT_EQ(evidence(v, "expired").where, "redis2/orders");
  // A pause of that server excuses it; a pause of another server does not.
  EXPECT_EQ(red_lapse("redis2").valid, Validity::Yes) << red_lapse("redis2").explanation;
  EXPECT_EQ(red_lapse("redis0").anomaly, anomaly::kWatchdogLapse);
}

// ReadWriteLock: a reader's own lease lives in its timeout key. A's (watchdog) timeout key expires
// while B's longer read lease keeps the hash: A's hold has run out under it.
TEST(CheckerWatchdog, ReaderWhoseTimeoutKeyExpiresUnderItsWatchdogIsALapse) {
  for (const int64_t a_lease : {int64_t{-1}, int64_t{30000}}) {
    HistoryBuilder b;
    b.invoke({.t = 0, .p = "A", .op = 1, .f = "lock", .lock = "orders:read", .lease_ms = a_lease});
    b.key({.t = 7, .f = "created"});
    b.key({.t = 7, .lock = "{orders}:u1:1:rwlock_timeout:1", .f = "created"});
    b.exec({.t = 7, .op = 1, .f = "acquire", .reply = "nil", .after = "mode=read,u1:1=1", .ttl = 30000, .sent = 4});
    b.ok({.t = 8, .p = "A", .op = 1, .f = "lock", .lock = "orders:read"});
    b.hold({.t = 8, .p = "A", .lock = "orders:read", .depth = 1, .lease_ms = a_lease, .op = 1});
    b.invoke({.t = 100, .p = "B", .op = 2, .f = "lock", .lock = "orders:read", .lease_ms = 60000});
    b.key({.t = 102, .lock = "{orders}:u2:1:rwlock_timeout:1", .f = "created"});
    b.exec({.t = 102,
            .op = 2,
            .f = "acquire",
            .reply = "nil",
            .before = "mode=read,u1:1=1",
            .after = "mode=read,u1:1=1,u2:1=1",
            .ttl = 60000,
            .sent = 100});
    b.ok({.t = 103, .p = "B", .op = 2, .f = "lock", .lock = "orders:read"});
    b.hold({.t = 103, .p = "B", .lock = "orders:read", .depth = 1, .lease_ms = 60000, .op = 2});
    const int64_t expired = b.key({.t = 30007, .lock = "{orders}:u1:1:rwlock_timeout:1", .f = "expired"});
    end(b, 31000);
    const Verdict v = check(b, "rwlock");
    if (a_lease >= 0) {
      EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
      continue;
    }
    ASSERT_EQ(v.valid, Validity::No) << v.explanation;
    EXPECT_EQ(v.anomaly, anomaly::kWatchdogLapse);
    EXPECT_EQ(evidence(v, "hold").who, "A:1");
    EXPECT_EQ(evidence(v, "hold").where, "orders:read");
    EXPECT_EQ(evidence(v, "expired").event, expired);
    EXPECT_EQ(evidence(v, "expired").where, "redis0/orders");
  }
}

// ---------------------------------------------------------------------------------------------
// b. late-expiry

// A holds with the watchdog from 100 ms (expiry 30101 ms), renews at 10101 ms (expiry 40101 ms),
// crashes at 15000 ms; the key expires at `expired_ms` (none: -1), the history ends at `end_ms`.
// With `kept_to_ms`, B's refused acquire at 38000 ms (a buggy script touching the TTL; B never holds)
// moves the key's expiry to that time: the only way a key outlives the lease its holder set, since
// Redis drops a key once its expiry has passed.
struct Crashed {
  HistoryBuilder b;
  Acquire a{};
  int64_t renewed = -1, crashed = -1, expired = -1, kept = -1;

  Crashed(int64_t expired_ms, int64_t end_ms, int64_t kept_to_ms = -1) {
    a = acquire(b, 100, "A", 1, 1, "", "A:1=1", -1, 30000);
    renewed = renewal(b, 10101, "A", "A:1=1", 30000, "1", 10100);
    renew_result(b, 10102, "A", 1);
    crashed = crash(b, 15000, "A");
    if (kept_to_ms >= 0) {
      b.invoke({.t = 37999, .p = "B", .op = 2, .f = "try_lock", .wait_ms = 0});
      kept = b.exec({.t = 38000,
                     .op = 2,
                     .f = "acquire",
                     .reply = "2101",
                     .before = "A:1=1",
                     .after = "A:1=1",
                     .ttl = kept_to_ms - 38000,
                     .sent = 37999});
      b.fail({.t = 38001, .p = "B", .op = 2, .f = "try_lock", .text = "not acquired within 0 ms"});
    }
    if (expired_ms >= 0) expired = b.key({.t = expired_ms, .f = "expired"});
    end(b, end_ms);
  }
};

TEST(CheckerWatchdog, CrashedHoldersKeyGoneByItsLastLeasePlusSlackHolds) {
  Crashed c(40150, 60000);
  const Verdict v = check(c.b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

TEST(CheckerWatchdog, CrashedHoldersKeyOutlivingItsLastLeasePlusSlackIsLate) {
  Crashed c(40300, 60000, 40300);
  const Verdict v = check(c.b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kLateExpiry);
  EXPECT_EQ(v.witness, (W{c.a.hold, c.renewed, c.crashed, c.kept, c.expired}));
  EXPECT_EQ(evidence(v, "hold").end_event, c.crashed);
  EXPECT_EQ(evidence(v, "hold").state, "crashed");
  EXPECT_EQ(evidence(v, "crash").event, c.crashed);
  EXPECT_EQ(evidence(v, "lease_set").event, c.renewed);
  EXPECT_EQ(evidence(v, "lease_set").number, 40101);
  EXPECT_EQ(evidence(v, "gone").event, c.expired);
  EXPECT_EQ(evidence(v, "gone").where, "redis0/orders");
  EXPECT_EQ(figure(v, "deadline"), 40201);
  EXPECT_EQ(figure(v, "slack"), 100);
  EXPECT_EQ(v.explanation,
            "Let A:1 hold orders with the watchdog and crash at 15000 ms; the last of its acquires and renewals that "
            "set an expiry ran on redis0 at 10101 ms. Then its hold should have gone one watchdog lease later, by "
            "40201 ms (with 100 ms slack), but it went only at 40300 ms (B:1's acquire at 38000 ms had set its "
            "expiry to 40300 ms).");
  EXPECT_EQ(evidence(v, "extended_by").event, c.kept);
}

TEST(CheckerWatchdog, LateExpiryAllowsTheConfiguredSlack) {
  Crashed c(40300, 60000, 40300);
  WatchdogOptions wide;
  wide.slack_ms = 200;
  const Verdict v = check(c.b, "rlock", wide);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

TEST(CheckerWatchdog, CrashedHoldStillThereIsJudgedOnlyOnceTheHistoryPassedTheDeadline) {
  {
    Crashed c(-1, 40201, 100000);  // ends at the deadline: not judged
    const Verdict v = check(c.b);
    EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  }
  Crashed c(-1, 40300, 100000);
  const Verdict v = check(c.b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kLateExpiry);
  EXPECT_EQ(v.find("gone"), nullptr);
  ASSERT_NE(v.find("still_there"), nullptr);
  EXPECT_EQ(evidence(v, "still_there").where, "redis0/orders");
  EXPECT_EQ(evidence(v, "still_there").event, c.kept);
}

// A renewal sent before the crash and run by the server after it was sent by a holder: the expiry
// it sets is the hold's lease, and the key may live until then. One that (impossibly for a crashed
// client, but that is the rule) was sent after the crash sets no lease.
TEST(CheckerWatchdog, RenewalInFlightAtTheCrashExtendsTheDeadline) {
  for (const bool in_flight : {true, false}) {
    HistoryBuilder b;
    acquire(b, 100, "A", 1, 1, "", "A:1=1", -1, 30000);
    const int64_t crashed = crash(b, 15000, "A");
    renewal(b, 15005, "A", "A:1=1", 30000, "1", in_flight ? 14999 : 15001);  // expiry 45005 ms
    const int64_t expired = b.key({.t = 45005, .f = "expired"});
    end(b, 60000);
    const Verdict v = check(b);
    if (in_flight) {
      EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
      continue;
    }
    // Sent after the crash it is a renewal sent without the lock, decided at once (before the late
    // expiry it also causes: it set no lease, so the key had to be gone by 30101 + 100 ms).
    ASSERT_EQ(v.valid, Validity::No) << v.explanation;
    EXPECT_EQ(v.anomaly, anomaly::kRevivedAfterUnlock);
    EXPECT_EQ(figure(v, "sent"), 15001);
    EXPECT_LT(crashed, expired);
  }
}

// Only a request that leaves its sender's hold in the key sets the hold's lease. After A's crash, B's
// refused acquire that (wrongly) resets the TTL keeps A's hold alive past A's last lease.
TEST(CheckerWatchdog, CrashedHoldKeptAliveByAnotherClientsRefusedAcquireIsLate) {
  for (const bool resets_ttl : {false, true}) {
    SCOPED_TRACE(resets_ttl ? "B's acquire resets the TTL" : "B's acquire leaves the TTL");
    HistoryBuilder b;
    acquire(b, 100, "A", 1, 1, "", "A:1=1", -1, 30000);
    const int64_t renewed = renewal(b, 10101, "A", "A:1=1", 30000, "1", 10100);  // expiry 40101 ms
    crash(b, 15000, "A");
    b.invoke({.t = 20000, .p = "B", .op = 2, .f = "try_lock", .wait_ms = 0});
    b.exec({.t = 20001,
            .op = 2,
            .f = "acquire",
            .reply = "20100",
            .before = "A:1=1",
            .after = "A:1=1",
            .ttl = resets_ttl ? 30000 : 20100,
            .sent = 20000});
    b.fail({.t = 20002, .p = "B", .op = 2, .f = "try_lock", .text = "not acquired within 0 ms"});
    const int64_t expired = b.key({.t = resets_ttl ? 50001 : 40101, .f = "expired"});
    end(b, 60000);
    const Verdict v = check(b);
    if (!resets_ttl) {
      EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
      continue;
    }
    ASSERT_EQ(v.valid, Validity::No) << v.explanation;
    EXPECT_EQ(v.anomaly, anomaly::kLateExpiry);
    EXPECT_EQ(evidence(v, "lease_set").event, renewed);
    EXPECT_EQ(figure(v, "deadline"), 40201);
    EXPECT_EQ(evidence(v, "gone").event, expired);
  }
}

// The key's server is stopped across the deadline. Paused, Redis runs no expiry cycle, so the
// expired event comes only at the resume; dead (down until its replica is promoted), the key goes
// with the failover. Either way the key was past its expiry from 40101 ms on and nobody could read
// it: the hold outlived no lease, the server was simply not running.
TEST(CheckerWatchdog, CrashedHoldWhoseServerWasStoppedAcrossTheDeadlineIsNotLate) {
  for (const bool paused : {true, false}) {
    SCOPED_TRACE(paused ? "paused" : "down");
    HistoryBuilder b;
    acquire(b, 100, "A", 1, 1, "", "A:1=1", -1, 30000);
    renewal(b, 10101, "A", "A:1=1", 30000, "1", 10100);
    crash(b, 15000, "A");
    if (paused) {
      b.fault({.t = 39000, .p = "redis0", .f = "pause", .for_ms = 10000});
      b.fault({.t = 49000, .p = "redis0", .f = "resume"});
      b.key({.t = 49000, .f = "expired"});
    } else {
      b.fault({.t = 39000, .p = "redis0", .f = "down"});
      b.fault({.t = 49000, .p = "redis0", .f = "failover"});
    }
    end(b, 60000);
    const Verdict v = check(b);
    EXPECT_EQ(v.valid, Validity::Yes) << v.anomaly << ": " << v.explanation;
  }
}

TEST(CheckerWatchdog, CrashedHoldWithNoExpiryIsGivenOneWatchdogLease) {
  auto history = [](int64_t end_ms, HistoryBuilder& b, Acquire& a, int64_t& crashed) {
    a = acquire(b, 100, "A", 1, 1, "", "A:1=1", -1, -1);  // the key never expires
    crashed = crash(b, 1000, "A");
    end(b, end_ms);
  };
  {
    HistoryBuilder b;
    Acquire a{};
    int64_t crashed = -1;
    history(31100, b, a, crashed);  // ends at 1000 + 30000 + 100 ms: too short to judge
    EXPECT_EQ(check(b).valid, Validity::Yes) << check(b).explanation;
  }
  HistoryBuilder b;
  Acquire a{};
  int64_t crashed = -1;
  history(31200, b, a, crashed);
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kLateExpiry);
  EXPECT_EQ(v.witness, (W{a.exec, a.hold, crashed}));
  EXPECT_EQ(v.find("lease_set"), nullptr);
  EXPECT_EQ(figure(v, "deadline"), 31100);
  EXPECT_EQ(evidence(v, "still_there").event, a.exec);
  EXPECT_EQ(v.explanation,
            "Let A:1 hold orders with the watchdog and crash at 1000 ms; none of its requests had set an expiry, so it "
            "was given one watchdog lease from the crash. Then its hold should have gone one watchdog lease later, by "
            "31100 ms (with 100 ms slack), but it was still in redis0/orders when the history ended.");
  WatchdogOptions longer;
  longer.watchdog_lease_ms = 60000;
  EXPECT_EQ(check(b, "rlock", longer).valid, Validity::Yes);
}

// ---------------------------------------------------------------------------------------------
// c. renewed-explicit-lease

TEST(CheckerWatchdog, RenewalOfAHoldWithAnExplicitLeaseIsReported) {
  HistoryBuilder b;
  const Acquire a = acquire(b, 100, "A", 1, 1, "", "A:1=1", 10000, 10000);
  const int64_t r = renewal(b, 3433, "A", "A:1=1");
  end(b, 20000);
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kRenewedExplicitLease);
  EXPECT_EQ(v.witness, (W{a.hold, r}));
  EXPECT_EQ(evidence(v, "hold").number, 10000);
  EXPECT_EQ(evidence(v, "renewal").who, "A:1");
  EXPECT_EQ(evidence(v, "renewal").where, "redis0/orders");
  EXPECT_EQ(v.explanation,
            "Let A:1 hold orders from 102 ms with an explicit lease of 10000 ms. Then a renewal for A:1 ran on "
            "redis0/orders at 3433 ms.");
}

TEST(CheckerWatchdog, RenewalOfAHoldWhoseLatestOrEarlierAcquireHadNoLeaseHolds) {
  // Mixed: the outer acquire asked for renewal, the re-entry for a lease.
  {
    HistoryBuilder b;
    acquire(b, 100, "A", 1, 1, "", "A:1=1", -1, 30000);
    acquire(b, 200, "A", 2, 2, "A:1=1", "A:1=2", 5000, 5000);
    renewal(b, 3000, "A", "A:1=2");
    end(b, 10000);
    const Verdict v = check(b);
    EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
    EXPECT_EQ(figure(v, "renewals"), 1);
  }
  // Watchdog: a lease-less re-entry on top of a lease hold.
  {
    HistoryBuilder b;
    acquire(b, 100, "A", 1, 1, "", "A:1=1", 5000, 5000);
    acquire(b, 200, "A", 2, 2, "A:1=1", "A:1=2", -1, 30000);
    renewal(b, 10201, "A", "A:1=2");
    end(b, 20000);
    const Verdict v = check(b);
    EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  }
  // Explicit again once the lease-less re-entry is unlocked.
  {
    HistoryBuilder b;
    acquire(b, 100, "A", 1, 1, "", "A:1=1", 50000, 50000);
    acquire(b, 200, "A", 2, 2, "A:1=1", "A:1=2", -1, 30000);
    b.invoke({.t = 1000, .p = "A", .op = 3, .f = "unlock"});
    b.release({.t = 1000, .p = "A", .depth = 1, .op = 3});
    b.exec({.t = 1001,
            .op = 3,
            .f = "unlock",
            .reply = "0",
            .before = "A:1=2",
            .after = "A:1=1",
            .ttl = 30000,
            .sent = 1000});
    b.ok({.t = 1002, .p = "A", .op = 3, .f = "unlock", .value = 0});
    const int64_t r = renewal(b, 10201, "A", "A:1=1");
    end(b, 20000);
    const Verdict v = check(b);
    ASSERT_EQ(v.valid, Validity::No) << v.explanation;
    EXPECT_EQ(v.anomaly, anomaly::kRenewedExplicitLease);
    EXPECT_EQ(evidence(v, "renewal").event, r);
  }
}

// ReadWriteLock: one hash carries an owner's write and read holds; a renewal of it is stray only when
// every unmatched acquire on either side had a lease.
TEST(CheckerWatchdog, RenewalOfAnRwlockHashIsJudgedOverBothSidesOfItsOwner) {
  for (const int64_t write_lease : {int64_t{-1}, int64_t{50000}}) {
    SCOPED_TRACE(write_lease < 0 ? "write side with the watchdog" : "write side with a lease");
    HistoryBuilder b;
    acquire(b, 100, "A", 1, 1, "", "mode=write,u1:1:write=1", write_lease, write_lease < 0 ? 30000 : write_lease,
            "orders:write");
    acquire(b, 200, "A", 2, 1, "mode=write,u1:1:write=1", "mode=write,u1:1:write=1,u1:1=1", 5000,
            write_lease < 0 ? 29900 : 49900, "orders:read");
    const int64_t r = renewal(b, 3000, "A", "mode=write,u1:1:write=1,u1:1=1");
    end(b, 4000);
    const Verdict v = check(b, "rwlock");
    if (write_lease < 0) {
      EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
      continue;
    }
    ASSERT_EQ(v.valid, Validity::No) << v.explanation;
    EXPECT_EQ(v.anomaly, anomaly::kRenewedExplicitLease);
    EXPECT_EQ(evidence(v, "renewal").event, r);
  }
}

// ---------------------------------------------------------------------------------------------
// d. revived-after-unlock

// A holds from 100 ms and begins its unlock at 5000 ms; the unlock's request is lost and the
// operation times out at 5500 ms, so A's field stays. A renewal of A's runs at `run_ms`, sent at
// `sent_ms`.
struct LostUnlock {
  HistoryBuilder b;
  int64_t release = -1, renewed = -1;

  // `reacquiring`: A begins a new lock() at 5900 ms, still under way when the renewal runs.
  LostUnlock(int64_t sent_ms, int64_t run_ms, bool reacquiring = false) {
    acquire(b, 100, "A", 1, 1, "", "A:1=1", -1, 30000);
    b.invoke({.t = 5000, .p = "A", .op = 2, .f = "unlock"});
    release = b.release({.t = 5000, .p = "A", .depth = 0, .op = 2});
    if (run_ms < 5500) renewed = renewal(b, run_ms, "A", "A:1=1", 30000, "1", sent_ms);
    b.info({.t = 5500, .p = "A", .op = 2, .f = "unlock"});
    if (reacquiring) b.invoke({.t = 5900, .p = "A", .op = 3, .f = "lock"});
    if (run_ms >= 5500) renewed = renewal(b, run_ms, "A", "A:1=1", 30000, "1", sent_ms);
    end(b, 20000);
  }
};

TEST(CheckerWatchdog, RenewalSentAfterTheOwnerGaveTheLockUpIsARevival) {
  LostUnlock l(6000, 6001);
  const Verdict v = check(l.b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kRevivedAfterUnlock);
  EXPECT_EQ(v.witness, (W{l.release, l.renewed}));
  EXPECT_EQ(evidence(v, "renewal").event, l.renewed);
  EXPECT_EQ(evidence(v, "renewal").who, "A:1");
  EXPECT_EQ(figure(v, "sent"), 6000);
  EXPECT_EQ(evidence(v, "release").event, l.release);
  EXPECT_EQ(v.explanation,
            "Let A:1 give the lock up (at 5000 ms). Then a renewal it sent at 6000 ms, holding nothing, succeeded on "
            "redis0/orders at 6001 ms.");
}

// Of an owner's unlocks, the evidence names the one that gave the lock up last before the send
// (not the first of the history, nor one after the send).
TEST(CheckerWatchdog, ARevivalNamesTheLatestUnlockBeforeItsSend) {
  HistoryBuilder b;
  acquire(b, 100, "A", 1, 1, "", "A:1=1", -1, 30000);
  b.invoke({.t = 1000, .p = "A", .op = 2, .f = "unlock"});
  b.release({.t = 1000, .p = "A", .depth = 0, .op = 2});
  b.exec({.t = 1001, .op = 2, .lock = "orders", .f = "unlock", .reply = "1", .before = "A:1=1", .after = "", .p = "redis0",
          .sent = 1000});
  b.ok({.t = 1002, .p = "A", .op = 2, .f = "unlock"});
  acquire(b, 2000, "A", 3, 1, "", "A:1=1", -1, 30000);
  b.invoke({.t = 5000, .p = "A", .op = 4, .f = "unlock"});
  const int64_t latest = b.release({.t = 5000, .p = "A", .depth = 0, .op = 4});
  b.info({.t = 5500, .p = "A", .op = 4, .f = "unlock"});
  const int64_t renewed = renewal(b, 6001, "A", "A:1=1", 30000, "1", 6000);
  end(b, 20000);
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kRevivedAfterUnlock);
  EXPECT_EQ(evidence(v, "release").event, latest);
  EXPECT_EQ(events_of(v, "release"), (W{latest}));
  EXPECT_EQ(v.witness, (W{latest, renewed}));
}

TEST(CheckerWatchdog, RenewalSentWhileHoldingOrUnlockingIsNoRevivalWhenEverItRuns) {
  {
    LostUnlock l(4990, 5001);  // sent while A believed it held the lock
    const Verdict v = check(l.b);
    EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  }
  {
    LostUnlock l(5200, 5600);  // sent while the unlock was under way, run after it ended
    const Verdict v = check(l.b);
    EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  }
  {
    LostUnlock l(6000, 6001, true);  // sent while A was acquiring the lock again
    const Verdict v = check(l.b);
    EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  }
}

// Every event here at one millisecond; the renewal's sent_i says which came before it left.
TEST(CheckerWatchdog, WithinTheMillisecondOfTheSendTheHistorysOrderDecides) {
  // A crash at 15000 ms: a renewal sent before it had the right; after it (in the history's
  // order), it had none.
  for (const bool before : {true, false}) {
    HistoryBuilder b;
    acquire(b, 100, "A", 1, 1, "", "A:1=1", -1, 30000);
    const int64_t crash = b.fault({.t = 15000, .p = "A", .f = "crash"});
    b.release({.t = 15000, .p = "A", .depth = 0, .f = "crash"});
    b.exec({.t = 15001, .op = 0, .f = "renew", .reply = "1", .before = "A:1=1", .after = "A:1=1", .ttl = 30000,
            .client = "A", .sent = 15000, .sent_i = before ? crash : crash + 2});
    end(b, 20000);
    const Verdict v = check(b);
    if (before) {
      EXPECT_EQ(v.valid, Validity::Yes) << "sent before the crash: " << v.explanation;
    } else {
      ASSERT_EQ(v.valid, Validity::No) << "sent after the crash";
      EXPECT_EQ(v.anomaly, anomaly::kRevivedAfterUnlock);
    }
  }
  // The unlock given up at 5500 ms, a new lock() invoked at 6000 ms: a renewal sent before that
  // lock() began had no right; one sent once it was under way had.
  for (const bool before : {true, false}) {
    HistoryBuilder b;
    acquire(b, 100, "A", 1, 1, "", "A:1=1", -1, 30000);
    b.invoke({.t = 5000, .p = "A", .op = 2, .f = "unlock"});
    b.release({.t = 5000, .p = "A", .depth = 0, .op = 2});
    b.info({.t = 5500, .p = "A", .op = 2, .f = "unlock"});
    const int64_t again = b.invoke({.t = 6000, .p = "A", .op = 3, .f = "lock"});
    b.exec({.t = 6001, .op = 0, .f = "renew", .reply = "1", .before = "A:1=1", .after = "A:1=1", .ttl = 30000,
            .client = "A", .sent = 6000, .sent_i = before ? again : again + 1});
    end(b, 20000);
    const Verdict v = check(b);
    if (before) {
      ASSERT_EQ(v.valid, Validity::No) << "sent before the lock() began";
      EXPECT_EQ(v.anomaly, anomaly::kRevivedAfterUnlock);
    } else {
      EXPECT_EQ(v.valid, Validity::Yes) << "sent once the lock() was under way: " << v.explanation;
    }
  }
}

TEST(CheckerWatchdog, RenewalWithoutASendTimeIsJudgedByWhenItRan) {
  LostUnlock l(-1, 6001);
  const Verdict v = check(l.b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kRevivedAfterUnlock);
  EXPECT_EQ(figure(v, "sent"), 6001);
}

// ---------------------------------------------------------------------------------------------
// e. renewed-without-hold

// A's hold expires while A is paused (excused); B takes the lock at 35000 ms (expiry 65001 ms); A's
// watchdog, resumed, sends a renewal that runs in B's key at 41008 ms.
struct RenewalInAnothersKey {
  HistoryBuilder b;
  Acquire taken{};
  int64_t renewed = -1;

  RenewalInAnothersKey(const std::string& reply, int64_t ttl_ms) {
    acquire(b, 100, "A", 1, 1, "", "A:1=1", -1, 30000);
    b.fault({.t = 1000, .p = "A", .f = "pause", .for_ms = 40000});
    b.key({.t = 30101, .f = "expired"});
    taken = acquire(b, 35000, "B", 2, 1, "", "B:1=1", -1, 30000);
    renewed = renewal(b, 41008, "A", "B:1=1", ttl_ms, reply, 41005);
    end(b, 50000);
  }
};

TEST(CheckerWatchdog, RenewalSucceedingInAKeyWithoutTheOwnersHoldIsReported) {
  RenewalInAnothersKey r("1", 30000);
  const Verdict v = check(r.b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kRenewedWithoutHold);
  EXPECT_EQ(v.witness, (W{r.taken.exec, r.renewed}));
  EXPECT_EQ(evidence(v, "renewal").who, "A:1");
  EXPECT_EQ(evidence(v, "key").state, "B:1=1");
  EXPECT_EQ(evidence(v, "key").number, 65001);
  EXPECT_EQ(v.explanation,
            "Let redis0/orders not carry A:1's hold at 41008 ms (it held \"B:1=1\"). Then A:1's renewal succeeded "
            "there.");
}

TEST(CheckerWatchdog, RefusedRenewalThatStillChangesTheExpiryOfAnothersKeyIsReported) {
  RenewalInAnothersKey r("0", 30000);  // refused, yet the key now expires at 71008 ms
  const Verdict v = check(r.b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kRenewedWithoutHold);
  EXPECT_EQ(evidence(v, "renewal").event, r.renewed);
}

TEST(CheckerWatchdog, RefusedRenewalThatLeavesAnothersKeyAsItWasHolds) {
  RenewalInAnothersKey r("0", 65001 - 41008);  // the key's own remaining ttl
  const Verdict v = check(r.b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(figure(v, "renewals"), 0);
}

// ---------------------------------------------------------------------------------------------
// f. lease-mismatch

TEST(CheckerWatchdog, AcquireWithALeaseWhoseHoldExpiresAfterAnotherTimeIsALeaseMismatch) {
  HistoryBuilder b;
  const Acquire a = acquire(b, 100, "A", 1, 1, "", "A:1=1", 10000, 30000);
  end(b, 5000);
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kLeaseMismatch);
  EXPECT_EQ(v.witness, (W{a.invoke, a.exec}));
  EXPECT_EQ(evidence(v, "acquire").event, a.invoke);
  EXPECT_EQ(evidence(v, "key").event, a.exec);
  EXPECT_EQ(evidence(v, "key").where, "redis0/orders");
  EXPECT_EQ(figure(v, "lease"), 10000);
  EXPECT_EQ(figure(v, "ttl"), 30000);
  EXPECT_EQ(v.explanation,
            "Let A:1 acquire orders at 100 ms with a lease of 10000 ms. Then the server set its hold in redis0/orders "
            "to expire after 30000 ms.");
}

TEST(CheckerWatchdog, AcquireWithALeaseWhoseHoldNeverExpiresIsALeaseMismatch) {
  HistoryBuilder b;
  acquire(b, 100, "A", 1, 1, "", "A:1=1", 10000, -1);
  end(b, 5000);
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kLeaseMismatch);
  EXPECT_EQ(figure(v, "ttl"), -1);
  EXPECT_EQ(v.explanation,
            "Let A:1 acquire orders at 100 ms with a lease of 10000 ms. Then the server set its hold in redis0/orders "
            "to expire never.");
}

TEST(CheckerWatchdog, AcquireWhoseHoldExpiresAfterExactlyItsLeaseHolds) {
  HistoryBuilder b;
  acquire(b, 100, "A", 1, 1, "", "A:1=1", 10000, 10000);
  acquire(b, 200, "A", 2, 2, "A:1=1", "A:1=2", 4000, 4000);  // a re-entry's lease resets the expiry
  end(b, 3000);
  const Verdict v = check(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
}

// MultiLock: the lease is set on every part, each judged.
TEST(CheckerWatchdog, MultiLockPartsAreEachHeldToTheLease) {
  for (const int64_t part2_ttl : {int64_t{10000}, int64_t{30000}}) {
    HistoryBuilder b;
    const int64_t inv = b.invoke({.t = 100, .p = "A", .op = 1, .f = "lock", .lease_ms = 10000});
    b.exec({.t = 101,
            .op = 1,
            .lock = "orders-1",
            .f = "acquire",
            .reply = "nil",
            .after = "A:1=1",
            .ttl = 10000,
            .sent = 100});
    const int64_t x2 = b.exec({.t = 102,
                               .op = 1,
                               .lock = "orders-2",
                               .f = "acquire",
                               .reply = "nil",
                               .after = "A:1=1",
                               .ttl = part2_ttl,
                               .sent = 101});
    b.exec({.t = 103,
            .op = 1,
            .lock = "orders-3",
            .f = "acquire",
            .reply = "nil",
            .after = "A:1=1",
            .ttl = 10000,
            .sent = 102});
    b.ok({.t = 104, .p = "A", .op = 1, .f = "lock"});
    b.hold({.t = 104, .p = "A", .depth = 1, .lease_ms = 10000, .op = 1});
    end(b, 5000);
    const Verdict v = check(b, "multi");
    if (part2_ttl == 10000) {
      EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
      continue;
    }
    ASSERT_EQ(v.valid, Validity::No) << v.explanation;
    EXPECT_EQ(v.anomaly, anomaly::kLeaseMismatch);
    EXPECT_EQ(v.witness, (W{inv, x2}));
    EXPECT_EQ(evidence(v, "key").where, "redis0/orders-2");
    EXPECT_EQ(figure(v, "ttl"), 30000);
  }
}

// ReadWriteLock: readers share one hash whose expiry is the longest reader lease; a reader's lease
// is met by any expiry at least that long, and missed by a shorter one.
TEST(CheckerWatchdog, ReaderLeaseInASharedHashMustBeAtLeastTheLease) {
  for (const int64_t hash_ttl : {int64_t{29900}, int64_t{500}}) {
    HistoryBuilder b;
    b.invoke({.t = 0, .p = "A", .op = 1, .f = "lock", .lock = "orders:read"});
    b.exec({.t = 1, .op = 1, .f = "acquire", .reply = "nil", .after = "mode=read,u1:1=1", .ttl = 30000, .sent = 0});
    b.ok({.t = 2, .p = "A", .op = 1, .f = "lock", .lock = "orders:read"});
    b.hold({.t = 2, .p = "A", .lock = "orders:read", .depth = 1, .op = 1});
    const int64_t inv = b.invoke({.t = 100, .p = "B", .op = 2, .f = "lock", .lock = "orders:read", .lease_ms = 1000});
    const int64_t x = b.exec({.t = 101,
                              .op = 2,
                              .f = "acquire",
                              .reply = "nil",
                              .before = "mode=read,u1:1=1",
                              .after = "mode=read,u1:1=1,u2:1=1",
                              .ttl = hash_ttl,
                              .sent = 100});
    b.ok({.t = 102, .p = "B", .op = 2, .f = "lock", .lock = "orders:read"});
    b.hold({.t = 102, .p = "B", .lock = "orders:read", .depth = 1, .lease_ms = 1000, .op = 2});
    end(b, 400);
    const Verdict v = check(b, "rwlock");
    if (hash_ttl >= 1000) {
      EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
      continue;
    }
    ASSERT_EQ(v.valid, Validity::No) << v.explanation;
    EXPECT_EQ(v.anomaly, anomaly::kLeaseMismatch);
    EXPECT_EQ(v.witness, (W{inv, x}));
    EXPECT_EQ(figure(v, "lease"), 1000);
    EXPECT_EQ(figure(v, "ttl"), 500);
  }
}

// ---------------------------------------------------------------------------------------------
// Several violations: the one decided first is reported.

TEST(CheckerWatchdog, TheViolationDecidedFirstIsReported) {
  HistoryBuilder b;
  acquire(b, 100, "A", 1, 1, "", "A:1=1", -1, 30000);
  const Acquire c = acquire(b, 200, "C", 2, 1, "", "C:1=1", 10000, 30000, "stock", "stock");  // decided at 201 ms
  // A's lapse, later
  b.key({.t = 30101, .f = "expired"});
  end(b, 31000);
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No) << v.explanation;
  EXPECT_EQ(v.anomaly, anomaly::kLeaseMismatch);
  EXPECT_EQ(evidence(v, "key").event, c.exec);
}

}  // namespace
}  // namespace locksim::model
