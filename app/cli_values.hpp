#pragma once
// Values the command line spells in locksim's own forms, parsed whole: a value with anything left
// over ("1/3x", "10ms") or an empty item ("1,,10") is refused, never read as what it starts with.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace locksim::app {

// "I/N": this run's share of seeds or of a search tree. Only the form is checked here; whether
// 0 <= I < N is the command's to say.
struct ShardArg {
  int index = 0;
  int count = 1;
};
std::optional<ShardArg> parse_shard(std::string_view text);

// A whole integer ("-40000"), or nothing.
std::optional<int64_t> parse_integer(std::string_view text);

// Comma-separated numbers of ms, as each use of `flag` gave them ("1,10"): returns "" and appends
// them to `out`, or says what is wrong with the first bad item.
std::string parse_ms_list(std::string_view flag, const std::vector<std::string>& given, std::vector<int64_t>& out);

}  // namespace locksim::app
