#pragma once
// Keys and replies as Exec events record them as text, written here by both kinds of server and
// read here by the checkers: a lock key rendered as "field=value,..." and integer replies ("24016").
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace locksim::model {

// A key's value as Exec events show it: a string as is, a hash as sorted "field=value" joined by
// commas, a list as "[a,b]", a sorted set as "{member=score,...}" in its order (scores truncated).
std::string render_hash(std::vector<std::string> field_equals_value);
std::string render_list(const std::vector<std::string>& items);
std::string render_zset(const std::vector<std::pair<std::string, int64_t>>& members);

// A decimal integer and nothing else.
std::optional<int64_t> parse_integer(std::string_view text);

// An error reply as Exec events render it ("-NOSCRIPT ...", "-ERR ..."), not a negative integer.
bool is_error_reply(std::string_view reply);
// Whether an acquire script's rendered reply grants the lock: nil (Redisson's locks), or FencedLock's
// [-1, token] (a first element of -1 is a grant, as its client reads it).
bool is_grant_reply(std::string_view reply);

// "" (no key) gives an empty map; "f=1,g=2" gives {f:1, g:2}; a ReadWriteLock's "mode=read" is
// skipped; anything else (a string key, a non-integer value) gives nullopt.
std::optional<std::map<std::string, int64_t>> parse_hash(std::string_view rendered);

}  // namespace locksim::model
