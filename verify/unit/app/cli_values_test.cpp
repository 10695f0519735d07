// The command line's own forms are read whole: what a value starts with is never taken for it.
#include <gtest/gtest.h>

#include "app/cli_values.hpp"

namespace locksim::app {

TEST(CliValues, AShardIsTwoWholeNumbersAroundASlash) {
  const auto shard = parse_shard("1/3");
  ASSERT_TRUE(shard);
  EXPECT_EQ(shard->index, 1);
  EXPECT_EQ(shard->count, 3);
  EXPECT_TRUE(parse_shard("3/2"));  // the form is right; the range is the command's to refuse
  for (const char* bad : {"1/3x", "x", "1", "/3", "1/", "1 /3", "1/3/4", "99999999999/2", ""})
    EXPECT_FALSE(parse_shard(bad)) << bad;
}

TEST(CliValues, AnIntegerIsTheWholeText) {
  EXPECT_EQ(parse_integer("-40000"), -40000);
  EXPECT_EQ(parse_integer("+5"), 5);
  for (const char* bad : {"10ms", "", " 1", "1.5", "--1", "+-5", "+", "9223372036854775808"}) EXPECT_FALSE(parse_integer(bad)) << bad;
}

TEST(CliValues, AListOfMsRefusesAnEmptyOrNonNumericItemByName) {
  std::vector<int64_t> out;
  EXPECT_EQ(parse_ms_list("--latencies", {"1,10", "30"}, out), "");
  EXPECT_EQ(out, (std::vector<int64_t>{1, 10, 30}));
  out.clear();
  EXPECT_EQ(parse_ms_list("--latencies", {"1,,10"}, out), "--latencies 1,,10: an empty item");
  EXPECT_EQ(parse_ms_list("--latencies", {"1,"}, out), "--latencies 1,: an empty item");
  EXPECT_EQ(parse_ms_list("--clock-offsets", {"0,ahead"}, out), "--clock-offsets 0,ahead: 'ahead' is not a number of ms");
}

}  // namespace locksim::app
