// How the fake writes a double: exactly as Redis 7.0 does, "%.17g" (glibc's snprintf is the oracle
// here, not the code under test), whatever shortcut it takes for whole numbers.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>

#include "engine/numbers.hpp"

namespace locksim::engine {
namespace {

std::string printf_g17(double d) {
  char buf[64];
  const int n = std::snprintf(buf, sizeof buf, "%.17g", d);
  return std::string(buf, static_cast<size_t>(n));
}

TEST(Numbers, ADoubleIsWrittenAsPercentG17) {
  std::vector<double> values = {0.0, -0.0, 1.0, -1.0, 0.1, 1.5, -2.25, 1e14, 1e15 - 1, 1e15, 1e15 + 1, 1e16, 1e17,
                                1e17 + 8, 1e21, 123456789012345.0, -999999999999999.0, 1700000000123.0,
                                std::numeric_limits<double>::min(), std::numeric_limits<double>::max(),
                                std::numeric_limits<double>::denorm_min(), 4503599627370496.5, 9007199254740993.0};
  std::mt19937_64 rng(20261207);
  for (int i = 0; i < 20000; ++i) {
    values.push_back(static_cast<double>(static_cast<int64_t>(rng() % 4000000000000000ULL) - 2000000000000000LL));
    values.push_back(std::ldexp(static_cast<double>(rng() >> 11), static_cast<int>(rng() % 120) - 60));
  }
  for (const double d : values) {
    EXPECT_EQ(format_double(d), printf_g17(d)) << d;
    EXPECT_EQ(format_lua_number_arg(d), printf_g17(d)) << d;
  }
  EXPECT_EQ(format_double(-0.0), "-0");
  EXPECT_EQ(format_double(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(format_double(-std::numeric_limits<double>::infinity()), "-inf");
}

}  // namespace
}  // namespace locksim::engine
