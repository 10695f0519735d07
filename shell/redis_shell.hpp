#pragma once
// `locksim redis`: redis-cli over the fake Redis, in this process, on a simulated clock. Without a
// command it reads command lines (redis-cli's interactive mode: a prompt on a terminal, none from a
// pipe); given one, it runs that command (redis-cli's one-shot mode, or --eval FILE). Every reply
// prints as redis-cli prints it, in the format the options name.
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "shell/line_source.hpp"
#include "shell/redis_cli_format.hpp"

namespace locksim::shell {

struct RedisShellOptions {
  int64_t start_ms = 1700000000000;  // the simulated clock's first instant; DEBUG SLEEP and -i move it
  int db = 0;                        // -n: SELECT this database first
  int64_t repeat = 1;                // -r: run the command this many times; negative: until killed
  int64_t interval_ms = 0;           // -i: the clock moves on this far after each command (nothing sleeps)
  CliOutput output = CliOutput::Standard;
  bool last_arg_from_stdin = false;  // -x: the command's last argument is all of standard input
  bool exit_on_error = false;        // -e: an error reply goes to the error stream and the exit code is 1
  std::string eval_file;             // --eval: the script; `command` holds its keys , args
  std::vector<std::string> command;  // one-shot: the command and its arguments
};

// Reads command lines until the end of the input or QUIT/EXIT. Returns the exit code: 0, or 2 when
// -n names a database the fake does not have.
int run_redis_shell(LineSource& lines, std::ostream& out, std::ostream& err, const RedisShellOptions& options);

// Runs options.command, or the --eval script with options.command's keys and arguments, `repeat`
// times; `in` is read for -x. Returns 0; 1 when -e met an error reply; 2 for a script file that
// cannot be read or a database the fake does not have.
int run_redis_command(std::istream& in, std::ostream& out, std::ostream& err, const RedisShellOptions& options);

// The Redis version the fake answers as (a script's redis.REDIS_VERSION).
std::string fake_redis_version();

}  // namespace locksim::shell
