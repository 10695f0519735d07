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

// SORT's options as sortCommandGeneric reads them, before it looks at the key.
struct SortOptions {
  bool desc = false, alpha = false, dontsort = false;
  int64_t limit_start = 0, limit_count = -1;
  std::optional<std::string_view> by, store;
  std::vector<std::string_view> gets;
};

// The options from argv[2] on; an error reply for a bad one (SORT_RO: `read_only`, no STORE).
std::optional<Reply> parse_sort_options(CommandContext& ctx, bool read_only, SortOptions& o) {
  for (size_t j = 2; j < ctx.argc(); ++j) {
    const std::string_view opt = ctx.arg(j);
    const size_t left = ctx.argc() - j - 1;
    if (equals_ignore_case(opt, "asc")) {
      o.desc = false;
    } else if (equals_ignore_case(opt, "desc")) {
      o.desc = true;
    } else if (equals_ignore_case(opt, "alpha")) {
      o.alpha = true;
    } else if (equals_ignore_case(opt, "limit") && left >= 2) {
      const std::optional<int64_t> start = parse_int64(ctx.arg(j + 1));
      const std::optional<int64_t> count = parse_int64(ctx.arg(j + 2));
      if (!start || !count) return Reply::error(errors::kNotInteger);
      o.limit_start = *start;
      o.limit_count = *count;
      j += 2;
    } else if (!read_only && equals_ignore_case(opt, "store") && left >= 1) {
      o.store = ctx.arg(++j);
    } else if (equals_ignore_case(opt, "by") && left >= 1) {
      o.by = ctx.arg(++j);
      // A BY without '*' is a constant: nothing to sort by, the stored order stands.
      if (o.by->substr(0, o.by->find('\0')).find('*') == std::string_view::npos) o.dontsort = true;
    } else if (equals_ignore_case(opt, "get") && left >= 1) {
      o.gets.push_back(ctx.arg(++j));
    } else {
      return Reply::error(errors::kSyntax);
    }
  }
  return std::nullopt;
}

// Loads each element's score (or ALPHA's BY value) and sorts as sortCompare does; false when a
// score is no double.
bool sort_elements(Keyspace& db, const SortOptions& o, std::vector<Sorted>& vector) {
  bool conversion_error = false;
  for (Sorted& item : vector) {
    std::optional<std::string> by_value =
        o.by ? lookup_by_pattern(db, *o.by, item.element) : std::optional<std::string>(item.element);
    if (!by_value) continue;
    if (o.alpha) {
      if (o.by) item.by = std::move(by_value);
      continue;
    }
    // strtod over the whole value (an empty one is 0); NaN and overflow are errors.
    char* parsed_end = nullptr;
    errno = 0;
    item.score = std::strtod(by_value->c_str(), &parsed_end);
    if (*parsed_end != '\0' || errno == ERANGE || std::isnan(item.score)) conversion_error = true;
  }
  if (conversion_error) return false;
  const bool stored = o.store.has_value();
  std::stable_sort(vector.begin(), vector.end(), [&](const Sorted& a, const Sorted& b) {
    int cmp;
    if (!o.alpha) {
      // Equal scores compare the elements, so that the result is deterministic.
      cmp = a.score > b.score ? 1 : a.score < b.score ? -1 : compare_bytes(a.element, b.element);
    } else if (o.by) {
      if (!a.by || !b.by) cmp = a.by.has_value() == b.by.has_value() ? 0 : a.by ? 1 : -1;
      else cmp = stored ? compare_bytes(*a.by, *b.by) : collate(*a.by, *b.by);
    } else {
      cmp = stored ? compare_bytes(a.element, b.element) : collate(a.element, b.element);
    }
    return (o.desc ? -cmp : cmp) < 0;
  });
  return true;
}

Reply sort_generic(CommandContext& ctx, bool read_only) {
  SortOptions o;
  if (std::optional<Reply> error = parse_sort_options(ctx, read_only, o)) return *error;

  const Entry* entry = ctx.db.find(ctx.arg(1));
  const List* list = entry ? std::get_if<List>(&entry->value) : nullptr;
  const Set* set = entry ? std::get_if<Set>(&entry->value) : nullptr;
  const ZSet* zset = entry ? std::get_if<ZSet>(&entry->value) : nullptr;
  if (entry != nullptr && list == nullptr && set == nullptr && zset == nullptr)
    return Reply::error(errors::kWrongType);

  // A set's order is the hash table's, so an unsorted set is sorted after all where the result
  // must be the same everywhere: stored, or inside a script.
  if (o.dontsort && set != nullptr && (o.store || ctx.session == kScriptCaller)) {
    o.dontsort = false;
    o.alpha = true;
    o.by.reset();
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
  int64_t start = std::min(std::max<int64_t>(o.limit_start, 0), length);
  const int64_t count = std::min(std::max<int64_t>(o.limit_count, -1), length);
  int64_t end = count < 0 ? length - 1 : start + count - 1;
  if (start >= length) {
    start = length - 1;
    end = length - 2;
  }
  if (end >= length) end = length - 1;

  if (o.dontsort) {
    // Lists and sorted sets keep their order, read from the other end for DESC.
    if (o.desc && set == nullptr) std::reverse(vector.begin(), vector.end());
  } else if (!sort_elements(ctx.db, o, vector)) {
    return Reply::error(errors::kSortScoreNotDouble);
  }

  std::vector<std::optional<std::string>> output;
  for (int64_t j = start; j <= end; ++j) {
    const std::string& element = vector[static_cast<size_t>(j)].element;
    if (o.gets.empty()) output.emplace_back(element);
    for (const std::string_view pattern : o.gets) output.push_back(lookup_by_pattern(ctx.db, pattern, element));
  }
  if (!o.store) {
    Reply reply = Reply::array();
    for (std::optional<std::string>& value : output)
      reply.elements.push_back(value ? Reply::bulk(*value) : Reply::nil());
    return reply;
  }
  // STORE: a list in place of whatever the key held (its TTL gone), or no key for no result.
  if (output.empty()) {
    if (ctx.db.remove(*o.store)) ctx.notify(kNotifyGeneric, "del", *o.store);
  } else {
    List stored;
    for (std::optional<std::string>& value : output) stored.push_back(value ? std::move(*value) : std::string());
    set_key(ctx.db, *o.store, Value{std::move(stored)});
    ctx.notify(kNotifyList, "sortstore", *o.store);
  }
  return Reply::integer_of(static_cast<int64_t>(output.size()));
}

}  // namespace

// SORT key [BY pattern] [LIMIT offset count] [GET pattern ...] [ASC | DESC] [ALPHA] [STORE destination]
Reply sort_command(CommandContext& ctx) { return sort_generic(ctx, false); }
// SORT_RO key [BY pattern] [LIMIT offset count] [GET pattern ...] [ASC | DESC] [ALPHA]
Reply sort_ro_command(CommandContext& ctx) { return sort_generic(ctx, true); }

}  // namespace locksim::engine
