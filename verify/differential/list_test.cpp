// Differential: lists (cmd_list.cpp).
#include "verify/support/differential.hpp"

namespace locksim::test {

TEST_F(Differential, PushesReturnTheNewLengthInOrder) {
  expect_same({"LPUSH", "l", "a", "b", "c"});
  expect_same({"RPUSH", "l", "d", "e"});
  expect_same({"LPUSH", "l", "f"});
  expect_same({"RPUSH", "l", ""});
  expect_same({"LRANGE", "l", "0", "-1"});
  expect_same({"LLEN", "l"});
}

TEST_F(Differential, PopWithoutCountReturnsOneElementOrNil) {
  expect_same({"LPOP", "l"});
  expect_same({"RPOP", "l"});
  expect_same({"RPUSH", "l", "a", "b", "c"});
  expect_same({"LPOP", "l"});
  expect_same({"RPOP", "l"});
  expect_same({"LPOP", "l"});
  expect_same({"EXISTS", "l"});
  expect_same({"LPOP", "l"});
}

TEST_F(Differential, PopWithCountReturnsAnArray) {
  expect_same({"RPUSH", "l", "a", "b", "c", "d", "e"});
  expect_same({"LPOP", "l", "2"});
  expect_same({"RPOP", "l", "2"});
  expect_same({"LPOP", "l", "0"});
  expect_same({"RPOP", "l", "0"});
  expect_same({"LPOP", "l", "10"});
  expect_same({"EXISTS", "l"});
  expect_same({"RPUSH", "l", "a", "b"});
  expect_same({"RPOP", "l", "9223372036854775807"});
  expect_same({"EXISTS", "l"});
}

TEST_F(Differential, PopWithCountOfAMissingKeyIsNil) {
  expect_same({"LPOP", "l", "1"});
  expect_same({"RPOP", "l", "0"});
  expect_same({"LPOP", "l", "5"});
}

TEST_F(Differential, PopCountMustBeANonNegativeInteger) {
  expect_same({"RPUSH", "l", "a", "b"});
  for (const char* count : {"-1", "abc", "1.5", "01", "+1", "-0", " 1", "", "9223372036854775808",
                            "-9223372036854775808"}) {
    expect_same({"LPOP", "l", count});
    expect_same({"RPOP", "l", count});
    expect_same({"LPOP", "missing", count});
  }
  expect_same({"SET", "s", "v"});
  expect_same({"LPOP", "s", "-1"});
  expect_same({"LLEN", "l"});
}

TEST_F(Differential, PopTakesAtMostOneCount) {
  expect_same({"RPUSH", "l", "a", "b"});
  expect_same({"LPOP", "l", "1", "2"});
  expect_same({"RPOP", "l", "1", "2", "3"});
  expect_same({"LPOP", "missing", "x", "y"});
  expect_same({"LLEN", "l"});
}

TEST_F(Differential, LindexCountsFromEitherEnd) {
  expect_same({"RPUSH", "l", "a", "b", "c"});
  for (const char* index : {"0", "1", "2", "3", "-1", "-3", "-4", "100", "-100", "9223372036854775807",
                            "-9223372036854775808"}) {
    expect_same({"LINDEX", "l", index});
  }
}

TEST_F(Differential, LindexChecksTheKeyBeforeTheIndex) {
  expect_same({"LINDEX", "missing", "abc"});
  expect_same({"RPUSH", "l", "a"});
  for (const char* index : {"abc", "01", "+1", "-0", " 1", "", "1.0", "9223372036854775808"})
    expect_same({"LINDEX", "l", index});
  expect_same({"SET", "s", "v"});
  expect_same({"LINDEX", "s", "abc"});
}

TEST_F(Differential, LrangeClampsItsBounds) {
  expect_same({"RPUSH", "l", "a", "b", "c", "d", "e"});
  const char* bounds[] = {"0", "1", "2", "4", "5", "100", "-1", "-2", "-5", "-6", "-100",
                          "9223372036854775807", "-9223372036854775808"};
  for (const char* start : bounds)
    for (const char* stop : bounds) expect_same({"LRANGE", "l", start, stop});
}

TEST_F(Differential, LrangeParsesIndexesBeforeTheKey) {
  expect_same({"LRANGE", "missing", "0", "-1"});
  expect_same({"LRANGE", "missing", "x", "-1"});
  expect_same({"LRANGE", "missing", "0", "y"});
  expect_same({"SET", "s", "v"});
  expect_same({"LRANGE", "s", "x", "0"});
  expect_same({"LRANGE", "s", "0", "1"});
  expect_same({"RPUSH", "l", "a"});
  expect_same({"LRANGE", "l", "01", "1"});
  expect_same({"LRANGE", "l", "0", "+1"});
  expect_same({"LRANGE", "l", "-0", "1"});
}

TEST_F(Differential, LremRemovesFromTheHeadTheTailOrEverywhere) {
  const std::vector<std::string> seed = {"RPUSH", "l", "x", "a", "x", "b", "x", "c", "x"};
  for (const char* count : {"0", "1", "2", "-1", "-2", "100", "-100", "9223372036854775807",
                            "-9223372036854775808"}) {
    expect_same({"DEL", "l"});
    expect_same(seed);
    expect_same({"LREM", "l", count, "x"});
    expect_same({"LRANGE", "l", "0", "-1"});
  }
  expect_same({"LREM", "l", "0", "absent"});
}

TEST_F(Differential, LremThatEmptiesTheListDeletesIt) {
  expect_same({"RPUSH", "l", "x", "x"});
  expect_same({"LREM", "l", "0", "x"});
  expect_same({"EXISTS", "l"});
  expect_same({"LREM", "l", "0", "x"});
}

TEST_F(Differential, LremParsesTheCountBeforeTheKey) {
  expect_same({"LREM", "missing", "x", "a"});
  expect_same({"SET", "s", "v"});
  expect_same({"LREM", "s", "x", "a"});
  expect_same({"LREM", "s", "1", "a"});
  expect_same({"RPUSH", "l", "a"});
  for (const char* count : {"01", "+1", "-0", " 1", "", "1.0", "9223372036854775808"})
    expect_same({"LREM", "l", count, "a"});
}

TEST_F(Differential, LsetReplacesByIndex) {
  expect_same({"RPUSH", "l", "a", "b", "c"});
  expect_same({"LSET", "l", "0", "A"});
  expect_same({"LSET", "l", "-1", "C"});
  expect_same({"LSET", "l", "1", ""});
  expect_same({"LRANGE", "l", "0", "-1"});
}

TEST_F(Differential, LsetErrors) {
  expect_same({"LSET", "missing", "0", "v"});
  expect_same({"LSET", "missing", "x", "v"});
  expect_same({"RPUSH", "l", "a", "b"});
  for (const char* index : {"2", "-3", "100", "9223372036854775807", "-9223372036854775808", "x", "01", "+1",
                            "-0", ""})
    expect_same({"LSET", "l", index, "v"});
  expect_same({"SET", "s", "v"});
  expect_same({"LSET", "s", "x", "v"});
  expect_same({"LRANGE", "l", "0", "-1"});
}

TEST_F(Differential, ListCommandsOnOtherTypesAreWrongType) {
  expect_same({"SET", "s", "v"});
  expect_same({"HSET", "h", "f", "v"});
  expect_same({"ZADD", "z", "1", "m"});
  for (const char* key : {"s", "h", "z"}) {
    expect_same({"LPUSH", key, "a"});
    expect_same({"RPUSH", key, "a"});
    expect_same({"LPOP", key});
    expect_same({"RPOP", key});
    expect_same({"LPOP", key, "0"});
    expect_same({"RPOP", key, "2"});
    expect_same({"LINDEX", key, "0"});
    expect_same({"LLEN", key});
    expect_same({"LRANGE", key, "0", "-1"});
    expect_same({"LREM", key, "0", "a"});
    expect_same({"LSET", key, "0", "a"});
  }
}

TEST_F(Differential, ListCommandsCheckTheirArity) {
  expect_same({"LPUSH", "l"});
  expect_same({"RPUSH", "l"});
  expect_same({"LPOP"});
  expect_same({"RPOP"});
  expect_same({"LINDEX", "l"});
  expect_same({"LINDEX", "l", "0", "1"});
  expect_same({"LLEN"});
  expect_same({"LRANGE", "l", "0"});
  expect_same({"LRANGE", "l", "0", "1", "2"});
  expect_same({"LREM", "l", "0"});
  expect_same({"LSET", "l", "0"});
  expect_same({"LSET", "l", "0", "v", "w"});
}

TEST_F(Differential, LposFindsMatchesByRankCountAndMaxlen) {
  expect_same({"RPUSH", "l", "a", "b", "c", "1", "2", "3", "c", "c"});
  expect_same({"LPOS", "l", "c"});
  expect_same({"LPOS", "l", "x"});
  for (const char* rank : {"1", "2", "3", "4", "-1", "-2", "-3", "-4", "9223372036854775807", "-9223372036854775807",
                           "-9223372036854775808"}) {
    expect_same({"LPOS", "l", "c", "RANK", rank});
    expect_same({"LPOS", "l", "c", "RANK", rank, "COUNT", "0"});
    expect_same({"LPOS", "l", "c", "RANK", rank, "COUNT", "2"});
    expect_same({"LPOS", "l", "c", "RANK", rank, "MAXLEN", "3"});
  }
  expect_same({"LPOS", "l", "c", "COUNT", "0"});
  expect_same({"LPOS", "l", "c", "COUNT", "1"});
  expect_same({"LPOS", "l", "x", "COUNT", "0"});
  expect_same({"LPOS", "l", "c", "MAXLEN", "0"});
  expect_same({"LPOS", "l", "c", "MAXLEN", "2"});
  expect_same({"LPOS", "l", "c", "count", "5", "maxlen", "7", "rank", "1"});
  expect_same({"LPOS", "l", "c", "RANK", "1", "RANK", "2"});
  expect_same({"LPOS", "missing", "c"});
  expect_same({"LPOS", "missing", "c", "COUNT", "1"});
  expect_same({"LPOS", "missing", "c", "COUNT", "0", "RANK", "-1"});
}

TEST_F(Differential, LposRefusesBadOptionsBeforeLookingAtTheKey) {
  expect_same({"RPUSH", "l", "a"});
  expect_same({"SET", "s", "v"});
  for (const char* key : {"l", "s", "missing"}) {
    expect_same({"LPOS", key, "a", "RANK", "0"});
    expect_same({"LPOS", key, "a", "RANK", "x"});
    expect_same({"LPOS", key, "a", "COUNT", "-1"});
    expect_same({"LPOS", key, "a", "COUNT", "1.5"});
    expect_same({"LPOS", key, "a", "MAXLEN", "-1"});
    expect_same({"LPOS", key, "a", "MAXLEN", ""});
    expect_same({"LPOS", key, "a", "RANK"});
    expect_same({"LPOS", key, "a", "SIZE", "1"});
    expect_same({"LPOS", key, "a", "COUNT", "1", "junk"});
    expect_same({"LPOS", key, "a"});
  }
  expect_same({"LPOS", "l"});
}
TEST_F(Differential, PushxPushesOnlyOntoAListThatExists) {
  expect_same({"LPUSHX", "l", "a"});
  expect_same({"RPUSHX", "l", "a", "b"});
  expect_same({"EXISTS", "l"});
  expect_same({"RPUSH", "l", "x"});
  expect_same({"LPUSHX", "l", "a", "b"});
  expect_same({"RPUSHX", "l", "c"});
  expect_same({"LRANGE", "l", "0", "-1"});
  expect_same({"SET", "s", "v"});
  expect_same({"LPUSHX", "s", "a"});
  expect_same({"RPUSHX", "missing"});
}

TEST_F(Differential, LtrimKeepsTheRangeAndDeletesAnEmptyList) {
  const char* bounds[][2] = {{"1", "-2"}, {"0", "-1"}, {"-3", "-1"}, {"2", "100"}, {"-100", "1"}, {"5", "2"},
                             {"100", "200"}, {"0", "0"}, {"-1", "-1"}, {"3", "-4"}};
  for (const auto& [start, end] : bounds) {
    expect_same({"DEL", "l"});
    expect_same({"RPUSH", "l", "a", "b", "c", "d", "e", "f"});
    expect_same({"LTRIM", "l", start, end});
    expect_same({"LRANGE", "l", "0", "-1"});
    expect_same({"EXISTS", "l"});
  }
  expect_same({"LTRIM", "missing", "0", "1"});
  expect_same({"SET", "s", "v"});
  expect_same({"LTRIM", "s", "0", "1"});
  expect_same({"LTRIM", "s", "x", "1"});
  expect_same({"LTRIM", "missing", "0", "1.5"});
}

TEST_F(Differential, LtrimBreaksAWatchEvenWhenItKeepsEverything) {
  expect_same({"RPUSH", "l", "a", "b"});
  expect_same({"WATCH", "l"});
  expect_same({"LTRIM", "l", "0", "-1"});
  expect_same({"MULTI"});
  expect_same({"LLEN", "l"});
  expect_same({"EXEC"});
}

TEST_F(Differential, LmoveAndRpoplpushMoveOneElementBetweenEnds) {
  expect_same({"RPUSH", "src", "a", "b", "c"});
  for (const char* from : {"LEFT", "RIGHT", "left"})
    for (const char* to : {"LEFT", "RIGHT", "Right"}) {
      expect_same({"LMOVE", "src", "dst", from, to});
      expect_same({"LRANGE", "dst", "0", "-1"});
    }
  expect_same({"EXISTS", "src"});
  expect_same({"LMOVE", "src", "dst", "LEFT", "RIGHT"});
  expect_same({"RPOPLPUSH", "dst", "dst"});
  expect_same({"LRANGE", "dst", "0", "-1"});
  expect_same({"LMOVE", "dst", "dst", "LEFT", "RIGHT"});
  expect_same({"LRANGE", "dst", "0", "-1"});
  expect_same({"RPOPLPUSH", "dst", "other"});
  expect_same({"RPOPLPUSH", "missing", "dst"});
  expect_same({"LMOVE", "dst", "dst", "UP", "LEFT"});
  expect_same({"LMOVE", "dst", "dst", "LEFT", "DOWN"});
  expect_same({"LMOVE", "missing", "dst", "UP", "LEFT"});
  expect_same({"SET", "s", "v"});
  expect_same({"RPOPLPUSH", "dst", "s"});
  expect_same({"LRANGE", "dst", "0", "-1"});
  expect_same({"RPOPLPUSH", "s", "dst"});
  expect_same({"RPOPLPUSH", "missing", "s"});
  expect_same({"RPUSH", "one", "x"});
  expect_same({"RPOPLPUSH", "one", "one"});
  expect_same({"LRANGE", "one", "0", "-1"});
  expect_same({"LMOVE", "one", "two", "LEFT", "LEFT"});
  expect_same({"EXISTS", "one"});
}

TEST_F(Differential, ARotationOfOneElementBreaksAWatch) {
  expect_same({"RPUSH", "one", "x"});
  expect_same({"WATCH", "one"});
  expect_same({"RPOPLPUSH", "one", "one"});
  expect_same({"MULTI"});
  expect_same({"LLEN", "one"});
  expect_same({"EXEC"});
  expect_same({"EVAL", "return redis.call('LMOVE', KEYS[1], KEYS[1], 'LEFT', 'RIGHT')", "1", "one"});
}
TEST_F(Differential, LinsertBeforeAndAfterThePivot) {
  expect_same({"RPUSH", "l", "a", "b", "a"});
  expect_same({"LINSERT", "l", "BEFORE", "a", "x"});  // the first match only
  expect_same({"LINSERT", "l", "after", "a", "y"});
  expect_same({"LINSERT", "l", "AFTER", "zz", "y"});
  expect_same({"LINSERT", "l", "AFTER", "", "y"});
  expect_same({"LRANGE", "l", "0", "-1"});
  expect_same({"LINSERT", "l", "middle", "a", "y"});
  expect_same({"LINSERT", "missing", "middle", "a", "y"});  // the position is read before the key
  expect_same({"LINSERT", "missing", "BEFORE", "a", "y"});
  expect_same({"EXISTS", "missing"});
  expect_same({"SET", "s", "v"});
  expect_same({"LINSERT", "s", "BEFORE", "a", "y"});
  expect_same({"LINSERT", "l", "BEFORE", "a"});
}

TEST_F(Differential, LmpopTakesTheFirstKeyWithAListAndItsCount) {
  expect_same({"RPUSH", "b", "1", "2", "3"});
  expect_same({"LMPOP", "2", "a", "b", "LEFT"});
  expect_same({"LMPOP", "2", "a", "b", "RIGHT", "COUNT", "10"});
  expect_same({"EXISTS", "b"});
  expect_same({"LMPOP", "2", "a", "b", "LEFT"});
  expect_same({"SET", "s", "v"});
  expect_same({"RPUSH", "c", "x"});
  expect_same({"LMPOP", "3", "a", "s", "c", "LEFT"});  // the wrong type is reached first
  expect_same({"LMPOP", "2", "a", "c", "left", "count", "1", "count", "2"});
  expect_same({"LMPOP", "0", "a", "LEFT"});
  expect_same({"LMPOP", "-1", "a", "LEFT"});
  expect_same({"LMPOP", "x", "a", "LEFT"});
  expect_same({"LMPOP", "2", "a", "LEFT"});
  expect_same({"LMPOP", "3", "a", "LEFT"});
  expect_same({"LMPOP", "1", "a", "UP"});
  expect_same({"LMPOP", "1", "c", "LEFT", "COUNT"});
  expect_same({"LMPOP", "1", "c", "LEFT", "COUNT", "0"});
  expect_same({"LMPOP", "1", "c", "LEFT", "COUNT", "-5"});
  expect_same({"LMPOP", "1", "c", "LEFT", "COUNT", "x"});
  expect_same({"LMPOP", "1", "c", "LEFT", "EXTRA"});
  expect_same({"LMPOP", "9223372036854775807", "c", "LEFT"});
}

// The blocking forms where something is there to pop: they answer at once, as the plain ones do. With
// nothing there, the fake's host here cannot block: only MULTI and scripts are compared (they never
// block); verify/serve/blocking_vs_redis.py compares the waits over sockets.
TEST_F(Differential, BlockingPopsAnswerAtOnceWhenAListIsThere) {
  expect_same({"RPUSH", "k", "1", "2", "3", "4"});
  expect_same({"BLPOP", "none", "k", "0"});
  expect_same({"BRPOP", "none", "k", "none", "1.5"});
  expect_same({"BLMOVE", "k", "d", "LEFT", "RIGHT", "0"});
  expect_same({"BRPOPLPUSH", "k", "d", "0"});
  expect_same({"LRANGE", "d", "0", "-1"});
  expect_same({"EXISTS", "k"});
  expect_same({"BLMPOP", "0", "2", "none", "d", "RIGHT", "COUNT", "5"});
  expect_same({"EXISTS", "d"});
  expect_same({"SET", "s", "v"});
  expect_same({"BLPOP", "none", "s", "0"});
  expect_same({"BLMOVE", "s", "d", "LEFT", "RIGHT", "0"});
  expect_same({"RPUSH", "k", "x"});
  expect_same({"BLMOVE", "k", "s", "LEFT", "RIGHT", "0"});  // the destination's type stops it
  expect_same({"LRANGE", "k", "0", "-1"});
  expect_same({"BLMPOP", "0", "2", "s", "k", "LEFT"});
}

TEST_F(Differential, BlockingPopsTimeoutArgument) {
  for (const char* timeout : {"-1", "-0.0001", "abc", "", " 1", "1 ", "inf", "-inf", "nan", "1e400", "0x10",
                              "9223372036854775807", "9223372036854775.807", "1e15"}) {
    expect_same({"MULTI"});
    expect_same({"BLPOP", "k", timeout});
    expect_same({"BLMOVE", "k", "d", "LEFT", "LEFT", timeout});
    expect_same({"BLMPOP", timeout, "1", "k", "LEFT"});
    expect_same({"EXEC"});
  }
  expect_same({"BLPOP", "k"});
  expect_same({"BLMOVE", "k", "d", "UP", "LEFT", "0"});
  expect_same({"BLMOVE", "k", "d", "LEFT", "UP", "x"});
}

TEST_F(Differential, BlockingPopsInsideMultiAndScriptsNeverBlock) {
  expect_same({"MULTI"});
  expect_same({"BLPOP", "k", "0"});
  expect_same({"BRPOP", "k", "k2", "0"});
  expect_same({"BLMOVE", "k", "d", "LEFT", "RIGHT", "0"});
  expect_same({"BRPOPLPUSH", "k", "d", "0"});
  expect_same({"BLMPOP", "0", "1", "k", "LEFT"});
  expect_same({"RPUSH", "k", "v"});
  expect_same({"BLPOP", "k", "0"});
  expect_same({"EXEC"});
  expect_same({"EVAL", "return redis.pcall('blpop', 'k', 0)", "0"});
  expect_same({"EVAL", "return redis.pcall('brpop', 'k', 0)", "0"});
  expect_same({"EVAL", "return redis.pcall('blmove', 'k', 'd', 'left', 'left', 0)", "0"});
  expect_same({"EVAL", "return redis.pcall('brpoplpush', 'k', 'd', 0)", "0"});
  expect_same({"EVAL", "return redis.pcall('blmpop', 0, 1, 'k', 'left')", "0"});
  expect_same({"EVAL", "redis.call('rpush', 'k', 'a'); return redis.pcall('blmpop', 0, 1, 'k', 'left')", "0"});
}

}  // namespace locksim::test
