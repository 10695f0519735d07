#pragma once
// Glob-style matching exactly as Redis 7.0's stringmatchlen (util.c), for KEYS and SCAN MATCH:
// `*`, `?`, `[abc]`, `[^abc]`, `[a-z]` (reversed ranges allowed), and `\` escaping the next byte.
// Redis's quirks are kept: an unclosed `[` runs to the end of the pattern, and range ends are
// compared as signed chars (x86-64), so bytes from 0x80 up sort below 0x00 in a range.
#include <string_view>

namespace locksim::engine {

// `nocase`: letters match either case (FUNCTION LIST's LIBRARYNAME), as stringmatchlen's nocase.
bool glob_match(std::string_view pattern, std::string_view string, bool nocase = false);

}  // namespace locksim::engine
