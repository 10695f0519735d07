// Differential: sets (cmd_set.cpp). An intset's order is Redis's own (ascending), so those replies
// are compared exactly; a hashtable's order is unspecified in Redis, so those are compared as sets.
// SPOP and SRANDMEMBER choose at random in Redis: where the choice shows, the tests compare what
// does not depend on it (sizes, membership, what is left), and exactly where nothing is left to
// chance (a count that takes the whole set, a set of one).
#include <chrono>
#include <set>
#include <thread>

#include "verify/support/differential_unordered.hpp"

namespace locksim::test {
namespace {

using Sets = DifferentialUnordered;

std::set<std::string> strings_of(const Reply& reply) {
  std::set<std::string> out;
  for (const auto& element : reply.elements) out.insert(element.str);
  return out;
}

}  // namespace

TEST_F(Sets, SaddCountsNewMembersAndAnIntsetRepliesInOrder) {
  expect_same({"SADD", "s", "10", "-2", "3", "10"});
  expect_same({"SADD", "s", "3", "7"});
  expect_same({"SMEMBERS", "s"});
  expect_same({"SCARD", "s"});
  expect_same({"TYPE", "s"});
  expect_same({"SADD", "big", "-9223372036854775808", "9223372036854775807", "0"});
  expect_same({"SMEMBERS", "big"});
}

TEST_F(Sets, ANonIntegerMemberMakesAHashtable) {
  expect_same({"SADD", "s", "1", "2", "b", "a", "01", "+3", "-0", ""});
  expect_same_elements({"SMEMBERS", "s"});
  expect_same({"SCARD", "s"});
  expect_same({"SREM", "s", "b", "a", "01", "+3", "-0", ""});
  expect_same_elements({"SMEMBERS", "s"});
  expect_same({"SADD", "t", "x", "3", "1"});
  expect_same_elements({"SMEMBERS", "t"});
}

TEST_F(Sets, MembershipIsExactBytes) {
  expect_same({"SADD", "ints", "1", "10"});
  expect_same({"SADD", "strs", "a", "1"});
  for (const char* key : {"ints", "strs", "missing"}) {
    for (const char* member : {"1", "01", "+1", "1.0", "a", "10", ""}) expect_same({"SISMEMBER", key, member});
    expect_same({"SMISMEMBER", key, "1", "01", "a", "10", "1"});
  }
}

TEST_F(Sets, SremCountsRemovedMembersAndDeletesAnEmptiedSet) {
  expect_same({"SREM", "s", "a"});
  expect_same({"SADD", "s", "a", "b", "c"});
  expect_same({"SREM", "s", "a", "x", "a"});
  expect_same({"SREM", "s", "b", "c", "b"});
  expect_same({"EXISTS", "s"});
  expect_same({"SCARD", "s"});
  expect_same({"SMEMBERS", "s"});
}

TEST_F(Sets, SetCommandsOnOtherTypesAreWrongType) {
  expect_same({"SET", "str", "v"});
  expect_same({"HSET", "h", "f", "v"});
  expect_same({"RPUSH", "l", "x"});
  expect_same({"ZADD", "z", "1", "m"});
  expect_same({"SADD", "s", "m"});
  for (const char* key : {"str", "h", "l", "z"}) {
    expect_same({"SADD", key, "m"});
    expect_same({"SREM", key, "m"});
    expect_same({"SCARD", key});
    expect_same({"SMEMBERS", key});
    expect_same({"SISMEMBER", key, "m"});
    expect_same({"SMISMEMBER", key, "m"});
    expect_same({"SPOP", key});
    expect_same({"SPOP", key, "1"});
    expect_same({"SRANDMEMBER", key});
    expect_same({"SRANDMEMBER", key, "1"});
    expect_same({"SINTER", "s", key});
    expect_same({"SINTER", "missing", key});
    expect_same({"SUNION", "s", key});
    expect_same({"SDIFF", "missing", key});
    expect_same({"SINTERSTORE", "dst", "s", key});
    expect_same({"SUNIONSTORE", "dst", key});
    expect_same({"SDIFFSTORE", "dst", "s", key});
    expect_same({"SINTERCARD", "2", "s", key});
    expect_same({"SMOVE", key, "s", "m"});
    expect_same({"SMOVE", "s", key, "m"});
  }
  for (const char* argv0 : {"GET", "HGET", "LLEN", "ZCARD", "INCR", "APPEND"}) {
    std::vector<std::string> argv = {argv0, "s"};
    if (argv[0] == "HGET" || argv[0] == "APPEND") argv.push_back("x");
    expect_same(argv);
  }
  expect_same({"SMEMBERS", "s"});
}

TEST_F(Sets, ArityErrors) {
  for (const std::vector<std::string>& argv : std::vector<std::vector<std::string>>{
           {"SADD", "s"},
           {"SREM", "s"},
           {"SCARD"},
           {"SCARD", "s", "t"},
           {"SMEMBERS"},
           {"SISMEMBER", "s"},
           {"SISMEMBER", "s", "a", "b"},
           {"SMISMEMBER", "s"},
           {"SPOP"},
           {"SRANDMEMBER"},
           {"SMOVE", "a", "b"},
           {"SINTER"},
           {"SINTERSTORE", "d"},
           {"SINTERCARD", "1"},
           {"SUNION"},
           {"SUNIONSTORE", "d"},
           {"SDIFF"},
           {"SDIFFSTORE", "d"}}) {
    expect_same(argv);
  }
}

TEST_F(Sets, SpopAndSrandmemberArguments) {
  expect_same({"SADD", "s", "1", "2", "3"});
  for (const char* count : {"abc", "1.5", "", "9223372036854775808", "-9223372036854775808"}) {
    expect_same({"SPOP", "s", count});
    expect_same({"SRANDMEMBER", "s", count});
  }
  expect_same({"SPOP", "s", "-1"});
  expect_same({"SPOP", "s", "1", "2"});
  expect_same({"SRANDMEMBER", "s", "1", "2"});
  expect_same({"SPOP", "s", "0"});
  expect_same({"SRANDMEMBER", "s", "0"});
  expect_same({"SRANDMEMBER", "s", "-0"});
  expect_same({"SPOP", "missing"});
  expect_same({"SPOP", "missing", "3"});
  expect_same({"SPOP", "missing", "0"});
  expect_same({"SPOP", "missing", "-1"});
  expect_same({"SRANDMEMBER", "missing"});
  expect_same({"SRANDMEMBER", "missing", "3"});
  expect_same({"SRANDMEMBER", "missing", "-3"});
  expect_same({"SMEMBERS", "s"});
}

TEST_F(Sets, SpopAndSrandmemberWithNothingLeftToChance) {
  expect_same({"SADD", "one", "only"});
  expect_same({"SRANDMEMBER", "one"});
  expect_same({"SRANDMEMBER", "one", "1"});
  expect_same({"SRANDMEMBER", "one", "-3"});
  expect_same({"SPOP", "one"});
  expect_same({"EXISTS", "one"});
  // A count that covers an intset replies with all of it, in order.
  expect_same({"SADD", "ints", "5", "-1", "3"});
  expect_same({"SRANDMEMBER", "ints", "3"});
  expect_same({"SRANDMEMBER", "ints", "100"});
  expect_same({"SPOP", "ints", "3"});
  expect_same({"EXISTS", "ints"});
  expect_same({"SADD", "ints", "5", "-1", "3"});
  expect_same({"SPOP", "ints", "10"});
  expect_same({"SADD", "strs", "b", "a", "c"});
  expect_same_elements({"SRANDMEMBER", "strs", "3"});
  expect_same_elements({"SPOP", "strs", "3"});
  expect_same({"EXISTS", "strs"});
}

TEST_F(Sets, SpopTakesMembersOutAndSrandmemberLeavesThem) {
  const std::set<std::string> all = {"a", "b", "c", "d", "e", "f", "g", "h"};
  expect_same({"SADD", "s", "a", "b", "c", "d", "e", "f", "g", "h"});
  for (const char* count : {"2", "5", "-20", "20"}) {
    auto [fake, live] = both({"SRANDMEMBER", "s", count});
    ASSERT_EQ(fake.elements.size(), live.elements.size()) << count;
    for (const Reply* reply : {&fake, &live})
      for (const auto& member : strings_of(*reply)) EXPECT_TRUE(all.contains(member)) << member;
    if (count[0] != '-') {
      EXPECT_EQ(strings_of(fake).size(), fake.elements.size()) << "no repeats";
    }
  }
  auto [fake_one, live_one] = both({"SPOP", "s"});
  ASSERT_EQ(fake_one.kind, Reply::Kind::Bulk);
  ASSERT_EQ(live_one.kind, Reply::Kind::Bulk);
  // 7 left: SPOP 2 leaves 5, SPOP 4 leaves 1 (which one depends on the draws), SPOP 1 takes it.
  for (const char* count : {"2", "4", "1"}) {
    auto [fake, live] = both({"SPOP", "s", count});
    EXPECT_EQ(fake.elements.size(), live.elements.size());
    EXPECT_EQ(strings_of(fake).size(), fake.elements.size());
    expect_same({"SCARD", "s"});
  }
  expect_same({"EXISTS", "s"});
}

TEST_F(Sets, SmoveMovesOneMemberBetweenSets) {
  expect_same({"SMOVE", "missing", "dst", "m"});
  expect_same({"SET", "str", "v"});
  expect_same({"SMOVE", "missing", "str", "m"});
  expect_same({"SADD", "src", "a", "1"});
  expect_same({"SMOVE", "src", "str", "a"});
  expect_same({"SMOVE", "src", "dst", "x"});
  expect_same({"EXISTS", "dst"});
  expect_same({"SMOVE", "src", "src", "a"});
  expect_same({"SMOVE", "src", "src", "x"});
  expect_same({"SMOVE", "src", "dst", "1"});
  expect_same({"SMEMBERS", "dst"});
  expect_same({"SADD", "dst", "a"});
  expect_same({"SMOVE", "src", "dst", "a"});
  expect_same({"EXISTS", "src"});
  expect_same_elements({"SMEMBERS", "dst"});
  expect_same({"SCARD", "dst"});
}

TEST_F(Sets, IntersectionUnionAndDifference) {
  expect_same({"SADD", "a", "1", "2", "3", "4"});
  expect_same({"SADD", "b", "3", "4", "5"});
  expect_same({"SADD", "c", "4", "x", "3"});
  expect_same({"SINTER", "a", "b"});
  expect_same({"SINTER", "a", "a"});
  expect_same({"SINTER", "a", "b", "missing"});
  expect_same({"SINTER", "missing"});
  expect_same({"SUNION", "a", "b"});
  expect_same({"SUNION", "a", "missing", "b"});
  expect_same({"SUNION", "missing"});
  expect_same({"SDIFF", "a", "b"});
  expect_same({"SDIFF", "a", "a"});
  expect_same({"SDIFF", "a", "missing"});
  expect_same({"SDIFF", "missing", "a"});
  expect_same({"SDIFF", "a", "b", "b", "b", "b", "b"});
  expect_same({"SDIFF", "c", "b"});
  expect_same_elements({"SINTER", "a", "c"});
  expect_same_elements({"SUNION", "a", "c"});
  expect_same_elements({"SDIFF", "c", "a"});
  expect_same({"SINTERCARD", "2", "a", "b"});
  expect_same({"SINTERCARD", "2", "a", "b", "LIMIT", "1"});
  expect_same({"SINTERCARD", "2", "a", "b", "LIMIT", "0"});
  expect_same({"SINTERCARD", "1", "a", "limit", "3"});
  expect_same({"SINTERCARD", "2", "a", "missing"});
}

TEST_F(Sets, SintercardArguments) {
  expect_same({"SADD", "a", "1"});
  for (const char* numkeys : {"0", "-1", "x", "", "9223372036854775808", "3"})
    expect_same({"SINTERCARD", numkeys, "a"});
  expect_same({"SINTERCARD", "1", "a", "LIMIT"});
  expect_same({"SINTERCARD", "1", "a", "LIMIT", "-1"});
  expect_same({"SINTERCARD", "1", "a", "LIMIT", "x"});
  expect_same({"SINTERCARD", "1", "a", "LIMIT", "1", "LIMIT", "2"});
  expect_same({"SINTERCARD", "1", "a", "FOO"});
  expect_same({"SINTERCARD", "1", "a", "b"});
  expect_same({"SINTERCARD", "2", "a", "b"});
}

TEST_F(Sets, StoreVariantsReplaceTheDestination) {
  expect_same({"SADD", "a", "1", "2", "3"});
  expect_same({"SADD", "b", "2", "3", "4"});
  expect_same({"SET", "dst", "v", "EX", "100"});
  expect_same({"SINTERSTORE", "dst", "a", "b"});
  expect_same({"TYPE", "dst"});
  expect_same({"TTL", "dst"});
  expect_same({"SMEMBERS", "dst"});
  expect_same({"SUNIONSTORE", "dst", "a", "b"});
  expect_same({"SMEMBERS", "dst"});
  expect_same({"SDIFFSTORE", "dst", "a", "b"});
  expect_same({"SMEMBERS", "dst"});
  expect_same({"SDIFFSTORE", "dst", "a", "a"});
  expect_same({"EXISTS", "dst"});
  expect_same({"SET", "dst", "v"});
  expect_same({"SINTERSTORE", "dst", "a", "missing"});
  expect_same({"EXISTS", "dst"});
  expect_same({"SUNIONSTORE", "a", "a", "b"});
  expect_same({"SMEMBERS", "a"});
  expect_same({"SUNIONSTORE", "dst", "missing"});
  expect_same({"EXISTS", "dst"});
}

TEST_F(Sets, AnExpiredSetIsGone) {
  expect_same({"SADD", "s", "a", "b"});
  expect_same({"PEXPIRE", "s", "1"});
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  expect_same({"SCARD", "s"});
  expect_same({"SISMEMBER", "s", "a"});
  expect_same({"SADD", "s", "c"});
  expect_same({"SMEMBERS", "s"});
  expect_same({"TTL", "s"});
}

TEST_F(Sets, ScriptsSeeSetsAsArraysOfStrings) {
  expect_same({"SADD", "s", "3", "1", "2"});
  expect_same({"EVAL", "return redis.call('SMEMBERS', KEYS[1])", "1", "s"});
  expect_same({"EVAL", "local m = redis.call('SMEMBERS', KEYS[1]) return type(m[1]) .. #m", "1", "s"});
  expect_same({"EVAL", "return redis.call('SISMEMBER', KEYS[1], 2)", "1", "s"});
  expect_same({"EVAL", "return redis.call('SADD', KEYS[1], 4, 'x')", "1", "s"});
  expect_same({"EVAL", "return redis.pcall('SADD', KEYS[1])", "1", "s"});
  expect_same({"EVAL", "return redis.pcall('GET', KEYS[1])", "1", "s"});
  expect_same_elements({"SMEMBERS", "s"});
}

}  // namespace locksim::test
