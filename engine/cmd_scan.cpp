// Container scans: HSCAN, SSCAN, ZSCAN (Redis's scanGenericCommand in db.c, which serves SCAN too;
// SCAN is in cmd_keys.cpp and both use scan.hpp).
//
// A container in its small encoding (a listpack hash or sorted set, an intset) is returned whole in
// one call with cursor 0, whatever the cursor and COUNT, as Redis does. A big one (hashtable,
// skiplist) is walked with SCAN's cursor model over its field or member names in byte order: COUNT
// names a call plus any that share the last one's 8-byte cursor. Redis walks the dict's buckets
// instead, so the cursor numbers and batches differ while a full iteration returns the same elements
// (docs/fidelity.md, "SCAN cursors").
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "engine/commands.hpp"
#include "engine/errors.hpp"
#include "engine/glob.hpp"
#include "engine/numbers.hpp"
#include "engine/scan.hpp"

namespace locksim::engine {
namespace {

// One element of a scan's reply before MATCH: its name and, for hashes and sorted sets, its value.
struct Scanned {
  std::string name;  // owned: an intset's members are made as it is read
  std::string value;
};

// scanGenericCommand's steps 3 and 4 for a container: MATCH filters on the name (and a hash's or
// sorted set's value goes with its name), then the reply.
Reply filtered_reply(uint64_t next, const std::vector<Scanned>& elements, const ScanOptions& options, bool pairs) {
  Reply out = Reply::array();
  for (const Scanned& element : elements) {
    if (options.pattern && !glob_match(*options.pattern, element.name)) continue;
    out.elements.push_back(Reply::bulk(element.name));
    if (pairs) out.elements.push_back(Reply::bulk(element.value));
  }
  return scan_reply(next, std::move(out));
}

// The walk over names in byte order, from the cursor: `sorted` holds every element, sorted by name.
uint64_t visit_sorted(std::vector<Scanned>& sorted, uint64_t cursor, int64_t count) {
  const std::string from = first_name_at(cursor);
  using It = std::vector<Scanned>::iterator;
  const It first = std::lower_bound(sorted.begin(), sorted.end(), from,
                                    [](const Scanned& s, const std::string& name) { return s.name < name; });
  std::vector<It> visited;
  const uint64_t next = scan_visit(first, sorted.end(), count, [](const Scanned& s) { return s.name; }, visited);
  std::vector<Scanned> batch;
  batch.reserve(visited.size());
  for (const It& it : visited) batch.push_back(std::move(*it));
  sorted = std::move(batch);
  return next;
}

// The reply of a container scan: a small encoding's elements whole with cursor 0, a big one's walked
// from the cursor over its names in byte order. `pairs`: each name with its value.
Reply scan_elements(std::vector<Scanned> elements, bool whole, bool pairs, uint64_t cursor,
                    const ScanOptions& options) {
  if (whole) return filtered_reply(0, elements, options, pairs);
  std::sort(elements.begin(), elements.end(), [](const Scanned& a, const Scanned& b) { return a.name < b.name; });
  const uint64_t next = visit_sorted(elements, cursor, options.count);
  return filtered_reply(next, elements, options, pairs);
}

// What HSCAN, SSCAN and ZSCAN do before the walk, in Redis's order: the cursor, then the key (a
// missing one is an empty scan, before any option is read), its type, then the options.
template <class T>
bool prepare(CommandContext& ctx, const T*& value, uint64_t& cursor, ScanOptions& options, Reply& reply) {
  const auto parsed = parse_scan_cursor(ctx.arg(2));
  if (!parsed) {
    reply = Reply::error(errors::kInvalidCursor);
    return false;
  }
  cursor = *parsed;
  Found<T> found = find_as<T>(ctx.db, ctx.arg(1));
  if (found.wrong_type) {
    reply = Reply::error(errors::kWrongType);
    return false;
  }
  if (found.value == nullptr) {
    reply = scan_reply(0, Reply::array());  // shared.emptyscan
    return false;
  }
  value = found.value;
  return parse_scan_options(ctx, 3, false, options, reply);
}

// scanGenericCommand's common part for a container held at argv[1]: `elements_of(value, small)`
// lists its elements and says whether its encoding is the small one, returned whole.
template <class T, class ElementsOf>
Reply scan_container(CommandContext& ctx, bool with_values, ElementsOf elements_of) {
  const T* value = nullptr;
  uint64_t cursor = 0;
  ScanOptions options;
  Reply reply;
  if (!prepare(ctx, value, cursor, options, reply)) return reply;
  bool small = false;
  std::vector<Scanned> elements = elements_of(*value, small);
  return scan_elements(std::move(elements), small, with_values, cursor, options);
}

}  // namespace

// HSCAN key cursor [MATCH pattern] [COUNT count]: field, value, field, value, ...
Reply hscan_command(CommandContext& ctx) {
  return scan_container<Hash>(ctx, true, [](const Hash& hash, bool& small) {
    std::vector<Scanned> elements;
    for (const auto& [field, value] : hash.fields()) elements.push_back({field, value});
    small = hash.is_listpack();
    return elements;
  });
}

// SSCAN key cursor [MATCH pattern] [COUNT count]: an intset in its numeric order, whole.
Reply sscan_command(CommandContext& ctx) {
  return scan_container<Set>(ctx, false, [](const Set& set, bool& small) {
    std::vector<Scanned> elements;
    for (const std::string& member : set.members()) elements.push_back({member, {}});  // a hashtable's in byte order
    small = set.encoding() == Set::Encoding::IntSet;
    return elements;
  });
}

// ZSCAN key cursor [MATCH pattern] [COUNT count]: member, score, ... A listpack's scores are the
// text it stores (d2string); a skiplist's are written by createStringObjectFromLongDouble (%.17Lg).
Reply zscan_command(CommandContext& ctx) {
  return scan_container<ZSet>(ctx, true, [](const ZSet& zset, bool& small) {
    std::vector<Scanned> elements;
    small = zset.is_listpack();
    for (const auto& [score, member] : zset.ordered())
      elements.push_back({member, small ? format_d2string(score) : format_long_double_auto(score)});
    return elements;
  });
}

}  // namespace locksim::engine
