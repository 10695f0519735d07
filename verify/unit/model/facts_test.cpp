// Facts on hand-built histories shaped like the world's: operations and their spans, beliefs and
// their lease modes, fault spans and unavailability, each lock key's state per server (claims,
// expiry, lease bound, unknown after a restart or failover), and free_spans, the one notion of
// "the server did not legitimately keep the waiter from the lock" that liveness and fair_queue share.
#include "model/facts.hpp"

#include <gtest/gtest.h>

#include <ostream>
#include <stdexcept>
#include <utility>

#include "model/lock_types.hpp"
#include "verify/unit/model/history_builder.hpp"

namespace locksim::model {
namespace {

using test::HistoryBuilder;
using Mode = Belief::Mode;
using I = std::vector<int64_t>;

struct Free {
  int64_t from, to;
  FreeWhy why;
  bool operator==(const Free&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Free& f) {
  return os << "[" << f.from << ", " << f.to << ") " << to_string(f.why);
}

std::vector<Free> spans_of(const std::vector<FreeSpan>& free) {
  std::vector<Free> out;
  for (const FreeSpan& f : free) out.push_back(Free{f.span.from_ms, f.span.to_ms, f.why});
  return out;
}

// The free spans merged across state changes: what a reader of "when was it free" cares about.
std::vector<Free> merged(const std::vector<FreeSpan>& free) {
  std::vector<Free> out;
  for (const FreeSpan& f : free) {
    if (!out.empty() && out.back().to == f.span.from_ms && out.back().why == f.why)
      out.back().to = f.span.to_ms;
    else
      out.push_back(Free{f.span.from_ms, f.span.to_ms, f.why});
  }
  return out;
}

// The op whose Invoke is event `invoke`.
const Op& op_at(const Facts& facts, int64_t invoke) {
  for (const Op& op : facts.ops())
    if (op.invoke == invoke) return op;
  throw std::logic_error("no op invoked at " + std::to_string(invoke));
}

int64_t end_at(HistoryBuilder& b, int64_t t) {
  Event e;
  e.at_ms = t;
  e.kind = EventKind::End;
  e.process = "world";
  return b.add(std::move(e));
}

// A lock() by `process` (thread 1) the server granted at t+1 (the key going from `before` to
// `after`), answered at t+2, as the world records it.
struct Taken {
  int64_t invoke, exec, ok, hold;
};
Taken take(HistoryBuilder& b, int64_t t, const std::string& process, int64_t op, const std::string& before,
           const std::string& after, int64_t ttl_ms = 30000, const std::string& server = "redis0") {
  Taken r{};
  r.invoke = b.invoke({.t = t, .p = process, .op = op, .f = "lock"});
  if (before.empty()) b.key({.t = t + 1, .f = "created", .p = server});
  r.exec = b.exec({.t = t + 1,
                   .op = op,
                   .f = "acquire",
                   .reply = "nil",
                   .before = before,
                   .after = after,
                   .p = server,
                   .ttl = ttl_ms,
                   .sent = t});
  r.ok = b.ok({.t = t + 2, .p = process, .op = op, .f = "lock"});
  r.hold = b.hold({.t = t + 2, .p = process, .depth = 1, .op = op});
  return r;
}

// An unlock by `process` (thread 1) that deleted the key at t+1.
struct Given {
  int64_t invoke, release, exec, ok;
};
Given give_up(HistoryBuilder& b, int64_t t, const std::string& process, int64_t op, const std::string& before,
              const std::string& server = "redis0") {
  Given r{};
  r.invoke = b.invoke({.t = t, .p = process, .op = op, .f = "unlock"});
  r.release = b.release({.t = t, .p = process, .depth = 0, .op = op});
  b.key({.t = t + 1, .f = "deleted", .p = server});
  r.exec =
      b.exec({.t = t + 1, .op = op, .f = "unlock", .reply = "1", .before = before, .p = server, .ttl = -2, .sent = t});
  r.ok = b.ok({.t = t + 2, .p = process, .op = op, .f = "unlock"});
  return r;
}

// A refused acquire attempt of op `op`: the key unchanged, `ttl` left on it.
int64_t refused(HistoryBuilder& b, int64_t t, int64_t op, const std::string& value, int64_t ttl,
                const std::string& server = "redis0") {
  return b.exec({.t = t,
                 .op = op,
                 .f = "acquire",
                 .reply = std::to_string(ttl),
                 .before = value,
                 .after = value,
                 .p = server,
                 .ttl = ttl,
                 .sent = t - 1});
}

// ---------------------------------------------------------------- operations

TEST(Facts, AnOperationGathersEveryExecutionOfItsRequestsAndSpansFromInvokeToOutcome) {
  HistoryBuilder b;
  const int64_t invoke = b.invoke({.t = 100, .p = "A", .op = 1, .f = "lock"});
  const int64_t noscript = b.exec({.t = 101, .op = 1, .f = "acquire", .reply = "-NOSCRIPT No matching script"});
  b.key({.t = 103, .f = "created"});
  const int64_t resent = b.exec({.t = 103, .op = 1, .f = "acquire", .reply = "nil", .after = "A:1=1"});
  const int64_t ok = b.ok({.t = 104, .p = "A", .op = 1, .f = "lock"});
  b.hold({.t = 104, .p = "A", .depth = 1, .op = 1});
  const int64_t renewal = b.renewal({.t = 10104, .client = "A", .holds = "A:1=1", .sent = 10102});
  const Facts facts(b.history(), find_lock_type("rlock"));

  ASSERT_EQ(facts.ops().size(), 1u);
  const Op* op = facts.op(1);
  ASSERT_NE(op, nullptr);
  EXPECT_EQ(op->owner, "A:1");
  EXPECT_EQ(op->process, "A");
  EXPECT_EQ(op->thread, 1);
  EXPECT_EQ(op->lock, "orders");
  EXPECT_EQ(op->f, "lock");
  EXPECT_EQ(op->invoke, invoke);
  EXPECT_EQ(op->outcome, ok);
  EXPECT_EQ(op->result, EventKind::Ok);
  EXPECT_EQ(op->execs, (I{noscript, resent}));  // the renewal (op 0) is nobody's operation
  EXPECT_EQ(op->span.from_ms, 100);
  EXPECT_EQ(op->span.to_ms, 104);
  EXPECT_EQ(op->span.begin, invoke);
  EXPECT_EQ(op->span.end, ok);
  EXPECT_EQ(facts.op(2), nullptr);
  EXPECT_EQ(facts.at(renewal).owner(), "A:1");
  EXPECT_EQ(facts.locks(), (std::vector<std::string>{"orders"}));
}

TEST(Facts, AnOperationWithoutAnOutcomeEndsAtItsOwnClientsCrashOrRunsOn) {
  HistoryBuilder b;
  const int64_t b_invoke = b.invoke({.t = 100, .p = "B", .op = 1, .f = "lock"});
  refused(b, 101, 1, "X:1=1", 29000);
  const int64_t d_invoke = b.invoke({.t = 200, .p = "D", .op = 2, .f = "lock"});
  b.fault({.t = 500, .p = "C", .f = "crash"});  // another client's crash cuts nothing of B's or D's
  const int64_t b_crash = b.fault({.t = 700, .p = "B", .f = "crash"});
  end_at(b, 9000);
  const Facts facts(b.history(), find_lock_type("rlock"));

  const Op& waiter = op_at(facts, b_invoke);
  EXPECT_EQ(waiter.outcome, -1);
  EXPECT_EQ(waiter.result, EventKind::Invoke);
  EXPECT_EQ(waiter.span.from_ms, 100);
  EXPECT_EQ(waiter.span.to_ms, 700);
  EXPECT_EQ(waiter.span.end, b_crash);
  const Op& other = op_at(facts, d_invoke);
  EXPECT_EQ(other.span.to_ms, kForever);
  EXPECT_EQ(other.span.end, -1);
}

// ---------------------------------------------------------------- beliefs

TEST(Facts, ReentriesExtendOneBeliefWhoseModeFollowsTheUnmatchedAcquires) {
  HistoryBuilder b;
  const int64_t h1 = b.hold({.t = 100, .p = "A", .depth = 1});  // watchdog
  // lease inside a watchdog hold
  const int64_t h2 = b.hold({.t = 200, .p = "A", .depth = 2, .lease_ms = 5000});
  const int64_t r1 = b.release({.t = 300, .p = "A", .depth = 1});
  const int64_t h3 = b.hold({.t = 400, .p = "A", .depth = 2, .lease_ms = 5000});
  const int64_t between = b.key({.t = 450, .lock = "other", .f = "created"});
  const int64_t r2 = b.release({.t = 500, .p = "A", .depth = 1});
  const int64_t r3 = b.release({.t = 600, .p = "A", .depth = 0});
  const Facts facts(b.history(), find_lock_type("rlock"));

  ASSERT_EQ(facts.beliefs().size(), 1u);
  const Belief& belief = facts.beliefs()[0];
  EXPECT_EQ(belief.owner, "A:1");
  EXPECT_EQ(belief.lock, "orders");
  EXPECT_EQ(belief.holds, (I{h1, h2, h3}));
  EXPECT_EQ(belief.releases, (I{r1, r2, r3}));
  EXPECT_EQ(belief.span.from_ms, 100);
  EXPECT_EQ(belief.span.to_ms, 600);
  EXPECT_EQ(belief.span.begin, h1);
  EXPECT_EQ(belief.span.end, r3);
  EXPECT_FALSE(belief.crashed);
  const std::vector<std::pair<int64_t, Mode>> modes{{h1, Mode::Watchdog}, {h2, Mode::Mixed},    {r1, Mode::Watchdog},
                                                    {h3, Mode::Mixed},    {r2, Mode::Watchdog}, {r3, Mode::Explicit}};
  EXPECT_EQ(belief.modes, modes);
  EXPECT_EQ(belief.mode_at(between), Mode::Mixed);
  EXPECT_EQ(belief.mode_at(h1), Mode::Watchdog);
}

TEST(Facts, ReleasesMatchTheLatestAcquireFirst) {
  HistoryBuilder b;
  const int64_t h1 = b.hold({.t = 100, .p = "A", .depth = 1, .lease_ms = 1000});  // explicit lease
  const int64_t h2 = b.hold({.t = 200, .p = "A", .depth = 2});                    // then the watchdog
  const int64_t r1 = b.release({.t = 300, .p = "A", .depth = 1});                 // gives the watchdog one back
  const Facts facts(b.history(), find_lock_type("rlock"));
  ASSERT_EQ(facts.beliefs().size(), 1u);
  const Belief& belief = facts.beliefs()[0];
  EXPECT_EQ(belief.mode_at(h1), Mode::Explicit);
  EXPECT_EQ(belief.mode_at(h2), Mode::Watchdog);
  EXPECT_EQ(belief.mode_at(r1), Mode::Explicit) << "the lease acquire is the one left";
  EXPECT_EQ(belief.span.end, -1);
  EXPECT_EQ(belief.span.to_ms, kForever);
}

TEST(Facts, BeliefsAreOwnedPerThreadAndLockAndACrashEndsOne) {
  HistoryBuilder b;
  const int64_t a1 = b.hold({.t = 100, .p = "A", .depth = 1});
  const int64_t a2 = b.hold({.t = 150, .p = "A", .thread = 2, .depth = 1});
  const int64_t other = b.hold({.t = 160, .p = "A", .lock = "invoices", .depth = 1});
  const int64_t unlocked = b.release({.t = 200, .p = "A", .depth = 0});
  const int64_t again = b.hold({.t = 300, .p = "A", .depth = 1});
  b.fault({.t = 400, .p = "A", .f = "crash"});
  const int64_t crashed = b.release({.t = 400, .p = "A", .depth = 0, .f = "crash"});
  const Facts facts(b.history(), find_lock_type("rlock"));

  ASSERT_EQ(facts.beliefs().size(), 4u);
  const auto& bs = facts.beliefs();
  EXPECT_EQ(bs[0].span.begin, a1);
  EXPECT_EQ(bs[0].span.end, unlocked);
  EXPECT_FALSE(bs[0].crashed);
  EXPECT_EQ(bs[1].span.begin, a2);
  EXPECT_EQ(bs[1].owner, "A:2");
  EXPECT_EQ(bs[1].span.end, -1);
  EXPECT_EQ(bs[2].span.begin, other);
  EXPECT_EQ(bs[2].lock, "invoices");
  EXPECT_EQ(bs[3].span.begin, again);
  EXPECT_EQ(bs[3].span.end, crashed);
  EXPECT_EQ(bs[3].span.to_ms, 400);
  EXPECT_TRUE(bs[3].crashed);
  EXPECT_TRUE(facts.believes("A:1", "orders", 199));
  EXPECT_FALSE(facts.believes("A:1", "orders", 200));
  EXPECT_FALSE(facts.believes("A:1", "orders", 400));
}

TEST(Facts, AnOwnerIsRightfulWhileAcquiringHoldingOrUnlocking) {
  HistoryBuilder b;
  take(b, 100, "A", 1, "", "A:1=1");
  give_up(b, 5000, "A", 2, "A:1=1");
  const Facts facts(b.history(), find_lock_type("rlock"));
  EXPECT_FALSE(facts.rightful("A:1", "orders", 99));
  EXPECT_TRUE(facts.rightful("A:1", "orders", 100));  // acquiring
  EXPECT_FALSE(facts.believes("A:1", "orders", 101));
  EXPECT_TRUE(facts.rightful("A:1", "orders", 101));
  EXPECT_TRUE(facts.believes("A:1", "orders", 102));
  EXPECT_TRUE(facts.rightful("A:1", "orders", 5001));  // unlocking
  EXPECT_FALSE(facts.believes("A:1", "orders", 5001));
  EXPECT_FALSE(facts.rightful("A:1", "orders", 5002));
  EXPECT_FALSE(facts.rightful("A:2", "orders", 200));
  EXPECT_FALSE(facts.rightful("A:1", "invoices", 200));
}

// ---------------------------------------------------------------- faults

TEST(Facts, ClientFaultsLastForTheirDurationAndOverlappingOnesMergeIntoOneUnavailability) {
  HistoryBuilder b;
  const int64_t pause = b.fault({.t = 100, .p = "A", .f = "pause", .for_ms = 1000});
  const int64_t p1 = b.fault({.t = 200, .p = "B", .f = "partition", .for_ms = 500});
  const int64_t delay = b.fault({.t = 300, .p = "C", .f = "delay", .value = 50, .for_ms = 2000});
  const int64_t p2 = b.fault({.t = 400, .p = "B", .f = "partition", .for_ms = 600});
  b.fault({.t = 500, .p = "C", .f = "loss", .value = 200, .for_ms = 1000});
  b.fault({.t = 700, .p = "B", .f = "heal"});
  b.fault({.t = 1000, .p = "B", .f = "heal"});
  b.fault({.t = 1100, .p = "A", .f = "resume"});
  const int64_t jump = b.fault({.t = 1200, .p = "A", .f = "clock_jump", .value = 5000});
  const int64_t crash = b.fault({.t = 2000, .p = "D", .f = "crash"});
  const Facts facts(b.history(), find_lock_type("rlock"));

  const auto& f = facts.faults();
  ASSERT_EQ(f.size(), 7u) << "resume and heal end faults, they are none";
  EXPECT_EQ(f[0].kind, "pause");
  EXPECT_EQ(f[0].span.from_ms, 100);
  EXPECT_EQ(f[0].span.to_ms, 1100);
  EXPECT_EQ(f[0].span.begin, pause);
  EXPECT_FALSE(f[0].server);
  EXPECT_EQ(f[1].span.begin, p1);
  EXPECT_EQ(f[1].span.to_ms, 700);
  EXPECT_EQ(f[2].span.begin, delay);
  EXPECT_EQ(f[2].span.to_ms, 2300);
  EXPECT_EQ(f[2].value, 50);
  EXPECT_EQ(f[3].span.begin, p2);
  EXPECT_EQ(f[3].span.to_ms, 1000);
  EXPECT_EQ(f[4].kind, "loss");
  EXPECT_EQ(f[4].span.to_ms, 1500);
  EXPECT_EQ(f[4].value, 200);
  EXPECT_EQ(f[5].span.begin, jump);
  EXPECT_EQ(f[5].span.to_ms, 1200);
  EXPECT_EQ(f[6].span.begin, crash);
  EXPECT_EQ(f[6].span.to_ms, kForever);

  auto spans = [&](const std::string& p) {
    std::vector<std::pair<int64_t, int64_t>> out;
    for (const Span& s : facts.unavailable(p)) out.emplace_back(s.from_ms, s.to_ms);
    return out;
  };
  using P = std::vector<std::pair<int64_t, int64_t>>;
  EXPECT_EQ(spans("A"), (P{{100, 1100}}));
  EXPECT_EQ(spans("B"), (P{{200, 1000}})) << "two overlapping partitions are one unavailability";
  EXPECT_EQ(spans("C"), P{}) << "a slow or lossy link still lets its client act";
  EXPECT_EQ(spans("D"), (P{{2000, kForever}}));
  EXPECT_EQ(spans("E"), P{});
}

TEST(Facts, AServerIsUnavailableWhilePausedAndWhileDownUntilItsFailover) {
  HistoryBuilder b;
  b.invoke({.t = 0, .p = "A", .op = 1, .f = "lock"});
  b.exec({.t = 1, .op = 1, .f = "acquire", .reply = "-ERR"});
  b.exec({.t = 2, .op = 1, .f = "acquire", .reply = "-ERR", .p = "redis1"});
  b.fail({.t = 3, .p = "A", .op = 1, .f = "lock", .text = "error"});
  const int64_t pause = b.fault({.t = 500, .p = "redis1", .f = "pause", .for_ms = 300});
  b.fault({.t = 600, .p = "redis2", .f = "restart"});
  b.fault({.t = 800, .p = "redis1", .f = "resume"});
  const int64_t down = b.fault({.t = 1000, .p = "redis0", .f = "down"});
  const int64_t failover = b.fault({.t = 4000, .p = "redis0", .f = "failover"});
  const Facts facts(b.history(), find_lock_type("red"));

  EXPECT_EQ(facts.servers(), (std::vector<std::string>{"redis0", "redis1", "redis2"}));
  EXPECT_TRUE(facts.is_server("redis2"));
  EXPECT_FALSE(facts.is_server("A"));
  const auto& f = facts.faults();
  ASSERT_EQ(f.size(), 4u);
  EXPECT_EQ(f[0].span.begin, pause);
  EXPECT_TRUE(f[0].server);
  EXPECT_EQ(f[2].kind, "down");
  EXPECT_EQ(f[2].span.begin, down);
  EXPECT_EQ(f[2].span.to_ms, 4000);
  EXPECT_EQ(f[2].span.end, failover);
  ASSERT_EQ(facts.unavailable("redis0").size(), 1u);
  EXPECT_EQ(facts.unavailable("redis0")[0].from_ms, 1000);
  EXPECT_EQ(facts.unavailable("redis0")[0].to_ms, 4000);
  ASSERT_EQ(facts.unavailable("redis1").size(), 1u);
  EXPECT_EQ(facts.unavailable("redis1")[0].to_ms, 800);
  EXPECT_TRUE(facts.unavailable("redis2").empty()) << "a restart is an instant";
}

TEST(Facts, ADownServerWithoutFailoverStaysDown) {
  HistoryBuilder b;
  b.exec({.t = 1, .op = 0, .f = "renew", .reply = "0", .ttl = -2, .client = "A"});
  b.fault({.t = 1000, .p = "redis0", .f = "down"});
  end_at(b, 9000);
  const Facts facts(b.history(), find_lock_type("rlock"));
  ASSERT_EQ(facts.unavailable("redis0").size(), 1u);
  EXPECT_EQ(facts.unavailable("redis0")[0].to_ms, kForever);
}

// ---------------------------------------------------------------- key states

TEST(Facts, AKeyStateFollowsItsExecsAndItsExpiry) {
  HistoryBuilder b;
  const Taken a = take(b, 100, "A", 1, "", "A:1=1");  // expires at 30101
  b.fault({.t = 1000, .p = "A", .f = "crash"});
  b.release({.t = 1000, .p = "A", .depth = 0, .f = "crash"});
  const int64_t expired = b.key({.t = 30102, .f = "expired"});
  const Facts facts(b.history(), find_lock_type("rlock"));

  const KeyTrack* key = facts.key("redis0", "orders");
  ASSERT_NE(key, nullptr);
  EXPECT_EQ(key->name(), "redis0/orders");
  EXPECT_EQ(key->locks, (std::vector<std::string>{"orders"}));
  EXPECT_EQ(facts.parts("orders"), (std::vector<const KeyTrack*>{key}));
  ASSERT_EQ(key->states.size(), 3u);
  EXPECT_FALSE(key->at(100).present);
  EXPECT_TRUE(key->at(100).known);
  const KeyState& held = key->at(101);
  EXPECT_EQ(held.event, a.exec);
  EXPECT_TRUE(held.present);
  EXPECT_EQ(held.value, "A:1=1");
  EXPECT_EQ(held.expire_at, 30101);
  EXPECT_EQ(held.lease_bound, 30101);
  ASSERT_EQ(held.claims.size(), 1u);
  EXPECT_EQ(held.claims[0].owner, "A:1");
  EXPECT_EQ(held.claims[0].lock, "orders");
  EXPECT_EQ(held.claims[0].field, "A:1");
  EXPECT_EQ(held.claims[0].count, 1);
  EXPECT_NE(held.claim_of("A:1", "orders"), nullptr);
  EXPECT_EQ(held.claim_of("B:1", "orders"), nullptr);
  EXPECT_TRUE(key->at(30101).present);
  EXPECT_FALSE(key->at(30102).present);
  EXPECT_EQ(key->at(30102).event, expired);
  EXPECT_EQ(key->after_event(a.exec - 1).event, -1);
  EXPECT_EQ(key->after_event(a.exec).event, a.exec);
}

TEST(Facts, HashFieldsBelongToTheClientWhoseOwnExecRevealedTheirPrefix) {
  HistoryBuilder b;
  take(b, 100, "A", 1, "", "aa7e:1=1");  // A's own exec adds aa7e:1: "aa7e" is A's id
  b.invoke({.t = 200, .p = "B", .op = 2, .f = "lock"});
  refused(b, 201, 2, "aa7e:1=1", 29900);
  // C's force unlock (run as no thread, as Redisson's forceUnlock) removes aa7e:1: it reveals nothing.
  b.invoke({.t = 300, .p = "C", .op = 3, .f = "force_unlock"});
  b.key({.t = 301, .f = "deleted"});
  b.exec({.t = 301,
          .thread = 0,
          .op = 3,
          .f = "force_unlock",
          .reply = "1",
          .before = "aa7e:1=1",
          .ttl = -2,
          .sent = 300});
  b.ok({.t = 302, .p = "C", .op = 3, .f = "force_unlock"});
  b.key({.t = 400, .f = "created"});
  b.exec({.t = 400, .op = 2, .f = "acquire", .reply = "nil", .after = "f1b2:1=1", .ttl = 30000, .sent = 399});
  b.ok({.t = 401, .p = "B", .op = 2, .f = "lock"});
  b.hold({.t = 401, .p = "B", .depth = 1, .op = 2});
  // A script nobody's client ran adds a field whose prefix no client's own exec showed.
  b.exec({.t = 500,
          .thread = 0,
          .op = 0,
          .f = "user_script",
          .reply = "OK",
          .before = "f1b2:1=1",
          .after = "dead:7=1,f1b2:1=1",
          .ttl = 30000});
  const Facts facts(b.history(), find_lock_type("rlock"));

  EXPECT_EQ(facts.owner_of_field("aa7e:1"), "A:1");
  EXPECT_EQ(facts.owner_of_field("aa7e:3"), "A:3");
  EXPECT_EQ(facts.owner_of_field("f1b2:1"), "B:1");
  EXPECT_EQ(facts.owner_of_field("dead:7"), "");
  EXPECT_EQ(facts.owner_of_field("no-thread"), "");
  const KeyTrack* key = facts.key("redis0", "orders");
  ASSERT_NE(key, nullptr);
  ASSERT_EQ(key->at(250).claims.size(), 1u);
  EXPECT_EQ(key->at(250).claims[0].owner, "A:1");
  const auto& claims = key->at(500).claims;
  ASSERT_EQ(claims.size(), 2u);
  EXPECT_EQ(claims[0].field, "dead:7");
  EXPECT_EQ(claims[0].owner, "");
  EXPECT_EQ(claims[1].field, "f1b2:1");
  EXPECT_EQ(claims[1].owner, "B:1");
}

TEST(Facts, AStringKeyIsClaimedByWhoeverCreatedIt) {
  HistoryBuilder b;
  b.invoke({.t = 0, .p = "A", .op = 1, .f = "lock"});
  b.key({.t = 2, .f = "created"});
  b.exec({.t = 2, .op = 1, .f = "acquire", .reply = "1", .after = "1", .ttl = -1, .sent = 0});
  b.ok({.t = 4, .p = "A", .op = 1, .f = "lock"});
  b.hold({.t = 4, .p = "A", .depth = 1, .op = 1});
  b.invoke({.t = 100, .p = "B", .op = 2, .f = "try_lock", .wait_ms = 30000});
  b.exec({.t = 102, .op = 2, .f = "acquire", .reply = "0", .before = "1", .after = "1", .ttl = -1, .sent = 100});
  b.invoke({.t = 200, .p = "D", .op = 3, .f = "force_unlock"});
  b.key({.t = 201, .f = "deleted"});
  b.exec({.t = 201, .thread = 0, .op = 3, .f = "force_unlock", .reply = "1", .before = "1", .ttl = -2, .sent = 200});
  b.ok({.t = 202, .p = "D", .op = 3, .f = "force_unlock"});
  b.key({.t = 205, .f = "created"});
  b.exec({.t = 205, .op = 2, .f = "acquire", .reply = "1", .after = "1", .ttl = -1, .sent = 203});
  const Facts facts(b.history(), find_lock_type("setnx"));

  const KeyTrack* key = facts.key("redis0", "orders");
  ASSERT_NE(key, nullptr);
  for (int64_t t : {2, 102}) {
    ASSERT_EQ(key->at(t).claims.size(), 1u) << t;
    EXPECT_EQ(key->at(t).claims[0].owner, "A:1") << t;
    EXPECT_EQ(key->at(t).claims[0].field, "") << t;
    EXPECT_EQ(key->at(t).claims[0].lock, "orders") << t;
    EXPECT_EQ(key->at(t).expire_at, kNoExpiry) << t;
  }
  EXPECT_FALSE(key->at(201).present);
  ASSERT_EQ(key->at(205).claims.size(), 1u);
  EXPECT_EQ(key->at(205).claims[0].owner, "B:1");
}

TEST(Facts, AStringKeyAnExecCreatedFromNothingIsItsCreatorsEvenIfTheOldKeysEndWentUnreported) {
  // Live: the expiry notification of A's key never came, but B's SET saw no key before it.
  HistoryBuilder b;
  b.invoke({.t = 0, .p = "A", .op = 1, .f = "lock"});
  b.exec({.t = 2, .op = 1, .f = "acquire", .reply = "OK", .after = "1", .ttl = 1000, .sent = 0});
  b.ok({.t = 4, .p = "A", .op = 1, .f = "lock"});
  b.hold({.t = 4, .p = "A", .depth = 1, .lease_ms = 1000, .op = 1});
  b.invoke({.t = 2000, .p = "B", .op = 2, .f = "lock"});
  b.exec({.t = 2002, .op = 2, .f = "acquire", .reply = "OK", .after = "1", .ttl = 1000, .sent = 2000});
  const Facts facts(b.history(), find_lock_type("naive"));
  const KeyTrack* key = facts.key("redis0", "orders");
  ASSERT_NE(key, nullptr);
  ASSERT_EQ(key->at(2002).claims.size(), 1u);
  EXPECT_EQ(key->at(2002).claims[0].owner, "B:1");
}

TEST(Facts, WithoutALockTypeAHashIsRecognisedByItsRendering) {
  HistoryBuilder b;
  take(b, 100, "A", 1, "", "A:1=1");
  b.invoke({.t = 200, .p = "B", .op = 2, .f = "lock", .lock = "seed"});
  b.exec(
      {.t = 201, .op = 2, .lock = "seed", .f = "acquire", .reply = "1", .after = "token-b", .ttl = 5000, .sent = 200});
  const Facts facts(b.history(), nullptr);
  const KeyTrack* hash = facts.key("redis0", "orders");
  const KeyTrack* string = facts.key("redis0", "seed");
  ASSERT_TRUE(hash && string);
  ASSERT_EQ(hash->at(101).claims.size(), 1u);
  EXPECT_EQ(hash->at(101).claims[0].field, "A:1");
  ASSERT_EQ(string->at(201).claims.size(), 1u);
  EXPECT_EQ(string->at(201).claims[0].field, "");
  EXPECT_EQ(string->at(201).claims[0].owner, "B:1");
}

TEST(Facts, TheLeaseBoundRisesOnlyWithRequestsSentWhileTheSenderHadTheLock) {
  HistoryBuilder b;
  take(b, 100, "A", 1, "", "A:1=1");  // expires at 30101
  const int64_t renewed = b.renewal({.t = 10101, .client = "A", .holds = "A:1=1", .sent = 10100});  // to 40101
  b.invoke({.t = 15000, .p = "A", .op = 2, .f = "unlock"});
  b.release({.t = 15000, .p = "A", .depth = 0, .op = 2});
  b.info({.t = 15100, .p = "A", .op = 2, .f = "unlock"});  // the unlock never reached the server
  const int64_t stray = b.renewal({.t = 20101, .client = "A", .holds = "A:1=1", .sent = 20100});  // to 50101
  const Facts facts(b.history(), find_lock_type("rlock"));
  const KeyTrack* key = facts.key("redis0", "orders");
  ASSERT_NE(key, nullptr);
  EXPECT_EQ(key->after_event(renewed).expire_at, 40101);
  EXPECT_EQ(key->after_event(renewed).lease_bound, 40101);
  EXPECT_EQ(key->after_event(stray).expire_at, 50101);
  EXPECT_EQ(key->after_event(stray).lease_bound, 40101) << "sent after A had given the lock up";
}

TEST(Facts, ARequestSentInTheMillisecondItsSendersRightEndedIsRightfulOnlyIfACrashEndedIt) {
  // A history that does not place the send among its events (no sent_i: an older file) is judged
  // by the millisecond. A crashed client sends nothing, so a request stamped with its crash's millisecond left before
  // the crash; a watchdog may send after an unlock ended in the same millisecond, without the right.
  for (const bool crash : {false, true}) {
    HistoryBuilder b;
    take(b, 100, "A", 1, "", "A:1=1");  // expires at 30101
    if (crash) {
      b.fault({.t = 15000, .p = "A", .f = "crash"});
      b.release({.t = 15000, .p = "A", .depth = 0, .f = "crash"});
    } else {
      b.invoke({.t = 14900, .p = "A", .op = 2, .f = "unlock"});
      b.release({.t = 14900, .p = "A", .depth = 0, .op = 2});
      b.info({.t = 15000, .p = "A", .op = 2, .f = "unlock"});  // the unlock never reached the server
    }
    const int64_t renewal = b.renewal({.t = 15001, .client = "A", .holds = "A:1=1", .sent = 15000});
    const Facts facts(b.history(), find_lock_type("rlock"));
    const KeyState& s = facts.key("redis0", "orders")->after_event(renewal);
    EXPECT_EQ(s.expire_at, 45001);
    EXPECT_EQ(s.lease_bound, crash ? 45001 : 30101) << (crash ? "sent before the crash" : "sent after the unlock ended");
  }
}

TEST(Facts, WhereTheHistoryPlacesASendItsRightIsJudgedByTheEventsBeforeIt) {
  // Every event at 15000 ms; the renewal's sent_i says which of them came before it left. Whatever
  // ended the right (a crash, the unlock's outcome), a request sent before that event had the
  // right, and one sent after it had not; one sent before a right began in that ms had none.
  struct Case {
    const char* story;
    bool crash;
    int sent_after;  // events of 15000 ms recorded before the send: 0 or all of them (2)
    int64_t bound;
  };
  for (const Case& c : {Case{"sent before the crash", true, 0, 45001}, Case{"sent after the crash", true, 2, 30101},
                        Case{"sent before the unlock ended", false, 0, 45001},
                        Case{"sent after the unlock ended", false, 2, 30101}}) {
    HistoryBuilder b;
    take(b, 100, "A", 1, "", "A:1=1");  // expires at 30101
    int64_t first = 0;
    if (c.crash) {
      first = b.fault({.t = 15000, .p = "A", .f = "crash"});
      b.release({.t = 15000, .p = "A", .depth = 0, .f = "crash"});
    } else {
      b.invoke({.t = 14900, .p = "A", .op = 2, .f = "unlock"});
      b.release({.t = 14900, .p = "A", .depth = 0, .op = 2});
      first = b.info({.t = 15000, .p = "A", .op = 2, .f = "unlock"});  // the unlock never reached the server
      b.key({.t = 15000, .lock = "other", .f = "created"});
    }
    const int64_t renewal =
        b.renewal({.t = 15001, .client = "A", .holds = "A:1=1", .sent = 15000, .sent_i = first + c.sent_after});
    const Facts facts(b.history(), find_lock_type("rlock"));
    const KeyState& s = facts.key("redis0", "orders")->after_event(renewal);
    EXPECT_EQ(s.expire_at, 45001) << c.story;
    EXPECT_EQ(s.lease_bound, c.bound) << c.story;
  }
  // A right begun in the millisecond of the send, after it: not held when the request left.
  for (const bool before : {true, false}) {
    HistoryBuilder b;
    take(b, 100, "A", 1, "", "A:1=1");
    b.invoke({.t = 14000, .p = "A", .op = 2, .f = "unlock"});
    b.release({.t = 14000, .p = "A", .depth = 0, .op = 2});
    b.info({.t = 14500, .p = "A", .op = 2, .f = "unlock"});
    const int64_t again = b.invoke({.t = 15000, .p = "A", .op = 3, .f = "lock"});
    const int64_t renewal =
        b.renewal({.t = 15001, .client = "A", .holds = "A:1=1", .sent = 15000, .sent_i = before ? again : again + 1});
    const Facts facts(b.history(), find_lock_type("rlock"));
    EXPECT_EQ(facts.key("redis0", "orders")->after_event(renewal).lease_bound, before ? 30101 : 45001)
        << (before ? "sent before its next lock() began" : "sent once its next lock() was under way");
  }
}

TEST(Facts, AKeyCreatedAfreshStartsItsLeaseBoundAfresh) {
  HistoryBuilder b;
  take(b, 100, "A", 1, "", "A:1=1");  // bound 30101
  give_up(b, 1000, "A", 2, "A:1=1");
  const Taken c = take(b, 2000, "B", 3, "", "B:1=1", 1000);  // expires at 3001
  const Facts facts(b.history(), find_lock_type("rlock"));
  const KeyState& s = facts.key("redis0", "orders")->after_event(c.exec);
  EXPECT_EQ(s.expire_at, 3001);
  EXPECT_EQ(s.lease_bound, 3001);
}

TEST(Facts, ARequestWhoseSendingTimeIsUnknownIsTakenAsRightful) {
  HistoryBuilder b;
  take(b, 100, "A", 1, "", "A:1=1");
  b.fault({.t = 1000, .p = "A", .f = "crash"});
  b.release({.t = 1000, .p = "A", .depth = 0, .f = "crash"});
  const int64_t late = b.renewal({.t = 2000, .client = "A", .holds = "A:1=1"});
  const Facts facts(b.history(), find_lock_type("rlock"));
  EXPECT_EQ(facts.key("redis0", "orders")->after_event(late).lease_bound, 32000);
}

TEST(Facts, ARestartLeavesTheKeyUnknownUntilAnEventRevealsItFromTheRestartOn) {
  HistoryBuilder b;
  take(b, 100, "A", 1, "", "A:1=1");
  b.fault({.t = 500, .p = "A", .f = "crash"});
  b.release({.t = 500, .p = "A", .depth = 0, .f = "crash"});
  const int64_t restart = b.fault({.t = 1000, .p = "redis0", .f = "restart"});
  const int64_t waits = b.invoke({.t = 1200, .p = "B", .op = 2, .f = "lock"});
  b.key({.t = 2001, .f = "created"});
  const int64_t got =
      b.exec({.t = 2001, .op = 2, .f = "acquire", .reply = "nil", .after = "B:1=1", .ttl = 30000, .sent = 2000});
  b.ok({.t = 2002, .p = "B", .op = 2, .f = "lock"});
  const Facts facts(b.history(), find_lock_type("rlock"));
  const KeyTrack* key = facts.key("redis0", "orders");
  ASSERT_NE(key, nullptr);
  EXPECT_TRUE(key->at(999).present);
  const KeyState& after = key->at(1500);
  EXPECT_EQ(after.event, restart);
  EXPECT_TRUE(after.known) << "B's acquire showed there was no key since the restart";
  EXPECT_FALSE(after.present);
  EXPECT_EQ(key->at(2001).event, got);
  EXPECT_EQ(spans_of(facts.free_spans(op_at(facts, waits), 1200, 2001)),
            (std::vector<Free>{{1200, 2001, FreeWhy::Open}}));
}

TEST(Facts, AKeyARestartRestoredKeepsItsExpiryWhenItShowsTheSameValue) {
  HistoryBuilder b;
  take(b, 100, "A", 1, "", "A:1=1");  // expires at 30101
  b.fault({.t = 1000, .p = "redis0", .f = "restart"});
  b.invoke({.t = 2000, .p = "B", .op = 2, .f = "lock"});
  refused(b, 2001, 2, "A:1=1", 28100);
  const Facts facts(b.history(), find_lock_type("rlock"));
  const KeyState& s = facts.key("redis0", "orders")->at(1500);
  EXPECT_TRUE(s.known);
  EXPECT_TRUE(s.present);
  EXPECT_EQ(s.value, "A:1=1");
  EXPECT_EQ(s.expire_at, 30101);
  EXPECT_EQ(s.lease_bound, 30101);
  ASSERT_EQ(s.claims.size(), 1u);
  EXPECT_EQ(s.claims[0].owner, "A:1");
}

TEST(Facts, AFailoverToALaggingReplicaRevealsAnOlderValueWithAnUnknownExpiry) {
  HistoryBuilder b;
  take(b, 100, "A", 1, "", "A:1=1");
  b.invoke({.t = 200, .p = "A", .op = 2, .f = "lock"});
  b.exec({.t = 201,
          .op = 2,
          .f = "acquire",
          .reply = "nil",
          .before = "A:1=1",
          .after = "A:1=2",
          .ttl = 30000,
          .sent = 200});
  b.ok({.t = 202, .p = "A", .op = 2, .f = "lock"});
  b.hold({.t = 202, .p = "A", .depth = 2, .op = 2});
  b.fault({.t = 1000, .p = "redis0", .f = "failover", .value = 900});
  b.invoke({.t = 2000, .p = "A", .op = 3, .f = "unlock"});
  b.release({.t = 2000, .p = "A", .depth = 1, .op = 3});
  b.exec({.t = 2001,
          .op = 3,
          .f = "unlock",
          .reply = "0",
          .before = "A:1=1",
          .after = "A:1=0",
          .ttl = 30000,
          .sent = 2000});
  const Facts facts(b.history(), find_lock_type("rlock"));
  const KeyState& s = facts.key("redis0", "orders")->at(1500);
  EXPECT_TRUE(s.known);
  EXPECT_TRUE(s.present);
  EXPECT_EQ(s.value, "A:1=1");
  EXPECT_EQ(s.expire_at, kUnknownExpiry);
  ASSERT_EQ(s.claims.size(), 1u);
  EXPECT_EQ(s.claims[0].owner, "A:1");
  EXPECT_EQ(s.claims[0].count, 1);
}

TEST(Facts, AKeyNoEventRevealedAfterARestartStaysUnknownAndKeepsTheLock) {
  HistoryBuilder b;
  take(b, 100, "A", 1, "", "A:1=1");
  give_up(b, 300, "A", 2, "A:1=1");
  const int64_t waits = b.invoke({.t = 500, .p = "B", .op = 3, .f = "lock"});
  b.fault({.t = 1000, .p = "redis0", .f = "restart"});
  end_at(b, 5000);
  const Facts facts(b.history(), find_lock_type("rlock"));
  EXPECT_FALSE(facts.key("redis0", "orders")->at(3000).known);
  EXPECT_EQ(spans_of(facts.free_spans(op_at(facts, waits), 500, 5000)),
            (std::vector<Free>{{500, 1000, FreeWhy::Open}}));
}

// ---------------------------------------------------------------- free spans

TEST(Facts, ARightfulHolderKeepsTheLockUntilItsUnlockRanOnTheServer) {
  HistoryBuilder b;
  take(b, 100, "A", 1, "", "A:1=1");
  const int64_t waits = b.invoke({.t = 1000, .p = "B", .op = 2, .f = "lock"});
  refused(b, 1001, 2, "A:1=1", 29100);
  const Given g = give_up(b, 5000, "A", 3, "A:1=1");
  b.key({.t = 5003, .f = "created"});
  b.exec({.t = 5003, .op = 2, .f = "acquire", .reply = "nil", .after = "B:1=1", .ttl = 30000, .sent = 5002});
  b.ok({.t = 5004, .p = "B", .op = 2, .f = "lock"});
  const Facts facts(b.history(), find_lock_type("rlock"));
  // Free from the unlock's execution to B's grant; from then on the lock is B's, not free.
  const auto free = facts.free_spans(op_at(facts, waits), 1000, 5004);
  EXPECT_EQ(spans_of(free), (std::vector<Free>{{5001, 5003, FreeWhy::Open}}));
  ASSERT_EQ(free.size(), 1u);
  EXPECT_EQ(free[0].key, facts.key("redis0", "orders"));
  EXPECT_EQ(free[0].state_event, g.exec);
}

TEST(Facts, ACrashedHoldersLeaseRunningOutKeepsTheLock) {
  HistoryBuilder b;
  take(b, 100, "A", 1, "", "A:1=1");  // expires at 30101
  b.fault({.t = 1000, .p = "A", .f = "crash"});
  b.release({.t = 1000, .p = "A", .depth = 0, .f = "crash"});
  const int64_t waits = b.invoke({.t = 2000, .p = "B", .op = 2, .f = "lock"});
  refused(b, 2001, 2, "A:1=1", 28100);
  const int64_t expired = b.key({.t = 30102, .f = "expired"});  // Redis drops it once past 30101 ms
  b.key({.t = 30150, .f = "created"});
  b.exec({.t = 30150, .op = 2, .f = "acquire", .reply = "nil", .after = "B:1=1", .ttl = 30000, .sent = 30148});
  const Facts facts(b.history(), find_lock_type("rlock"));
  const auto free = facts.free_spans(op_at(facts, waits), 2000, 30150);
  EXPECT_EQ(spans_of(free), (std::vector<Free>{{30102, 30150, FreeWhy::Open}}));
  ASSERT_EQ(free.size(), 1u);
  EXPECT_EQ(free[0].state_event, expired);
}

TEST(Facts, AKeyPastItsExpiryKeepsNobodyEvenBeforeTheServerReportsItExpired) {
  HistoryBuilder b;
  take(b, 100, "A", 1, "", "A:1=1");  // expires at 30101
  b.fault({.t = 1000, .p = "A", .f = "crash"});
  b.release({.t = 1000, .p = "A", .depth = 0, .f = "crash"});
  const int64_t waits = b.invoke({.t = 2000, .p = "B", .op = 2, .f = "lock"});
  refused(b, 2001, 2, "A:1=1", 28100);
  b.key({.t = 31000, .f = "expired"});  // a slow active-expiry cycle notices it late
  b.key({.t = 31000, .f = "created"});
  b.exec({.t = 31000, .op = 2, .f = "acquire", .reply = "nil", .after = "B:1=1", .ttl = 30000, .sent = 30998});
  const Facts facts(b.history(), find_lock_type("rlock"));
  // Redis treats the key as gone once its clock is past 30101 ms.
  EXPECT_EQ(merged(facts.free_spans(op_at(facts, waits), 2000, 31000)),
            (std::vector<Free>{{30102, 31000, FreeWhy::Open}}));
}

TEST(Facts, AnAcquireThatRanButWhoseReplyIsOnTheWayKeepsTheLock) {
  HistoryBuilder b;
  const int64_t waits = b.invoke({.t = 0, .p = "B", .op = 1, .f = "lock"});
  b.invoke({.t = 100, .p = "A", .op = 2, .f = "lock"});
  b.fault({.t = 100, .p = "A", .f = "delay", .value = 2800, .for_ms = 3000});
  b.key({.t = 101, .f = "created"});
  b.exec({.t = 101, .op = 2, .f = "acquire", .reply = "nil", .after = "A:1=1", .ttl = 30000, .sent = 100});
  refused(b, 150, 1, "A:1=1", 29951);
  b.ok({.t = 3000, .p = "A", .op = 2, .f = "lock"});  // the reply took its time
  b.hold({.t = 3000, .p = "A", .depth = 1, .op = 2});
  give_up(b, 4000, "A", 3, "A:1=1");
  b.key({.t = 4003, .f = "created"});
  b.exec({.t = 4003, .op = 1, .f = "acquire", .reply = "nil", .after = "B:1=1", .ttl = 30000, .sent = 4002});
  const Facts facts(b.history(), find_lock_type("rlock"));
  EXPECT_EQ(merged(facts.free_spans(op_at(facts, waits), 0, 4003)),
            (std::vector<Free>{{0, 101, FreeWhy::Open}, {4001, 4003, FreeWhy::Open}}));
}

TEST(Facts, AnExpiryBeyondTheLeaseItsGoneHolderSetIsStale) {
  HistoryBuilder b;
  take(b, 100, "A", 1, "", "A:1=1");  // expires at 30101, all A set while holding
  b.invoke({.t = 5000, .p = "A", .op = 2, .f = "unlock"});
  b.release({.t = 5000, .p = "A", .depth = 0, .op = 2});
  b.info({.t = 5100, .p = "A", .op = 2, .f = "unlock"});  // lost on the way
  const int64_t waits = b.invoke({.t = 6000, .p = "B", .op = 3, .f = "lock"});
  refused(b, 6001, 3, "A:1=1", 24100);
  const int64_t stray = b.renewal({.t = 10000, .client = "A", .holds = "A:1=1", .sent = 9999});  // to 40000
  end_at(b, 20000);
  const Facts facts(b.history(), find_lock_type("rlock"));
  const auto free = facts.free_spans(op_at(facts, waits), 6000, 20000);
  EXPECT_EQ(spans_of(free), (std::vector<Free>{{10000, 20000, FreeWhy::Stale}}));
  ASSERT_EQ(free.size(), 1u);
  EXPECT_EQ(free[0].state_event, stray);
}

TEST(Facts, AKeyWithoutExpiryWhoseHolderIsGoneIsFreeForever) {
  HistoryBuilder b;
  b.invoke({.t = 0, .p = "A", .op = 1, .f = "lock"});
  b.key({.t = 2, .f = "created"});
  b.exec({.t = 2, .op = 1, .f = "acquire", .reply = "1", .after = "1", .ttl = -1, .sent = 0});
  b.ok({.t = 4, .p = "A", .op = 1, .f = "lock"});
  b.hold({.t = 4, .p = "A", .depth = 1, .op = 1});
  const int64_t waits = b.invoke({.t = 10, .p = "B", .op = 2, .f = "lock"});
  b.exec({.t = 12, .op = 2, .f = "acquire", .reply = "0", .before = "1", .after = "1", .ttl = -1, .sent = 10});
  b.fault({.t = 50, .p = "A", .f = "crash"});
  b.release({.t = 50, .p = "A", .depth = 0, .f = "crash"});
  b.exec({.t = 112, .op = 2, .f = "acquire", .reply = "0", .before = "1", .after = "1", .ttl = -1, .sent = 110});
  end_at(b, 3000);
  const Facts facts(b.history(), find_lock_type("setnx"));
  EXPECT_EQ(merged(facts.free_spans(op_at(facts, waits), 10, 3000)), (std::vector<Free>{{50, 3000, FreeWhy::Forever}}));
}

TEST(Facts, AWaiterThatAlreadyHoldsTheLockOnTheServerIsNotWaitingOnAFreeLock) {
  HistoryBuilder b;
  take(b, 100, "A", 1, "", "A:1=1");
  const int64_t again = b.invoke({.t = 1000, .p = "A", .op = 2, .f = "lock"});
  b.exec({.t = 1001,
          .op = 2,
          .f = "acquire",
          .reply = "nil",
          .before = "A:1=1",
          .after = "A:1=2",
          .ttl = 30000,
          .sent = 1000});
  b.ok({.t = 1002, .p = "A", .op = 2, .f = "lock"});
  b.hold({.t = 1002, .p = "A", .depth = 2, .op = 2});
  const Facts facts(b.history(), find_lock_type("rlock"));
  // Its own hold does not keep it out (the server lets it re-enter), but the lock is its already.
  EXPECT_TRUE(facts.free_spans(op_at(facts, again), 1000, 1002).empty());
}

TEST(Facts, TheWaitersOwnKeyKeepsItFromALockWithoutServerReentry) {
  HistoryBuilder b;
  b.invoke({.t = 0, .p = "A", .op = 1, .f = "lock"});
  b.key({.t = 2, .f = "created"});
  b.exec({.t = 2, .op = 1, .f = "acquire", .reply = "1", .after = "1", .ttl = 30000, .sent = 0});
  b.ok({.t = 4, .p = "A", .op = 1, .f = "lock"});
  b.hold({.t = 4, .p = "A", .depth = 1, .op = 1});
  const int64_t again = b.invoke({.t = 1000, .p = "A", .op = 2, .f = "try_lock", .wait_ms = 500});
  b.exec({.t = 1001, .op = 2, .f = "acquire", .reply = "0", .before = "1", .after = "1", .ttl = 29002, .sent = 1000});
  b.fail({.t = 1500, .p = "A", .op = 2, .f = "try_lock"});
  const Facts facts(b.history(), find_lock_type("setnx"));
  EXPECT_TRUE(facts.free_spans(op_at(facts, again), 1000, 1500).empty());
}

TEST(Facts, APausedServerKeepsTheLock) {
  HistoryBuilder b;
  const int64_t waits = b.invoke({.t = 500, .p = "B", .op = 1, .f = "lock"});
  b.fault({.t = 1000, .p = "redis0", .f = "pause", .for_ms = 2000});
  b.fault({.t = 3000, .p = "redis0", .f = "resume"});
  b.key({.t = 4000, .f = "created"});
  b.exec({.t = 4000, .op = 1, .f = "acquire", .reply = "nil", .after = "B:1=1", .ttl = 30000, .sent = 3999});
  const Facts facts(b.history(), find_lock_type("rlock"));
  EXPECT_EQ(merged(facts.free_spans(op_at(facts, waits), 500, 4000)),
            (std::vector<Free>{{500, 1000, FreeWhy::Open}, {3000, 4000, FreeWhy::Open}}));
}

TEST(Facts, ADownServerKeepsTheLockUntilItsFailoverAndTheNextEventRevealsTheKey) {
  HistoryBuilder b;
  const int64_t waits = b.invoke({.t = 500, .p = "B", .op = 1, .f = "lock"});
  b.fault({.t = 1000, .p = "redis0", .f = "down"});
  const int64_t failover = b.fault({.t = 3000, .p = "redis0", .f = "failover"});
  b.key({.t = 4000, .f = "created"});
  b.exec({.t = 4000, .op = 1, .f = "acquire", .reply = "nil", .after = "B:1=1", .ttl = 30000, .sent = 3999});
  const Facts facts(b.history(), find_lock_type("rlock"));
  const auto free = facts.free_spans(op_at(facts, waits), 500, 4000);
  EXPECT_EQ(spans_of(free), (std::vector<Free>{{500, 1000, FreeWhy::Open}, {3000, 4000, FreeWhy::Open}}));
  ASSERT_EQ(free.size(), 2u);
  EXPECT_EQ(free[1].state_event, failover);
}

// A RedLock over redis0..redis2: A, which crashed at 10, holds redis0 until its lease runs out.
TEST(Facts, ARedLockIsFreeOnAMajorityButNotWhileThePartItTriedLastKeepsIt) {
  HistoryBuilder b;
  b.invoke({.t = 0, .p = "A", .op = 1, .f = "lock"});
  b.key({.t = 1, .f = "created"});
  b.exec({.t = 1, .op = 1, .f = "acquire", .reply = "nil", .after = "A:1=1", .ttl = 30000, .sent = 0});
  b.fault({.t = 10, .p = "A", .f = "crash"});
  const int64_t waits = b.invoke({.t = 100, .p = "B", .op = 2, .f = "lock"});
  refused(b, 101, 2, "A:1=1", 29900, "redis0");  // B waits on redis0 a while
  b.key({.t = 5000, .f = "created", .p = "redis1"});
  b.exec({.t = 5000,
          .op = 2,
          .f = "acquire",
          .reply = "nil",
          .after = "B:1=1",
          .p = "redis1",
          .ttl = 30000,
          .sent = 4999});
  b.key({.t = 5001, .f = "created", .p = "redis2"});
  b.exec({.t = 5001,
          .op = 2,
          .f = "acquire",
          .reply = "nil",
          .after = "B:1=1",
          .p = "redis2",
          .ttl = 30000,
          .sent = 5000});
  b.ok({.t = 5002, .p = "B", .op = 2, .f = "lock"});
  const Facts facts(b.history(), find_lock_type("red"));
  ASSERT_EQ(facts.parts("orders").size(), 3u);
  // Before B tries anything redis1 and redis2 are a free majority; while B waits on redis0, which
  // keeps it, nothing is free; once it has redis1 its own hold there and the free redis2 make the
  // majority, until it has redis2 too (then the lock is its).
  const auto free = facts.free_spans(op_at(facts, waits), 100, 5002);
  EXPECT_EQ(spans_of(free), (std::vector<Free>{{100, 101, FreeWhy::Open}, {5000, 5001, FreeWhy::Open}}));
  ASSERT_EQ(free.size(), 2u);
  EXPECT_EQ(free[0].key, facts.key("redis1", "orders"));
  EXPECT_EQ(free[1].key, facts.key("redis2", "orders"));
  EXPECT_EQ(free[1].state_event, -1);
}

TEST(Facts, ARedLockHeldOnAMajorityByAHolderWhoseLeaseRunsIsNotFree) {
  HistoryBuilder b;
  b.invoke({.t = 0, .p = "A", .op = 1, .f = "lock"});
  b.key({.t = 1, .f = "created"});
  b.exec({.t = 1, .op = 1, .f = "acquire", .reply = "nil", .after = "A:1=1", .ttl = 30000, .sent = 0});
  b.key({.t = 2, .f = "created", .p = "redis1"});
  b.exec({.t = 2, .op = 1, .f = "acquire", .reply = "nil", .after = "A:1=1", .p = "redis1", .ttl = 30000, .sent = 1});
  b.fault({.t = 10, .p = "A", .f = "crash"});
  const int64_t waits = b.invoke({.t = 100, .p = "B", .op = 2, .f = "lock"});
  b.key({.t = 5000, .f = "created", .p = "redis2"});
  b.exec({.t = 5000,
          .op = 2,
          .f = "acquire",
          .reply = "nil",
          .after = "B:1=1",
          .p = "redis2",
          .ttl = 30000,
          .sent = 4999});
  const Facts facts(b.history(), find_lock_type("red"));
  EXPECT_TRUE(facts.free_spans(op_at(facts, waits), 100, 5000).empty());
}

TEST(Facts, AFairLocksWaitReplyKeepsTheWaiterForItsTimeWhenAsked) {
  HistoryBuilder b;
  const int64_t waits = b.invoke({.t = 999, .p = "B", .op = 1, .f = "lock"});
  // a queue ahead of it
  b.exec({.t = 1000, .op = 1, .f = "acquire", .reply = "5000", .ttl = -2, .sent = 999});
  b.key({.t = 6001, .f = "created"});
  b.exec({.t = 6001, .op = 1, .f = "acquire", .reply = "nil", .after = "B:1=1", .ttl = 30000, .sent = 6000});
  const Facts facts(b.history(), find_lock_type("fair"));
  const Op& op = op_at(facts, waits);
  FreeOptions queue;
  queue.queue_replies = true;
  EXPECT_EQ(merged(facts.free_spans(op, 999, 6001, queue)), (std::vector<Free>{{999, 1000, FreeWhy::Open}}));
  EXPECT_EQ(merged(facts.free_spans(op, 999, 6001)), (std::vector<Free>{{999, 6001, FreeWhy::Open}}));
}

TEST(Facts, AFairLocksWaitReplyKeepsTheWaiterOnlyForTheTimeItNames) {
  HistoryBuilder b;
  const int64_t waits = b.invoke({.t = 999, .p = "B", .op = 1, .f = "lock"});
  // "wait 1000 ms"
  b.exec({.t = 1000, .op = 1, .f = "acquire", .reply = "1000", .ttl = -2, .sent = 999});
  b.key({.t = 6001, .f = "created"});
  b.exec({.t = 6001, .op = 1, .f = "acquire", .reply = "nil", .after = "B:1=1", .ttl = 30000, .sent = 6000});
  const Facts facts(b.history(), find_lock_type("fair"));
  FreeOptions queue;
  queue.queue_replies = true;
  // Told at 1000 ms to wait 1000 ms: kept to 2001 ms (the reply's ms included), free after.
  EXPECT_EQ(merged(facts.free_spans(op_at(facts, waits), 999, 6001, queue)),
            (std::vector<Free>{{999, 1000, FreeWhy::Open}, {2001, 6001, FreeWhy::Open}}));
}

// ---------------------------------------------------------------- span arithmetic

TEST(Facts, MergeSpansJoinsOverlappingAndTouchingSpansAndDropsEmptyOnes) {
  const auto m = merge_spans({Span{5, 8}, Span{0, 3}, Span{3, 4}, Span{10, 10}, Span{7, 9}});
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].from_ms, 0);
  EXPECT_EQ(m[0].to_ms, 4);
  EXPECT_EQ(m[1].from_ms, 5);
  EXPECT_EQ(m[1].to_ms, 9);
}

TEST(Facts, UsableTimeIsTheSpansInsideTheWindowMinusTimeAway) {
  // [5, 10) less [8, 10) is 3 ms; [20, 25) less [20, 22) is 3 ms.
  EXPECT_EQ(usable_ms({Span{0, 10}, Span{20, 30}}, 5, 25, {Span{8, 22}}), 6);
  EXPECT_EQ(usable_ms({Span{0, 10}}, 0, 10, {Span{2, 4}, Span{3, 6}}), 6);
  EXPECT_EQ(usable_ms({Span{0, kForever}}, 0, 100, {}), 100);
}

}  // namespace
}  // namespace locksim::model
