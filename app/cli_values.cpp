#include "app/cli_values.hpp"

#include <algorithm>
#include <charconv>
#include <limits>

namespace locksim::app {

std::optional<int64_t> parse_integer(std::string_view text) {
  if (!text.empty() && text.front() == '+') {
    text.remove_prefix(1);
    if (text.empty() || text.front() < '0' || text.front() > '9') return std::nullopt;  // "+-5", "+"
  }
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<ShardArg> parse_shard(std::string_view text) {
  const size_t slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  const auto index = parse_integer(text.substr(0, slash));
  const auto count = parse_integer(text.substr(slash + 1));
  constexpr int64_t kMax = std::numeric_limits<int>::max();
  if (!index || !count || *index < -kMax || *index > kMax || *count < -kMax || *count > kMax) return std::nullopt;
  return ShardArg{static_cast<int>(*index), static_cast<int>(*count)};
}

std::string parse_ms_list(std::string_view flag, const std::vector<std::string>& given, std::vector<int64_t>& out) {
  for (const std::string& list : given)
    for (size_t from = 0;;) {
      const size_t comma = std::min(list.find(',', from), list.size());
      const std::string_view item = std::string_view(list).substr(from, comma - from);
      const auto value = parse_integer(item);
      if (!value)
        return std::string(flag) + " " + list + ": " +
               (item.empty() ? "an empty item" : "'" + std::string(item) + "' is not a number of ms");
      out.push_back(*value);
      if (comma == list.size()) break;
      from = comma + 1;
    }
  return {};
}

}  // namespace locksim::app
