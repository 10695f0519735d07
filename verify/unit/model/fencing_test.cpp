#include "model/fencing.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
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
using test::expect_evidence;
using test::HistoryBuilder;
using test::Want;
using W = std::vector<int64_t>;

// The checker on `b`'s history, its facts worked out for the lock type `type` ("" for an unknown one).
Verdict check(const HistoryBuilder& b, const FencingOptions& options = {}, const char* type = "token") {
  const Facts facts(b.history(), find_lock_type(type));
  CheckerOptions streamed = test::options_for(type);
  streamed.fencing = options;
  return test::streamed_alike(b.history(), "fencing", streamed, check_fencing(facts, options));
}

// The token lock "orders" as the world records it: SET NX PX 10000 with a random value, then INCR of
// "{orders}:fence" (recorded against the lock key, which it leaves as it is) answering the token.
struct Acquired {
  int64_t set = -1, fence = -1, hold = -1;
};

// process:1's acquire: Invoke at t, the SET at t+2, the INCR at t+4, Ok (the token) and Hold at t+6.
Acquired acquired(HistoryBuilder& b, int64_t t, const std::string& process, int64_t op, int64_t token) {
  const std::string value = "value-of-" + process + "-" + std::to_string(op);
  Acquired a;
  b.invoke({.t = t, .p = process, .op = op, .f = "lock", .lease_ms = 10000});
  b.key({.t = t + 2, .f = "created"});
  b.key({.t = t + 2, .f = "expire_set", .value = t + 10002});
  a.set = b.exec({.t = t + 2, .op = op, .f = "acquire", .reply = "+OK", .after = value, .ttl = 10000, .sent = t});
  if (token == 1) b.key({.t = t + 4, .lock = "{orders}:fence", .f = "created"});
  a.fence = b.exec({.t = t + 4,
                    .op = op,
                    .f = "fence",
                    .reply = std::to_string(token),
                    .before = value,
                    .after = value,
                    .ttl = 9998,
                    .sent = t + 2});
  b.ok({.t = t + 6, .p = process, .op = op, .f = "lock", .value = token});
  a.hold = b.hold({.t = t + 6, .p = process, .depth = 1, .lease_ms = 10000, .op = op});
  return a;
}

// process:1's compare-and-delete unlock of the key holding `value`, at t.
void unlocked(HistoryBuilder& b, int64_t t, const std::string& process, int64_t op, const std::string& value) {
  b.invoke({.t = t, .p = process, .op = op, .f = "unlock"});
  b.release({.t = t, .p = process, .depth = 0, .op = op});
  b.key({.t = t + 1, .f = "deleted"});
  b.exec({.t = t + 1, .op = op, .f = "unlock", .reply = "1", .before = value, .ttl = -2, .sent = t});
  b.ok({.t = t + 2, .p = process, .op = op, .f = "unlock"});
}

// process:1's write of `token` to the resource "orders": Invoke at t, the resource's answer (the Write
// event, returned) at t+1, the outcome at t+2.
int64_t wrote(HistoryBuilder& b, int64_t t, const std::string& process, int64_t op, int64_t token,
              bool accepted = true) {
  b.invoke({.t = t, .p = process, .op = op, .f = "write"});
  const int64_t w =
      b.write({.t = t + 1, .p = process, .f = accepted ? "accepted" : "rejected", .value = token, .lock = "orders"});
  if (accepted)
    b.ok({.t = t + 2, .p = process, .op = op, .f = "write", .value = token});
  else
    b.fail({.t = t + 2, .p = process, .op = op, .f = "write", .text = "rejected: a newer token was seen"});
  return w;
}

// A write accepted from process:thread, for the tests that need threads other than 1.
int64_t accepted_from(HistoryBuilder& b, int64_t t, const std::string& process, int64_t thread, int64_t token) {
  Event e;
  e.at_ms = t;
  e.kind = EventKind::Write;
  e.process = process;
  e.thread = thread;
  e.f = "accepted";
  e.value = token;
  return b.add(std::move(e));
}

TEST(CheckerFencing, NoAcceptedWriteHolds) {
  HistoryBuilder b;
  acquired(b, 0, "A", 1, 3);
  wrote(b, 100, "A", 2, 3, /*accepted=*/false);
  const Verdict v = check(b);
  EXPECT_EQ(v.valid, Validity::Yes);
  EXPECT_EQ(v.property, "fencing");
  EXPECT_EQ(v.explanation, "no write with a fencing token accepted");
}

// With no fenced write the resource's fencing was never exercised: unknown, not "holds" (an
// exhaustive search of a token lock without writes said "HOLDS for every schedule" of fencing).
// A write without a token (0) is not judged, so it does not count either.
TEST(CheckerFencing, NoFencedWriteIsUnknown) {
  HistoryBuilder b;
  acquired(b, 0, "A", 1, 3);
  EXPECT_EQ(check(b).valid, Validity::Unknown);
  wrote(b, 100, "A", 2, 0, /*accepted=*/true);
  const Verdict v = check(b);
  EXPECT_EQ(v.valid, Validity::Unknown);
  EXPECT_NE(v.explanation.find("no write with a fencing token reached the fenced resource"), std::string::npos) << v.explanation;
}

TEST(CheckerFencing, OneHolderWritingTwiceWithItsTokenAndRisingTokensHold) {
  HistoryBuilder b;
  acquired(b, 0, "A", 1, 1);
  wrote(b, 10, "A", 2, 1);
  wrote(b, 20, "A", 3, 1);  // the same holder again, with the same token
  unlocked(b, 100, "A", 4, "value-of-A-1");
  acquired(b, 200, "B", 5, 2);
  wrote(b, 210, "B", 6, 2);
  wrote(b, 300, "A", 7, 1, /*accepted=*/false);  // A's stale token, refused: the resource did its job
  const Verdict v = check(b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_TRUE(v.witness.empty());
  EXPECT_EQ(v.explanation, "3 accepted writes, each holder's tokens above every other holder's before it");
}

TEST(CheckerFencing, ALowerTokenThanAnotherHoldersEarlierOneIsAFencingOrder) {
  HistoryBuilder b;
  const Acquired a = acquired(b, 0, "A", 1, 1);
  b.fault({.t = 100, .p = "A", .f = "pause", .for_ms = 15000});
  b.key({.t = 10100, .f = "expired", .value = 10002});
  const Acquired c = acquired(b, 11000, "B", 2, 2);
  const int64_t high = wrote(b, 11010, "B", 3, 2);
  b.fault({.t = 15100, .p = "A", .f = "resume"});
  const int64_t low = wrote(b, 15100, "A", 4, 1);  // a resource that does not check tokens takes it
  const Verdict v = check(b);
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.property, "fencing");
  EXPECT_EQ(v.anomaly, anomaly::kFencingOrder);
  // Only server faults between the two tokens' executions count: A's pause is not one.
  EXPECT_EQ(v.witness, (W{a.fence, c.fence, high, low}));
  expect_evidence(v, "earlier_write", {high, 11011, "B:1", "orders", "accepted", 2});
  expect_evidence(v, "later_write", {low, 15101, "A:1", "orders", "accepted", 1});
  expect_evidence(v, "earlier_token", {c.fence, 11004, "redis0", "orders", "2", 0});
  expect_evidence(v, "later_token", {a.fence, 4, "redis0", "orders", "1", 0});
  EXPECT_EQ(v.explanation,
            "Let orders accept a write from B:1 with token 2 at 11011 ms (handed out by redis0 at 11004 ms). Then it "
            "accepted a write from A:1, another holder, with token 1 at 15101 ms (handed out by redis0 at 4 ms), "
            "lower than 2.");
}

// A takes token 1, writes and unlocks; redis0 restarts at 5000, with or without its data; B takes
// the next token at 6000 and writes.
struct Restart {
  HistoryBuilder b;
  Acquired a, c;
  int64_t a_write = -1, restart = -1, b_write = -1;

  explicit Restart(bool keeps_data) {
    a = acquired(b, 0, "A", 1, 1);
    a_write = wrote(b, 10, "A", 2, 1);
    unlocked(b, 100, "A", 3, "value-of-A-1");
    restart = b.fault({.t = 5000, .p = "redis0", .f = "restart"});
    const int64_t token = keeps_data ? 2 : 1;  // without its data the fence counter starts again
    c = acquired(b, 6000, "B", 4, token);
    b_write = wrote(b, 6010, "B", 5, token);
  }
};

TEST(CheckerFencing, TheSameTokenFromTwoHoldersAfterARestartIsASharedToken) {
  const Restart h(/*keeps_data=*/false);
  const Verdict v = check(h.b);
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kSharedToken);
  EXPECT_EQ(v.witness, (W{h.a.fence, h.a_write, h.restart, h.c.fence, h.b_write}));
  expect_evidence(v, "earlier_write", {h.a_write, 11, "A:1", "orders", "accepted", 1});
  expect_evidence(v, "later_write", {h.b_write, 6011, "B:1", "orders", "accepted", 1});
  expect_evidence(v, "earlier_token", {h.a.fence, 4, "redis0", "orders", "1", 0});
  expect_evidence(v, "later_token", {h.c.fence, 6004, "redis0", "orders", "1", 0});
  expect_evidence(v, "fault", {h.restart, 5000, "redis0", "", "restart", 0});
  EXPECT_EQ(v.explanation,
            "Let orders accept a write from A:1 with token 1 at 11 ms (handed out by redis0 at 4 ms). Then it "
            "accepted a write from B:1, another holder, with the same token 1 at 6011 ms (handed out by redis0 at "
            "6004 ms): a token two holders share fences nothing. Faults meanwhile: restart of redis0 at 5000 ms.");
}

TEST(CheckerFencing, ARestartThatKeptTheFenceCounterHolds) {
  const Restart h(/*keeps_data=*/true);
  const Verdict v = check(h.b);
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(v.explanation, "2 accepted writes, each holder's tokens above every other holder's before it");
}

TEST(CheckerFencing, TwoThreadsOfOneProcessAreTwoHoldersAndWritesAloneAreJudged) {
  HistoryBuilder b;
  const int64_t first = accepted_from(b, 100, "A", 1, 3);
  const int64_t second = accepted_from(b, 200, "A", 2, 3);
  const Verdict v = check(b, {}, "");
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kSharedToken);
  EXPECT_EQ(v.witness, (W{first, second}));
  // No execution handed the token out, so no source is named.
  EXPECT_EQ(v.find("earlier_token"), nullptr);
  EXPECT_EQ(v.find("later_token"), nullptr);
  EXPECT_EQ(v.explanation,
            "Let the resource accept a write from A:1 with token 3 at 100 ms. Then it accepted a write from A:2, "
            "another holder, with the same token 3 at 200 ms: a token two holders share fences nothing.");
}

TEST(CheckerFencing, TheHighestEarlierTokenOfAnotherHolderIsTheOneReported) {
  HistoryBuilder b;
  b.write({.t = 100, .p = "A", .f = "accepted", .value = 5});
  const int64_t highest = b.write({.t = 200, .p = "B", .f = "accepted", .value = 7});
  const int64_t late = b.write({.t = 300, .p = "C", .f = "accepted", .value = 5});  // equal to A's, lower than B's
  const Verdict v = check(b, {}, "");
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kFencingOrder);
  EXPECT_EQ(v.witness, (W{highest, late}));
  EXPECT_EQ(evidence(v, "earlier_write").number, 7);
}

TEST(CheckerFencing, AHoldersHighestTokenSoFarCounts) {
  HistoryBuilder b;
  b.write({.t = 100, .p = "A", .f = "accepted", .value = 3});
  const int64_t nine = b.write({.t = 200, .p = "A", .f = "accepted", .value = 9});
  const int64_t seven = b.write({.t = 300, .p = "B", .f = "accepted", .value = 7});  // above A's 3, below A's 9
  const Verdict v = check(b, {}, "");
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kFencingOrder);
  EXPECT_EQ(v.witness, (W{nine, seven}));
}

TEST(CheckerFencing, ResourcesAreJudgedSeparately) {
  HistoryBuilder b;
  b.write({.t = 100, .p = "A", .f = "accepted", .value = 7, .lock = "db"});
  // below A's 7, but on another resource
  const int64_t cache = b.write({.t = 200, .p = "B", .f = "accepted", .value = 2, .lock = "cache"});
  EXPECT_EQ(check(b, {}, "").valid, Validity::Yes);
  const int64_t again = b.write({.t = 300, .p = "C", .f = "accepted", .value = 2, .lock = "cache"});
  const Verdict v = check(b, {}, "");
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kSharedToken);
  EXPECT_EQ(v.witness, (W{cache, again}));
  EXPECT_EQ(evidence(v, "earlier_write").where, "cache");
  EXPECT_NE(v.explanation.find("Let cache accept a write from B:1 with token 2"), std::string::npos) << v.explanation;
}

TEST(CheckerFencing, UnfencedWritesAreNotJudgedUnlessUnfencedIsZero) {
  HistoryBuilder b;
  const int64_t fenced = b.write({.t = 100, .p = "A", .f = "accepted", .value = 4});
  const int64_t unfenced = b.write({.t = 200, .p = "B", .f = "accepted", .value = 0});
  const Verdict v = check(b, {}, "");
  EXPECT_EQ(v.valid, Validity::Yes) << v.explanation;
  EXPECT_EQ(v.explanation, "1 accepted write, each holder's tokens above every other holder's before it");
  const Verdict zero = check(b, FencingOptions{.unfenced_is_zero = true}, "");
  ASSERT_EQ(zero.valid, Validity::No);
  EXPECT_EQ(zero.anomaly, anomaly::kFencingOrder);
  EXPECT_EQ(zero.witness, (W{fenced, unfenced}));
  EXPECT_EQ(evidence(zero, "later_write").number, 0);
}

}  // namespace
}  // namespace locksim::model
