// Hashes (cmd_hash.cpp).
#include "verify/unit/engine/engine_harness.hpp"

namespace locksim::engine {
namespace {

class Hashes : public EngineTest {};

TEST_F(Hashes, HgetOnMissingKeyIsNil) {
  EXPECT_EQ(run({"HGET", "h", "f"}), Reply::nil());
  EXPECT_EQ(run({"HEXISTS", "h", "f"}), integer(0));
  EXPECT_EQ(run({"HLEN", "h"}), integer(0));
  EXPECT_EQ(run({"HGETALL", "h"}), Reply::array());
}

TEST_F(Hashes, HsetCountsNewFieldsAndCreatesTheKeyOnce) {
  EXPECT_EQ(run({"HSET", "h", "a", "1", "b", "2"}), integer(2));
  EXPECT_EQ(run({"HSET", "h", "a", "3", "c", "4", "c", "5"}), integer(1));
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Created, "h", kNoExpire}}));
  EXPECT_EQ(run({"HGETALL", "h"}), bulks({"a", "3", "b", "2", "c", "5"}));
  EXPECT_EQ(run({"HLEN", "h"}), integer(3));
}

TEST_F(Hashes, HsetWithAnOddFieldValueCountCreatesNothing) {
  EXPECT_EQ(run({"HSET", "h", "a", "1", "b"}), error("ERR wrong number of arguments for 'hset' command"));
  EXPECT_FALSE(stored("h"));
}

TEST_F(Hashes, ListingsKeepInsertionOrder) {
  ASSERT_EQ(run({"HSET", "h", "z", "1", "a", "2", "m", "3"}), integer(3));
  ASSERT_EQ(run({"HDEL", "h", "a"}), integer(1));
  ASSERT_EQ(run({"HSET", "h", "a", "4", "z", "5"}), integer(1));
  EXPECT_EQ(run({"HKEYS", "h"}), bulks({"z", "m", "a"}));
  EXPECT_EQ(run({"HVALS", "h"}), bulks({"5", "3", "4"}));
}

TEST_F(Hashes, HsetnxNeverOverwrites) {
  EXPECT_EQ(run({"HSETNX", "h", "f", "1"}), integer(1));
  EXPECT_EQ(run({"HSETNX", "h", "f", "2"}), integer(0));
  EXPECT_EQ(run({"HGET", "h", "f"}), bulk("1"));
}

TEST_F(Hashes, HincrbyCreatesTheKeyAndTheField) {
  EXPECT_EQ(run({"HINCRBY", "h", "f", "-3"}), integer(-3));
  EXPECT_EQ(run({"HINCRBY", "h", "f", "10"}), integer(7));
  EXPECT_EQ(run({"HGET", "h", "f"}), bulk("7"));
}

TEST_F(Hashes, HincrbyErrors) {
  ASSERT_EQ(run({"HSET", "h", "s", "abc", "max", "9223372036854775807", "z", "01"}), integer(3));
  EXPECT_EQ(run({"HINCRBY", "h", "s", "1"}), error("ERR hash value is not an integer"));
  EXPECT_EQ(run({"HINCRBY", "h", "z", "1"}), error("ERR hash value is not an integer"));
  EXPECT_EQ(run({"HINCRBY", "h", "max", "1"}), error("ERR increment or decrement would overflow"));
  EXPECT_EQ(run({"HINCRBY", "h", "max", "+1"}), error("ERR value is not an integer or out of range"));
  EXPECT_EQ(run({"HINCRBY", "new", "f", "x"}), error("ERR value is not an integer or out of range"));
  EXPECT_FALSE(stored("new"));
  EXPECT_EQ(run({"HGET", "h", "max"}), bulk("9223372036854775807"));
}

TEST_F(Hashes, HdelOfTheLastFieldDeletesTheKeyAndItsExpiry) {
  ASSERT_EQ(run({"HSET", "h", "a", "1", "b", "2"}), integer(2));
  ASSERT_EQ(run({"PEXPIRE", "h", "1000"}), integer(1));
  take_events();
  EXPECT_EQ(run({"HDEL", "h", "a", "x", "b", "a"}), integer(2));
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Deleted, "h", kStartMs + 1000}}));
  EXPECT_FALSE(stored("h"));
  ASSERT_EQ(run({"HSET", "h", "a", "1"}), integer(1));
  EXPECT_EQ(run({"PTTL", "h"}), integer(-1));
}

TEST_F(Hashes, HashCommandsOnAStringAreWrongType) {
  ASSERT_EQ(run({"SET", "s", "v"}), Reply::ok());
  EXPECT_EQ(run({"HSET", "s", "f", "v"}), error(kWrongType));
  EXPECT_EQ(run({"HSETNX", "s", "f", "v"}), error(kWrongType));
  EXPECT_EQ(run({"HGET", "s", "f"}), error(kWrongType));
  EXPECT_EQ(run({"HEXISTS", "s", "f"}), error(kWrongType));
  EXPECT_EQ(run({"HINCRBY", "s", "f", "1"}), error(kWrongType));
  EXPECT_EQ(run({"HDEL", "s", "f"}), error(kWrongType));
  EXPECT_EQ(run({"HLEN", "s"}), error(kWrongType));
  EXPECT_EQ(run({"HGETALL", "s"}), error(kWrongType));
  EXPECT_EQ(run({"HKEYS", "s"}), error(kWrongType));
  EXPECT_EQ(run({"HVALS", "s"}), error(kWrongType));
  EXPECT_EQ(run({"GET", "s"}), bulk("v"));
}

}  // namespace
}  // namespace locksim::engine
