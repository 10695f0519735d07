#pragma once
// Reading the lock scripts of scripts/ (or a user's own) from disk.
#include <stdexcept>
#include <string>

namespace locksim::client {

// The directory locksim was built with (the checkout's scripts/), unless LOCKSIM_SCRIPTS is set.
std::string default_scripts_dir();

// The text of `dir/name.lua`; throws std::runtime_error naming the path when it cannot be read.
std::string read_script(const std::string& dir, const std::string& name);

}  // namespace locksim::client
