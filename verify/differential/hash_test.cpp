// Differential: hashes (cmd_hash.cpp).
#include "verify/support/differential.hpp"

namespace locksim::test {

TEST_F(Differential, HsetCountsOnlyNewFields) {
  expect_same({"HSET", "h", "a", "1"});
  expect_same({"HSET", "h", "a", "2", "b", "3", "c", "4"});
  expect_same({"HSET", "h", "a", "5", "a", "6"});
  expect_same({"HSET", "h", "d", "1", "d", "2"});
  expect_same({"HGET", "h", "a"});
  expect_same({"HGET", "h", "d"});
  expect_same({"HGETALL", "h"});
  expect_same({"HLEN", "h"});
}

TEST_F(Differential, HsetWithAnUnpairedFieldIsAnArityError) {
  expect_same({"HSET", "h", "a", "1", "b"});
  expect_same({"HSET", "h", "a"});
  expect_same({"HSET", "h"});
  expect_same({"EXISTS", "h"});
  expect_same({"SET", "s", "v"});
  expect_same({"HSET", "s", "a", "1", "b"});
}

TEST_F(Differential, HashListingsKeepInsertionOrderAcrossUpdatesAndDeletes) {
  expect_same({"HSET", "h", "z", "1", "a", "2", "m", "3", "b", "4"});
  expect_same({"HSET", "h", "a", "20"});
  expect_same({"HDEL", "h", "m"});
  expect_same({"HSET", "h", "m", "30"});
  expect_same({"HINCRBY", "h", "new", "5"});
  expect_same({"HSETNX", "h", "x", "y"});
  expect_same({"HGETALL", "h"});
  expect_same({"HKEYS", "h"});
  expect_same({"HVALS", "h"});
}

TEST_F(Differential, HashReadsOfAMissingKeyAreEmpty) {
  expect_same({"HGET", "h", "f"});
  expect_same({"HEXISTS", "h", "f"});
  expect_same({"HLEN", "h"});
  expect_same({"HGETALL", "h"});
  expect_same({"HKEYS", "h"});
  expect_same({"HVALS", "h"});
  expect_same({"HDEL", "h", "f"});
  expect_same({"EXISTS", "h"});
}

TEST_F(Differential, HgetAndHexistsOfAMissingField) {
  expect_same({"HSET", "h", "f", "v"});
  expect_same({"HGET", "h", "g"});
  expect_same({"HEXISTS", "h", "g"});
  expect_same({"HEXISTS", "h", "f"});
  expect_same({"HSET", "h", "", ""});
  expect_same({"HGET", "h", ""});
  expect_same({"HEXISTS", "h", ""});
}

TEST_F(Differential, HashValuesRoundTripExactly) {
  for (const char* v : {"01", "+1", "-0", " 1", "1.50", "1e3", "9223372036854775808", "-9223372036854775808",
                        "0", "-1", "0x1", ""}) {
    expect_same({"HSET", "h", "f", v});
    expect_same({"HGET", "h", "f"});
    expect_same({"HVALS", "h"});
  }
}

TEST_F(Differential, HsetnxSetsOnlyAMissingField) {
  expect_same({"HSETNX", "h", "f", "1"});
  expect_same({"HSETNX", "h", "f", "2"});
  expect_same({"HSETNX", "h", "g", "3"});
  expect_same({"HGETALL", "h"});
}

TEST_F(Differential, HincrbyCreatesAndIncrements) {
  expect_same({"HINCRBY", "h", "f", "5"});
  expect_same({"HINCRBY", "h", "f", "-7"});
  expect_same({"HINCRBY", "h", "f", "0"});
  expect_same({"HINCRBY", "h", "g", "-9223372036854775808"});
  expect_same({"HGETALL", "h"});
}

TEST_F(Differential, HincrbyParsesStoredValuesStrictly) {
  for (const char* stored : {"01", "+1", "-0", " 1", "1 ", "1.0", "", "abc", "9223372036854775808", "-",
                             "123456789012345678901"}) {
    expect_same({"HSET", "h", "f", stored});
    expect_same({"HINCRBY", "h", "f", "1"});
    expect_same({"HGET", "h", "f"});
  }
}

TEST_F(Differential, HincrbyParsesTheIncrementFirst) {
  for (const char* by : {"01", "+1", "-0", " 1", "1.5", "", "x", "9223372036854775808", "123456789012345678901"}) {
    expect_same({"HINCRBY", "h", "f", by});
    expect_same({"EXISTS", "h"});
  }
  expect_same({"SET", "s", "v"});
  expect_same({"HINCRBY", "s", "f", "x"});
  expect_same({"HINCRBY", "s", "f", "1"});
}

TEST_F(Differential, HincrbyOverflowIsRefused) {
  expect_same({"HSET", "h", "max", "9223372036854775807", "min", "-9223372036854775808"});
  expect_same({"HINCRBY", "h", "max", "1"});
  expect_same({"HINCRBY", "h", "max", "0"});
  expect_same({"HINCRBY", "h", "max", "-1"});
  expect_same({"HINCRBY", "h", "min", "-1"});
  expect_same({"HINCRBY", "h", "min", "9223372036854775807"});
  expect_same({"HINCRBY", "h", "min", "-9223372036854775808"});
  expect_same({"HGETALL", "h"});
}

TEST_F(Differential, HdelCountsRemovedFieldsAndDeletesAnEmptyHash) {
  expect_same({"HSET", "h", "a", "1", "b", "2", "c", "3"});
  expect_same({"HDEL", "h", "x"});
  expect_same({"HDEL", "h", "a", "a", "x"});
  expect_same({"HLEN", "h"});
  expect_same({"HDEL", "h", "b", "c", "b"});
  expect_same({"EXISTS", "h"});
  expect_same({"TYPE", "h"});
  expect_same({"HGETALL", "h"});
}

TEST_F(Differential, AnEmptiedHashLosesItsTtl) {
  expect_same({"HSET", "h", "a", "1"});
  expect_same({"EXPIREAT", "h", "4102444800"});
  expect_same({"HDEL", "h", "a"});
  expect_same({"HSET", "h", "a", "1"});
  expect_same({"TTL", "h"});
}

TEST_F(Differential, HashCommandsOnOtherTypesAreWrongType) {
  expect_same({"SET", "s", "v"});
  expect_same({"RPUSH", "l", "a"});
  expect_same({"ZADD", "z", "1", "m"});
  for (const char* key : {"s", "l", "z"}) {
    expect_same({"HSET", key, "f", "v"});
    expect_same({"HSETNX", key, "f", "v"});
    expect_same({"HGET", key, "f"});
    expect_same({"HEXISTS", key, "f"});
    expect_same({"HINCRBY", key, "f", "1"});
    expect_same({"HDEL", key, "f"});
    expect_same({"HLEN", key});
    expect_same({"HGETALL", key});
    expect_same({"HKEYS", key});
    expect_same({"HVALS", key});
  }
}

TEST_F(Differential, HashCommandsCheckTheirArity) {
  expect_same({"HSETNX", "h", "f"});
  expect_same({"HSETNX", "h", "f", "v", "x"});
  expect_same({"HGET", "h"});
  expect_same({"HGET", "h", "f", "g"});
  expect_same({"HEXISTS", "h"});
  expect_same({"HINCRBY", "h", "f"});
  expect_same({"HINCRBY", "h", "f", "1", "2"});
  expect_same({"HDEL", "h"});
  expect_same({"HLEN"});
  expect_same({"HGETALL"});
  expect_same({"HKEYS", "a", "b"});
  expect_same({"HVALS"});
}

TEST_F(Differential, HmgetAnswersEachFieldOrNil) {
  expect_same({"HMGET", "missing", "a", "b"});
  expect_same({"HSET", "h", "a", "1", "b", "two", "c", ""});
  expect_same({"HMGET", "h", "a", "x", "b", "c", "a"});
  expect_same({"HMGET", "h", "x"});
  expect_same({"SET", "s", "v"});
  expect_same({"HMGET", "s", "a"});
  expect_same({"HMGET", "h"});
  expect_same({"EVAL", "return redis.call('HMGET', KEYS[1], 'a', 'zz', 'b')", "1", "h"});
}
}  // namespace locksim::test
