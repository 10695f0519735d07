#pragma once
// A fault schedule for `locksim serve --faults FILE`: one fault per line, `<at_ms> <kind>
// [<param> <value>]... [client <name>]` (LOCKSIM.FAULT's arguments after a time in ms from the
// server's start), `#` comments and blank lines ignored.
#include <string>
#include <vector>

#include "server/server.hpp"

namespace locksim::server {

// Throws std::runtime_error "FILE:LINE: what was expected" on the first bad line.
std::vector<ScheduledFault> load_fault_schedule(const std::string& path);

}  // namespace locksim::server
