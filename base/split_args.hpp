#pragma once
// Redis's sdssplitargs: a command line split into arguments, as redis-cli splits what you type and
// the server splits an inline request. "..." takes \xHH, \n, \r, \t, \b, \a and \<char>
// escapes; '...' only \'; a closing quote must be followed by a space or the end; like the C string
// sdssplitargs reads, the line ends at a NUL byte.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace locksim {

// nullopt on unbalanced quotes.
std::optional<std::vector<std::string>> split_args(std::string_view line);

}  // namespace locksim
