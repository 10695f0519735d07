// Unit: `locksim redis`'s two modes over the fake (shell/redis_shell.cpp): command lines with the
// session's prompt, and one command from the arguments with redis-cli's -n -r -i -x -e and --eval.
// Expected outputs are redis-cli 7.0.15's for the same input against redis-server.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "shell/redis_shell.hpp"

namespace locksim::shell {
namespace {

// Lines as a terminal would give them, keeping the prompt each was asked for.
class ScriptedLines : public LineSource {
 public:
  explicit ScriptedLines(std::vector<std::string> lines) : lines_(std::move(lines)) {}
  std::optional<std::string> read_line(const std::string& prompt) override {
    prompts.push_back(prompt);
    if (next_ == lines_.size()) return std::nullopt;
    return lines_[next_++];
  }
  std::vector<std::string> prompts;

 private:
  std::vector<std::string> lines_;
  size_t next_ = 0;
};

struct Outcome {
  int code;
  std::string out, err;
};

Outcome lines(const std::string& input, const RedisShellOptions& options = {}) {
  std::istringstream in(input);
  StreamLines source(in);
  std::ostringstream out, err;
  const int code = run_redis_shell(source, out, err, options);
  return {code, out.str(), err.str()};
}

Outcome command(const RedisShellOptions& options, const std::string& stdin_text = "") {
  std::istringstream in(stdin_text);
  std::ostringstream out, err;
  const int code = run_redis_command(in, out, err, options);
  return {code, out.str(), err.str()};
}

RedisShellOptions one_shot(std::vector<std::string> words, CliOutput output = CliOutput::Raw) {
  RedisShellOptions options;
  options.command = std::move(words);
  options.output = output;
  return options;
}

TEST(RedisShellLines, EachLineIsACommandAndEachReplyPrintsAsNoRaw) {
  const Outcome run = lines("SET a 1\nGET a\nGET missing\n\nQUIT\nGET a\n");
  EXPECT_EQ(run.code, 0);
  EXPECT_EQ(run.out, "OK\n\"1\"\n(nil)\n");
}

TEST(RedisShellLines, TheLineSourceIsAskedWithTheSessionsPrompt) {
  ScriptedLines source({"SELECT 2", "MULTI", "SET k v", "EXEC", "exit", "PING"});
  std::ostringstream out, err;
  EXPECT_EQ(run_redis_shell(source, out, err, {}), 0);
  EXPECT_EQ(source.prompts, (std::vector<std::string>{"locksim> ", "locksim[2]> ", "locksim[2](TX)> ",
                                                      "locksim[2](TX)> ", "locksim[2]> "}));
  EXPECT_EQ(out.str(), "OK\nOK\nQUEUED\n1) OK\n");
}

TEST(RedisShellLines, DashNSelectsTheDatabaseFirst) {
  RedisShellOptions options;
  options.db = 3;
  ScriptedLines source({"SET a 1", "SELECT 0", "GET a"});
  std::ostringstream out, err;
  EXPECT_EQ(run_redis_shell(source, out, err, options), 0);
  EXPECT_EQ(source.prompts.front(), "locksim[3]> ");
  EXPECT_EQ(out.str(), "OK\nOK\n(nil)\n");
}

TEST(RedisShellLines, ADatabaseTheFakeHasNotIsAnErrorNotDatabaseZero) {
  RedisShellOptions options;
  options.db = 99;
  const Outcome run = lines("SET a 1\n", options);
  EXPECT_EQ(run.code, 2);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err, "SELECT 99 failed: ERR DB index is out of range\n");
}

TEST(RedisShellLines, ALeadingCountRepeatsAndANonPositiveOneIsRefused) {
  const Outcome run = lines("3 INCR c\n0 PING\n-1 PING\n1 ECHO x\n\"\" ECHO\n5\n");
  EXPECT_EQ(run.out,
            "(integer) 1\n(integer) 2\n(integer) 3\n"
            "Invalid redis-cli repeat command option value.\n"
            "Invalid redis-cli repeat command option value.\n"
            "\"x\"\n"
            "Invalid redis-cli repeat command option value.\n"
            "(error) ERR unknown command '5', with args beginning with: \n");
}

TEST(RedisShellLines, AnIntervalMovesTheClockAfterEachCommand) {
  RedisShellOptions options;
  options.interval_ms = 1500;
  const Outcome run = lines("SET k v PX 10000\nPTTL k\n2 PTTL k\n", options);
  EXPECT_EQ(run.out, "OK\n(integer) 8500\n(integer) 7000\n(integer) 5500\n");
}

TEST(RedisShellCommand, RunsTheOneCommandAndPrintsInTheFormatAsked) {
  EXPECT_EQ(command(one_shot({"GET", "a"})).out, "\n");
  EXPECT_EQ(command(one_shot({"GET", "a"}, CliOutput::Standard)).out, "(nil)\n");
  EXPECT_EQ(command(one_shot({"SET", "a", "1", "PX", "100"})).out, "OK\n");
  EXPECT_EQ(command(one_shot({"ECHO", "-1"})).out, "-1\n");
}

TEST(RedisShellCommand, DashRRepeatsAndDashIMovesTheClockBetween) {
  RedisShellOptions options = one_shot({"TIME"});
  options.repeat = 2;
  options.interval_ms = 1500;
  options.start_ms = 1700000000000;
  EXPECT_EQ(command(options).out, "1700000000\n0\n1700000001\n500000\n");
  options.repeat = 0;
  EXPECT_EQ(command(options).out, "");
}

TEST(RedisShellCommand, DashNRunsItInThatDatabase) {
  RedisShellOptions options = one_shot({"SELECT", "4"}, CliOutput::Standard);
  options.db = 2;
  EXPECT_EQ(command(options).out, "OK\n");
  options.db = 16;
  const Outcome run = command(options);
  EXPECT_EQ(run.code, 2);
  EXPECT_EQ(run.err, "SELECT 16 failed: ERR DB index is out of range\n");
}

TEST(RedisShellCommand, DashXAppendsAllOfStandardInputNewlineIncluded) {
  RedisShellOptions options = one_shot({"ECHO"}, CliOutput::Standard);
  options.last_arg_from_stdin = true;
  EXPECT_EQ(command(options, "hello\nworld\n").out, "\"hello\\nworld\\n\"\n");
}

TEST(RedisShellCommand, AnErrorReplyPrintsOnStdoutUnlessDashE) {
  RedisShellOptions options = one_shot({"NOSUCH"});
  options.repeat = 2;
  Outcome run = command(options);
  EXPECT_EQ(run.code, 0);
  EXPECT_EQ(run.out, "ERR unknown command 'NOSUCH', with args beginning with: \n\n"
                     "ERR unknown command 'NOSUCH', with args beginning with: \n\n");
  options.exit_on_error = true;
  options.output = CliOutput::Standard;
  run = command(options);
  EXPECT_EQ(run.code, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err, "ERR unknown command 'NOSUCH', with args beginning with: \n");  // once: -e stops there
}

TEST(RedisShellCommand, EvalReadsTheScriptFileAndSplitsKeysFromArguments) {
  const std::string path = ::testing::TempDir() + "locksim_cli_eval.lua";
  std::ofstream(path) << "return {KEYS[1], ARGV[1], #KEYS, #ARGV}";
  RedisShellOptions options = one_shot({"k1", "k2", ",", "a1", ",", "a3"}, CliOutput::Standard);
  options.eval_file = path;
  EXPECT_EQ(command(options).out, "1) \"k1\"\n2) \"a1\"\n3) (integer) 2\n4) (integer) 3\n");
  std::remove(path.c_str());
  const Outcome missing = command(options);
  EXPECT_EQ(missing.code, 2);
  EXPECT_EQ(missing.err, "locksim redis: can't open file '" + path + "': No such file or directory\n");
}

TEST(FakeRedisVersion, IsTheVersionScriptsSee) { EXPECT_EQ(fake_redis_version(), "7.0.15"); }

}  // namespace
}  // namespace locksim::shell
