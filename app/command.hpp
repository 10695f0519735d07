#pragma once
// One command of locksim's command line (run, explore, serve, ...): it adds its subcommand and
// options to the app, checks what CLI11 cannot, and calls the floor that does the work. main()
// holds the list, parses, and runs the one chosen.
#include <CLI/CLI.hpp>

#include <memory>

namespace locksim::app {

class Command {
 public:
  virtual ~Command() = default;
  // The subcommand it added: after parsing, true when the user chose it.
  virtual const CLI::App& sub() const = 0;
  // Runs it, its options parsed: its exit code (2 for a mistake of the user's, said on stderr).
  virtual int run() = 0;
};

// Each adds its subcommand to `app`; `locksim --help` lists them in the order they are added.
std::unique_ptr<Command> add_run_command(CLI::App& app);
std::unique_ptr<Command> add_redis_command(CLI::App& app);
std::unique_ptr<Command> add_demo_command(CLI::App& app);
std::unique_ptr<Command> add_explore_command(CLI::App& app);
std::unique_ptr<Command> add_audit_command(CLI::App& app);
std::unique_ptr<Command> add_serve_command(CLI::App& app);
std::unique_ptr<Command> add_check_command(CLI::App& app);
std::unique_ptr<Command> add_merge_command(CLI::App& app);

}  // namespace locksim::app
