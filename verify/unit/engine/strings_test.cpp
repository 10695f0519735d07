// Strings (cmd_string.cpp) on a manual clock.
#include "verify/unit/engine/engine_harness.hpp"

namespace locksim::engine {
namespace {

class Strings : public EngineTest {};

TEST_F(Strings, GetOfAMissingKeyIsNil) { EXPECT_EQ(run({"GET", "k"}), Reply::nil()); }

TEST_F(Strings, SetThenGetReturnsTheBytes) {
  const std::string value("a\0b", 3);
  ASSERT_EQ(run({"SET", "k", value}), Reply::ok());
  EXPECT_EQ(run({"GET", "k"}), bulk(value));
}

TEST_F(Strings, SetExpiryOptionsStoreExactTimes) {
  ASSERT_EQ(run({"SET", "ex", "v", "EX", "7"}), Reply::ok());
  ASSERT_EQ(run({"SET", "px", "v", "PX", "7"}), Reply::ok());
  ASSERT_EQ(run({"SET", "exat", "v", "EXAT", "1800000000"}), Reply::ok());
  ASSERT_EQ(run({"SET", "pxat", "v", "PXAT", "1800000000007"}), Reply::ok());
  EXPECT_EQ(run({"PEXPIRETIME", "ex"}), integer(kStartMs + 7000));
  EXPECT_EQ(run({"PEXPIRETIME", "px"}), integer(kStartMs + 7));
  EXPECT_EQ(run({"PEXPIRETIME", "exat"}), integer(1800000000000));
  EXPECT_EQ(run({"PEXPIRETIME", "pxat"}), integer(1800000000007));
}

TEST_F(Strings, SetPxExpiresAfterExactlyThatManyMilliseconds) {
  ASSERT_EQ(run({"SET", "k", "v", "PX", "1"}), Reply::ok());
  host_.advance_ms(1);
  EXPECT_EQ(run({"GET", "k"}), bulk("v"));
  host_.advance_ms(1);
  EXPECT_EQ(run({"GET", "k"}), Reply::nil());
}

TEST_F(Strings, SetWithAPastAbsoluteTimeAnswersOkButLeavesNothingToRead) {
  EXPECT_EQ(run({"SET", "k", "v", "PXAT", "1"}), Reply::ok());
  EXPECT_EQ(run({"GET", "k"}), Reply::nil());
  EXPECT_FALSE(stored("k"));
}

TEST_F(Strings, SetDropsAnExpiryAndReportsIt) {
  ASSERT_EQ(run({"SET", "k", "v", "EX", "5"}), Reply::ok());
  take_events();
  ASSERT_EQ(run({"SET", "k", "w"}), Reply::ok());
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Persisted, "k", kNoExpire}}));
  EXPECT_EQ(run({"PTTL", "k"}), integer(-1));
}

TEST_F(Strings, SetKeepttlKeepsTheExactExpiry) {
  ASSERT_EQ(run({"SET", "k", "v", "PX", "5000"}), Reply::ok());
  host_.advance_ms(10);
  take_events();
  ASSERT_EQ(run({"SET", "k", "w", "KEEPTTL"}), Reply::ok());
  EXPECT_TRUE(take_events().empty());
  EXPECT_EQ(run({"PEXPIRETIME", "k"}), integer(kStartMs + 5000));
  EXPECT_EQ(run({"GET", "k"}), bulk("w"));
}

TEST_F(Strings, SetNxAndXxDecideOnExistence) {
  EXPECT_EQ(run({"SET", "k", "v", "XX"}), Reply::nil());
  EXPECT_FALSE(stored("k"));
  EXPECT_EQ(run({"SET", "k", "v", "NX"}), Reply::ok());
  EXPECT_EQ(run({"SET", "k", "w", "NX"}), Reply::nil());
  EXPECT_EQ(run({"SET", "k", "x", "XX", "GET"}), bulk("v"));
  EXPECT_EQ(run({"SET", "k", "y", "NX", "GET"}), bulk("x"));
  EXPECT_EQ(run({"GET", "k"}), bulk("x"));
}

TEST_F(Strings, SetNxThatFailsLeavesTheExpiryAlone) {
  ASSERT_EQ(run({"SET", "k", "v", "PX", "100"}), Reply::ok());
  take_events();
  EXPECT_EQ(run({"SET", "k", "w", "NX", "EX", "50"}), Reply::nil());
  EXPECT_TRUE(take_events().empty());
  EXPECT_EQ(run({"PTTL", "k"}), integer(100));
}

TEST_F(Strings, SetOverwritesAHash) {
  ASSERT_EQ(run({"HSET", "k", "f", "v"}), integer(1));
  EXPECT_EQ(run({"SET", "k", "s"}), Reply::ok());
  EXPECT_EQ(run({"GET", "k"}), bulk("s"));
}

TEST_F(Strings, SetGetOnAHashIsWrongTypeAndChangesNothing) {
  ASSERT_EQ(run({"HSET", "k", "f", "v"}), integer(1));
  EXPECT_EQ(run({"SET", "k", "s", "GET"}), error(kWrongType));
  EXPECT_EQ(run({"TYPE", "k"}), Reply::status("hash"));
}

TEST_F(Strings, SetOptionErrors) {
  EXPECT_EQ(run({"SET", "k", "v", "NX", "XX"}), error("ERR syntax error"));
  EXPECT_EQ(run({"SET", "k", "v", "EX", "1", "KEEPTTL"}), error("ERR syntax error"));
  EXPECT_EQ(run({"SET", "k", "v", "EX"}), error("ERR syntax error"));
  EXPECT_EQ(run({"SET", "k", "v", "EX", "x"}), error("ERR value is not an integer or out of range"));
  EXPECT_EQ(run({"SET", "k", "v", "EX", "0"}), error("ERR invalid expire time in 'set' command"));
  EXPECT_EQ(run({"SET", "k", "v", "PX", "-5"}), error("ERR invalid expire time in 'set' command"));
  EXPECT_EQ(run({"SET", "k", "v", "PX", "9223372036854775807"}), error("ERR invalid expire time in 'set' command"));
  EXPECT_EQ(engine_.keyspace().size(), 0u);
}

TEST_F(Strings, SetnxReportsWhetherItSet) {
  EXPECT_EQ(run({"SETNX", "k", "a"}), integer(1));
  EXPECT_EQ(run({"SETNX", "k", "b"}), integer(0));
  EXPECT_EQ(run({"GET", "k"}), bulk("a"));
}

TEST_F(Strings, AppendReturnsTheNewLengthAndKeepsTheExpiry) {
  EXPECT_EQ(run({"APPEND", "k", "ab"}), integer(2));
  ASSERT_EQ(run({"PEXPIRE", "k", "100"}), integer(1));
  EXPECT_EQ(run({"APPEND", "k", "cde"}), integer(5));
  EXPECT_EQ(run({"GET", "k"}), bulk("abcde"));
  EXPECT_EQ(run({"PTTL", "k"}), integer(100));
}

TEST_F(Strings, IncrFamilyCountsFromZeroAndKeepsTheExpiry) {
  EXPECT_EQ(run({"INCR", "k"}), integer(1));
  ASSERT_EQ(run({"PEXPIRE", "k", "100"}), integer(1));
  EXPECT_EQ(run({"INCRBY", "k", "41"}), integer(42));
  EXPECT_EQ(run({"DECR", "k"}), integer(41));
  EXPECT_EQ(run({"DECRBY", "k", "-9"}), integer(50));
  EXPECT_EQ(run({"GET", "k"}), bulk("50"));
  EXPECT_EQ(run({"PTTL", "k"}), integer(100));
}

TEST_F(Strings, IncrRejectsValuesThatAreNotCanonicalIntegers) {
  for (const char* stored_value : {"01", "+1", "-0", " 1", "1 ", "1.0", "", "9223372036854775808",
                                   "123456789012345678901"}) {
    ASSERT_EQ(run({"SET", "k", stored_value}), Reply::ok());
    EXPECT_EQ(run({"INCR", "k"}), error("ERR value is not an integer or out of range")) << stored_value;
    EXPECT_EQ(run({"GET", "k"}), bulk(stored_value));
  }
}

TEST_F(Strings, IncrAcceptsTheInt64Extremes) {
  ASSERT_EQ(run({"SET", "k", "-9223372036854775808"}), Reply::ok());
  EXPECT_EQ(run({"INCR", "k"}), integer(-9223372036854775807));
  EXPECT_EQ(run({"INCRBY", "k", "9223372036854775807"}), integer(0));
  EXPECT_EQ(run({"INCRBY", "k", "9223372036854775807"}), integer(9223372036854775807));
}

TEST_F(Strings, OverflowIsAnErrorAndKeepsTheValue) {
  ASSERT_EQ(run({"SET", "k", "9223372036854775807"}), Reply::ok());
  EXPECT_EQ(run({"INCR", "k"}), error("ERR increment or decrement would overflow"));
  ASSERT_EQ(run({"SET", "k", "-9223372036854775808"}), Reply::ok());
  EXPECT_EQ(run({"DECR", "k"}), error("ERR increment or decrement would overflow"));
  EXPECT_EQ(run({"DECRBY", "k", "-9223372036854775808"}), error("ERR decrement would overflow"));
  EXPECT_EQ(run({"GET", "k"}), bulk("-9223372036854775808"));
}

TEST_F(Strings, IncrOnAListIsWrongType) {
  ASSERT_EQ(run({"RPUSH", "k", "1"}), integer(1));
  EXPECT_EQ(run({"INCR", "k"}), error(kWrongType));
  EXPECT_EQ(run({"APPEND", "k", "x"}), error(kWrongType));
  EXPECT_EQ(run({"GET", "k"}), error(kWrongType));
  EXPECT_EQ(run({"INCRBY", "k", "x"}), error("ERR value is not an integer or out of range"));
}

TEST_F(Strings, SetexAndPsetexStoreExactTimesAndReplaceAnyType) {
  ASSERT_EQ(run({"HSET", "k", "f", "v"}), integer(1));
  EXPECT_EQ(run({"SETEX", "k", "7", "v"}), Reply::ok());
  EXPECT_EQ(run({"PEXPIRETIME", "k"}), integer(kStartMs + 7000));
  EXPECT_EQ(run({"GET", "k"}), bulk("v"));
  EXPECT_EQ(run({"PSETEX", "p", "7", "w"}), Reply::ok());
  EXPECT_EQ(run({"PEXPIRETIME", "p"}), integer(kStartMs + 7));
  EXPECT_EQ(run({"SETEX", "k", "0", "x"}), error("ERR invalid expire time in 'setex' command"));
  EXPECT_EQ(run({"PSETEX", "k", "-5", "x"}), error("ERR invalid expire time in 'psetex' command"));
  EXPECT_EQ(run({"SETEX", "k", "9223372036854775", "x"}), error("ERR invalid expire time in 'setex' command"));
  EXPECT_EQ(run({"GET", "k"}), bulk("v"));
}

TEST_F(Strings, GetdelDeletesOnlyAString) {
  ASSERT_EQ(run({"SET", "k", "v", "PX", "100"}), Reply::ok());
  take_events();
  EXPECT_EQ(run({"GETDEL", "k"}), bulk("v"));
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Deleted, "k", kStartMs + 100}}));
  EXPECT_EQ(run({"GETDEL", "k"}), Reply::nil());
  ASSERT_EQ(run({"RPUSH", "l", "x"}), integer(1));
  EXPECT_EQ(run({"GETDEL", "l"}), error(kWrongType));
  EXPECT_TRUE(stored("l"));
}

TEST_F(Strings, GetexMovesRemovesOrLeavesTheExpiry) {
  ASSERT_EQ(run({"SET", "k", "v"}), Reply::ok());
  take_events();
  EXPECT_EQ(run({"GETEX", "k"}), bulk("v"));
  EXPECT_TRUE(take_events().empty());
  EXPECT_EQ(run({"GETEX", "k", "PX", "250"}), bulk("v"));
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::ExpireSet, "k", kStartMs + 250}}));
  EXPECT_EQ(run({"GETEX", "k", "EXAT", "1800000000"}), bulk("v"));
  EXPECT_EQ(run({"PEXPIRETIME", "k"}), integer(1800000000000));
  take_events();
  EXPECT_EQ(run({"GETEX", "k", "PERSIST"}), bulk("v"));
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Persisted, "k", kNoExpire}}));
  EXPECT_EQ(run({"GETEX", "k", "PERSIST"}), bulk("v"));
  EXPECT_TRUE(take_events().empty());
}

TEST_F(Strings, GetexWithAPastAbsoluteTimeDeletesTheKeyAfterReadingIt) {
  ASSERT_EQ(run({"SET", "k", "v"}), Reply::ok());
  take_events();
  EXPECT_EQ(run({"GETEX", "k", "PXAT", std::to_string(kStartMs)}), bulk("v"));
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Deleted, "k", kNoExpire}}));
  EXPECT_FALSE(stored("k"));
}

TEST_F(Strings, GetexChecksItsOptionsFirstAndTheTimeOnlyForAString) {
  EXPECT_EQ(run({"GETEX", "missing", "EX", "-1"}), Reply::nil());
  EXPECT_EQ(run({"GETEX", "missing", "KEEPTTL"}), error("ERR syntax error"));
  EXPECT_EQ(run({"GETEX", "missing", "EX", "1", "PERSIST"}), error("ERR syntax error"));
  ASSERT_EQ(run({"SET", "k", "v"}), Reply::ok());
  EXPECT_EQ(run({"GETEX", "k", "EX", "-1"}), error("ERR invalid expire time in 'getex' command"));
  EXPECT_EQ(run({"GETEX", "k", "PX", "x"}), error("ERR value is not an integer or out of range"));
  EXPECT_EQ(run({"PTTL", "k"}), integer(-1));
}

TEST_F(Strings, MsetDropsExpiriesAndMsetnxWritesAllOrNothing) {
  ASSERT_EQ(run({"SET", "a", "1", "PX", "100"}), Reply::ok());
  take_events();
  EXPECT_EQ(run({"MSET", "a", "2", "b", "3", "a", "4"}), Reply::ok());
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Persisted, "a", kNoExpire},
                                                       {KeyEvent::Created, "b", kNoExpire}}));
  EXPECT_EQ(run({"MGET", "a", "b", "c"}), (Reply::array({bulk("4"), bulk("3"), Reply::nil()})));
  EXPECT_EQ(run({"MSETNX", "c", "1", "b", "2"}), integer(0));
  EXPECT_FALSE(stored("c"));
  EXPECT_EQ(run({"MSETNX", "c", "1", "d", "2"}), integer(1));
  EXPECT_EQ(run({"MSET", "a", "1", "b"}), error("ERR wrong number of arguments for 'mset' command"));
  EXPECT_EQ(run({"MSETNX", "x", "1", "y"}), error("ERR wrong number of arguments for 'msetnx' command"));
  EXPECT_FALSE(stored("x"));
}

TEST_F(Strings, StrlenAndMgetOnOtherTypes) {
  ASSERT_EQ(run({"SADD", "s", "m"}), integer(1));
  ASSERT_EQ(run({"SET", "k", std::string("a\0b", 3)}), Reply::ok());
  EXPECT_EQ(run({"STRLEN", "k"}), integer(3));
  EXPECT_EQ(run({"STRLEN", "missing"}), integer(0));
  EXPECT_EQ(run({"STRLEN", "s"}), error(kWrongType));
  EXPECT_EQ(run({"MGET", "s", "k"}), (Reply::array({Reply::nil(), bulk(std::string("a\0b", 3))})));
}

TEST_F(Strings, GetsetReturnsTheOldValueAndDropsTheExpiry) {
  EXPECT_EQ(run({"GETSET", "k", "v"}), Reply::nil());
  ASSERT_EQ(run({"PEXPIRE", "k", "100"}), integer(1));
  EXPECT_EQ(run({"GETSET", "k", "w"}), bulk("v"));
  EXPECT_EQ(run({"PTTL", "k"}), integer(-1));
  ASSERT_EQ(run({"SADD", "s", "m"}), integer(1));
  EXPECT_EQ(run({"GETSET", "s", "w"}), error(kWrongType));
}

}  // namespace
}  // namespace locksim::engine
