#include "engine/numbers.hpp"

#include <cctype>
#include <charconv>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace locksim::engine {

std::optional<int64_t> parse_int64(std::string_view s) {
  if (s.empty() || s.size() > 20) return std::nullopt;
  if (s == "0") return 0;
  size_t i = 0;
  bool negative = false;
  if (s[0] == '-') {
    negative = true;
    i = 1;
    if (s.size() == 1) return std::nullopt;
  }
  if (s[i] < '1' || s[i] > '9') return std::nullopt;
  uint64_t value = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    const uint64_t digit = static_cast<uint64_t>(s[i] - '0');
    if (value > (std::numeric_limits<uint64_t>::max() - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  constexpr uint64_t kMaxPositive = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (negative) {
    if (value > kMaxPositive + 1) return std::nullopt;
    return static_cast<int64_t>(0 - value);
  }
  if (value > kMaxPositive) return std::nullopt;
  return static_cast<int64_t>(value);
}

std::optional<double> parse_double(std::string_view s) {
  // Redis limits the text to MAX_LONG_DOUBLE_CHARS (5 KiB); longer input is "not a valid float".
  if (s.empty() || s.size() > 5 * 1024) return std::nullopt;
  if (std::isspace(static_cast<unsigned char>(s[0]))) return std::nullopt;
  const std::string text(s);  // strtod needs a terminator
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  if (errno == ERANGE && (value == HUGE_VAL || value == -HUGE_VAL || std::fpclassify(value) == FP_ZERO))
    return std::nullopt;
  if (std::isnan(value)) return std::nullopt;
  return value;
}

namespace {

// "%.17g", as Redis 7.0 writes a double. A whole number under 10^15 (a FairLock's scores are
// millisecond timestamps) prints as that integer in %g's fixed notation, so it is written as one:
// glibc's %g costs thousands of instructions, and a FairLock script reads several scores a call.
// Negative zero prints "-0" and is left to snprintf.
std::string g17(double d) {
  if (d == std::trunc(d) && std::fabs(d) < 1e15 && !(d == 0 && std::signbit(d))) {
    char buf[24];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, static_cast<int64_t>(d));
    return std::string(buf, end);
  }
  char buf[64];
  const int n = std::snprintf(buf, sizeof buf, "%.17g", d);
  return std::string(buf, static_cast<size_t>(n));
}

}  // namespace

std::string format_double(double d) {
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  return g17(d);
}

std::string format_lua_number_arg(double d) { return g17(d); }

std::string format_int64(int64_t v) { return std::to_string(v); }

namespace {

// MAX_LONG_DOUBLE_CHARS: the longest text string2ld reads, and ld2string's buffer.
constexpr size_t kMaxLongDoubleChars = 5 * 1024;

}  // namespace

std::optional<long double> parse_long_double(std::string_view text) {
  if (text.empty() || text.size() >= kMaxLongDoubleChars) return std::nullopt;
  const std::string buf(text);  // NUL-terminated; an embedded NUL stops strtold short of the end
  errno = 0;
  char* end = nullptr;
  const long double value = std::strtold(buf.c_str(), &end);
  const bool range_error = errno == ERANGE && (std::isinf(value) || std::fpclassify(value) == FP_ZERO);
  if (std::isspace(static_cast<unsigned char>(buf[0])) || static_cast<size_t>(end - buf.c_str()) != buf.size() ||
      range_error || errno == EINVAL || std::isnan(value))
    return std::nullopt;
  return value;
}

std::string format_long_double_human(long double value) {
  char buf[kMaxLongDoubleChars];
  const int written = std::snprintf(buf, sizeof buf, "%.17Lf", value);
  if (written < 0 || static_cast<size_t>(written) + 1 > sizeof buf) return "";  // ld2string's "no room"
  std::string text(buf, static_cast<size_t>(written));
  if (text.find('.') != std::string::npos) {
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
  }
  if (text == "-0") text = "0";
  return text;
}

std::string format_long_double_auto(long double value) {
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buf[kMaxLongDoubleChars];
  const int written = std::snprintf(buf, sizeof buf, "%.17Lg", value);
  return std::string(buf, static_cast<size_t>(written));
}

std::string format_d2string(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  if (d == 0) return std::signbit(d) ? "-0" : "0";
  // double2ll: within +-LLONG_MAX/2 and without a fractional part.
  constexpr double kHalf = static_cast<double>(std::numeric_limits<int64_t>::max() / 2);
  if (d >= -kHalf && d <= kHalf && static_cast<double>(static_cast<int64_t>(d)) == d)
    return format_int64(static_cast<int64_t>(d));
  char buf[64];
  const int n = std::snprintf(buf, sizeof buf, "%.17g", d);
  return std::string(buf, static_cast<size_t>(n));
}

}  // namespace locksim::engine
