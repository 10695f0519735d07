#pragma once
// LOCKSIM.FAULT's arguments: `<kind> [<param> <value>]... [client <name>]`, with the fault kinds and
// parameter names of scenario files (world/fault.hpp). Parsed apart from acting it out, so that a
// schedule file is checked when it loads.
#include <string>
#include <vector>

#include "world/fault.hpp"

namespace locksim::server {

struct ServedFault {
  world::Fault fault;
  std::string client = "*";  // a client's fault: the client name it hits ("*": every client)
};

// "" when `argv` (LOCKSIM.FAULT and its arguments) is a fault serve can act out; else the error.
std::string parse_fault(const std::vector<std::string>& argv, ServedFault& out);

}  // namespace locksim::server
