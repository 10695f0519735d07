// Clients blocked on keys (blocked.hpp), as Redis 7.0's blocked.c serves them: a wait begins only
// where a client may block, a key made ready is served after the command that made it so, first
// blocked first, and a wait ends served, timed out, unblocked or with its connection. What Redis
// answers over a socket is pinned against redis-server by verify/serve/blocking_vs_redis.py.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "engine/blocked.hpp"
#include "verify/unit/engine/engine_harness.hpp"

namespace locksim::engine {
namespace {

// A host that can carry a later reply, as `locksim serve` does: each session's replies in order.
class BlockingHost : public ManualHost {
 public:
  bool can_block() const override { return true; }
  void unblocked(SessionId session, const Reply& reply) override { replies[session].push_back(reply); }
  std::map<SessionId, std::vector<Reply>> replies;
};

class Blocked : public ::testing::Test {
 protected:
  Reply run(SessionId s, std::initializer_list<std::string_view> argv) { return engine_.execute(s, argv); }
  // The replies `s` got since blocking, taken.
  std::vector<Reply> later(SessionId s) { return std::exchange(host_.replies[s], {}); }
  static Reply bulks(std::initializer_list<std::string_view> items) {
    Reply reply = Reply::array();
    for (auto item : items) reply.elements.push_back(Reply::bulk(item));
    return reply;
  }
  static bool waits(const Reply& r) { return r.kind == Reply::Kind::Sequence && r.elements.empty(); }

  BlockingHost host_;
  Engine engine_{host_};
  SessionId a_ = engine_.open_session(), b_ = engine_.open_session(), c_ = engine_.open_session();
};

TEST_F(Blocked, ABlpopOnNothingWaitsAndAPushServesItAfterThePushHasAnswered) {
  EXPECT_TRUE(waits(run(a_, {"BLPOP", "k", "0"})));
  EXPECT_TRUE(engine_.blocked(a_));
  EXPECT_EQ(engine_.blocked_clients(), 1u);
  EXPECT_EQ(run(c_, {"LPUSH", "k", "x", "y"}), Reply::integer_of(2));  // the push's own count
  EXPECT_EQ(later(a_), std::vector<Reply>{bulks({"k", "y"})});
  EXPECT_FALSE(engine_.blocked(a_));
  EXPECT_EQ(run(c_, {"LRANGE", "k", "0", "-1"}), bulks({"x"}));
}

TEST_F(Blocked, WaitersAreServedFirstBlockedFirstWhileTheListLasts) {
  EXPECT_TRUE(waits(run(b_, {"BRPOP", "k", "0"})));
  EXPECT_TRUE(waits(run(a_, {"BLPOP", "other", "k", "0"})));
  const SessionId d = engine_.open_session();
  EXPECT_TRUE(waits(run(d, {"BLPOP", "k", "0"})));
  EXPECT_EQ(run(c_, {"RPUSH", "k", "1", "2"}), Reply::integer_of(2));
  EXPECT_EQ(later(b_), std::vector<Reply>{bulks({"k", "2"})});
  EXPECT_EQ(later(a_), std::vector<Reply>{bulks({"k", "1"})});
  EXPECT_TRUE(later(d).empty());  // the list ran out and went: d waits on
  EXPECT_EQ(run(c_, {"EXISTS", "k"}), Reply::integer_of(0));
  EXPECT_TRUE(engine_.blocked(d));
  EXPECT_FALSE(engine_.blocked(a_));  // served on one key, no longer waiting on the other
  EXPECT_EQ(run(c_, {"RPUSH", "other", "o"}), Reply::integer_of(1));
  EXPECT_TRUE(later(a_).empty());
  EXPECT_EQ(run(c_, {"LLEN", "other"}), Reply::integer_of(1));
}

TEST_F(Blocked, AKeyCreatedAndGoneWithinOneTransactionWakesNobody) {
  EXPECT_TRUE(waits(run(a_, {"BLPOP", "k", "0"})));
  run(c_, {"MULTI"});
  run(c_, {"LPUSH", "k", "x"});
  run(c_, {"DEL", "k"});
  EXPECT_EQ(run(c_, {"EXEC"}).elements.size(), 2u);
  EXPECT_TRUE(later(a_).empty());
  EXPECT_TRUE(engine_.blocked(a_));
  // A key of another type is no list to pop: still waiting.
  run(c_, {"SET", "k", "v"});
  EXPECT_TRUE(engine_.blocked(a_));
  run(c_, {"DEL", "k"});
  run(c_, {"RPUSH", "k", "z"});
  EXPECT_EQ(later(a_), std::vector<Reply>{bulks({"k", "z"})});
}

TEST_F(Blocked, AScriptsPushesWakeTheWaiterOnceTheScriptHasEnded) {
  EXPECT_TRUE(waits(run(a_, {"BLPOP", "k", "0"})));
  EXPECT_EQ(run(c_, {"EVAL", "redis.call('lpush', KEYS[1], 'a'); redis.call('lpush', KEYS[1], 'b'); "
                             "return redis.call('llen', KEYS[1])", "1", "k"}),
            Reply::integer_of(2));
  EXPECT_EQ(later(a_), std::vector<Reply>{bulks({"k", "b"})});
}

TEST_F(Blocked, InsideMultiAndWhereTheHostCannotBlockItAnswersNilAtOnce) {
  run(a_, {"MULTI"});
  run(a_, {"BLPOP", "k", "0"});
  run(a_, {"BLMOVE", "k", "d", "LEFT", "RIGHT", "0"});
  run(a_, {"BLMPOP", "0", "1", "k", "LEFT"});
  // BLPOP and BLMPOP answer the null array (*-1), BLMOVE the null bulk ($-1), as Redis 7.0 does.
  EXPECT_EQ(run(a_, {"EXEC"}), Reply::array({Reply::nil_array(), Reply::nil(), Reply::nil_array()}));
  EXPECT_FALSE(engine_.blocked(a_));
  // BLMPOP may run in a script, where it never blocks; BLPOP is refused there.
  EXPECT_EQ(run(a_, {"EVAL", "return redis.call('blmpop', 0, 1, 'k', 'left')", "0"}), Reply::nil());
  EXPECT_TRUE(run(a_, {"EVAL", "return redis.call('blpop', 'k', 0)", "0"}).is_error());

  ManualHost plain;
  Engine cannot(plain);
  const SessionId s = cannot.open_session();
  EXPECT_EQ(cannot.execute(s, {"BLPOP", "k", "0"}), Reply::nil_array());
  EXPECT_FALSE(cannot.blocked(s));
}

TEST_F(Blocked, AWaitEndsAtItsDeadlineWhenTheClockHasPassedIt) {
  EXPECT_TRUE(waits(run(a_, {"BLPOP", "k", "0.25"})));
  EXPECT_TRUE(waits(run(b_, {"BRPOP", "k", "1"})));
  EXPECT_EQ(engine_.block_deadline(a_), host_.now_ms() + 250);
  EXPECT_EQ(engine_.block_deadline(b_), host_.now_ms() + 1000);
  host_.advance_ms(250);
  engine_.timeout_blocked();  // at the deadline, not past it: still waiting, as in Redis
  EXPECT_TRUE(engine_.blocked(a_));
  host_.advance_ms(1);
  engine_.timeout_blocked();
  EXPECT_EQ(later(a_), std::vector<Reply>{Reply::nil_array()});
  EXPECT_TRUE(engine_.blocked(b_));
  EXPECT_TRUE(waits(run(a_, {"BLPOP", "k", "0"})));  // no deadline: waits for good
  host_.advance_ms(1'000'000);
  engine_.timeout_blocked();
  EXPECT_TRUE(engine_.blocked(a_));
  EXPECT_FALSE(engine_.blocked(b_));
}

TEST_F(Blocked, UnblockAnswersAsATimeoutOrWithTheUnblockedErrorAndCloseForgetsTheWait) {
  EXPECT_TRUE(waits(run(a_, {"BLPOP", "k", "0"})));
  EXPECT_TRUE(engine_.unblock(a_, false));
  EXPECT_EQ(later(a_), std::vector<Reply>{Reply::nil_array()});
  EXPECT_FALSE(engine_.unblock(a_, false));
  EXPECT_TRUE(waits(run(a_, {"BLPOP", "k", "0"})));
  EXPECT_TRUE(engine_.unblock(a_, true));
  EXPECT_EQ(later(a_), std::vector<Reply>{Reply::error("UNBLOCKED client unblocked via CLIENT UNBLOCK")});

  EXPECT_TRUE(waits(run(a_, {"BLPOP", "k", "0"})));
  engine_.close_session(a_);
  EXPECT_EQ(engine_.blocked_clients(), 0u);
  run(c_, {"LPUSH", "k", "x"});
  EXPECT_EQ(run(c_, {"LLEN", "k"}), Reply::integer_of(1));
}

TEST_F(Blocked, ABlmoveServedPushesOnAndServesTheNextWaiterInTheSameTurn) {
  EXPECT_TRUE(waits(run(a_, {"BLMOVE", "src", "dst", "LEFT", "RIGHT", "0"})));
  EXPECT_TRUE(waits(run(b_, {"BLPOP", "dst", "0"})));
  run(c_, {"RPUSH", "src", "x"});
  EXPECT_EQ(later(a_), std::vector<Reply>{Reply::bulk("x")});
  EXPECT_EQ(later(b_), std::vector<Reply>{bulks({"dst", "x"})});
  EXPECT_EQ(run(c_, {"EXISTS", "src", "dst"}), Reply::integer_of(0));
}

TEST_F(Blocked, ABlmoveWhoseDestinationIsNoListAnswersWrongTypeAndLeavesTheElement) {
  EXPECT_TRUE(waits(run(a_, {"BRPOPLPUSH", "src", "dst", "0"})));
  run(c_, {"SET", "dst", "string"});
  run(c_, {"RPUSH", "src", "x"});
  const std::vector<Reply> got = later(a_);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].str, "WRONGTYPE Operation against a key holding the wrong kind of value");
  EXPECT_EQ(run(c_, {"LRANGE", "src", "0", "-1"}), bulks({"x"}));
}

TEST_F(Blocked, BlmpopIsServedItsCountAsKeyAndArray) {
  EXPECT_TRUE(waits(run(a_, {"BLMPOP", "0", "2", "k1", "k2", "RIGHT", "COUNT", "2"})));
  run(c_, {"RPUSH", "k2", "a", "b", "c"});
  EXPECT_EQ(later(a_), std::vector<Reply>{Reply::array({Reply::bulk("k2"), bulks({"c", "b"})})});
}

TEST_F(Blocked, SwapdbReadiesTheWaitedOnKeysEachSideNowHolds) {
  run(a_, {"SELECT", "1"});
  EXPECT_TRUE(waits(run(a_, {"BLPOP", "k", "0"})));
  run(c_, {"RPUSH", "k", "v"});  // db 0: not a's
  EXPECT_TRUE(later(a_).empty());
  run(c_, {"SWAPDB", "0", "1"});
  EXPECT_EQ(later(a_), std::vector<Reply>{bulks({"k", "v"})});
}

TEST_F(Blocked, SortedSetWaitersAreServedTheirEndAndAListWakesNoneOfThem) {
  EXPECT_TRUE(waits(run(a_, {"BZPOPMIN", "z", "0"})));
  EXPECT_TRUE(waits(run(b_, {"BZMPOP", "0", "1", "z", "MAX", "COUNT", "2"})));
  const SessionId d = engine_.open_session();
  EXPECT_TRUE(waits(run(d, {"BLPOP", "z", "0"})));
  EXPECT_EQ(run(c_, {"ZADD", "z", "1", "a", "2", "b", "3", "c", "4", "d"}), Reply::integer_of(4));
  EXPECT_EQ(later(a_), std::vector<Reply>{bulks({"z", "a", "1"})});
  EXPECT_EQ(later(b_), std::vector<Reply>{Reply::array(
                           {Reply::bulk("z"), Reply::array({bulks({"d", "4"}), bulks({"c", "3"})})})});
  EXPECT_TRUE(later(d).empty());  // a list waiter: a sorted set is not its type
  EXPECT_EQ(run(c_, {"ZRANGE", "z", "0", "-1"}), bulks({"b"}));
}

TEST(BlockTimeout, SecondsAsRedisReadsThem) {
  EXPECT_EQ(parse_block_timeout("0", 1000).deadline_ms, 0);
  EXPECT_EQ(parse_block_timeout("0.1", 1000).deadline_ms, 1100);
  EXPECT_EQ(parse_block_timeout("0.0001", 1000).deadline_ms, 1001);  // ceil: a wait, however short
  EXPECT_EQ(parse_block_timeout("2", 1000).deadline_ms, 3000);
  EXPECT_EQ(parse_block_timeout("-0.0001", 1000).deadline_ms, 0);  // ceil(-0.1) is 0: no deadline
  EXPECT_EQ(parse_block_timeout("-1", 1000).error, "ERR timeout is negative");
  EXPECT_EQ(parse_block_timeout("inf", 1000).error, "ERR timeout is negative");
  EXPECT_EQ(parse_block_timeout("1e300", 1000).error, "ERR timeout is negative");
  EXPECT_EQ(parse_block_timeout("abc", 1000).error, "ERR timeout is not a float or out of range");
  EXPECT_EQ(parse_block_timeout(" 1", 1000).error, "ERR timeout is not a float or out of range");
  EXPECT_EQ(parse_block_timeout("nan", 1000).error, "ERR timeout is not a float or out of range");
  // Past 2^63 ms from now the deadline wraps, as Redis's does: long past, answered at the next check.
  EXPECT_LT(parse_block_timeout("9223372036854775", 1'700'000'000'000).deadline_ms, 0);
}

}  // namespace
}  // namespace locksim::engine
