#include "engine/scan.hpp"

#include <cctype>
#include <cerrno>
#include <cstdlib>

#include "engine/errors.hpp"
#include "engine/numbers.hpp"

namespace locksim::engine {
namespace {

// Redis reads option names (and SCAN's TYPE) as C strings: they end at a NUL byte.
std::string_view c_string(std::string_view arg) { return arg.substr(0, arg.find('\0')); }

}  // namespace

std::optional<uint64_t> parse_scan_cursor(std::string_view arg) {
  const std::string text(arg);  // strtoul stops at a NUL byte, as it does on Redis's sds
  if (!text.empty() && std::isspace(static_cast<unsigned char>(text[0]))) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const unsigned long long cursor = std::strtoull(text.c_str(), &end, 10);
  if (*end != '\0' || errno == ERANGE) return std::nullopt;
  return static_cast<uint64_t>(cursor);
}

bool parse_scan_options(const CommandContext& ctx, size_t first, bool keys, ScanOptions& options, Reply& error) {
  for (size_t i = first; i < ctx.argc(); i += 2) {
    const std::string_view opt = c_string(ctx.arg(i));
    const bool has_value = i + 1 < ctx.argc();
    if (equals_ignore_case(opt, "count") && has_value) {
      auto parsed = parse_int64(ctx.arg(i + 1));
      if (!parsed) {
        error = Reply::error(errors::kNotInteger);
        return false;
      }
      if (*parsed < 1) {
        error = Reply::error(errors::kSyntax);
        return false;
      }
      options.count = *parsed;
    } else if (equals_ignore_case(opt, "match") && has_value) {
      options.pattern = ctx.arg(i + 1);
    } else if (equals_ignore_case(opt, "type") && keys && has_value) {
      options.type = c_string(ctx.arg(i + 1));
    } else {
      error = Reply::error(errors::kSyntax);
      return false;
    }
  }
  if (options.pattern && *options.pattern == "*") options.pattern.reset();  // matches everything, as Redis notes
  return true;
}

uint64_t scan_cursor_of(std::string_view name) {
  uint64_t cursor = 0;
  for (size_t i = 0; i < 8; ++i) cursor = (cursor << 8) | (i < name.size() ? static_cast<unsigned char>(name[i]) : 0u);
  return cursor;
}

std::string first_name_at(uint64_t cursor) {
  std::string name(8, '\0');
  for (size_t i = 0; i < 8; ++i) name[i] = static_cast<char>((cursor >> (8 * (7 - i))) & 0xff);
  while (!name.empty() && name.back() == '\0') name.pop_back();
  return name;
}

Reply scan_reply(uint64_t next, Reply elements) {
  return Reply::array({Reply::bulk(format_int64(static_cast<int64_t>(next))), std::move(elements)});
}

}  // namespace locksim::engine
