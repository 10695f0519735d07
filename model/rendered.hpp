#pragma once
// Reading what Exec events record as text: a lock key rendered as "field=value,..." and integer
// replies ("24016"), as both backends render them (world/server_records.hpp).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace locksim::model {

// A decimal integer and nothing else.
std::optional<int64_t> parse_integer(std::string_view text);

// An error reply as Exec events render it ("-NOSCRIPT ...", "-ERR ..."), not a negative integer.
bool is_error_reply(std::string_view reply);

// "" (no key) gives an empty map; "f=1,g=2" gives {f:1, g:2}; a ReadWriteLock's "mode=read" is
// skipped; anything else (a string key, a non-integer value) gives nullopt.
std::optional<std::map<std::string, int64_t>> parse_hash(std::string_view rendered);

}  // namespace locksim::model
