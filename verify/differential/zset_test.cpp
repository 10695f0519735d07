// Differential: sorted sets (cmd_zset.cpp, cmd_zset_algebra.cpp). Scores print as Redis 7.0 prints
// doubles ("%.17g"). ZRANDMEMBER draws at random in Redis: where the draw shows, the tests compare
// what does not depend on it (sizes, membership, scores), and exactly where nothing is left to
// chance (a count that covers the whole set, a set of one).
#include <map>
#include <set>

#include "verify/support/differential.hpp"

namespace locksim::test {
namespace {

// The lex test set of Redis's zset.tcl (create_default_lex_zset): every score 0.
const std::vector<std::string> kLexZadd = {"ZADD", "zset", "0", "alpha", "0", "bar", "0", "cool", "0", "down",
                                           "0", "elephant", "0", "foo", "0", "great", "0", "hill", "0", "omega"};

// ZADD key 0 m0 1 m1 ... for n members, prefixed with `prefix`.
std::vector<std::string> zadd_many(const std::string& key, int n, const std::string& prefix = "m") {
  std::vector<std::string> argv = {"ZADD", key};
  for (int i = 0; i < n; ++i) {
    argv.push_back(std::to_string(i));
    argv.push_back(prefix + std::to_string(i));
  }
  return argv;
}

}  // namespace

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

TEST_F(Differential, ZrevrangeAndZrevrank) {
  expect_same({"ZADD", "z", "1", "a", "2", "b", "3", "c", "4", "d", "5", "e", "5", "f"});
  for (auto [start, stop] : std::vector<std::pair<const char*, const char*>>{
           {"0", "-1"}, {"1", "2"}, {"-2", "-1"}, {"-100", "100"}, {"3", "1"}, {"6", "10"}, {"0", "0"}, {"-1", "-7"}})
    expect_same({"ZREVRANGE", "z", start, stop});
  expect_same({"ZREVRANGE", "z", "0", "2", "WITHSCORES"});
  expect_same({"ZREVRANGE", "z", "0", "2", "withscores", "WITHSCORES"});
  expect_same({"ZREVRANGE", "z", "0", "-1", "REV"});
  expect_same({"ZREVRANGE", "z", "0", "-1", "BYSCORE"});
  expect_same({"ZREVRANGE", "z", "0", "-1", "BYLEX"});
  expect_same({"ZREVRANGE", "z", "0", "-1", "LIMIT", "0", "1"});
  expect_same({"ZREVRANGE", "z", "0", "-1", "LIMIT", "0", "-1"});
  expect_same({"ZREVRANGE", "z", "0", "-1", "LIMIT", "0"});
  expect_same({"ZREVRANGE", "z", "a", "1"});
  expect_same({"ZREVRANGE", "z", "0", " 1"});
  expect_same({"ZREVRANGE", "missing", "0", "-1"});
  for (const char* m : {"a", "c", "e", "f", "nope"}) {
    expect_same({"ZRANK", "z", m});
    expect_same({"ZREVRANK", "z", m});
  }
  expect_same({"ZREVRANK", "missing", "a"});
  expect_same({"ZREM", "z", "c"});
  expect_same({"ZREVRANK", "z", "a"});
  expect_same({"ZREVRANK", "z", "d"});
  expect_same({"SET", "s", "v"});
  expect_same({"ZREVRANGE", "s", "0", "-1"});
  expect_same({"ZREVRANK", "s", "a"});
  expect_same({"ZREVRANK", "z"});
  expect_same({"ZREVRANK", "z", "a", "b"});
  expect_same({"ZREVRANGE", "z", "0"});
}

TEST_F(Differential, ZrevrangeOfASkiplist) {
  expect_same(zadd_many("big", 200));
  expect_same({"OBJECT", "ENCODING", "big"});
  expect_same({"ZREVRANGE", "big", "0", "3", "WITHSCORES"});
  expect_same({"ZREVRANGE", "big", "-3", "-1"});
  expect_same({"ZREVRANGE", "big", "100", "102"});
  expect_same({"ZREVRANK", "big", "m0"});
  expect_same({"ZREVRANK", "big", "m199"});
  expect_same({"ZREVRANK", "big", "m57"});
}

TEST_F(Differential, ZrevrangebyscoreAndZcount) {
  // zset.tcl's ZRANGEBYSCORE/ZREVRANGEBYSCORE/ZCOUNT basics.
  expect_same({"ZADD", "zset", "-inf", "a", "1", "b", "2", "c", "3", "d", "4", "e", "5", "f", "+inf", "g"});
  for (auto [min, max] : std::vector<std::pair<const char*, const char*>>{
           {"0", "3"}, {"(0", "(3"}, {"-inf", "2"}, {"(-inf", "(2"}, {"2", "+inf"}, {"(2", "(+inf"}, {"(4", "+inf"},
           {"-inf", "-inf"}, {"(-inf", "(-inf"}, {"+inf", "+inf"}, {"(+inf", "(+inf"}, {"3", "3"}, {"(3", "3"},
           {"3", "(3"}, {"5", "1"}, {"", "3"}, {"0x2", "3"}, {"-inf", "+inf"}}) {
    expect_same({"ZRANGEBYSCORE", "zset", min, max});
    expect_same({"ZREVRANGEBYSCORE", "zset", max, min});
    expect_same({"ZCOUNT", "zset", min, max});
  }
  expect_same({"ZREVRANGEBYSCORE", "zset", "5", "1", "WITHSCORES"});
  expect_same({"ZREVRANGEBYSCORE", "zset", "+inf", "-inf", "WITHSCORES", "LIMIT", "1", "3"});
  for (auto [offset, count] : std::vector<std::pair<const char*, const char*>>{
           {"0", "2"}, {"2", "3"}, {"0", "10"}, {"20", "10"}, {"7", "1"}, {"6", "1"}, {"-1", "2"}, {"1", "-1"},
           {"1", "0"}, {"0", "-5"}}) {
    expect_same({"ZREVRANGEBYSCORE", "zset", "+inf", "-inf", "LIMIT", offset, count});
    expect_same({"ZREVRANGEBYSCORE", "zset", "(4", "(1", "LIMIT", offset, count});
  }
  expect_same({"ZREVRANGEBYSCORE", "zset", "+inf", "-inf", "LIMIT", "x", "2"});
  expect_same({"ZREVRANGEBYSCORE", "zset", "+inf", "-inf", "LIMIT", "0", "1.5"});
  expect_same({"ZREVRANGEBYSCORE", "zset", "+inf", "-inf", "LIMIT", "0"});
  expect_same({"ZREVRANGEBYSCORE", "zset", "+inf", "-inf", "REV"});
  expect_same({"ZREVRANGEBYSCORE", "zset", "+inf", "-inf", "BYSCORE"});
  for (auto [min, max] : std::vector<std::pair<const char*, const char*>>{
           {"str", "1"}, {"1", "str"}, {"1", "NaN"}, {"nan", "1"}, {"(", "1"}, {" 1", "2"}, {"1 ", "2"}, {"((1", "2"}}) {
    expect_same({"ZREVRANGEBYSCORE", "zset", max, min});
    expect_same({"ZCOUNT", "zset", min, max});
  }
  expect_same({"ZCOUNT", "missing", "-inf", "+inf"});
  expect_same({"ZCOUNT", "missing", "x", "+inf"});
  expect_same({"ZREVRANGEBYSCORE", "missing", "+inf", "-inf"});
  expect_same({"SET", "s", "v"});
  expect_same({"ZCOUNT", "s", "0", "1"});
  expect_same({"ZCOUNT", "s", "x", "1"});
  expect_same({"ZREVRANGEBYSCORE", "s", "1", "0"});
  expect_same({"ZCOUNT", "zset", "0"});
  expect_same({"ZCOUNT", "zset", "0", "1", "2"});
  expect_same({"ZREVRANGEBYSCORE", "zset", "1"});
  // A skiplist.
  expect_same(zadd_many("big", 150));
  expect_same({"ZCOUNT", "big", "10", "(20"});
  expect_same({"ZCOUNT", "big", "-inf", "+inf"});
  expect_same({"ZREVRANGEBYSCORE", "big", "(140", "137", "WITHSCORES"});
  expect_same({"ZREVRANGEBYSCORE", "big", "+inf", "-inf", "LIMIT", "140", "20"});
}

TEST_F(Differential, ZrangebylexZrevrangebylexAndZlexcount) {
  expect_same(kLexZadd);
  for (auto [min, max] : std::vector<std::pair<const char*, const char*>>{
           {"-", "[cool"}, {"[bar", "[down"}, {"[g", "+"}, {"-", "(cool"}, {"(bar", "(down"}, {"(great", "+"},
           {"(az", "(b"}, {"(z", "+"}, {"-", "[aaaa"}, {"[elex", "[elez"}, {"(hill", "(omega"}, {"-", "+"},
           {"+", "-"}, {"+", "[c"}, {"[c", "-"}, {"[bar", "+"}, {"[bar", "[foo"}, {"[bar", "(foo"},
           {"(bar", "[foo"}, {"(bar", "(foo"}, {"-", "(foo"}, {"(maxstring", "+"}, {"[ele", "[h"},
           {"(ele", "(great"}, {"-", "-"}, {"+", "+"}, {"[foo", "[foo"}, {"(foo", "[foo"}, {"[foo", "(foo"},
           {"[", "+"}, {"(", "+"}, {"-", "["}}) {
    expect_same({"ZRANGEBYLEX", "zset", min, max});
    expect_same({"ZREVRANGEBYLEX", "zset", max, min});
    expect_same({"ZLEXCOUNT", "zset", min, max});
  }
  // zset.tcl's ZRANGEBYSLEX with LIMIT.
  for (auto [offset, count] : std::vector<std::pair<const char*, const char*>>{
           {"0", "2"}, {"1", "2"}, {"0", "0"}, {"2", "0"}, {"0", "1"}, {"1", "1"}, {"0", "100"}, {"-1", "2"},
           {"2", "-1"}, {"9", "1"}, {"8", "5"}}) {
    expect_same({"ZRANGEBYLEX", "zset", "[bar", "[down", "LIMIT", offset, count});
    expect_same({"ZREVRANGEBYLEX", "zset", "+", "[d", "LIMIT", offset, count});
  }
  // zset.tcl's invalid lex range specifiers.
  for (auto [min, max] : std::vector<std::pair<const char*, const char*>>{
           {"foo", "bar"}, {"[foo", "bar"}, {"foo", "[bar"}, {"+x", "[bar"}, {"-x", "[bar"}, {"", "+"}, {"1", "2"}}) {
    expect_same({"ZRANGEBYLEX", "zset", min, max});
    expect_same({"ZREVRANGEBYLEX", "zset", max, min});
    expect_same({"ZLEXCOUNT", "zset", min, max});
    expect_same({"ZRANGEBYLEX", "missing", min, max});
  }
  expect_same({"ZRANGEBYLEX", "zset", "-", "+", "WITHSCORES"});
  expect_same({"ZREVRANGEBYLEX", "zset", "+", "-", "WITHSCORES"});
  expect_same({"ZRANGEBYLEX", "zset", "-", "+", "REV"});
  expect_same({"ZRANGEBYLEX", "zset", "-", "+", "BYLEX"});
  expect_same({"ZRANGEBYLEX", "zset", "-", "+", "LIMIT", "a", "1"});
  expect_same({"ZLEXCOUNT", "missing", "-", "+"});
  expect_same({"ZLEXCOUNT", "missing", "x", "+"});
  expect_same({"SET", "s", "v"});
  expect_same({"ZLEXCOUNT", "s", "-", "+"});
  expect_same({"ZRANGEBYLEX", "s", "-", "+"});
  expect_same({"ZREVRANGEBYLEX", "s", "+", "-"});
  expect_same({"ZLEXCOUNT", "zset", "-"});
  expect_same({"ZRANGEBYLEX", "zset", "-"});
}

TEST_F(Differential, ZrangebylexOverMembersOfDifferentScores) {
  // Redis leaves these unspecified, but a listpack answers by its walk: from the first member past
  // the near end, on while members stay before the far end.
  expect_same({"ZADD", "z", "1", "c", "2", "a", "3", "d", "4", "b", "5", "e"});
  for (auto [min, max] : std::vector<std::pair<const char*, const char*>>{
           {"[a", "[c"}, {"[b", "+"}, {"-", "[b"}, {"(a", "(e"}, {"[c", "[d"}, {"[d", "+"}, {"-", "(c"}, {"[a", "[a"}}) {
    expect_same({"ZRANGEBYLEX", "z", min, max});
    expect_same({"ZREVRANGEBYLEX", "z", max, min});
    expect_same({"ZLEXCOUNT", "z", min, max});
    expect_same({"ZRANGEBYLEX", "z", min, max, "LIMIT", "1", "2"});
    expect_same({"ZREVRANGEBYLEX", "z", max, min, "LIMIT", "1", "10"});
    expect_same({"ZRANGE", "z", max, min, "BYLEX", "REV", "LIMIT", "2", "10"});
  }
  for (auto [min, max] : std::vector<std::pair<const char*, const char*>>{{"[a", "[c"}, {"[c", "[d"}, {"-", "[b"}}) {
    expect_same({"ZADD", "w", "1", "c", "2", "a", "3", "d", "4", "b", "5", "e"});
    expect_same({"ZREMRANGEBYLEX", "w", min, max});
    expect_same({"ZRANGE", "w", "0", "-1"});
    expect_same({"DEL", "w"});
  }
}

TEST_F(Differential, Zmscore) {
  expect_same({"ZADD", "z", "10", "x", "20", "y", "-inf", "n", "1.5", "f"});
  expect_same({"ZMSCORE", "z", "x", "y"});
  expect_same({"ZMSCORE", "z", "x"});
  expect_same({"ZMSCORE", "z", "x", "nope", "y", "n", "f", "x"});
  expect_same({"ZMSCORE", "missing", "x", "y"});
  expect_same({"ZMSCORE", "z"});
  expect_same({"SET", "s", "v"});
  expect_same({"ZMSCORE", "s", "x"});
}

TEST_F(Differential, ZrangestoreStoresARange) {
  expect_same({"ZADD", "z1", "1", "a", "2", "b", "3", "c", "4", "d"});
  expect_same({"ZRANGESTORE", "z2", "z1", "0", "-1"});
  expect_same({"ZRANGE", "z2", "0", "-1", "WITHSCORES"});
  expect_same({"ZRANGESTORE", "z2", "z1", "1", "2"});
  expect_same({"ZRANGE", "z2", "0", "-1", "WITHSCORES"});
  expect_same({"ZRANGESTORE", "z2", "z1", "0", "1", "REV"});
  expect_same({"ZRANGE", "z2", "0", "-1", "WITHSCORES"});
  expect_same({"ZRANGESTORE", "z2", "z1", "[b", "[c", "BYLEX"});
  expect_same({"ZRANGE", "z2", "0", "-1", "WITHSCORES"});
  expect_same({"ZRANGESTORE", "z2", "z1", "1", "2", "BYSCORE"});
  expect_same({"ZRANGE", "z2", "0", "-1", "WITHSCORES"});
  expect_same({"ZRANGESTORE", "z2", "z1", "0", "5", "BYSCORE", "LIMIT", "0", "2"});
  expect_same({"ZRANGE", "z2", "0", "-1", "WITHSCORES"});
  expect_same({"ZRANGESTORE", "z2", "z1", "5", "0", "BYSCORE", "REV", "LIMIT", "0", "2"});
  expect_same({"ZRANGE", "z2", "0", "-1", "WITHSCORES"});
  expect_same({"ZRANGESTORE", "z2", "z1", "+", "[b", "BYLEX", "REV", "LIMIT", "1", "5"});
  expect_same({"ZRANGE", "z2", "0", "-1", "WITHSCORES"});
  expect_same({"OBJECT", "ENCODING", "z2"});
  // An empty range, or a missing source, deletes the destination; a source of another type does not.
  expect_same({"ZRANGESTORE", "z2", "z1", "5", "10"});
  expect_same({"EXISTS", "z2"});
  expect_same({"ZADD", "z2", "1", "x"});
  expect_same({"ZRANGESTORE", "z2", "z1", "[f", "[g", "BYLEX"});
  expect_same({"EXISTS", "z2"});
  expect_same({"ZADD", "z2", "1", "x"});
  expect_same({"ZRANGESTORE", "z2", "z1", "5", "6", "BYSCORE"});
  expect_same({"EXISTS", "z2"});
  expect_same({"ZADD", "z2", "1", "x"});
  expect_same({"ZRANGESTORE", "z2", "missing", "0", "-1"});
  expect_same({"EXISTS", "z2"});
  expect_same({"SET", "str", "v"});
  expect_same({"ZADD", "z2", "1", "x"});
  expect_same({"ZRANGESTORE", "z2", "str", "0", "-1"});
  expect_same({"ZRANGE", "z2", "0", "-1"});
  // The destination is replaced whatever it held, its expiry with it.
  expect_same({"SET", "dst", "v", "EX", "100"});
  expect_same({"ZRANGESTORE", "dst", "z1", "0", "0"});
  expect_same({"TYPE", "dst"});
  expect_same({"TTL", "dst"});
  expect_same({"ZRANGESTORE", "str", "z1", "0", "0"});
  expect_same({"TYPE", "str"});
  // The source as its own destination.
  expect_same({"ZRANGESTORE", "z1", "z1", "1", "-1"});
  expect_same({"ZRANGE", "z1", "0", "-1", "WITHSCORES"});
}

TEST_F(Differential, ZrangestoreArguments) {
  expect_same({"ZADD", "z1", "1", "a", "2", "b"});
  expect_same({"ZRANGESTORE", "z2", "z1", "0", "-1", "LIMIT", "1", "2"});
  expect_same({"ZRANGESTORE", "z2", "z1", "0", "-1", "WITHSCORES"});
  expect_same({"ZRANGESTORE", "z2", "z1", "0", "-1", "REV", "REV"});
  expect_same({"ZRANGESTORE", "z2", "z1", "0", "-1", "BYSCORE", "BYLEX"});
  expect_same({"ZRANGESTORE", "z2", "z1", "-", "+", "BYLEX", "LIMIT", "0"});
  expect_same({"ZRANGESTORE", "z2", "z1", "a", "-1"});
  expect_same({"ZRANGESTORE", "z2", "z1", "a", "1", "BYSCORE"});
  expect_same({"ZRANGESTORE", "z2", "z1", "a", "+", "BYLEX"});
  expect_same({"ZRANGESTORE", "z2", "z1", "-inf", "nan", "BYSCORE"});
  expect_same({"ZRANGESTORE", "z2", "z1", "0"});
  expect_same({"EXISTS", "z2"});
  // zset.tcl's invalid syntax for ZRANGE and its older forms.
  expect_same({"ZRANGE", "z1", "0", "-1", "LIMIT", "1", "2"});
  expect_same({"ZRANGE", "z1", "0", "-1", "BYLEX", "WITHSCORES"});
  expect_same({"ZREVRANGE", "z1", "0", "-1", "BYSCORE"});
  expect_same({"ZRANGEBYSCORE", "z1", "0", "-1", "REV"});
}

TEST_F(Differential, ZrangestoreDestinationEncoding) {
  expect_same(zadd_many("big", 200));
  // A rank range known to exceed the listpack's 128 entries is a skiplist from the start.
  expect_same({"ZRANGESTORE", "dst", "big", "0", "128"});
  expect_same({"OBJECT", "ENCODING", "dst"});
  expect_same({"ZRANGESTORE", "dst", "big", "0", "127"});
  expect_same({"OBJECT", "ENCODING", "dst"});
  // A score range grows a listpack until it converts.
  expect_same({"ZRANGESTORE", "dst", "big", "0", "(128", "BYSCORE"});
  expect_same({"OBJECT", "ENCODING", "dst"});
  expect_same({"ZRANGESTORE", "dst", "big", "0", "128", "BYSCORE"});
  expect_same({"OBJECT", "ENCODING", "dst"});
  expect_same({"ZCARD", "dst"});
  // A member over 64 bytes makes it a skiplist too.
  const std::string long_member(65, 'x');
  expect_same({"ZADD", "small", "1", "a", "2", long_member, "3", "c"});
  expect_same({"ZRANGESTORE", "dst", "small", "0", "-1"});
  expect_same({"OBJECT", "ENCODING", "dst"});
  expect_same({"ZRANGESTORE", "dst", "small", "2", "3", "BYSCORE"});
  expect_same({"OBJECT", "ENCODING", "dst"});
  expect_same({"ZRANGESTORE", "dst", "small", "-1", "-1"});
  expect_same({"OBJECT", "ENCODING", "dst"});
}

TEST_F(Differential, ZstoresAndRangesCarryNegativeZeroAsRedis) {
  // A skiplist keeps -0; what ZRANGESTORE and the algebra store shows whether they wrote a listpack.
  const std::string long_member(70, 'x');
  expect_same({"ZADD", "src", "1", long_member, "-0", "negz", "-0", "negz2"});
  expect_same({"ZRANGE", "src", "0", "-1", "WITHSCORES"});
  expect_same({"ZRANGESTORE", "dst", "src", "0", "1"});
  expect_same({"ZRANGE", "dst", "0", "-1", "WITHSCORES"});
  expect_same({"ZRANGESTORE", "dst", "src", "-1", "1", "BYSCORE"});
  expect_same({"ZRANGE", "dst", "0", "-1", "WITHSCORES"});
  expect_same({"ZRANGESTORE", "dst", "src", "0", "-1"});
  expect_same({"ZRANGE", "dst", "0", "-1", "WITHSCORES"});
  expect_same({"ZUNION", "1", "src", "WITHSCORES"});
  expect_same({"ZUNIONSTORE", "dst", "1", "src"});
  expect_same({"ZRANGE", "dst", "0", "-1", "WITHSCORES"});
  expect_same({"ZINTERSTORE", "dst", "1", "src", "WEIGHTS", "1"});
  expect_same({"ZRANGE", "dst", "0", "-1", "WITHSCORES"});
  expect_same({"ZDIFFSTORE", "dst", "2", "src", "missing"});
  expect_same({"ZRANGE", "dst", "0", "-1", "WITHSCORES"});
  expect_same({"ZREM", "src", long_member});
  expect_same({"ZUNIONSTORE", "dst", "1", "src"});
  expect_same({"ZRANGE", "dst", "0", "-1", "WITHSCORES"});
  expect_same({"ZDIFF", "1", "src", "WITHSCORES"});
  expect_same({"ZMSCORE", "src", "negz"});
  // A rank range of more than 128 is stored in a skiplist from the start, and keeps every -0; a
  // score range fills a listpack first, whose zeros lose their sign before it converts.
  std::vector<std::string> zeros = {"ZADD", "zeros"};
  for (int i = 0; i < 130; ++i) {
    zeros.push_back("-0");
    zeros.push_back("z" + std::to_string(i));
  }
  expect_same({"ZADD", "zeros", "1", long_member});
  expect_same(zeros);
  expect_same({"ZREM", "zeros", long_member});
  expect_same({"ZRANGE", "zeros", "0", "2", "WITHSCORES"});
  expect_same({"ZRANGESTORE", "dst", "zeros", "0", "-1"});
  expect_same({"ZRANGE", "dst", "0", "2", "WITHSCORES"});
  expect_same({"ZRANGESTORE", "dst", "zeros", "-inf", "+inf", "BYSCORE"});
  expect_same({"ZRANGE", "dst", "0", "2", "WITHSCORES"});
  expect_same({"ZRANGE", "dst", "-2", "-1", "WITHSCORES"});
  expect_same({"ZRANGESTORE", "dst", "zeros", "0", "127"});
  expect_same({"ZRANGE", "dst", "0", "2", "WITHSCORES"});
  expect_same({"ZRANDMEMBER", "src", "5", "WITHSCORES"});
  expect_same({"ZMPOP", "1", "src", "MIN", "COUNT", "5"});
}

TEST_F(Differential, ZremrangebyscoreRankAndLex) {
  const std::vector<std::string> zadd = {"ZADD", "z", "1", "a", "2", "b", "3", "c", "4", "d", "5", "e"};
  for (auto [min, max] : std::vector<std::pair<const char*, const char*>>{
           {"2", "4"}, {"-10", "1"}, {"5", "10"}, {"10", "12"}, {"10", "0"}, {"-inf", "+inf"}, {"(1", "(5"},
           {"(2", "4"}, {"2", "(4"}, {"(1", "(2"}, {"3", "3"}, {"(3", "3"}, {"", "2"}}) {
    expect_same(zadd);
    expect_same({"ZREMRANGEBYSCORE", "z", min, max});
    expect_same({"ZRANGE", "z", "0", "-1"});
    expect_same({"DEL", "z"});
  }
  for (auto [start, stop] : std::vector<std::pair<const char*, const char*>>{
           {"1", "3"}, {"1", "-1"}, {"-2", "-1"}, {"-100", "1"}, {"3", "1"}, {"5", "10"}, {"0", "-1"}, {"-1", "-5"},
           {"0", "100"}}) {
    expect_same(zadd);
    expect_same({"ZREMRANGEBYRANK", "z", start, stop});
    expect_same({"ZRANGE", "z", "0", "-1"});
    expect_same({"DEL", "z"});
  }
  for (auto [min, max] : std::vector<std::pair<const char*, const char*>>{
           {"[alpha", "[omega"}, {"(alpha", "(omega"}, {"-", "[cool"}, {"[g", "+"}, {"-", "+"}, {"+", "-"},
           {"[zz", "+"}, {"(down", "[foo"}}) {
    expect_same(kLexZadd);
    expect_same({"ZREMRANGEBYLEX", "zset", min, max});
    expect_same({"ZRANGE", "zset", "0", "-1"});
    expect_same({"DEL", "zset"});
  }
  // Emptied, the key goes.
  expect_same(zadd);
  expect_same({"ZREMRANGEBYSCORE", "z", "-inf", "+inf"});
  expect_same({"EXISTS", "z"});
  expect_same(zadd);
  expect_same({"ZREMRANGEBYRANK", "z", "0", "-1"});
  expect_same({"EXISTS", "z"});
  expect_same(kLexZadd);
  expect_same({"ZREMRANGEBYLEX", "zset", "-", "+"});
  expect_same({"EXISTS", "zset"});
  // Bad ranges, missing keys, other types.
  expect_same(zadd);
  for (auto [min, max] : std::vector<std::pair<const char*, const char*>>{{"str", "1"}, {"1", "str"}, {"1", "NaN"}})
    expect_same({"ZREMRANGEBYSCORE", "z", min, max});
  expect_same({"ZREMRANGEBYRANK", "z", "a", "1"});
  expect_same({"ZREMRANGEBYRANK", "z", "0", "1.0"});
  expect_same({"ZREMRANGEBYLEX", "z", "a", "+"});
  expect_same({"ZREMRANGEBYLEX", "z", "-", "b"});
  expect_same({"ZREMRANGEBYRANK", "missing", "0", "-1"});
  expect_same({"ZREMRANGEBYSCORE", "missing", "-inf", "+inf"});
  expect_same({"ZREMRANGEBYLEX", "missing", "-", "+"});
  expect_same({"ZREMRANGEBYSCORE", "missing", "x", "+inf"});
  expect_same({"SET", "s", "v"});
  expect_same({"ZREMRANGEBYRANK", "s", "0", "-1"});
  expect_same({"ZREMRANGEBYSCORE", "s", "-inf", "+inf"});
  expect_same({"ZREMRANGEBYLEX", "s", "-", "+"});
  expect_same({"ZREMRANGEBYRANK", "s", "x", "-1"});
  expect_same({"ZREMRANGEBYRANK", "z", "0"});
  expect_same({"ZREMRANGEBYSCORE", "z", "0", "1", "2"});
  expect_same({"ZRANGE", "z", "0", "-1", "WITHSCORES"});
  // A skiplist stays one after removals.
  expect_same(zadd_many("big", 200));
  expect_same({"ZREMRANGEBYRANK", "big", "10", "-10"});
  expect_same({"ZCARD", "big"});
  expect_same({"OBJECT", "ENCODING", "big"});
  expect_same({"ZREMRANGEBYSCORE", "big", "(3", "195"});
  expect_same({"ZRANGE", "big", "0", "-1", "WITHSCORES"});
}

TEST_F(Differential, ZunionstoreAndZinterstoreBasics) {
  // zset.tcl's zseta / zsetb.
  expect_same({"ZADD", "zseta", "1", "a", "2", "b", "3", "c"});
  expect_same({"ZADD", "zsetb", "1", "b", "2", "c", "3", "d"});
  expect_same({"ZUNIONSTORE", "zsetc", "2", "zseta", "zsetb"});
  expect_same({"ZRANGE", "zsetc", "0", "-1", "WITHSCORES"});
  expect_same({"ZUNION", "2", "zseta", "zsetb"});
  expect_same({"ZUNION", "2", "zseta", "zsetb", "WITHSCORES"});
  expect_same({"ZUNIONSTORE", "zsetc", "2", "zseta", "zsetb", "WEIGHTS", "2", "3"});
  expect_same({"ZRANGE", "zsetc", "0", "-1", "WITHSCORES"});
  expect_same({"ZUNION", "2", "zseta", "zsetb", "WEIGHTS", "2", "3", "WITHSCORES"});
  expect_same({"ZUNION", "2", "zseta", "zsetb", "weights", "2.5", "-1", "aggregate", "min", "withscores"});
  for (const char* how : {"SUM", "MIN", "MAX", "sum", "Min", "mAx"}) {
    expect_same({"ZUNIONSTORE", "zsetc", "2", "zseta", "zsetb", "AGGREGATE", how});
    expect_same({"ZRANGE", "zsetc", "0", "-1", "WITHSCORES"});
    expect_same({"ZUNION", "2", "zseta", "zsetb", "AGGREGATE", how, "WITHSCORES"});
    expect_same({"ZINTERSTORE", "zsetc", "2", "zseta", "zsetb", "AGGREGATE", how});
    expect_same({"ZRANGE", "zsetc", "0", "-1", "WITHSCORES"});
    expect_same({"ZINTER", "2", "zseta", "zsetb", "WEIGHTS", "2", "3", "AGGREGATE", how, "WITHSCORES"});
  }
  expect_same({"ZINTERSTORE", "zsetc", "2", "zseta", "zsetb"});
  expect_same({"ZRANGE", "zsetc", "0", "-1", "WITHSCORES"});
  expect_same({"ZINTER", "2", "zseta", "zsetb"});
  expect_same({"ZINTER", "2", "zseta", "zsetb", "WITHSCORES"});
  expect_same({"ZINTERSTORE", "zsetc", "2", "zseta", "zsetb", "WEIGHTS", "2", "3"});
  expect_same({"ZRANGE", "zsetc", "0", "-1", "WITHSCORES"});
  // The options in any order, repeated: the last one counts.
  expect_same({"ZUNION", "2", "zseta", "zsetb", "AGGREGATE", "MAX", "WEIGHTS", "1", "2", "AGGREGATE", "MIN",
               "WITHSCORES", "WEIGHTS", "-1", "1"});
  expect_same({"ZUNION", "2", "zseta", "zsetb", "WITHSCORES", "WITHSCORES"});
  // A key named twice counts twice.
  expect_same({"ZUNION", "2", "zseta", "zseta", "WITHSCORES"});
  expect_same({"ZINTER", "3", "zseta", "zseta", "zsetb", "WEIGHTS", "1", "10", "100", "WITHSCORES"});
  expect_same({"ZINTERSTORE", "zsetc", "2", "zseta", "zseta", "AGGREGATE", "MAX"});
  expect_same({"ZRANGE", "zsetc", "0", "-1", "WITHSCORES"});
  // Missing keys are empty sets.
  expect_same({"ZUNIONSTORE", "zsetc", "2", "zseta", "missing"});
  expect_same({"ZRANGE", "zsetc", "0", "-1", "WITHSCORES"});
  expect_same({"ZINTERSTORE", "zsetc", "2", "zseta", "missing"});
  expect_same({"EXISTS", "zsetc"});
  expect_same({"ZUNION", "2", "missing", "missing2"});
  expect_same({"ZINTER", "2", "missing", "zseta"});
  expect_same({"ZUNIONSTORE", "dst", "1", "missing"});
  expect_same({"EXISTS", "dst"});
}

TEST_F(Differential, ZunionZinterZdiffTakeSetsWithScoreOne) {
  expect_same({"ZADD", "zsetb", "1", "b", "2", "c", "3", "d"});
  expect_same({"SADD", "seta", "a", "b", "c"});
  expect_same({"ZUNIONSTORE", "zsetc", "2", "seta", "zsetb", "WEIGHTS", "2", "3"});
  expect_same({"ZRANGE", "zsetc", "0", "-1", "WITHSCORES"});
  expect_same({"ZINTERSTORE", "zsetc", "2", "seta", "zsetb", "WEIGHTS", "2", "3"});
  expect_same({"ZRANGE", "zsetc", "0", "-1", "WITHSCORES"});
  expect_same({"ZDIFFSTORE", "zsetc", "2", "seta", "zsetb"});
  expect_same({"ZRANGE", "zsetc", "0", "-1", "WITHSCORES"});
  expect_same({"ZDIFF", "2", "zsetb", "seta", "WITHSCORES"});
  expect_same({"ZINTERCARD", "2", "seta", "zsetb"});
  // zset.tcl's regressions: intset and hashtable, mixed sets and listpacks with zero weights.
  expect_same({"SADD", "set1", "a"});
  expect_same({"SADD", "set2", "10"});
  expect_same({"ZINTERSTORE", "set3", "2", "set1", "set2"});
  expect_same({"SADD", "one", "100", "101", "102", "103"});
  expect_same({"SADD", "two", "100", "200", "201", "202"});
  expect_same({"ZADD", "three", "1", "500", "1", "501", "1", "502", "1", "503", "1", "100"});
  expect_same({"ZINTERSTORE", "to_here", "3", "one", "two", "three", "WEIGHTS", "0", "0", "1"});
  expect_same({"ZRANGE", "to_here", "0", "-1", "WITHSCORES"});
  expect_same({"ZUNION", "3", "one", "two", "three", "WITHSCORES"});
  expect_same({"ZINTER", "2", "one", "two", "WITHSCORES"});
  expect_same({"ZINTER", "2", "one", "01", "WITHSCORES"});
  expect_same({"ZADD", "strs", "1", "0100", "2", "100"});
  expect_same({"ZINTER", "2", "one", "strs", "WITHSCORES"});
  expect_same({"ZDIFF", "2", "strs", "one", "WITHSCORES"});
  // Only sets: the result is still a sorted set.
  expect_same({"ZUNIONSTORE", "u", "2", "one", "two"});
  expect_same({"TYPE", "u"});
  expect_same({"OBJECT", "ENCODING", "u"});
  expect_same({"ZRANGE", "u", "0", "-1", "WITHSCORES"});
}

TEST_F(Differential, ZunionZinterWithInfinitiesAndNaNWeights) {
  for (const char* cmd : {"ZUNIONSTORE", "ZINTERSTORE"}) {
    for (auto [a, b] : std::vector<std::pair<const char*, const char*>>{
             {"+inf", "+inf"}, {"-inf", "+inf"}, {"+inf", "-inf"}, {"-inf", "-inf"}}) {
      expect_same({"ZADD", "zsetinf1", a, "key"});
      expect_same({"ZADD", "zsetinf2", b, "key"});
      expect_same({cmd, "zsetinf3", "2", "zsetinf1", "zsetinf2"});
      expect_same({"ZSCORE", "zsetinf3", "key"});
      expect_same({cmd, "zsetinf3", "2", "zsetinf1", "zsetinf2", "AGGREGATE", "MIN"});
      expect_same({"ZSCORE", "zsetinf3", "key"});
      expect_same({cmd, "zsetinf3", "2", "zsetinf1", "zsetinf2", "WEIGHTS", "0", "1"});
      expect_same({"ZSCORE", "zsetinf3", "key"});
      expect_same({cmd, "zsetinf3", "2", "zsetinf1", "zsetinf2", "WEIGHTS", "0", "0", "AGGREGATE", "MAX"});
      expect_same({"ZSCORE", "zsetinf3", "key"});
      expect_same({cmd, "zsetinf3", "2", "zsetinf1", "zsetinf2", "WEIGHTS", "1", "0", "AGGREGATE", "MIN"});
      expect_same({"ZSCORE", "zsetinf3", "key"});
      expect_same({cmd, "zsetinf3", "2", "zsetinf1", "zsetinf2", "WEIGHTS", "-1", "inf"});
      expect_same({"ZSCORE", "zsetinf3", "key"});
    }
    expect_same({"ZADD", "zsetinf1", "1.0", "key"});
    expect_same({"ZADD", "zsetinf2", "1.0", "key"});
    for (const char* weight : {"nan", "NaN", "", " 1", "1 ", "abc", "1e400", "0x10", "-inf"})
      expect_same({cmd, "zsetinf3", "2", "zsetinf1", "zsetinf2", "WEIGHTS", weight, "1"});
    expect_same({"ZSCORE", "zsetinf3", "key"});
  }
  // zset.tcl: no NaN from -inf * 0.
  expect_same({"ZADD", "z", "-inf", "neginf"});
  expect_same({"ZUNIONSTORE", "out", "1", "z", "WEIGHTS", "0"});
  expect_same({"ZRANGE", "out", "0", "-1", "WITHSCORES"});
  expect_same({"ZINTER", "2", "z", "z", "WEIGHTS", "0", "1", "WITHSCORES"});
  expect_same({"ZINTER", "2", "z", "z", "WEIGHTS", "1", "0", "AGGREGATE", "MIN", "WITHSCORES"});
  expect_same({"ZINTER", "2", "z", "z", "WEIGHTS", "1", "0", "AGGREGATE", "MAX", "WITHSCORES"});
  expect_same({"ZUNION", "2", "z", "z", "WEIGHTS", "1", "0", "AGGREGATE", "MIN", "WITHSCORES"});
  expect_same({"ZUNION", "2", "z", "z", "WEIGHTS", "1e308", "10", "WITHSCORES"});
}

TEST_F(Differential, ZunionZinterSumInRedisOrder) {
  // A sum's rounding shows the order of its additions: Redis adds the inputs smallest first, and
  // inputs of one size in the order they were named.
  expect_same({"ZADD", "a", "1e16", "x"});
  expect_same({"ZADD", "b", "1", "x", "1", "y"});
  expect_same({"ZADD", "c", "1", "x", "1", "y", "1", "z"});
  expect_same({"ZADD", "d", "1", "x"});
  expect_same({"ZADD", "e", "1", "x"});
  expect_same({"ZUNION", "3", "c", "b", "a", "WITHSCORES"});
  expect_same({"ZUNION", "3", "a", "b", "c", "WITHSCORES"});
  expect_same({"ZINTER", "3", "c", "b", "a", "WITHSCORES"});
  expect_same({"ZUNION", "3", "a", "d", "e", "WITHSCORES"});
  expect_same({"ZUNION", "3", "d", "e", "a", "WITHSCORES"});
  expect_same({"ZINTER", "3", "d", "a", "e", "WITHSCORES"});
  expect_same({"ZINTER", "3", "d", "e", "a", "WITHSCORES"});
}

TEST_F(Differential, ZunionZinterZdiffArguments) {
  expect_same({"ZADD", "za", "1", "a"});
  expect_same({"ZADD", "zb", "2", "a"});
  for (const char* numkeys : {"0", "-1", "x", "", "1.0", "9223372036854775808", "9223372036854775807", "3"}) {
    expect_same({"ZUNION", numkeys, "za", "zb"});
    expect_same({"ZINTER", numkeys, "za", "zb"});
    expect_same({"ZDIFF", numkeys, "za", "zb"});
    expect_same({"ZINTERCARD", numkeys, "za", "zb"});
    expect_same({"ZUNIONSTORE", "dst", numkeys, "za", "zb"});
    expect_same({"ZINTERSTORE", "dst", numkeys, "za", "zb"});
    expect_same({"ZDIFFSTORE", "dst", numkeys, "za", "zb"});
  }
  for (const char* cmd : {"ZUNIONSTORE", "ZINTERSTORE", "ZDIFFSTORE"}) {
    expect_same({cmd, "dst", "2", "za", "zb", "WITHSCORES"});
    expect_same({cmd, "dst", "2", "za", "zb", "LIMIT", "1"});
    expect_same({cmd, "dst", "2", "za", "zb", "BOGUS"});
    expect_same({cmd, "dst", "2", "za", "zb", "WEIGHTS", "1"});
    expect_same({cmd, "dst", "2", "za", "zb", "WEIGHTS", "1", "2", "3"});
    expect_same({cmd, "dst", "2", "za", "zb", "AGGREGATE"});
    expect_same({cmd, "dst", "2", "za", "zb", "AGGREGATE", "AVG"});
    expect_same({cmd, "dst", "1", "za", "zb"});
    expect_same({cmd, "dst", "1"});
    expect_same({cmd, "dst"});
  }
  for (const char* cmd : {"ZUNION", "ZINTER", "ZDIFF"}) {
    expect_same({cmd, "2", "za", "zb", "WEIGHTS", "1", "2"});
    expect_same({cmd, "2", "za", "zb", "AGGREGATE", "MAX"});
    expect_same({cmd, "2", "za", "zb", "WEIGHTS", "1", "x"});
    expect_same({cmd, "2", "za", "zb", "LIMIT", "1"});
    expect_same({cmd, "2", "za", "zb", "WITHSCORES", "x"});
    expect_same({cmd, "1", "za", "zb"});
    expect_same({cmd, "1"});
  }
  // Every input is looked up before the options are read.
  expect_same({"SET", "str", "v"});
  expect_same({"ZUNION", "2", "za", "str", "BOGUS"});
  expect_same({"ZINTER", "2", "missing", "str"});
  expect_same({"ZDIFF", "2", "missing", "str"});
  expect_same({"ZINTERCARD", "2", "za", "str", "LIMIT", "-1"});
  expect_same({"LPUSH", "list", "a"});
  expect_same({"ZUNIONSTORE", "dst", "2", "za", "list"});
  expect_same({"ZINTERSTORE", "dst", "2", "list", "missing"});
  expect_same({"ZDIFFSTORE", "dst", "1", "list"});
  expect_same({"ZUNION", "1", "str", "WEIGHTS", "x"});
  expect_same({"ZUNIONSTORE", "str", "1", "za"});
  expect_same({"TYPE", "str"});
}

TEST_F(Differential, ZunionZinterZdiffStoreDestinations) {
  expect_same(zadd_many("a", 100, "a"));
  expect_same(zadd_many("b", 100, "b"));
  expect_same({"ZUNIONSTORE", "dst", "2", "a", "b"});
  expect_same({"OBJECT", "ENCODING", "dst"});
  expect_same({"ZCARD", "dst"});
  expect_same({"ZINTERSTORE", "dst", "2", "a", "a"});
  expect_same({"OBJECT", "ENCODING", "dst"});
  expect_same({"ZADD", "a", "1", "a100", "1", "a101", "1", "a102", "1", "a103", "1", "a104", "1", "a105", "1", "a106",
               "1", "a107", "1", "a108", "1", "a109", "1", "a110", "1", "a111", "1", "a112", "1", "a113", "1", "a114",
               "1", "a115", "1", "a116", "1", "a117", "1", "a118", "1", "a119", "1", "a120", "1", "a121", "1",
               "a122", "1", "a123", "1", "a124", "1", "a125", "1", "a126", "1", "a127"});
  expect_same({"OBJECT", "ENCODING", "a"});
  expect_same({"ZUNIONSTORE", "dst", "1", "a"});
  expect_same({"OBJECT", "ENCODING", "dst"});
  expect_same({"ZADD", "a", "1", "a128"});
  expect_same({"OBJECT", "ENCODING", "a"});
  expect_same({"ZUNIONSTORE", "dst", "1", "a"});
  expect_same({"OBJECT", "ENCODING", "dst"});
  // A skiplist source, a small result: the destination is a listpack.
  expect_same({"ZDIFFSTORE", "dst", "2", "a", "b"});
  expect_same({"OBJECT", "ENCODING", "dst"});
  expect_same({"ZREMRANGEBYRANK", "a", "0", "9"});
  expect_same({"ZDIFFSTORE", "dst", "1", "a"});
  expect_same({"OBJECT", "ENCODING", "dst"});
  expect_same({"ZCARD", "dst"});
  // A member over 64 bytes.
  const std::string long_member(65, 'y');
  expect_same({"ZADD", "c", "1", "x", "2", long_member});
  expect_same({"ZUNIONSTORE", "dst", "1", "c"});
  expect_same({"OBJECT", "ENCODING", "dst"});
  expect_same({"ZINTERSTORE", "dst", "2", "c", "c"});
  expect_same({"OBJECT", "ENCODING", "dst"});
  expect_same({"ZDIFFSTORE", "dst", "2", "c", "b"});
  expect_same({"OBJECT", "ENCODING", "dst"});
  expect_same({"ZADD", "d", "1", long_member});
  expect_same({"ZDIFFSTORE", "dst", "2", "c", "d"});
  expect_same({"OBJECT", "ENCODING", "dst"});
  expect_same({"SADD", "bigset", long_member, "z"});
  expect_same({"ZUNIONSTORE", "dst", "1", "bigset"});
  expect_same({"OBJECT", "ENCODING", "dst"});
  // The destination is replaced whatever it held, its expiry with it; an empty result deletes it.
  expect_same({"SET", "dst", "v", "EX", "100"});
  expect_same({"ZUNIONSTORE", "dst", "1", "c"});
  expect_same({"TYPE", "dst"});
  expect_same({"TTL", "dst"});
  expect_same({"EXPIRE", "dst", "100"});
  expect_same({"ZINTERSTORE", "dst", "2", "c", "b"});
  expect_same({"EXISTS", "dst"});
  expect_same({"SET", "dst", "v"});
  expect_same({"ZDIFFSTORE", "dst", "2", "c", "c"});
  expect_same({"EXISTS", "dst"});
  expect_same({"SET", "dst", "v"});
  expect_same({"ZUNIONSTORE", "dst", "1", "missing"});
  expect_same({"EXISTS", "dst"});
  // The same key as a source and the destination.
  expect_same({"ZADD", "s", "1", "a", "2", "b", "3", "c"});
  expect_same({"ZADD", "t", "5", "b", "6", "d"});
  expect_same({"ZUNIONSTORE", "s", "2", "s", "t"});
  expect_same({"ZRANGE", "s", "0", "-1", "WITHSCORES"});
  expect_same({"ZINTERSTORE", "s", "2", "t", "s", "WEIGHTS", "2", "1"});
  expect_same({"ZRANGE", "s", "0", "-1", "WITHSCORES"});
  expect_same({"ZADD", "s", "1", "a"});
  expect_same({"ZDIFFSTORE", "s", "2", "s", "t"});
  expect_same({"ZRANGE", "s", "0", "-1", "WITHSCORES"});
  expect_same({"ZDIFFSTORE", "t", "2", "s", "t"});
  expect_same({"EXISTS", "t"});
}

TEST_F(Differential, ZdiffBothAlgorithms) {
  // zset.tcl's algorithm 1 and algorithm 2 cases, and the first key subtracted from itself.
  expect_same({"ZADD", "zseta", "1", "a", "2", "b", "3", "c"});
  expect_same({"ZADD", "zsetb", "1", "b", "2", "c", "3", "d"});
  expect_same({"ZDIFFSTORE", "zsetc", "2", "zseta", "zsetb"});
  expect_same({"ZRANGE", "zsetc", "0", "-1", "WITHSCORES"});
  expect_same({"ZDIFF", "2", "zseta", "zsetb", "WITHSCORES"});
  expect_same({"ZDIFF", "2", "zseta", "zseta", "WITHSCORES"});
  expect_same({"ZDIFF", "3", "zseta", "zsetb", "zseta"});
  expect_same({"ZDIFF", "1", "zseta"});
  expect_same({"ZDIFF", "2", "missing", "zseta"});
  expect_same({"ZDIFF", "2", "zseta", "missing", "WITHSCORES"});
  expect_same({"ZADD", "zsetd", "1", "a", "2", "b", "3", "c", "5", "e"});
  expect_same({"ZADD", "zsete", "1", "b"});
  expect_same({"ZADD", "zsetf", "1", "c"});
  expect_same({"ZADD", "zsetg", "1", "d"});
  expect_same({"ZDIFFSTORE", "zseth", "4", "zsetd", "zsete", "zsetf", "zsetg"});
  expect_same({"ZRANGE", "zseth", "0", "-1", "WITHSCORES"});
  expect_same({"ZDIFF", "4", "zsetd", "zsete", "zsetf", "zsetg", "WITHSCORES"});
}

TEST_F(Differential, Zintercard) {
  expect_same({"ZADD", "zseta", "1", "a", "2", "b", "3", "c"});
  expect_same({"ZADD", "zsetb", "1", "b", "2", "c", "3", "d"});
  expect_same({"ZINTERCARD", "2", "zseta", "zsetb"});
  for (const char* limit : {"0", "1", "2", "10", "-1", "a", "", "1.5"})
    expect_same({"ZINTERCARD", "2", "zseta", "zsetb", "LIMIT", limit});
  expect_same({"ZINTERCARD", "2", "zseta", "zsetb", "limit", "1", "LIMIT", "0"});
  expect_same({"ZINTERCARD", "1", "zseta", "zseta"});
  expect_same({"ZINTERCARD", "1", "zseta", "bar_arg"});
  expect_same({"ZINTERCARD", "1", "zseta", "LIMIT"});
  expect_same({"ZINTERCARD", "1", "zseta", "WEIGHTS", "1"});
  expect_same({"ZINTERCARD", "1", "zseta", "AGGREGATE", "MAX"});
  expect_same({"ZINTERCARD", "1", "zseta", "WITHSCORES"});
  expect_same({"ZINTERCARD", "2", "zseta", "missing"});
  expect_same({"ZINTERCARD", "2", "zseta", "zseta", "LIMIT", "2"});
  expect_same({"ZINTERCARD", "2", "zseta", "zsetb", "LIMIT", "9223372036854775807"});
  expect_same({"ZINTERCARD", "1", "myset", "LIMIT", "-1"});
}

TEST_F(Differential, ZmpopPopsFromTheFirstNonEmptyKey) {
  expect_same({"ZADD", "z1", "1", "a", "2", "b", "3", "c", "-inf", "lo", "inf", "hi"});
  expect_same({"ZADD", "z2", "1.5", "x"});
  expect_same({"ZMPOP", "1", "z1", "MIN"});
  expect_same({"ZMPOP", "1", "z1", "MAX"});
  expect_same({"ZMPOP", "1", "z1", "min", "COUNT", "2"});
  expect_same({"ZMPOP", "2", "missing", "z1", "max", "count", "10"});
  expect_same({"EXISTS", "z1"});
  expect_same({"ZMPOP", "2", "z1", "z2", "MIN", "COUNT", "1"});
  expect_same({"ZMPOP", "2", "z1", "z2", "MIN"});
  expect_same({"ZMPOP", "2", "z1", "z2", "MIN"});
  expect_same({"ZMPOP", "1", "missing", "MAX", "COUNT", "3"});
  // The first existing key decides: another type behind it is never looked at.
  expect_same({"SET", "str", "v"});
  expect_same({"ZADD", "z3", "1", "a"});
  expect_same({"ZMPOP", "2", "z3", "str", "MIN"});
  expect_same({"ZMPOP", "2", "missing", "str", "MIN"});
  expect_same({"ZMPOP", "1", "str", "MAX", "COUNT", "200"});
  expect_same({"ZPOPMIN", "str", "0"});
  expect_same({"ZPOPMAX", "str", "2"});
  // A skiplist.
  expect_same(zadd_many("big", 150));
  expect_same({"ZMPOP", "1", "big", "MAX", "COUNT", "3"});
  expect_same({"ZMPOP", "1", "big", "MIN", "COUNT", "140"});
  expect_same({"OBJECT", "ENCODING", "big"});
  expect_same({"ZRANGE", "big", "0", "-1", "WITHSCORES"});
}

TEST_F(Differential, ZmpopArguments) {
  // zset.tcl's ZMPOP with illegal argument, and more.
  expect_same({"ZADD", "myzset", "1", "a"});
  expect_same({"ZMPOP"});
  expect_same({"ZMPOP", "1"});
  expect_same({"ZMPOP", "1", "myzset"});
  for (const char* numkeys : {"0", "a", "-1", "", "1.0", "9223372036854775808", "9223372036854775807",
                              "9223372036854775806", "9223372036854775805", "3", "2"})
    expect_same({"ZMPOP", numkeys, "myzset", "MIN"});
  expect_same({"ZMPOP", "1", "myzset", "bad_where"});
  expect_same({"ZMPOP", "1", "myzset", "MIN", "bar_arg"});
  expect_same({"ZMPOP", "1", "myzset", "MAX", "MIN"});
  expect_same({"ZMPOP", "1", "myzset", "COUNT"});
  expect_same({"ZMPOP", "1", "myzset", "MAX", "COUNT"});
  expect_same({"ZMPOP", "1", "myzset", "MAX", "COUNT", "1", "COUNT", "2"});
  expect_same({"ZMPOP", "2", "myzset", "myzset2", "bad_arg"});
  for (const char* count : {"0", "a", "-1", "", "1.5", "9223372036854775808"})
    expect_same({"ZMPOP", "1", "myzset", "MIN", "COUNT", count});
  expect_same({"ZMPOP", "2", "myzset", "myzset2", "MAX", "COUNT", "-1"});
  expect_same({"ZMPOP", "1", "myzset", "MIN", "COUNT", "9223372036854775807"});
  expect_same({"EXISTS", "myzset"});
}

TEST_F(Differential, ZrandmemberArguments) {
  expect_same({"ZADD", "z", "1", "a", "2", "b", "3", "c"});
  for (const char* count : {"abc", "1.5", "", " 1", "9223372036854775808", "-9223372036854775808"}) {
    expect_same({"ZRANDMEMBER", "z", count});
    expect_same({"ZRANDMEMBER", "z", count, "WITHSCORES"});
    expect_same({"ZRANDMEMBER", "missing", count});
  }
  // zset.tcl's count overflow.
  expect_same({"ZRANDMEMBER", "z", "-9223372036854770000", "WITHSCORES"});
  expect_same({"ZRANDMEMBER", "z", "-9223372036854775807", "WITHSCORES"});
  expect_same({"ZRANDMEMBER", "z", "9223372036854775807", "WITHSCORES"});
  expect_same({"ZRANDMEMBER", "z", "4611686018427387904", "WITHSCORES"});
  expect_same({"ZRANDMEMBER", "z", "9223372036854775807"});
  expect_same({"ZRANDMEMBER", "z", "4611686018427387903", "WITHSCORES"});
  expect_same({"ZRANDMEMBER", "z", "1", "BOGUS"});
  expect_same({"ZRANDMEMBER", "z", "1", "WITHSCORES", "x"});
  expect_same({"ZRANDMEMBER", "z", "x", "BOGUS"});
  expect_same({"ZRANDMEMBER", "z", "0"});
  expect_same({"ZRANDMEMBER", "z", "-0"});
  expect_same({"ZRANDMEMBER", "z", "0", "WITHSCORES"});
  expect_same({"ZRANDMEMBER", "missing"});
  expect_same({"ZRANDMEMBER", "missing", "100"});
  expect_same({"ZRANDMEMBER", "missing", "-100", "WITHSCORES"});
  expect_same({"ZRANDMEMBER", "missing", "1", "BOGUS"});
  expect_same({"SET", "str", "v"});
  expect_same({"ZRANDMEMBER", "str"});
  expect_same({"ZRANDMEMBER", "str", "0"});
  expect_same({"ZRANDMEMBER", "str", "-3", "WITHSCORES"});
  expect_same({"ZRANDMEMBER", "str", "x"});
  expect_same({"ZRANDMEMBER"});
}

TEST_F(Differential, ZrandmemberWithNothingLeftToChance) {
  expect_same({"ZADD", "one", "1.5", "only"});
  expect_same({"ZRANDMEMBER", "one"});
  expect_same({"ZRANDMEMBER", "one", "1"});
  expect_same({"ZRANDMEMBER", "one", "1", "WITHSCORES"});
  expect_same({"ZRANDMEMBER", "one", "-3"});
  expect_same({"ZRANDMEMBER", "one", "-3", "withscores"});
  // A count that covers the set answers all of it in Redis's iteration order.
  expect_same({"ZADD", "z", "1", "a", "2", "b", "3", "c", "3", "d", "-inf", "e"});
  expect_same({"ZRANDMEMBER", "z", "5"});
  expect_same({"ZRANDMEMBER", "z", "100", "WITHSCORES"});
  expect_same(zadd_many("big", 150));
  expect_same({"ZRANDMEMBER", "big", "150"});
  expect_same({"ZRANDMEMBER", "big", "1000", "WITHSCORES"});
}

TEST_F(Differential, ZrandmemberDrawsMembersOfTheSet) {
  std::map<std::string, std::string> scores;
  std::vector<std::string> zadd = {"ZADD", "z"};
  for (int i = 0; i < 10; ++i) {
    const std::string member(1, static_cast<char>('a' + i));
    scores[member] = std::to_string(i * 3) + ".5";
    zadd.push_back(scores[member]);
    zadd.push_back(member);
  }
  expect_same(zadd);
  expect_same(zadd_many("big", 200));
  for (const char* key : {"z", "big"}) {
    for (const char* count : {"1", "2", "5", "9", "-1", "-5", "-20", "20"}) {
      for (const bool with_scores : {false, true}) {
        std::vector<std::string> argv = {"ZRANDMEMBER", key, count};
        if (with_scores) argv.push_back("WITHSCORES");
        auto [fake, live] = both(argv);
        ASSERT_EQ(fake.kind, Reply::Kind::Array) << count;
        ASSERT_EQ(live.kind, Reply::Kind::Array) << count;
        ASSERT_EQ(fake.elements.size(), live.elements.size()) << key << " " << count;
        const size_t step = with_scores ? 2 : 1;
        for (const Reply* reply : {&fake, &live}) {
          std::set<std::string> seen;
          for (size_t i = 0; i < reply->elements.size(); i += step) {
            const std::string& member = reply->elements[i].str;
            seen.insert(member);
            if (std::string(key) == "z") {
              ASSERT_TRUE(scores.contains(member)) << member;
              if (with_scores) {
                EXPECT_EQ(reply->elements[i + 1].str, scores[member]);
              }
            } else if (with_scores) {
              EXPECT_EQ("m" + reply->elements[i + 1].str, member);
            }
          }
          if (count[0] != '-') {
            EXPECT_EQ(seen.size(), reply->elements.size() / step) << "no repeats";
          }
        }
      }
    }
    auto [fake, live] = both({"ZRANDMEMBER", key});
    ASSERT_EQ(fake.kind, Reply::Kind::Bulk);
    ASSERT_EQ(live.kind, Reply::Kind::Bulk);
  }
  expect_same({"ZCARD", "z"});
}

TEST_F(Differential, ZsetNewCommandsAgainstOtherTypesAndArity) {
  expect_same({"SET", "s", "v"});
  for (const std::vector<std::string>& argv : std::vector<std::vector<std::string>>{
           {"ZREVRANGE", "s", "0", "-1"},
           {"ZREVRANGEBYSCORE", "s", "1", "0"},
           {"ZRANGEBYLEX", "s", "-", "+"},
           {"ZREVRANGEBYLEX", "s", "+", "-"},
           {"ZREVRANK", "s", "a"},
           {"ZCOUNT", "s", "0", "1"},
           {"ZLEXCOUNT", "s", "-", "+"},
           {"ZMSCORE", "s", "a"},
           {"ZRANGESTORE", "d", "s", "0", "-1"},
           {"ZREMRANGEBYSCORE", "s", "0", "1"},
           {"ZREMRANGEBYRANK", "s", "0", "1"},
           {"ZREMRANGEBYLEX", "s", "-", "+"},
           {"ZUNIONSTORE", "d", "1", "s"},
           {"ZINTERSTORE", "d", "1", "s"},
           {"ZDIFFSTORE", "d", "1", "s"},
           {"ZUNION", "1", "s"},
           {"ZINTER", "1", "s"},
           {"ZDIFF", "1", "s"},
           {"ZINTERCARD", "1", "s"},
           {"ZMPOP", "1", "s", "MIN"},
           {"ZRANDMEMBER", "s"},
           {"ZREVRANGE", "z", "0"},
           {"ZREVRANGEBYSCORE", "z", "0"},
           {"ZRANGEBYLEX", "z", "-"},
           {"ZREVRANGEBYLEX", "z", "+"},
           {"ZREVRANK", "z"},
           {"ZREVRANK", "z", "a", "WITHSCORE"},
           {"ZCOUNT", "z", "0"},
           {"ZLEXCOUNT", "z", "-", "+", "x"},
           {"ZMSCORE", "z"},
           {"ZRANGESTORE", "d", "z", "0"},
           {"ZREMRANGEBYSCORE", "z", "0"},
           {"ZREMRANGEBYRANK", "z", "0", "1", "2"},
           {"ZREMRANGEBYLEX", "z"},
           {"ZUNIONSTORE", "d", "1"},
           {"ZINTERSTORE", "d"},
           {"ZDIFFSTORE", "d", "1"},
           {"ZUNION", "1"},
           {"ZINTER"},
           {"ZDIFF", "1"},
           {"ZINTERCARD", "1"},
           {"ZMPOP", "1", "z"},
           {"ZRANDMEMBER"}}) {
    expect_same(argv);
  }
  expect_same({"GET", "s"});
  expect_same({"EXISTS", "d"});
}

TEST_F(Differential, ZsetNewCommandsInScriptsAndTransactions) {
  expect_same({"ZADD", "z", "1", "a", "2", "b", "3", "c"});
  expect_same({"EVAL", "return redis.call('ZMPOP', 1, KEYS[1], 'MAX', 'COUNT', 2)", "1", "z"});
  expect_same({"EVAL", "return redis.call('ZMPOP', 1, KEYS[1], 'MAX')", "1", "missing"});
  expect_same({"EVAL", "return redis.call('ZMSCORE', KEYS[1], 'a', 'x')", "1", "z"});
  expect_same({"EVAL", "return redis.call('ZUNION', 2, KEYS[1], KEYS[1], 'WITHSCORES')", "1", "z"});
  expect_same({"EVAL", "return redis.call('ZRANGESTORE', KEYS[2], KEYS[1], 0, -1)", "2", "z", "dst"});
  expect_same({"EVAL", "return redis.call('ZREVRANGEBYSCORE', KEYS[1], '+inf', '-inf')", "1", "dst"});
  expect_same({"EVAL_RO", "return redis.call('ZRANGESTORE', KEYS[2], KEYS[1], 0, -1)", "2", "z", "dst"});
  expect_same({"EVAL_RO", "return redis.call('ZCOUNT', KEYS[1], 0, 10)", "1", "z"});
  // A WATCHed key changed in place by the new write commands breaks the transaction.
  for (const std::vector<std::string>& write : std::vector<std::vector<std::string>>{
           {"ZMPOP", "1", "z", "MIN"}, {"ZREMRANGEBYRANK", "z", "0", "0"}, {"ZUNIONSTORE", "z", "2", "z", "dst"}}) {
    Connection other = connect();
    expect_same({"ZADD", "z", "1", "a", "2", "b", "3", "c"});
    expect_same({"WATCH", "z"});
    expect_same(other, write);
    expect_same({"MULTI"});
    expect_same({"ZCARD", "z"});
    expect_same({"EXEC"});
  }
  // One that changes nothing leaves it be.
  Connection other = connect();
  expect_same({"WATCH", "z"});
  expect_same(other, {"ZREMRANGEBYSCORE", "z", "100", "200"});
  expect_same(other, {"ZMPOP", "1", "missing", "MIN"});
  expect_same({"MULTI"});
  expect_same({"ZCARD", "z"});
  expect_same({"EXEC"});
}

// The blocking forms where something is there: they answer at once. With nothing there, only MULTI
// and scripts are compared (they never block); verify/serve/stories_vs_redis.py compares the waits.
TEST_F(Differential, ZBlockingPopsAnswerAtOnceWhenASortedSetIsThere) {
  expect_same({"ZADD", "z", "1", "a", "2", "b", "3", "c", "4", "d"});
  expect_same({"BZPOPMIN", "none", "z", "0"});
  expect_same({"BZPOPMAX", "none", "z", "none", "1.5"});
  expect_same({"BZMPOP", "0", "2", "none", "z", "MIN", "COUNT", "5"});
  expect_same({"EXISTS", "z"});
  expect_same({"SET", "s", "v"});
  expect_same({"BZPOPMIN", "none", "s", "0"});
  expect_same({"BZMPOP", "0", "2", "none", "s", "MAX"});
  for (const char* timeout : {"-1", "abc", "inf", "1e400", "9223372036854775807"}) {
    expect_same({"MULTI"});
    expect_same({"BZPOPMIN", "k", timeout});
    expect_same({"BZMPOP", timeout, "1", "k", "MIN"});
    expect_same({"EXEC"});
  }
  expect_same({"BZMPOP", "0", "0", "k", "MIN"});
  expect_same({"BZMPOP", "0", "2", "k", "MIN"});
  expect_same({"BZMPOP", "0", "1", "k", "MIN", "COUNT", "0"});
  expect_same({"BZMPOP", "0", "1", "k", "MIN", "COUNT", "1", "COUNT", "1"});
  expect_same({"MULTI"});
  expect_same({"BZPOPMIN", "k", "0"});
  expect_same({"BZMPOP", "0", "1", "k", "MAX"});
  expect_same({"EXEC"});
  expect_same({"EVAL", "return redis.pcall('bzpopmax', 'k', 0)", "0"});
  expect_same({"EVAL", "return redis.pcall('bzmpop', 0, 1, 'k', 'max')", "0"});
}

}  // namespace locksim::test
