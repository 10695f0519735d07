// `locksim redis`: redis-cli's options over the fake in this process, and the one-shot command or
// the shell it runs.
#include <unistd.h>

#include <cmath>
#include <iostream>
#include <string>
#include <utility>

#include "app/cli_checks.hpp"
#include "app/command.hpp"
#include "shell/line_editor.hpp"
#include "shell/redis_shell.hpp"

namespace locksim::app {
namespace {

class RedisCommand final : public Command {
 public:
  explicit RedisCommand(CLI::App& app)
      : Command(app, "redis",
                "redis-cli over the fake Redis, in this process: no server to connect to, and a simulated clock.\n"
                "  locksim redis                     reads commands, one a line in redis-cli's syntax (a leading count\n"
                "                                    repeats one: 3 INCR k); on a terminal with a prompt, line editing\n"
                "                                    and history, from a pipe or a file without a prompt\n"
                "  locksim redis SET k v PX 100      runs that one command: the words after the options are the command\n"
                "  locksim redis --eval f.lua k1 k2 , a1 a2\n"
                "                                    runs a Lua script file with keys k1 k2 and arguments a1 a2\n"
                "Replies print as redis-cli prints them. A command given as arguments prints as --no-raw when\n"
                "standard output is a terminal and as --raw otherwise, as redis-cli's does. Commands read from lines\n"
                "print as --no-raw unless --raw is given (redis-cli prints raw into a pipe; locksim keeps its output\n"
                "byte for byte `redis-cli --no-raw`'s). The clock starts at --start-ms and moves only with DEBUG SLEEP\n"
                "and -i. redis-cli's connection options (-h host, -p port, -s socket, -a password, -u URI) are refused:\n"
                "to use them, run `locksim serve` and point redis-cli at it (docs/serve.md). Help is --help only.\n"
                "Exit code: 0; 1 when -e met an error reply; 2 bad usage, an --eval file that cannot be read, or a\n"
                "database (-n) the fake does not have.") {
    sub_->set_help_flag("--help", "Print this help message and exit (-h is redis-cli's host, refused here)");
    sub_->positionals_at_end();  // `locksim redis SET k -1`: after the command name every word is the command's
    add_options();
  }

  int run() override {
    if (const int refused = refuse_misplaced(); refused != 0) return refused;
    options_.interval_ms = std::llround(interval_s_ * 1000);
    const bool raw = raw_ || (one_shot() && !no_raw_ && ::isatty(1) == 0);
    options_.output = raw ? shell::CliOutput::Raw : shell::CliOutput::Standard;
    if (one_shot()) return shell::run_redis_command(std::cin, std::cout, std::cerr, options_);
    if (::isatty(0) != 0) {
      shell::LineEditor editor;
      return shell::run_redis_shell(editor, std::cout, std::cerr, options_);
    }
    shell::StreamLines lines(std::cin);
    return shell::run_redis_shell(lines, std::cout, std::cerr, options_);
  }

 private:
  void add_options() {
    sub_->add_option("command", options_.command,
                     "A command and its arguments, run once (or -r times); none: commands are read from standard input");
    sub_->add_option("-n", options_.db, "Database number: SELECT it first (0..15)")->type_name("DB");
    repeat_ = sub_->add_option("-r", options_.repeat, "Run the command N times (negative: until killed)")->type_name("N");
    sub_->add_option("-i", interval_s_,
                     "After each command, move the simulated clock on by this many seconds (to the ms, e.g.\n"
                     "-i 0.1) instead of sleeping as redis-cli does")
        ->check(seconds_up_to(1e9))
        ->type_name("SECONDS");
    stdin_ = sub_->add_flag("-x", options_.last_arg_from_stdin,
                            "Read the command's last argument from standard input, all of it (echo v | locksim redis -x SET k)");
    errors_ = sub_->add_flag("-e", options_.exit_on_error,
                             "Exit code 1 when the command's reply is an error (printed alone on standard error)");
    sub_->add_flag("--raw", raw_, "Print replies raw (redis-cli's default when standard output is not a terminal)")
        ->excludes(sub_->add_flag("--no-raw", no_raw_, "Print replies formatted, even when standard output is not a terminal"));
    auto* eval = sub_->add_option("--eval", options_.eval_file,
                                  "Run the Lua script in FILE: the words after the options are its keys, then\n"
                                  "a lone comma, then its arguments (--eval f.lua k1 k2 , a1 a2)")
                     ->type_name("FILE");
    stdin_->excludes(eval);
    sub_->add_option("--start-ms", options_.start_ms, "The simulated clock's first instant, in ms since the epoch")
        ->check(integer_in(0, kLatestStartMs))
        ->capture_default_str();
    // A group's name is one line (CLI11 refuses a newline in it).
    connection_ = sub_->add_option_group(
        "redis-cli's connection options, refused: the fake runs in this process (docs/serve.md: redis-cli on locksim serve)");
    for (const auto& [name, what] : {std::pair{"-h", "host"}, {"-p", "port"}, {"-s", "socket"}, {"-a", "password"},
                                     {"-u", "URI"}, {"--user", "ACL user"}, {"--pass", "password"}})
      connection_->add_option(name, refused_, std::string("redis-cli's ") + what)->expected(0, 1)->type_name("");
  }

  bool one_shot() const { return !options_.command.empty() || !options_.eval_file.empty(); }

  // 2 with a message for a connection option, or a one-shot option with commands read from lines.
  int refuse_misplaced() const {
    for (const CLI::Option* option : connection_->get_options()) {
      if (option->count() == 0) continue;
      std::cerr << "locksim redis: " << option->get_name()
                << " is one of redis-cli's connection options, and there is nothing to connect to: the fake Redis\n"
                   "runs inside this process. To use redis-cli's -h/-p, serve the fake over TCP and point redis-cli\n"
                   "at it: `locksim serve --port 6390 &` then `redis-cli -h 127.0.0.1 -p 6390 ...` (docs/serve.md).\n"
                   "Help is --help.\n";
      return 2;
    }
    for (const auto& [option, example] : {std::pair{repeat_, "locksim redis -r 3 INCR k"},
                                          {stdin_, "echo v | locksim redis -x SET k"},
                                          {errors_, "locksim redis -e GET k"}}) {
      if (one_shot() || option->count() == 0) continue;
      std::cerr << "locksim redis: " << option->get_name() << " applies to a command given as arguments (" << example
                << "), not to commands read from standard input"
                << (option == repeat_ ? "; there a leading count repeats a line (3 INCR k)\n" : "\n");
      return 2;
    }
    return 0;
  }

  shell::RedisShellOptions options_;
  double interval_s_ = 0;
  bool raw_ = false;
  bool no_raw_ = false;
  std::string refused_;
  CLI::Option* repeat_ = nullptr;
  CLI::Option* stdin_ = nullptr;
  CLI::Option* errors_ = nullptr;
  CLI::Option_group* connection_ = nullptr;
};

}  // namespace

std::unique_ptr<Command> add_redis_command(CLI::App& app) { return std::make_unique<RedisCommand>(app); }

}  // namespace locksim::app
