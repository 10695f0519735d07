// locksim: a simulation and verification testbed for Redis-based distributed locks.
#include <CLI/CLI.hpp>
#include <iostream>

#include "app/demo.hpp"
#include "app/redis_shell.hpp"
#include "app/script_files.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "locksim: runs real Redis lock scripts (Redisson's RLock, FairLock, SET NX PX tokens, ...) in a\n"
      "deterministic in-process fake Redis 7.0 on a simulated clock."};
  app.require_subcommand(1);

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
    if (*redis) return locksim::app::run_redis_shell(std::cin, std::cout, shell_options);
    if (*demo) return locksim::app::run_demo(std::cout, scripts_dir);
  } catch (const std::exception& e) {
    std::cerr << "locksim: " << e.what() << "\n";
    return 2;
  }
  return 2;
}
