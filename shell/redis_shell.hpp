#pragma once
// `locksim redis`: a redis-cli-like shell over the fake Redis. Reads commands from `in`, one per
// line, and prints each reply to `out` as `redis-cli --no-raw` prints it when fed from a pipe.
#include <cstdint>
#include <iosfwd>

namespace locksim::shell {

struct RedisShellOptions {
  int64_t start_ms = 1700000000000;  // the simulated clock's first instant; DEBUG SLEEP moves it
};

// Returns the process exit code (0: input consumed).
int run_redis_shell(std::istream& in, std::ostream& out, const RedisShellOptions& options);

}  // namespace locksim::shell
