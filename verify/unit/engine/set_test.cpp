// Sets (types.cpp Set, cmd_set.cpp): encodings, the fake's deterministic SPOP/SRANDMEMBER, events.
#include "verify/unit/engine/engine_harness.hpp"

namespace locksim::engine {
namespace {

const EncodingLimits kDefaults;  // Redis 7.0's thresholds: set-max-intset-entries 512

class Sets : public EngineTest {
 protected:
  const Set& set_at(std::string_view key) {
    return std::get<Set>(engine_.keyspace().entries().find(key)->second.value);
  }
};

TEST(SetType, StartsAsAnIntsetForAnIntegerAndConvertsOnTheFirstOtherMember) {
  Set set = Set::for_member("5");
  EXPECT_EQ(set.encoding(), Set::Encoding::IntSet);
  EXPECT_TRUE(set.add("5", kDefaults));
  EXPECT_TRUE(set.add("-3", kDefaults));
  EXPECT_FALSE(set.add("5", kDefaults));
  EXPECT_EQ(set.members(), (std::vector<std::string>{"-3", "5"}));
  EXPECT_TRUE(set.add("a", kDefaults));
  EXPECT_EQ(set.encoding(), Set::Encoding::HashTable);
  EXPECT_TRUE(set.remove("a"));
  EXPECT_EQ(set.encoding(), Set::Encoding::HashTable);
  EXPECT_TRUE(set.contains("-3"));
  EXPECT_EQ(Set::for_member("a").encoding(), Set::Encoding::HashTable);
}

TEST(SetType, OnlyCanonicalIntegersFitAnIntset) {
  for (const char* member : {"01", "+1", "-0", " 1", "1.0", "9223372036854775808", ""}) {
    Set set;
    set.add(member, kDefaults);
    EXPECT_EQ(set.encoding(), Set::Encoding::HashTable) << member;
    EXPECT_TRUE(set.contains(member)) << member;
  }
  Set set;
  set.add("-9223372036854775808", kDefaults);
  EXPECT_EQ(set.encoding(), Set::Encoding::IntSet);
  EXPECT_FALSE(set.contains("-09223372036854775808"));
}

TEST(SetType, AnIntsetPast512MembersBecomesAHashtable) {
  Set set;
  for (int i = 0; i < 512; ++i) set.add(std::to_string(i), kDefaults);
  EXPECT_EQ(set.encoding(), Set::Encoding::IntSet);
  set.add("512", kDefaults);
  EXPECT_EQ(set.encoding(), Set::Encoding::HashTable);
  EXPECT_EQ(set.size(), 513u);
}

TEST_F(Sets, SaddCountsNewMembersAndCreatesTheKeyOnce) {
  EXPECT_EQ(run({"SADD", "s", "b", "a", "b"}), integer(2));
  EXPECT_EQ(run({"SADD", "s", "a", "c"}), integer(1));
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Created, "s", kNoExpire}}));
  EXPECT_EQ(run({"SMEMBERS", "s"}), bulks({"a", "b", "c"}));
  EXPECT_EQ(run({"SCARD", "s"}), integer(3));
  EXPECT_EQ(run({"TYPE", "s"}), Reply::status("set"));
}

TEST_F(Sets, AnIntsetRepliesInNumericOrder) {
  ASSERT_EQ(run({"SADD", "s", "10", "-2", "3"}), integer(3));
  EXPECT_EQ(run({"SMEMBERS", "s"}), bulks({"-2", "3", "10"}));
}

TEST_F(Sets, SremOfTheLastMemberDeletesTheKeyAndItsExpiry) {
  ASSERT_EQ(run({"SADD", "s", "a", "b"}), integer(2));
  ASSERT_EQ(run({"PEXPIRE", "s", "1000"}), integer(1));
  take_events();
  EXPECT_EQ(run({"SREM", "s", "a", "x", "b", "a"}), integer(2));
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Deleted, "s", kStartMs + 1000}}));
  EXPECT_FALSE(stored("s"));
}

TEST_F(Sets, SetCommandsOnOtherTypesAreWrongType) {
  ASSERT_EQ(run({"SET", "str", "v"}), Reply::ok());
  for (auto argv : std::vector<std::vector<std::string_view>>{{"SADD", "str", "a"},
                                                             {"SREM", "str", "a"},
                                                             {"SCARD", "str"},
                                                             {"SMEMBERS", "str"},
                                                             {"SISMEMBER", "str", "a"},
                                                             {"SPOP", "str"},
                                                             {"SRANDMEMBER", "str"},
                                                             {"SUNION", "str"}}) {
    EXPECT_EQ(engine_.execute(session_, std::span<const std::string_view>(argv)), error(kWrongType)) << argv[0];
  }
}

TEST_F(Sets, SpopTakesTheFirstMembersInOrder) {
  ASSERT_EQ(run({"SADD", "s", "3", "1", "2", "4", "5"}), integer(5));
  EXPECT_EQ(run({"SPOP", "s"}), bulk("1"));
  EXPECT_EQ(run({"SPOP", "s", "2"}), bulks({"2", "3"}));
  EXPECT_EQ(run({"SMEMBERS", "s"}), bulks({"4", "5"}));
  take_events();
  EXPECT_EQ(run({"SPOP", "s", "9"}), bulks({"4", "5"}));
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Deleted, "s", kNoExpire}}));
  EXPECT_EQ(run({"SPOP", "s"}), Reply::nil());
  EXPECT_EQ(run({"SPOP", "s", "1"}), Reply::array());
}

TEST_F(Sets, SpopLeavingFewMembersRebuildsTheSetAsRedisDoes) {
  // A hashtable of integers (it held a non-integer once) that keeps few members becomes an intset.
  ASSERT_EQ(run({"SADD", "s", "1", "2", "3", "4", "5", "6", "7", "x"}), integer(8));
  ASSERT_EQ(run({"PEXPIRE", "s", "5000"}), integer(1));
  EXPECT_EQ(set_at("s").encoding(), Set::Encoding::HashTable);
  EXPECT_EQ(run({"SPOP", "s", "6"}), bulks({"1", "2", "3", "4", "5", "6"}));
  EXPECT_EQ(set_at("s").encoding(), Set::Encoding::HashTable);  // 7 and x are left
  ASSERT_EQ(run({"SREM", "s", "x"}), integer(1));
  ASSERT_EQ(run({"SADD", "s", "8", "9", "10", "11", "12"}), integer(5));
  EXPECT_EQ(run({"SPOP", "s", "5"}), bulks({"10", "11", "12", "7", "8"}));
  EXPECT_EQ(set_at("s").encoding(), Set::Encoding::IntSet);
  EXPECT_EQ(run({"PTTL", "s"}), integer(5000));
}

TEST_F(Sets, SrandmemberTakesTheFirstMembersAndRepeatsForANegativeCount) {
  ASSERT_EQ(run({"SADD", "s", "c", "a", "b"}), integer(3));
  EXPECT_EQ(run({"SRANDMEMBER", "s"}), bulk("a"));
  EXPECT_EQ(run({"SRANDMEMBER", "s", "2"}), bulks({"a", "b"}));
  EXPECT_EQ(run({"SRANDMEMBER", "s", "5"}), bulks({"a", "b", "c"}));
  EXPECT_EQ(run({"SRANDMEMBER", "s", "-5"}), bulks({"a", "b", "c", "a", "b"}));
  EXPECT_EQ(run({"SRANDMEMBER", "s", "0"}), Reply::array());
  EXPECT_EQ(run({"SCARD", "s"}), integer(3));
}

TEST_F(Sets, SmoveCreatesTheDestinationAndDeletesAnEmptiedSource) {
  ASSERT_EQ(run({"SADD", "src", "m"}), integer(1));
  take_events();
  EXPECT_EQ(run({"SMOVE", "src", "dst", "m"}), integer(1));
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Deleted, "src", kNoExpire},
                                                       {KeyEvent::Created, "dst", kNoExpire}}));
  EXPECT_EQ(run({"SMEMBERS", "dst"}), bulks({"m"}));
  EXPECT_EQ(run({"SMOVE", "dst", "dst", "m"}), integer(1));
  EXPECT_EQ(run({"SMOVE", "dst", "dst", "x"}), integer(0));
  EXPECT_EQ(run({"SMOVE", "missing", "dst", "m"}), integer(0));
}

TEST_F(Sets, StoreVariantsReplaceAnyTypeAndDropTheExpiry) {
  ASSERT_EQ(run({"SADD", "a", "1", "2", "3"}), integer(3));
  ASSERT_EQ(run({"SADD", "b", "2", "3", "4"}), integer(3));
  ASSERT_EQ(run({"SET", "dst", "v", "PX", "5000"}), Reply::ok());
  take_events();
  EXPECT_EQ(run({"SINTERSTORE", "dst", "a", "b"}), integer(2));
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Persisted, "dst", kNoExpire}}));
  EXPECT_EQ(run({"SMEMBERS", "dst"}), bulks({"2", "3"}));
  EXPECT_EQ(run({"PTTL", "dst"}), integer(-1));
  EXPECT_EQ(run({"SDIFFSTORE", "dst", "a", "a"}), integer(0));
  EXPECT_FALSE(stored("dst"));
  EXPECT_EQ(run({"SUNIONSTORE", "dst", "a", "b", "missing"}), integer(4));
  EXPECT_EQ(run({"SMEMBERS", "dst"}), bulks({"1", "2", "3", "4"}));
}

TEST_F(Sets, SdiffAddsTheWholeFirstSetWhenThatIsLessWork) {
  // Algorithm 2 (first set in, the others out) runs when the others are small: the first set's
  // non-integer makes the result a hashtable even though it only holds integers.
  ASSERT_EQ(run({"SADD", "big", "1", "2", "3", "x"}), integer(4));
  ASSERT_EQ(run({"SADD", "small", "x"}), integer(1));
  ASSERT_EQ(run({"SDIFFSTORE", "d2", "big", "small", "small", "small", "small"}), integer(3));
  EXPECT_EQ(set_at("d2").encoding(), Set::Encoding::HashTable);
  ASSERT_EQ(run({"SDIFFSTORE", "d1", "big", "small"}), integer(3));
  EXPECT_EQ(set_at("d1").encoding(), Set::Encoding::IntSet);
}

TEST_F(Sets, SintercardCountsUpToTheLimit) {
  ASSERT_EQ(run({"SADD", "a", "1", "2", "3"}), integer(3));
  ASSERT_EQ(run({"SADD", "b", "1", "2", "3", "4"}), integer(4));
  EXPECT_EQ(run({"SINTERCARD", "2", "a", "b"}), integer(3));
  EXPECT_EQ(run({"SINTERCARD", "2", "a", "b", "LIMIT", "2"}), integer(2));
  EXPECT_EQ(run({"SINTERCARD", "2", "a", "b", "limit", "0"}), integer(3));
  EXPECT_EQ(run({"SINTERCARD", "3", "a", "b", "missing"}), integer(0));
  EXPECT_EQ(run({"SINTERCARD", "0", "a"}), error("ERR numkeys should be greater than 0"));
  EXPECT_EQ(run({"SINTERCARD", "3", "a"}), error("ERR Number of keys can't be greater than number of args"));
  EXPECT_EQ(run({"SINTERCARD", "1", "a", "LIMIT", "-1"}), error("ERR LIMIT can't be negative"));
  EXPECT_EQ(run({"SINTERCARD", "1", "a", "LIMIT"}), error("ERR syntax error"));
}

}  // namespace
}  // namespace locksim::engine
