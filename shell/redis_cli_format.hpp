#pragma once
// redis-cli's conventions, so `locksim redis` reads and prints exactly as redis-cli does:
// its argument splitting (sdssplitargs) and its two plain reply formats, --no-raw
// (cliFormatReplyTTY) and --raw (cliFormatReplyRaw).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/reply.hpp"

namespace locksim::shell {

// Splits a line into words: spaces separate, "double quotes" take \n \r \t \b \a \xHH escapes,
// 'single quotes' take \'. Returns nullopt for an unbalanced quote or a quote glued to a word.
std::optional<std::vector<std::string>> split_cli_args(std::string_view line);

// Standard: `redis-cli --no-raw` (quoted strings, "(integer) ", numbered array elements).
// Raw: `redis-cli --raw`, the default when its standard output is not a terminal (bytes as they
// are, a nil as nothing, array elements one a line).
enum class CliOutput { Standard, Raw };

// One reply as redis-cli prints it in that format, newline included. A Sequence prints each reply.
std::string format_cli_reply(const Reply& reply, CliOutput output = CliOutput::Standard);

// sdscatrepr: a quoted, escaped rendering of bytes.
std::string quote_bytes(std::string_view bytes);

}  // namespace locksim::shell
