#pragma once
// Number parsing and formatting with Redis's exact rules (util.c: string2ll, string2ld, %.17g).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace locksim::engine {

// Redis's string2ll: optional '-', no '+', no leading zeros, no spaces, fits in int64.
std::optional<int64_t> parse_int64(std::string_view s);

// Redis's getDoubleFromObject: strtod over the whole string, no leading space, no NaN.
// "inf", "+inf" and "-inf" are accepted, as strtod accepts them.
std::optional<double> parse_double(std::string_view s);

// Redis 7.0's addReplyDouble in RESP2: "inf", "-inf", otherwise "%.17g".
std::string format_double(double d);

// How a Lua number becomes a command argument in Redis 7.0: integers in decimal, floats "%.17g".
std::string format_lua_number_arg(double d);

std::string format_int64(int64_t v);

// Redis's string2ld: strtold over the whole text (shorter than MAX_LONG_DOUBLE_CHARS), no leading
// space, no NaN, and not an ERANGE that overflowed to infinity or underflowed to zero.
std::optional<long double> parse_long_double(std::string_view text);

// ld2string's LD_STR_HUMAN (INCRBYFLOAT, HINCRBYFLOAT): "%.17Lf" with the trailing zeros (and a
// bare point) taken off, "-0" as "0". Empty where Redis's buffer has no room.
std::string format_long_double_human(long double value);

// ld2string's LD_STR_AUTO (createStringObjectFromLongDouble(d, 0): a skiplist's score in ZSCAN):
// "inf", "-inf", otherwise "%.17Lg".
std::string format_long_double_auto(long double value);

// Redis's d2string, how a listpack stores a sorted set's score: "nan", "inf", "-inf", "0", "-0", an
// integer in decimal where double2ll takes it exactly (|d| up to 2^62), otherwise "%.17g".
std::string format_d2string(double d);

}  // namespace locksim::engine
