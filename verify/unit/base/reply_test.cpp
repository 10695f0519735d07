#include <gtest/gtest.h>

#include "base/reply.hpp"

namespace locksim::engine {

TEST(Reply, DescribeShowsKindAndValue) {
  EXPECT_EQ(describe(Reply::nil()), "nil");
  EXPECT_EQ(describe(Reply::integer_of(-3)), "-3");
  EXPECT_EQ(describe(Reply::bulk("v")), "\"v\"");
  EXPECT_EQ(describe(Reply::ok()), "+OK");
  EXPECT_EQ(describe(Reply::error("ERR x")), "-ERR x");
  EXPECT_EQ(describe(Reply::array({Reply::integer_of(1), Reply::nil()})), "[1, nil]");
}

TEST(Reply, EqualityComparesKindAndPayload) {
  EXPECT_EQ(Reply::bulk("1"), Reply::bulk("1"));
  EXPECT_NE(Reply::bulk("1"), Reply::integer_of(1));
  EXPECT_NE(Reply::status("OK"), Reply::bulk("OK"));
}

}  // namespace locksim::engine
