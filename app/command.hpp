#pragma once
// One command of locksim's command line (run, explore, serve, ...): it adds its subcommand and
// options to the app, checks what CLI11 cannot, and calls the floor that does the work. main()
// holds the list, parses, and runs the one chosen.
#include <CLI/CLI.hpp>

#include <memory>
#include <string>

namespace locksim::app {

class Command {
 public:
  virtual ~Command() = default;
  // The subcommand it added: after parsing, true when the user chose it.
  const CLI::App& sub() const { return *sub_; }
  // Runs it, its options parsed: its exit code (2 for a mistake of the user's, said on stderr).
  virtual int run() = 0;

 protected:
  // Adds subcommand `name` to `app`; the first phrase of `description` is its line in `locksim --help`.
  Command(CLI::App& app, const std::string& name, const std::string& description)
      : sub_(app.add_subcommand(name, description)) {}
  Command(const Command&) = delete;
  Command& operator=(const Command&) = delete;

  CLI::App* const sub_;  // its options are added to it
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
