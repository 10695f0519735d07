// Lists (cmd_list.cpp).
#include "verify/unit/engine/engine_harness.hpp"

namespace locksim::engine {
namespace {

class Lists : public EngineTest {};

TEST_F(Lists, LpushPrependsEachElementInTurn) {
  EXPECT_EQ(run({"LPUSH", "l", "a", "b", "c"}), integer(3));
  EXPECT_EQ(run({"RPUSH", "l", "d", "e"}), integer(5));
  EXPECT_EQ(run({"LRANGE", "l", "0", "-1"}), bulks({"c", "b", "a", "d", "e"}));
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Created, "l", kNoExpire}}));
}

TEST_F(Lists, PopsTakeFromTheirEnd) {
  ASSERT_EQ(run({"RPUSH", "l", "a", "b", "c", "d", "e"}), integer(5));
  EXPECT_EQ(run({"LPOP", "l"}), bulk("a"));
  EXPECT_EQ(run({"RPOP", "l"}), bulk("e"));
  EXPECT_EQ(run({"LPOP", "l", "2"}), bulks({"b", "c"}));
  EXPECT_EQ(run({"RPOP", "l", "0"}), Reply::array());
  EXPECT_EQ(run({"LLEN", "l"}), integer(1));
}

TEST_F(Lists, RpopWithCountReturnsTheTailFirst) {
  ASSERT_EQ(run({"RPUSH", "l", "a", "b", "c"}), integer(3));
  EXPECT_EQ(run({"RPOP", "l", "2"}), bulks({"c", "b"}));
}

TEST_F(Lists, PoppingTheLastElementDeletesTheList) {
  ASSERT_EQ(run({"RPUSH", "l", "a", "b"}), integer(2));
  take_events();
  EXPECT_EQ(run({"LPOP", "l", "100"}), bulks({"a", "b"}));
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Deleted, "l", kNoExpire}}));
  EXPECT_FALSE(stored("l"));
  EXPECT_EQ(run({"LPOP", "l"}), Reply::nil());
  EXPECT_EQ(run({"RPOP", "l", "1"}), Reply::nil_array());
}

TEST_F(Lists, PopCountErrors) {
  ASSERT_EQ(run({"RPUSH", "l", "a"}), integer(1));
  EXPECT_EQ(run({"LPOP", "l", "-1"}), error("ERR value is out of range, must be positive"));
  EXPECT_EQ(run({"RPOP", "l", "x"}), error("ERR value is out of range, must be positive"));
  EXPECT_EQ(run({"LPOP", "l", "1", "2"}), error("ERR wrong number of arguments for 'lpop' command"));
  EXPECT_EQ(run({"LLEN", "l"}), integer(1));
}

TEST_F(Lists, LindexAndLsetCountFromEitherEnd) {
  ASSERT_EQ(run({"RPUSH", "l", "a", "b", "c"}), integer(3));
  EXPECT_EQ(run({"LINDEX", "l", "-1"}), bulk("c"));
  EXPECT_EQ(run({"LINDEX", "l", "3"}), Reply::nil());
  EXPECT_EQ(run({"LINDEX", "l", "-4"}), Reply::nil());
  EXPECT_EQ(run({"LSET", "l", "-3", "A"}), Reply::ok());
  EXPECT_EQ(run({"LSET", "l", "3", "x"}), error("ERR index out of range"));
  EXPECT_EQ(run({"LSET", "missing", "0", "x"}), error("ERR no such key"));
  EXPECT_EQ(run({"LSET", "l", "x", "x"}), error("ERR value is not an integer or out of range"));
  EXPECT_EQ(run({"LRANGE", "l", "0", "-1"}), bulks({"A", "b", "c"}));
}

TEST_F(Lists, LrangeClampsOutOfRangeBounds) {
  ASSERT_EQ(run({"RPUSH", "l", "a", "b", "c"}), integer(3));
  EXPECT_EQ(run({"LRANGE", "l", "-100", "100"}), bulks({"a", "b", "c"}));
  EXPECT_EQ(run({"LRANGE", "l", "1", "0"}), Reply::array());
  EXPECT_EQ(run({"LRANGE", "l", "3", "5"}), Reply::array());
  EXPECT_EQ(run({"LRANGE", "l", "-2", "-1"}), bulks({"b", "c"}));
  EXPECT_EQ(run({"LRANGE", "l", "0", "-4"}), Reply::array());
}

TEST_F(Lists, LremDirectionAndCount) {
  ASSERT_EQ(run({"RPUSH", "l", "x", "a", "x", "b", "x"}), integer(5));
  EXPECT_EQ(run({"LREM", "l", "-1", "x"}), integer(1));
  EXPECT_EQ(run({"LRANGE", "l", "0", "-1"}), bulks({"x", "a", "x", "b"}));
  EXPECT_EQ(run({"LREM", "l", "1", "x"}), integer(1));
  EXPECT_EQ(run({"LRANGE", "l", "0", "-1"}), bulks({"a", "x", "b"}));
  EXPECT_EQ(run({"LREM", "l", "0", "x"}), integer(1));
  EXPECT_EQ(run({"LRANGE", "l", "0", "-1"}), bulks({"a", "b"}));
}

TEST_F(Lists, LremThatRemovesEverythingDeletesTheList) {
  ASSERT_EQ(run({"RPUSH", "l", "x", "x"}), integer(2));
  ASSERT_EQ(run({"PEXPIRE", "l", "50"}), integer(1));
  take_events();
  EXPECT_EQ(run({"LREM", "l", "0", "x"}), integer(2));
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Deleted, "l", kStartMs + 50}}));
  EXPECT_FALSE(stored("l"));
}

TEST_F(Lists, PushingOntoAnExpiredListStartsAFreshOne) {
  ASSERT_EQ(run({"RPUSH", "l", "old"}), integer(1));
  ASSERT_EQ(run({"PEXPIRE", "l", "5"}), integer(1));
  host_.advance_ms(6);
  EXPECT_EQ(run({"RPUSH", "l", "new"}), integer(1));
  EXPECT_EQ(run({"LRANGE", "l", "0", "-1"}), bulks({"new"}));
  EXPECT_EQ(run({"PTTL", "l"}), integer(-1));
}

TEST_F(Lists, ListCommandsOnAHashAreWrongType) {
  ASSERT_EQ(run({"HSET", "h", "f", "v"}), integer(1));
  EXPECT_EQ(run({"LPUSH", "h", "a"}), error(kWrongType));
  EXPECT_EQ(run({"RPUSH", "h", "a"}), error(kWrongType));
  EXPECT_EQ(run({"LPOP", "h"}), error(kWrongType));
  EXPECT_EQ(run({"RPOP", "h", "0"}), error(kWrongType));
  EXPECT_EQ(run({"LINDEX", "h", "0"}), error(kWrongType));
  EXPECT_EQ(run({"LLEN", "h"}), error(kWrongType));
  EXPECT_EQ(run({"LRANGE", "h", "0", "-1"}), error(kWrongType));
  EXPECT_EQ(run({"LREM", "h", "0", "a"}), error(kWrongType));
  EXPECT_EQ(run({"LSET", "h", "0", "a"}), error(kWrongType));
  EXPECT_EQ(run({"HLEN", "h"}), integer(1));
}

}  // namespace
}  // namespace locksim::engine
