#pragma once
// What SCAN, HSCAN, SSCAN and ZSCAN share, as Redis's scanGenericCommand (db.c) serves all four:
// the cursor's parsing, the options, and the fake's cursor model over names in byte order.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/command_context.hpp"

namespace locksim::engine {

// parseScanCursorOrReply: strtoul, so "" is 0, "+5" is 5 and "-1" wraps to 2^64-1; a leading space,
// trailing junk or a number past 2^64-1 is an invalid cursor.
std::optional<uint64_t> parse_scan_cursor(std::string_view arg);

struct ScanOptions {
  int64_t count = 10;
  std::optional<std::string_view> pattern;  // unset for none, and for "*", which matches everything
  std::optional<std::string_view> type;     // SCAN's TYPE, as a C string
};

// scanGenericCommand's step 1: COUNT, MATCH and (for SCAN alone, `keys`) TYPE from argv[first] on,
// or the error Redis answers.
bool parse_scan_options(const CommandContext& ctx, size_t first, bool keys, ScanOptions& options, Reply& error);

// The fake's cursor: the first 8 bytes of the next name to visit, big-endian, shorter names padded
// with zero bytes. It never decreases as names increase in byte order, so a scan that resumes from
// it misses no name that was there all along (Redis's guarantee), whatever was added or deleted in
// between.
uint64_t scan_cursor_of(std::string_view name);

// The smallest name whose cursor is at least `cursor`: its 8 bytes without the trailing zero bytes.
std::string first_name_at(uint64_t cursor);

// One call's visit: from `from` (the first name at the cursor or after it, in byte order), `count`
// names and then any more that share the last one's cursor, so that the next cursor is past all
// that was returned; the next cursor is 0 at the end. `name` reads an element's name.
template <class It, class Name>
uint64_t scan_visit(It from, It end, int64_t count, Name name, std::vector<It>& visited) {
  It it = from;
  for (; it != end; ++it) {
    if (static_cast<int64_t>(visited.size()) >= count && scan_cursor_of(name(*it)) != scan_cursor_of(name(*visited.back())))
      break;
    visited.push_back(it);
  }
  return it == end ? 0 : scan_cursor_of(name(*it));
}

// The reply: the cursor as Redis sends it (addReplyBulkLongLong: past 2^63 it reads negative, and
// strtoul takes the negative text back to the same cursor), then the elements.
Reply scan_reply(uint64_t next, Reply elements);

}  // namespace locksim::engine
