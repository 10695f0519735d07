#pragma once
// `locksim serve`: the fake Redis over RESP for real clients (server/server.hpp), until it is shut
// down; then its history is written for `locksim check`.
#include <iosfwd>

#include "server/serve_options.hpp"

namespace locksim::app {

// Returns the exit code: 0 after a clean shutdown, 2 when it cannot start (bad schedule, port taken).
int run_serve(const server::ServeOptions& options, std::ostream& err);

}  // namespace locksim::app
