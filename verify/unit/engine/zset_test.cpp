// Unit: sorted sets (cmd_zset.cpp). Expected values are Redis 7.0.15's answers.
#include "engine/zset_pop.hpp"
#include "verify/unit/engine/engine_harness.hpp"

namespace locksim::engine {
namespace {

class ZsetTest : public EngineTest {};

TEST_F(ZsetTest, ZaddReturnsNewMembersAndChAddsChanged) {
  EXPECT_EQ(run({"ZADD", "z", "1", "a", "2", "b"}), integer(2));
  EXPECT_EQ(run({"ZADD", "z", "1", "a", "3", "b", "4", "c"}), integer(1));
  EXPECT_EQ(run({"ZADD", "z", "CH", "1", "a", "5", "b", "6", "d"}), integer(2));
  EXPECT_EQ(run({"ZRANGE", "z", "0", "-1", "WITHSCORES"}), bulks({"a", "1", "c", "4", "b", "5", "d", "6"}));
}

TEST_F(ZsetTest, ZaddXxOnAMissingKeyCreatesNothing) {
  EXPECT_EQ(run({"ZADD", "z", "XX", "1", "a"}), integer(0));
  EXPECT_EQ(run({"ZADD", "z", "XX", "INCR", "1", "a"}), Reply::nil());
  EXPECT_FALSE(stored("z"));
  EXPECT_TRUE(take_events().empty());
}

TEST_F(ZsetTest, GtAndLtOnlyMoveTheScoreOneWay) {
  run({"ZADD", "z", "5", "a"});
  EXPECT_EQ(run({"ZADD", "z", "GT", "CH", "3", "a"}), integer(0));
  EXPECT_EQ(run({"ZADD", "z", "GT", "CH", "7", "a"}), integer(1));
  EXPECT_EQ(run({"ZADD", "z", "LT", "CH", "9", "a"}), integer(0));
  EXPECT_EQ(run({"ZADD", "z", "LT", "CH", "1", "a", "2", "new"}), integer(2));
  EXPECT_EQ(run({"ZADD", "z", "GT", "INCR", "-5", "a"}), Reply::nil());
  EXPECT_EQ(run({"ZSCORE", "z", "a"}), bulk("1"));
}

TEST_F(ZsetTest, IncompatibleOptionsAreRefused) {
  EXPECT_EQ(run({"ZADD", "z", "NX", "XX", "1", "a"}),
            error("ERR XX and NX options at the same time are not compatible"));
  EXPECT_EQ(run({"ZADD", "z", "GT", "LT", "1", "a"}),
            error("ERR GT, LT, and/or NX options at the same time are not compatible"));
  EXPECT_EQ(run({"ZADD", "z", "INCR", "1", "a", "2", "b"}),
            error("ERR INCR option supports a single increment-element pair"));
  EXPECT_EQ(run({"ZADD", "z", "1", "a", "2"}), error("ERR syntax error"));
  EXPECT_EQ(run({"ZADD", "z", "nan", "a"}), error("ERR value is not a valid float"));
  EXPECT_FALSE(stored("z"));
}

TEST_F(ZsetTest, ScoresPrintAsRedis70Doubles) {
  run({"ZADD", "z", "0.1", "tenth", "1e300", "big", "inf", "pinf", "-inf", "ninf", "3.0", "three"});
  EXPECT_EQ(run({"ZSCORE", "z", "tenth"}), bulk("0.10000000000000001"));
  EXPECT_EQ(run({"ZSCORE", "z", "big"}), bulk("1.0000000000000001e+300"));
  EXPECT_EQ(run({"ZSCORE", "z", "pinf"}), bulk("inf"));
  EXPECT_EQ(run({"ZSCORE", "z", "ninf"}), bulk("-inf"));
  EXPECT_EQ(run({"ZSCORE", "z", "three"}), bulk("3"));
  EXPECT_EQ(run({"ZINCRBY", "z", "1", "tenth"}), bulk("1.1000000000000001"));
  EXPECT_EQ(run({"ZINCRBY", "z", "-inf", "pinf"}), error("ERR resulting score is not a number (NaN)"));
}

TEST_F(ZsetTest, NegativeZeroIsKeptOnlyByLargeSortedSets) {
  EXPECT_EQ(run({"ZADD", "z", "INCR", "-0", "m"}), bulk("-0"));  // the reply shows the computed score
  EXPECT_EQ(run({"ZSCORE", "z", "m"}), bulk("0"));               // a listpack stored it as text "0"
  const std::string long_member(65, 'x');
  EXPECT_EQ(engine_.execute(session_, {"ZADD", "long", "-0", long_member}), integer(1));
  EXPECT_EQ(engine_.execute(session_, {"ZSCORE", "long", long_member}), bulk("-0"));
  for (int i = 0; i < 128; ++i) engine_.execute(session_, {"ZADD", "big", std::to_string(i), "m" + std::to_string(i)});
  EXPECT_EQ(run({"ZADD", "big", "-0", "negz"}), integer(1));  // the 129th member: a skiplist now
  EXPECT_EQ(run({"ZSCORE", "big", "negz"}), bulk("-0"));
}

TEST_F(ZsetTest, ZremDeletesTheEmptiedKey) {
  run({"ZADD", "z", "1", "a", "2", "b"});
  take_events();
  EXPECT_EQ(run({"ZREM", "z", "a", "a", "nope"}), integer(1));
  EXPECT_EQ(run({"ZREM", "z", "b"}), integer(1));
  EXPECT_FALSE(stored("z"));
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Deleted, "z", kNoExpire}}));
}

TEST_F(ZsetTest, TiesOrderByMemberBytes) {
  run({"ZADD", "z", "1", "b", "1", "a", "1", "B", "0", "z"});
  EXPECT_EQ(run({"ZRANGE", "z", "0", "-1"}), bulks({"z", "B", "a", "b"}));
  EXPECT_EQ(run({"ZRANK", "z", "a"}), integer(2));
  EXPECT_EQ(run({"ZRANK", "z", "nope"}), Reply::nil());
  EXPECT_EQ(run({"ZCARD", "z"}), integer(4));
}

TEST_F(ZsetTest, RangesByRankScoreAndLex) {
  run({"ZADD", "z", "1", "a", "2", "b", "3", "c", "4", "d"});
  EXPECT_EQ(run({"ZRANGE", "z", "-2", "100"}), bulks({"c", "d"}));
  EXPECT_EQ(run({"ZRANGE", "z", "0", "1", "REV", "WITHSCORES"}), bulks({"d", "4", "c", "3"}));
  EXPECT_EQ(run({"ZRANGEBYSCORE", "z", "(1", "+inf", "LIMIT", "1", "2"}), bulks({"c", "d"}));
  EXPECT_EQ(run({"ZRANGE", "z", "+inf", "(1", "BYSCORE", "REV", "LIMIT", "0", "2"}), bulks({"d", "c"}));
  EXPECT_EQ(run({"ZRANGE", "z", "(1", "+inf", "BYSCORE", "REV"}), Reply::array());
  EXPECT_EQ(run({"ZRANGE", "z", "[b", "(d", "BYLEX"}), bulks({"b", "c"}));
  EXPECT_EQ(run({"ZRANGE", "z", "0", "1", "LIMIT", "0", "1"}),
            error("ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX"));
  EXPECT_EQ(run({"ZRANGE", "z", "-", "+", "BYLEX", "WITHSCORES"}),
            error("ERR syntax error, WITHSCORES not supported in combination with BYLEX"));
  EXPECT_EQ(run({"ZRANGE", "z", "b", "d", "BYLEX"}), error("ERR min or max not valid string range item"));
  EXPECT_EQ(run({"ZRANGEBYSCORE", "z", "a", "b"}), error("ERR min or max is not a float"));
}

TEST_F(ZsetTest, WrongTypeIsRefusedByEveryCommand) {
  run({"SET", "s", "v"});
  for (auto argv : std::vector<std::vector<std::string>>{{"ZADD", "s", "1", "a"}, {"ZSCORE", "s", "a"},
                                                         {"ZINCRBY", "s", "1", "a"}, {"ZREM", "s", "a"},
                                                         {"ZRANGE", "s", "0", "-1"}, {"ZRANGEBYSCORE", "s", "0", "1"},
                                                         {"ZCARD", "s"}, {"ZRANK", "s", "a"}})
    EXPECT_EQ(engine_.execute(session_, argv), error(kWrongType)) << argv[0];
}

// zset_pop is what the blocking pops will call, outside any command: its three reply shapes, and
// what it does to the key (deleted when emptied, WATCHes broken) without a command around it.
TEST_F(ZsetTest, ZsetPopAnswersEachShapeAndDeletesAnEmptiedKey) {
  run({"ZADD", "z", "1", "a", "2", "b", "3", "c"});
  run({"SET", "s", "v"});
  take_events();
  const std::vector<std::string_view> keys = {"missing", "z", "s"};
  Keyspace& db = engine_.keyspace();
  EXPECT_EQ(zset_pop(db, keys, ZSetEnd::Min, -1, ZPopReply::KeyThenFlat), bulks({"z", "a", "1"}));
  EXPECT_EQ(zset_pop(db, keys, ZSetEnd::Max, 1, ZPopReply::Flat), bulks({"c", "3"}));
  EXPECT_EQ(zset_pop(db, keys, ZSetEnd::Max, 0, ZPopReply::Flat), Reply::array());
  EXPECT_EQ(zset_pop(db, keys, ZSetEnd::Min, 5, ZPopReply::KeyThenPairs),
            Reply::array({bulk("z"), Reply::array({bulks({"b", "2"})})}));
  EXPECT_FALSE(stored("z"));
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Deleted, "z", kNoExpire}}));
  // Now the first existing key is the string.
  EXPECT_EQ(zset_pop(db, keys, ZSetEnd::Min, 1, ZPopReply::KeyThenPairs), error(kWrongType));
  const std::vector<std::string_view> none = {"missing", "z"};
  EXPECT_EQ(zset_pop(db, none, ZSetEnd::Min, 1, ZPopReply::KeyThenPairs), Reply::nil_array());
  EXPECT_EQ(zset_pop(db, none, ZSetEnd::Min, 1, ZPopReply::Flat), Reply::array());
  EXPECT_EQ(zset_pop(db, none, ZSetEnd::Min, 1, ZPopReply::KeyThenFlat), Reply::array());
}

TEST_F(ZsetTest, ZsetPopOutsideACommandBreaksAWatch) {
  run({"ZADD", "z", "1", "a", "2", "b"});
  run({"WATCH", "z"});
  const std::vector<std::string_view> keys = {"z"};
  EXPECT_EQ(zset_pop(engine_.keyspace(), keys, ZSetEnd::Min, 1, ZPopReply::Flat), bulks({"a", "1"}));
  run({"MULTI"});
  run({"ZCARD", "z"});
  EXPECT_EQ(run({"EXEC"}), Reply::nil_array());
}

}  // namespace
}  // namespace locksim::engine
