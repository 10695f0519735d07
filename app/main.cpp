// locksim: a simulation and verification testbed for Redis-based distributed locks.
#include <CLI/CLI.hpp>
#include <iostream>
#include <unistd.h>

#include "app/demo.hpp"
#include "app/redis_shell.hpp"
#include "app/run_command.hpp"
#include "app/script_files.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "locksim: runs real Redis lock scripts (Redisson's RLock, FairLock, SET NX PX tokens, ...) in a\n"
      "deterministic in-process fake Redis 7.0 on a simulated clock."};
  app.require_subcommand(1);

  locksim::app::RunOptions run_options;
  CLI::App* run = app.add_subcommand(
      "run",
      "Runs scenario files (a situation each: a lock, clients, operations and faults at exact virtual times)\n"
      "in the simulated world, judges each run with the checkers the file names, prints a verdict table\n"
      "and writes summary.md, results.json, junit.xml and per scenario its history and an HTML timeline.\n"
      "Exit code: 0 every expectation met, 1 one was not, 2 a bad file or bad usage.\n"
      "The format: docs/scenario-format.md.");
  run->add_option("paths", run_options.paths, "Scenario files or folders (default: scenarios/)");
  run->add_option("--out", run_options.out, "Where to write the reports")->capture_default_str();

  locksim::app::RedisShellOptions shell_options;
  CLI::App* redis = app.add_subcommand(
      "redis",
      "A redis-cli-like shell over the fake Redis: one command per line on standard input (redis-cli's\n"
      "quoting), each reply printed as `redis-cli --no-raw` prints it. The clock moves only with DEBUG SLEEP.");
  redis->add_option("--start-ms", shell_options.start_ms, "The simulated clock's first instant, in ms since the epoch")
      ->capture_default_str();

  std::string scripts_dir = locksim::app::default_scripts_dir();
  CLI::App* demo = app.add_subcommand(
      "demo", "Walks through the seed articles' lock scripts on the fake Redis, step by step, on a simulated clock.");
  demo->add_option("--scripts", scripts_dir, "Directory of the lock scripts (*.lua)")->capture_default_str();

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }

  try {
    run_options.progress = ::isatty(2) != 0;
    if (*run) return locksim::app::run_scenarios(run_options, std::cout, std::cerr);
    if (*redis) return locksim::app::run_redis_shell(std::cin, std::cout, shell_options);
    if (*demo) return locksim::app::run_demo(std::cout, scripts_dir);
  } catch (const std::exception& e) {
    std::cerr << "locksim: " << e.what() << "\n";
    return 2;
  }
  return 2;
}
