// Sorting: SORT and SORT_RO (Redis 7.0's sort.c): a list, set or sorted set by its elements or by
// keys named after them (BY), with LIMIT, GET, ASC/DESC, ALPHA and STORE.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "engine/command_context.hpp"
#include "engine/commands.hpp"
#include "engine/errors.hpp"
#include "engine/numbers.hpp"
#include "engine/set_key.hpp"

namespace locksim::engine {
namespace {

// lookupKeyByPattern: "#" is the element itself; otherwise the first '*' of the pattern is replaced
// by the element, and a "->field" after it reads that field of a hash. Redis scans the pattern as a
// C string (strchr, strstr) but measures it whole (sdslen); so does this.
std::optional<std::string> lookup_by_pattern(Keyspace& db, std::string_view pattern, std::string_view element) {
  if (pattern == "#") return std::string(element);
  const std::string_view scanned = pattern.substr(0, pattern.find('\0'));
  const size_t star = scanned.find('*');
  if (star == std::string_view::npos) return std::nullopt;  // a fixed key: nothing to look up
  const size_t arrow = scanned.find("->", star + 1);
  const bool has_field = arrow != std::string_view::npos && arrow + 2 < scanned.size();
  const size_t field_length = has_field ? pattern.size() - arrow - 2 : 0;
  const size_t postfix_length = pattern.size() - (star + 1) - (has_field ? field_length + 2 : 0);
  std::string key(pattern.substr(0, star));
  key += element;
  key += pattern.substr(star + 1, postfix_length);
  Entry* entry = db.find(key);
  if (entry == nullptr) return std::nullopt;
  if (has_field) {
    const Hash* hash = std::get_if<Hash>(&entry->value);
    if (hash == nullptr) return std::nullopt;
    const std::string* value = hash->get(pattern.substr(arrow + 2, field_length));
    return value ? std::optional<std::string>(*value) : std::nullopt;
  }
  const std::string* value = std::get_if<std::string>(&entry->value);
  return value ? std::optional<std::string>(*value) : std::nullopt;
}

struct Sorted {
  std::string element;
  double score = 0;
  std::optional<std::string> by;  // ALPHA with BY: the value compared (nullopt: its key is missing)
};

// strcoll under the C locale Redis runs in: bytes, up to the first NUL.
int collate(std::string_view a, std::string_view b) {
  return std::strcmp(std::string(a).c_str(), std::string(b).c_str());
}

// compareStringObjects: the bytes, then the length.
int compare_bytes(std::string_view a, std::string_view b) { return a.compare(b) < 0 ? -1 : a.compare(b) > 0; }

Reply sort_generic(CommandContext& ctx, bool read_only) {
  bool desc = false, alpha = false, dontsort = false;
  int64_t limit_start = 0, limit_count = -1;
  std::optional<std::string_view> by, store;
  std::vector<std::string_view> gets;
  for (size_t j = 2; j < ctx.argc(); ++j) {
    const std::string_view opt = ctx.arg(j);
    const size_t left = ctx.argc() - j - 1;
    if (equals_ignore_case(opt, "asc")) {
      desc = false;
    } else if (equals_ignore_case(opt, "desc")) {
      desc = true;
    } else if (equals_ignore_case(opt, "alpha")) {
      alpha = true;
    } else if (equals_ignore_case(opt, "limit") && left >= 2) {
      const std::optional<int64_t> start = parse_int64(ctx.arg(j + 1));
      const std::optional<int64_t> count = parse_int64(ctx.arg(j + 2));
      if (!start || !count) return Reply::error(errors::kNotInteger);
      limit_start = *start;
      limit_count = *count;
      j += 2;
    } else if (!read_only && equals_ignore_case(opt, "store") && left >= 1) {
      store = ctx.arg(++j);
    } else if (equals_ignore_case(opt, "by") && left >= 1) {
      by = ctx.arg(++j);
      // A BY without '*' is a constant: nothing to sort by, the stored order stands.
      if (by->substr(0, by->find('\0')).find('*') == std::string_view::npos) dontsort = true;
    } else if (equals_ignore_case(opt, "get") && left >= 1) {
      gets.push_back(ctx.arg(++j));
    } else {
      return Reply::error(errors::kSyntax);
    }
  }

  const Entry* entry = ctx.db.find(ctx.arg(1));
  const List* list = entry ? std::get_if<List>(&entry->value) : nullptr;
  const Set* set = entry ? std::get_if<Set>(&entry->value) : nullptr;
  const ZSet* zset = entry ? std::get_if<ZSet>(&entry->value) : nullptr;
  if (entry != nullptr && list == nullptr && set == nullptr && zset == nullptr)
    return Reply::error(errors::kWrongType);

  // A set's order is the hash table's, so an unsorted set is sorted after all where the result
  // must be the same everywhere: stored, or inside a script.
  if (dontsort && set != nullptr && (store || ctx.session == kScriptCaller)) {
    dontsort = false;
    alpha = true;
    by.reset();
  }

  // The elements, in the order the value keeps them (a sorted set's: by score, DESC reversed when
  // nothing is sorted, as Redis walks its skiplist backwards).
  std::vector<Sorted> vector;
  if (list != nullptr)
    for (const std::string& e : *list) vector.push_back({e, 0, std::nullopt});
  if (set != nullptr)
    for (std::string& e : set->members()) vector.push_back({std::move(e), 0, std::nullopt});
  if (zset != nullptr)
    for (const auto& [score, member] : zset->ordered()) vector.push_back({member, 0, std::nullopt});
  const int64_t length = static_cast<int64_t>(vector.size());

  // LIMIT, clamped to the value's length as Redis clamps it.
  int64_t start = std::min(std::max<int64_t>(limit_start, 0), length);
  const int64_t count = std::min(std::max<int64_t>(limit_count, -1), length);
  int64_t end = count < 0 ? length - 1 : start + count - 1;
  if (start >= length) {
    start = length - 1;
    end = length - 2;
  }
  if (end >= length) end = length - 1;

  if (dontsort) {
    // Lists and sorted sets keep their order, read from the other end for DESC.
    if (desc && set == nullptr) std::reverse(vector.begin(), vector.end());
  } else {
    bool conversion_error = false;
    for (Sorted& item : vector) {
      std::optional<std::string> by_value =
          by ? lookup_by_pattern(ctx.db, *by, item.element) : std::optional<std::string>(item.element);
      if (!by_value) continue;
      if (alpha) {
        if (by) item.by = std::move(by_value);
        continue;
      }
      // strtod over the whole value (an empty one is 0); NaN and overflow are errors.
      const std::string text = *by_value;
      char* parsed_end = nullptr;
      errno = 0;
      item.score = std::strtod(text.c_str(), &parsed_end);
      if (*parsed_end != '\0' || errno == ERANGE || std::isnan(item.score)) conversion_error = true;
    }
    if (conversion_error) return Reply::error(errors::kSortScoreNotDouble);
    const bool stored = store.has_value();
    std::stable_sort(vector.begin(), vector.end(), [&](const Sorted& a, const Sorted& b) {
      int cmp;
      if (!alpha) {
        // Equal scores compare the elements, so that the result is deterministic.
        cmp = a.score > b.score ? 1 : a.score < b.score ? -1 : compare_bytes(a.element, b.element);
      } else if (by) {
        if (!a.by || !b.by) cmp = a.by.has_value() == b.by.has_value() ? 0 : a.by ? 1 : -1;
        else cmp = stored ? compare_bytes(*a.by, *b.by) : collate(*a.by, *b.by);
      } else {
        cmp = stored ? compare_bytes(a.element, b.element) : collate(a.element, b.element);
      }
      return (desc ? -cmp : cmp) < 0;
    });
  }

  std::vector<std::optional<std::string>> output;
  for (int64_t j = start; j <= end; ++j) {
    const std::string& element = vector[static_cast<size_t>(j)].element;
    if (gets.empty()) output.emplace_back(element);
    for (const std::string_view pattern : gets) output.push_back(lookup_by_pattern(ctx.db, pattern, element));
  }
  if (!store) {
    Reply reply = Reply::array();
    for (std::optional<std::string>& value : output)
      reply.elements.push_back(value ? Reply::bulk(*value) : Reply::nil());
    return reply;
  }
  // STORE: a list in place of whatever the key held (its TTL gone), or no key for no result.
  if (output.empty()) {
    ctx.db.remove(*store);
  } else {
    List stored;
    for (std::optional<std::string>& value : output) stored.push_back(value ? std::move(*value) : std::string());
    set_key(ctx.db, *store, Value{std::move(stored)});
  }
  return Reply::integer_of(static_cast<int64_t>(output.size()));
}

}  // namespace

// SORT key [BY pattern] [LIMIT offset count] [GET pattern ...] [ASC | DESC] [ALPHA] [STORE destination]
Reply sort_command(CommandContext& ctx) { return sort_generic(ctx, false); }
// SORT_RO key [BY pattern] [LIMIT offset count] [GET pattern ...] [ASC | DESC] [ALPHA]
Reply sort_ro_command(CommandContext& ctx) { return sort_generic(ctx, true); }

}  // namespace locksim::engine
