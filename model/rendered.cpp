#include "model/rendered.hpp"

#include <charconv>

namespace locksim::model {

std::optional<int64_t> parse_integer(std::string_view text) {
  int64_t n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return n;
}

bool is_error_reply(std::string_view reply) { return !reply.empty() && reply[0] == '-' && !parse_integer(reply); }

std::optional<std::map<std::string, int64_t>> parse_hash(std::string_view rendered) {
  std::map<std::string, int64_t> fields;
  while (!rendered.empty()) {
    const size_t comma = rendered.find(',');
    const std::string_view pair = rendered.substr(0, comma);
    rendered = comma == std::string_view::npos ? std::string_view() : rendered.substr(comma + 1);
    const size_t eq = pair.rfind('=');
    if (eq == std::string_view::npos || eq == 0) return std::nullopt;
    const auto n = parse_integer(pair.substr(eq + 1));
    if (!n) {
      if (pair.substr(0, eq) == "mode") continue;
      return std::nullopt;
    }
    fields[std::string(pair.substr(0, eq))] = *n;
  }
  return fields;
}

}  // namespace locksim::model
