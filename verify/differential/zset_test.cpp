// Differential: sorted sets (cmd_zset.cpp). Scores print as Redis 7.0 prints doubles ("%.17g").
#include "verify/support/differential.hpp"

namespace locksim::test {

TEST_F(Differential, ZaddCountsNewMembersAndChCountsChanges) {
  expect_same({"ZADD", "z", "1", "a", "2", "b"});
  expect_same({"ZADD", "z", "1", "a", "3", "b", "4", "c"});
  expect_same({"ZADD", "z", "CH", "1", "a", "5", "b", "6", "d"});
  expect_same({"ZADD", "z", "ch", "1", "a"});
  expect_same({"ZRANGE", "z", "0", "-1", "WITHSCORES"});
  expect_same({"ZCARD", "z"});
  expect_same({"ZCARD", "missing"});
}

TEST_F(Differential, ZaddNxXxGtLt) {
  expect_same({"ZADD", "z", "XX", "1", "a"});
  expect_same({"EXISTS", "z"});
  expect_same({"ZADD", "z", "XX", "INCR", "1", "a"});
  expect_same({"ZADD", "z", "NX", "5", "a"});
  expect_same({"ZADD", "z", "NX", "6", "a", "1", "b"});
  expect_same({"ZADD", "z", "XX", "CH", "7", "a", "1", "c"});
  expect_same({"ZADD", "z", "GT", "CH", "3", "a", "9", "b"});
  expect_same({"ZADD", "z", "LT", "CH", "8", "a", "10", "b", "2", "e"});
  expect_same({"ZADD", "z", "GT", "XX", "CH", "100", "a", "100", "zz"});
  expect_same({"ZRANGE", "z", "0", "-1", "WITHSCORES"});
}

TEST_F(Differential, ZaddOptionErrors) {
  expect_same({"ZADD", "z", "NX", "XX", "1", "a"});
  expect_same({"ZADD", "z", "GT", "LT", "1", "a"});
  expect_same({"ZADD", "z", "GT", "NX", "1", "a"});
  expect_same({"ZADD", "z", "LT", "NX", "1", "a"});
  expect_same({"ZADD", "z", "INCR", "1", "a", "2", "b"});
  expect_same({"ZADD", "z", "1", "a", "2"});
  expect_same({"ZADD", "z", "1"});
  expect_same({"ZADD", "z", "NX", "1"});
  expect_same({"ZADD", "z", "nan", "a"});
  expect_same({"ZADD", "z", "abc", "a"});
  expect_same({"ZADD", "z", " 1", "a"});
  expect_same({"ZADD", "z", "1 ", "a"});
  expect_same({"ZADD", "z", "", "a"});
  expect_same({"ZADD", "z", "1e400", "a"});
  expect_same({"ZADD", "z", "1e-400", "a"});
  expect_same({"ZADD", "z", "1", "a", "x", "b"});
  expect_same({"EXISTS", "z"});
  expect_same({"SET", "s", "v"});
  expect_same({"ZADD", "s", "1", "a"});
  expect_same({"ZSCORE", "s", "a"});
  expect_same({"ZINCRBY", "s", "1", "a"});
  expect_same({"ZREM", "s", "a"});
  expect_same({"ZRANGE", "s", "0", "-1"});
  expect_same({"ZRANGEBYSCORE", "s", "0", "1"});
  expect_same({"ZCARD", "s"});
  expect_same({"ZRANK", "s", "a"});
}

TEST_F(Differential, ZaddIncr) {
  expect_same({"ZADD", "z", "INCR", "1.5", "a"});
  expect_same({"ZADD", "z", "INCR", "1.5", "a"});
  expect_same({"ZADD", "z", "NX", "INCR", "5", "a"});
  expect_same({"ZADD", "z", "XX", "INCR", "5", "missing"});
  expect_same({"ZADD", "z", "GT", "INCR", "-5", "a"});
  expect_same({"ZADD", "z", "LT", "INCR", "-5", "a"});
  expect_same({"ZADD", "z", "GT", "INCR", "0", "a"});
  expect_same({"ZADD", "z", "INCR", "inf", "a"});
  expect_same({"ZADD", "z", "INCR", "-inf", "a"});
  expect_same({"ZADD", "z", "CH", "INCR", "1", "b"});
  expect_same({"ZRANGE", "z", "0", "-1", "WITHSCORES"});
}

TEST_F(Differential, ScoresFormatAsRedis70Doubles) {
  expect_same({"ZADD", "z", "0.1", "tenth", "1e300", "big", "inf", "pinf", "-inf", "ninf", "+inf", "pinf2",
               "3.0", "three", "-2.5", "neg", "1e-320", "tiny", "0x10", "hex", "1E3", "exp"});
  for (const char* m : {"tenth", "big", "pinf", "ninf", "pinf2", "three", "neg", "tiny", "hex", "exp", "nope"})
    expect_same({"ZSCORE", "z", m});
  expect_same({"ZRANGE", "z", "0", "-1", "WITHSCORES"});
  expect_same({"ZINCRBY", "z", "0.2", "tenth"});
  expect_same({"ZINCRBY", "z", "1", "pinf"});
  expect_same({"ZINCRBY", "z", "-inf", "pinf"});
  expect_same({"ZINCRBY", "z", "abc", "pinf"});
  expect_same({"ZINCRBY", "z", "1e308", "big"});
  expect_same({"ZINCRBY", "z", "1e308", "big"});
  expect_same({"ZINCRBY", "new", "2", "m"});
  expect_same({"ZSCORE", "missing", "m"});
}

TEST_F(Differential, NegativeZeroScores) {
  // A small sorted set (listpack) keeps "-0" as 0; the reply of the INCR itself shows -0.
  expect_same({"ZADD", "z", "-0", "a"});
  expect_same({"ZSCORE", "z", "a"});
  expect_same({"ZADD", "z2", "INCR", "-0", "m"});
  expect_same({"ZSCORE", "z2", "m"});
  expect_same({"ZINCRBY", "z3", "-0", "m"});
  expect_same({"ZINCRBY", "z3", "-0", "m"});
  expect_same({"ZADD", "z4", "-0.0", "a", "0", "b"});
  expect_same({"ZRANGE", "z4", "0", "-1", "WITHSCORES"});
  // A member longer than 64 bytes makes a skiplist, which keeps the sign.
  const std::string long_member(70, 'x');
  expect_same({"ZADD", "z5", "-0", long_member});
  expect_same({"ZSCORE", "z5", long_member});
  expect_same({"ZADD", "z5", "-0", "short"});
  expect_same({"ZSCORE", "z5", "short"});
}

TEST_F(Differential, LargeSortedSetBecomesSkiplistAndKeepsNegativeZero) {
  for (int i = 0; i < 130; ++i) expect_same({"ZADD", "z", std::to_string(i), "m" + std::to_string(i)});
  expect_same({"ZADD", "z", "-0", "negz"});
  expect_same({"ZSCORE", "z", "negz"});
  expect_same({"ZRANGE", "z", "0", "2", "WITHSCORES"});
  expect_same({"ZRANK", "z", "m129"});
  expect_same({"ZCARD", "z"});
}

TEST_F(Differential, ASortedSetThatShrinksStaysASkiplistAndKeepsNegativeZero) {
  const std::string long_member(70, 'x');
  expect_same({"ZADD", "z", "1", long_member});
  expect_same({"ZREM", "z", long_member, "m1", "m2"});
  expect_same({"ZADD", "z", "1", "a"});
  expect_same({"ZREM", "z", long_member});
  expect_same({"ZADD", "z", "-0", "b"});
  expect_same({"ZINCRBY", "z", "-0", "c"});
  expect_same({"ZRANGE", "z", "0", "-1", "WITHSCORES"});
  for (int i = 0; i < 129; ++i) expect_same({"ZADD", "big", std::to_string(i), "m" + std::to_string(i)});
  for (int i = 0; i < 120; ++i) expect_same({"ZREM", "big", "m" + std::to_string(i)});
  expect_same({"ZADD", "big", "-0", "negz"});
  expect_same({"ZSCORE", "big", "negz"});
  // Once the key is gone a new one starts small again.
  expect_same({"DEL", "big"});
  expect_same({"ZADD", "big", "-0", "negz"});
  expect_same({"ZSCORE", "big", "negz"});
}

TEST_F(Differential, ZremAndEmptyKeyDeletion) {
  expect_same({"ZADD", "z", "1", "a", "2", "b", "3", "c"});
  expect_same({"ZREM", "z", "a", "nope", "a"});
  expect_same({"ZREM", "missing", "a"});
  expect_same({"ZREM", "z", "b", "c", "d"});
  expect_same({"EXISTS", "z"});
  expect_same({"ZREM", "z"});
}

TEST_F(Differential, ZrankAndTiesOrderByMember) {
  expect_same({"ZADD", "z", "1", "b", "1", "a", "1", "c", "0", "z", "2", "A"});
  expect_same({"ZRANGE", "z", "0", "-1", "WITHSCORES"});
  for (const char* m : {"a", "b", "c", "z", "A", "nope"}) expect_same({"ZRANK", "z", m});
  expect_same({"ZRANK", "missing", "a"});
  expect_same({"ZRANK", "z"});
  expect_same({"ZRANK", "z", "a", "WITHSCORE"});
}

TEST_F(Differential, ZrangeByRank) {
  expect_same({"ZADD", "z", "1", "a", "2", "b", "3", "c", "4", "d", "5", "e"});
  for (auto [start, stop] : std::vector<std::pair<const char*, const char*>>{
           {"0", "-1"}, {"1", "2"}, {"-2", "-1"}, {"-100", "100"}, {"3", "1"}, {"5", "10"}, {"0", "0"}, {"-1", "-5"}})
    expect_same({"ZRANGE", "z", start, stop});
  expect_same({"ZRANGE", "z", "0", "-1", "REV"});
  expect_same({"ZRANGE", "z", "0", "1", "REV", "WITHSCORES"});
  expect_same({"ZRANGE", "z", "0", "-1", "withscores"});
  expect_same({"ZRANGE", "z", "a", "1"});
  expect_same({"ZRANGE", "z", "0", "1.0"});
  expect_same({"ZRANGE", "z", "0", "1", "LIMIT", "0", "1"});
  expect_same({"ZRANGE", "z", "0", "1", "LIMIT", "0", "-1"});
  expect_same({"ZRANGE", "z", "0", "1", "BOGUS"});
  expect_same({"ZRANGE", "z", "0", "1", "LIMIT", "0"});
  expect_same({"ZRANGE", "missing", "0", "-1"});
  expect_same({"ZRANGE", "z", "0"});
}

TEST_F(Differential, ZrangeByScore) {
  expect_same({"ZADD", "z", "1", "a", "2", "b", "3", "c", "4", "d", "5", "e", "-inf", "lo", "inf", "hi"});
  for (auto [min, max] : std::vector<std::pair<const char*, const char*>>{
           {"-inf", "+inf"}, {"(1", "3"}, {"1", "(3"}, {"(1", "(2"}, {"2", "2"}, {"3", "1"}, {"-inf", "(-inf"},
           {"(-inf", "inf"}, {"inf", "inf"}, {"", "3"}, {"1.5", "4.5"}, {"0x2", "3"}})
    expect_same({"ZRANGEBYSCORE", "z", min, max});
  expect_same({"ZRANGEBYSCORE", "z", "(1", "+inf", "WITHSCORES", "LIMIT", "1", "2"});
  expect_same({"ZRANGEBYSCORE", "z", "-inf", "+inf", "LIMIT", "0", "-1"});
  expect_same({"ZRANGEBYSCORE", "z", "-inf", "+inf", "LIMIT", "-1", "2"});
  expect_same({"ZRANGEBYSCORE", "z", "-inf", "+inf", "LIMIT", "10", "2"});
  expect_same({"ZRANGEBYSCORE", "z", "-inf", "+inf", "LIMIT", "2", "0"});
  expect_same({"ZRANGEBYSCORE", "z", "-inf", "+inf", "LIMIT", "x", "0"});
  expect_same({"ZRANGEBYSCORE", "z", "a", "b"});
  expect_same({"ZRANGEBYSCORE", "z", "(", "1"});
  expect_same({"ZRANGEBYSCORE", "z", "nan", "1"});
  expect_same({"ZRANGEBYSCORE", "z", "1", "2", "REV"});
  expect_same({"ZRANGEBYSCORE", "z", "1", "2", "BYSCORE"});
  expect_same({"ZRANGEBYSCORE", "z", "1", "2", "WITHSCORES", "WITHSCORES"});
  expect_same({"ZRANGE", "z", "(1", "+inf", "BYSCORE"});
  expect_same({"ZRANGE", "z", "+inf", "(1", "BYSCORE", "REV"});
  expect_same({"ZRANGE", "z", "(1", "+inf", "BYSCORE", "REV"});
  expect_same({"ZRANGE", "z", "+inf", "(1", "BYSCORE", "REV", "LIMIT", "0", "2", "WITHSCORES"});
  expect_same({"ZRANGE", "z", "-inf", "+inf", "BYSCORE", "LIMIT", "1", "3"});
  expect_same({"ZRANGE", "z", "-inf", "+inf", "BYSCORE", "BYLEX"});
  expect_same({"ZRANGE", "z", "-inf", "+inf", "BYSCORE", "BYSCORE"});
  expect_same({"ZRANGE", "z", "0", "-1", "REV", "REV"});
  expect_same({"ZRANGEBYSCORE", "missing", "-inf", "+inf"});
}

TEST_F(Differential, ZrangeByLex) {
  expect_same({"ZADD", "z", "0", "a", "0", "b", "0", "c", "0", "d", "0", "e", "0", "bb"});
  for (auto [min, max] : std::vector<std::pair<const char*, const char*>>{
           {"-", "+"}, {"[b", "[d"}, {"(b", "(d"}, {"[bb", "+"}, {"-", "(c"}, {"+", "-"}, {"[d", "[b"},
           {"[", "+"}, {"(", "+"}, {"b", "d"}, {"-", "-"}, {"+", "+"}})
    expect_same({"ZRANGE", "z", min, max, "BYLEX"});
  expect_same({"ZRANGE", "z", "+", "-", "BYLEX", "REV"});
  expect_same({"ZRANGE", "z", "[d", "(b", "BYLEX", "REV", "LIMIT", "1", "2"});
  expect_same({"ZRANGE", "z", "-", "+", "BYLEX", "LIMIT", "2", "3"});
  expect_same({"ZRANGE", "z", "-", "+", "BYLEX", "WITHSCORES"});
}

TEST_F(Differential, ZpopminAndZpopmaxPopByScoreThenMember) {
  expect_same({"ZADD", "z", "1", "a", "1", "b", "2", "c", "-inf", "m", "inf", "n", "0.5", "h", "1e300", "big"});
  expect_same({"ZPOPMIN", "z"});
  expect_same({"ZPOPMAX", "z"});
  expect_same({"ZPOPMIN", "z", "2"});
  expect_same({"ZPOPMAX", "z", "0"});
  expect_same({"ZPOPMAX", "z", "1"});
  expect_same({"ZPOPMIN", "z", "100"});
  expect_same({"EXISTS", "z"});
  expect_same({"ZPOPMIN", "z"});
  expect_same({"ZPOPMIN", "missing", "3"});
  expect_same({"ZADD", "z", "1", "a"});
  for (const char* count : {"-1", "x", "1.5", "9223372036854775807"}) expect_same({"ZPOPMAX", "z", count});
  expect_same({"ZPOPMIN", "z", "1", "2"});
  expect_same({"ZPOPMIN", "missing", "-1"});
  expect_same({"SET", "s", "v"});
  expect_same({"ZPOPMIN", "s"});
  expect_same({"ZPOPMIN", "s", "0"});
  expect_same({"ZPOPMAX"});
}
}  // namespace locksim::test
