// Unit: keys and lists as Exec events render them, the text every checker parses back.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "model/rendered.hpp"

namespace locksim::model {
namespace {

TEST(Rendered, AHashIsItsFieldsSortedAsFieldEqualsValueAndParsesBack) {
  EXPECT_EQ(render_hash({"b:1=2", "a:1=1"}), "a:1=1,b:1=2");
  EXPECT_EQ(render_hash({}), "");
  const auto parsed = parse_hash(render_hash({"u2:1=1", "u1:1=3"}));
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(*parsed, (std::map<std::string, int64_t>{{"u1:1", 3}, {"u2:1", 1}}));
}

TEST(Rendered, AListHasACommaBetweenEveryTwoItemsEmptyOnesToo) {
  EXPECT_EQ(render_list({}), "[]");
  EXPECT_EQ(render_list({"a"}), "[a]");
  EXPECT_EQ(render_list({"a", "b"}), "[a,b]");
  // An empty member is still a member: two items, not one (the old join dropped the comma).
  EXPECT_EQ(render_list({"", "x"}), "[,x]");
  EXPECT_EQ(render_list({"x", ""}), "[x,]");
}

TEST(Rendered, ASortedSetKeepsItsOrderAndTruncatedScores) {
  EXPECT_EQ(render_zset({{"b", 5}, {"a", 7}}), "{b=5,a=7}");
  EXPECT_EQ(render_zset({}), "{}");
}

}  // namespace
}  // namespace locksim::model
