// `locksim demo`: the seed articles' lock scripts, step by step.
#include <iostream>
#include <string>

#include "app/command.hpp"
#include "client/script_files.hpp"
#include "shell/demo.hpp"

namespace locksim::app {
namespace {

class DemoCommand final : public Command {
 public:
  explicit DemoCommand(CLI::App& app)
      : Command(app, "demo",
                "Walks through the seed articles' lock scripts on the fake Redis, step by step, on a simulated clock.") {
    sub_->add_option("--scripts", scripts_dir_,
                     "Directory of the lock scripts (*.lua; default: $LOCKSIM_SCRIPTS, else share/locksim/scripts beside\n"
                     "the executable)");
  }

  int run() override {
    return shell::run_demo(std::cout, scripts_dir_.empty() ? client::default_scripts_dir() : scripts_dir_);
  }

 private:
  std::string scripts_dir_;  // empty: locksim's own, looked up when the demo runs (it may be missing)
};

}  // namespace

std::unique_ptr<Command> add_demo_command(CLI::App& app) { return std::make_unique<DemoCommand>(app); }

}  // namespace locksim::app
