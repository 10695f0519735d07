#include "model/rendered.hpp"

#include <algorithm>
#include <charconv>

namespace locksim::model {
namespace {

// The separator goes between every two items, empty ones too: "[,x]" is a list of two.
std::string join(const std::vector<std::string>& items, char sep) {
  size_t size = items.size();
  for (const auto& item : items) size += item.size();
  std::string out;
  out.reserve(size);
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += sep;
    out += items[i];
  }
  return out;
}

}  // namespace

std::string render_hash(std::vector<std::string> field_equals_value) {
  std::sort(field_equals_value.begin(), field_equals_value.end());
  return join(field_equals_value, ',');
}

std::string render_list(const std::vector<std::string>& items) { return "[" + join(items, ',') + "]"; }

std::string render_zset(const std::vector<std::pair<std::string, int64_t>>& members) {
  std::vector<std::string> items;
  for (const auto& [member, score] : members) items.push_back(member + "=" + std::to_string(score));
  return "{" + join(items, ',') + "}";
}

std::optional<int64_t> parse_integer(std::string_view text) {
  int64_t n = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return n;
}

bool is_error_reply(std::string_view reply) { return !reply.empty() && reply[0] == '-' && !parse_integer(reply); }

bool is_grant_reply(std::string_view reply) { return reply == "nil" || reply.starts_with("[-1, "); }

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
