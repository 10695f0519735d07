#pragma once
// Error texts exactly as Debian's redis-server 7.0.15 sends them (checked by verify/differential).
#include <string>
#include <string_view>

namespace locksim::engine::errors {

inline constexpr std::string_view kWrongType =
    "WRONGTYPE Operation against a key holding the wrong kind of value";
inline constexpr std::string_view kNotInteger = "ERR value is not an integer or out of range";
inline constexpr std::string_view kNotFloat = "ERR value is not a valid float";
inline constexpr std::string_view kMinMaxNotFloat = "ERR min or max is not a float";
inline constexpr std::string_view kSyntax = "ERR syntax error";
inline constexpr std::string_view kOverflow = "ERR increment or decrement would overflow";
inline constexpr std::string_view kNoSuchKey = "ERR no such key";
inline constexpr std::string_view kIndexOutOfRange = "ERR index out of range";
inline constexpr std::string_view kNoScript = "NOSCRIPT No matching script. Please use EVAL.";
inline constexpr std::string_view kHashValueNotInteger = "ERR hash value is not an integer";
inline constexpr std::string_view kNegativeKeys = "ERR Number of keys can't be negative";
inline constexpr std::string_view kTooManyKeys =
    "ERR Number of keys can't be greater than number of args";
inline constexpr std::string_view kStringTooLong = "ERR string exceeds maximum allowed size (proto-max-bulk-len)";

// "ERR " + text: the one helper that adds Redis's default error code.
inline std::string err(std::string_view text) { return "ERR " + std::string(text); }

// "ERR " + text as Redis's addReplyErrorFormat sends it: CR and LF trimmed from the end, and any
// others turned into spaces, so that the error stays on one line.
inline std::string err_format(std::string_view text) {
  std::string out = err(text);
  while (!out.empty() && (out.back() == '\r' || out.back() == '\n')) out.pop_back();
  for (char& c : out)
    if (c == '\r' || c == '\n') c = ' ';
  return out;
}

inline std::string wrong_arity(std::string_view command) {
  return "ERR wrong number of arguments for '" + std::string(command) + "' command";
}

inline std::string invalid_expire(std::string_view command) {
  return "ERR invalid expire time in '" + std::string(command) + "' command";
}

}  // namespace locksim::engine::errors
