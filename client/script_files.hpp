#pragma once
// Reading the lock scripts of scripts/ (or a user's own) from disk.
#include <stdexcept>
#include <string>

namespace locksim::client {

// The folder of locksim's own lock scripts: $LOCKSIM_SCRIPTS when set, else share/locksim/scripts
// beside the executable (base/share_dir.hpp). Throws std::runtime_error when LOCKSIM_SCRIPTS names
// a folder without the scripts, or when none is found: the message says where it looked and how to
// set LOCKSIM_SCRIPTS.
std::string default_scripts_dir();

// The text of `dir/name.lua`; throws std::runtime_error naming the path when it cannot be read.
std::string read_script(const std::string& dir, const std::string& name);

}  // namespace locksim::client
