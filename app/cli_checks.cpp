#include "app/cli_checks.hpp"

#include <charconv>
#include <cmath>
#include <string>
#include <string_view>

namespace locksim::app {

CLI::Validator integer_in(int64_t lo, uint64_t hi) {
  const std::string range = std::to_string(lo) + ".." + std::to_string(hi);
  return CLI::Validator(
      [lo, hi, range](std::string& v) -> std::string {
        const bool negative = !v.empty() && v[0] == '-';
        const std::string_view digits = std::string_view(v).substr(negative ? 1 : 0);
        uint64_t n = 0;
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
        const bool whole = !digits.empty() && ec == std::errc() && end == digits.data() + digits.size();
        const bool in = whole && (negative ? lo < 0 && n <= static_cast<uint64_t>(-(lo + 1)) + 1
                                           : n <= hi && (lo <= 0 || n >= static_cast<uint64_t>(lo)));
        return in ? std::string() : "an integer in " + range + ", not " + v;
      },
      "INT in " + range);
}

CLI::Validator seconds_up_to(double hi) {
  return CLI::Validator(
      [hi](std::string& v) -> std::string {
        try {
          size_t used = 0;
          const double s = std::stod(v, &used);  // "nan" and "inf" are numbers to strtod
          if (used == v.size() && std::isfinite(s) && s >= 0 && s <= hi) return "";
        } catch (const std::exception&) {
        }
        return "a number of seconds from 0 to " + std::to_string(static_cast<int64_t>(hi)) + ", not " + v;
      },
      "SECONDS");
}

}  // namespace locksim::app
