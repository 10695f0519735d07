#include "shell/redis_shell.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <istream>
#include <iterator>
#include <optional>
#include <ostream>
#include <string>

#include "engine/command_context.hpp"
#include "engine/engine.hpp"
#include "shell/cli_eval_command.hpp"
#include "shell/cli_session.hpp"

namespace locksim::shell {
namespace {

// One redis-cli session on a fresh fake: what both modes share (cliSendCommand and cliReadReply).
class Cli {
 public:
  Cli(const RedisShellOptions& options, std::ostream& out, std::ostream& err)
      : options_(options), out_(out), err_(err), host_(options.start_ms), fake_(host_), session_(fake_.open_session()) {}

  // -n: SELECT the database first, as redis-cli does on connecting (it goes on in database 0 when
  // that fails; here the fault is the user's and it stops).
  bool select_db() {
    if (options_.db == 0) return true;
    const std::vector<std::string> select = {"SELECT", std::to_string(options_.db)};
    const Reply reply = fake_.execute(session_, select);
    state_.note(select, reply);
    if (!reply.is_error()) return true;
    err_ << "SELECT " << options_.db << " failed: " << reply.str << "\n";
    return false;
  }

  // Runs `words` `times` times (negative: without end). False when -e stopped at an error reply.
  bool run(const std::vector<std::string>& words, int64_t times) {
    for (int64_t i = 0; times < 0 || i < times; ++i) {
      const Reply reply = fake_.execute(session_, words);
      state_.note(words, reply);
      if (options_.exit_on_error && reply.is_error()) {
        err_ << reply.str << "\n";  // redis-cli -e: the bare error text, whatever the format
        return false;
      }
      out_ << format_cli_reply(reply, options_.output);
      out_.flush();
      host_.advance_ms(options_.interval_ms);  // redis-cli -i sleeps after every command
    }
    return true;
  }

  std::string prompt() const { return state_.prompt(); }

 private:
  const RedisShellOptions& options_;
  std::ostream& out_;
  std::ostream& err_;
  engine::ManualHost host_;
  engine::Engine fake_;
  engine::SessionId session_;
  CliSession state_;
};

// redis-cli's interactive mode takes a leading count ("3 INCR k"): nullopt when the line has none
// (a line of one word is a command), 0 for a count it refuses (zero, negative, out of range).
std::optional<long> leading_count(const std::vector<std::string>& words) {
  if (words.size() < 2) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const long n = std::strtol(words[0].c_str(), &end, 10);
  if (*end != '\0') return std::nullopt;
  return errno == ERANGE || n <= 0 ? 0 : n;
}

}  // namespace

int run_redis_shell(LineSource& lines, std::ostream& out, std::ostream& err, const RedisShellOptions& options) {
  Cli cli(options, out, err);
  if (!cli.select_db()) return 2;
  while (const auto line = lines.read_line(cli.prompt())) {
    auto words = split_cli_args(*line);
    if (!words) {
      out << "Invalid argument(s)\n";
      out.flush();
      continue;
    }
    if (words->empty()) continue;
    if (engine::equals_ignore_case((*words)[0], "quit") || engine::equals_ignore_case((*words)[0], "exit")) break;
    long repeat = 1;
    if (const auto count = leading_count(*words)) {
      if (*count == 0) {
        out << "Invalid redis-cli repeat command option value.\n";
        out.flush();
        continue;
      }
      repeat = *count;
      words->erase(words->begin());
    }
    cli.run(*words, repeat);
  }
  return 0;
}

int run_redis_command(std::istream& in, std::ostream& out, std::ostream& err, const RedisShellOptions& options) {
  std::vector<std::string> words = options.command;
  if (!options.eval_file.empty()) {
    std::ifstream file(options.eval_file, std::ios::binary);
    if (!file) {
      err << "locksim redis: can't open file '" << options.eval_file << "': " << std::strerror(errno) << "\n";
      return 2;
    }
    words = cli_eval_command(std::string(std::istreambuf_iterator<char>(file), {}), words);
  }
  if (options.last_arg_from_stdin) words.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  Cli cli(options, out, err);
  if (!cli.select_db()) return 2;
  return cli.run(words, options.repeat) ? 0 : 1;
}

std::string fake_redis_version() {
  engine::ManualHost host;
  engine::Engine fake(host);
  return fake.execute(fake.open_session(), {"EVAL", "return redis.REDIS_VERSION", "0"}).str;
}

}  // namespace locksim::shell
