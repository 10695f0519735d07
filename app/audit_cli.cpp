// `locksim audit`: its options, and the call to run_audit or print_matrix.
#include <unistd.h>

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "app/audit_command.hpp"
#include "app/command.hpp"
#include "app/terminal_style.hpp"
#include "client/redisson_version.hpp"
#include "explore/generator.hpp"
#include "scenario/redisson_library.hpp"

namespace locksim::app {
namespace {

class AuditCommand final : public Command {
 public:
  explicit AuditCommand(CLI::App& app)
      : Command(app, "audit",
                "What a Redisson version risks, and what to do: the version to upgrade to and the bugs it fixes, the fixes'\n"
                "options that take a bug away short of it, and for what no version avoids, its mitigation and the scenario\n"
                "that shows it working. Then every bug and hazard of Redisson's locks that locksim models, each shown by\n"
                "running its story from locksim's own library (installed beside it) as that version: affected or fixed, the\n"
                "versions it affects, and a replay command. Writes index.html, summary.md, results.json, junit.xml and a\n"
                "folder per story (its history, timeline and the story as it ran) to --out.\n"
                "Exit code: 0 no modelled bug that a later version fixes affects it, 1 one does, 2 bad usage\n"
                "(with --self-check: 0 every verdict as locksim's version table says, 1 one differs).") {
    sub_->add_option("--redisson", options_.redisson,
                     "X.Y.Z: the version to audit (modelled: " + client::modelled_range() + ")");
    std::string audited;
    for (const std::string& type : scenario::audited_lock_types()) audited += (audited.empty() ? "" : ", ") + type;
    sub_->add_option("--lock", locks_,
                     "The lock types in use, comma-separated (" + audited + ": the library has stories for these\n"
                     "only); default all");
    sub_->add_option("--set", set_,
                     "KEY=VALUE[,...]: the lock options in use (the scenario format's lock: keys), on every story that\n"
                     "takes them; a story timed by one (watchdog_ms) scales its times with it, and one that can no longer\n"
                     "show its bug under them runs without them, saying why")
        ->allow_extra_args(false);
    sub_->add_option("--out", options_.out, "Where to write the reports")->capture_default_str();
    sub_->add_flag("--matrix", matrix_,
                   "Print the version matrix instead (every row on every version where a behaviour changes), as markdown");
    sub_->add_option("--format", options_.format,
                     "text: aligned to the terminal's width (100 columns into a pipe, or $COLUMNS); md: Markdown, as summary.md")
        ->check(CLI::IsMember({"text", "md"}))
        ->capture_default_str();
    sub_->add_flag("--self-check", options_.self_check,
                   "Also check every story's verdict against locksim's version table (locksim checking itself; not with --set)");
  }

  int run() override {
    if (matrix_) return print_matrix("", std::cout, std::cerr);
    if (options_.redisson.empty()) {
      std::cerr << "locksim audit: --redisson X.Y.Z is required (modelled: " << client::modelled_range() << ")\n";
      return 2;
    }
    std::stringstream locks(locks_);
    for (std::string type; std::getline(locks, type, ',');)
      if (!type.empty()) options_.locks.push_back(type);
    try {
      for (const std::string& item : set_) {
        const explore::Variation v = explore::parse_variation(item, "--set");
        if (!v.script_files.empty()) throw std::invalid_argument("--set " + item + ": scripts are not options here");
        options_.lock_options.insert(options_.lock_options.end(), v.lock_options.begin(), v.lock_options.end());
      }
    } catch (const std::invalid_argument& e) {
      std::cerr << "locksim audit: " << e.what() << "\n";
      return 2;
    }
    options_.progress = ::isatty(2) != 0;
    options_.style = terminal_style();
    return run_audit(options_, std::cout, std::cerr);
  }

 private:
  AuditOptions options_;
  std::string locks_;
  std::vector<std::string> set_;
  bool matrix_ = false;
};

}  // namespace

std::unique_ptr<Command> add_audit_command(CLI::App& app) { return std::make_unique<AuditCommand>(app); }

}  // namespace locksim::app
