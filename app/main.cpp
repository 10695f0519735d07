// locksim: a simulation and verification testbed for Redis-based distributed locks. main() builds
// the command line from the commands' own files (app/*_cli.cpp), parses it, and runs the one chosen.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "app/command.hpp"
#include "app/help_format.hpp"
#include "app/terminal_style.hpp"
#include "base/heap_policy.hpp"
#include "client/redisson_version.hpp"
#include "shell/redis_shell.hpp"

namespace {

// Optimal string alignment distance: an edit is an insertion, a deletion, a substitution or the
// swap of two neighbours (the typing slips `locksim runn` and `locksim exlpore`).
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

// `locksim: unknown command 'runn'; did you mean 'run'?`: the closest command, when it is close (at
// most two edits, and fewer than half its letters); exit code 2, as for any bad usage.
int unknown_command(const CLI::App& app, const std::string& word) {
  std::string closest;
  size_t best = 3;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    const size_t distance = edit_distance(word, sub->get_name());
    if (distance < best && distance * 2 <= sub->get_name().size()) {
      best = distance;
      closest = sub->get_name();
    }
  }
  std::cerr << "locksim: unknown command '" << word << "'";
  if (!closest.empty()) std::cerr << "; did you mean '" << closest << "'?";
  std::cerr << "\n`locksim help` lists the commands.\n";
  return 2;
}

std::string version_text() {
  return std::string("locksim ") + LOCKSIM_VERSION + "\nfake Redis " + locksim::shell::fake_redis_version() +
         ", Redisson " + locksim::client::default_version().str() + " by default";
}


// `locksim help [COMMAND]`: the help of locksim, or of that command.
int print_help(const CLI::App& app, const std::string& topic) {
  if (topic.empty()) {
    std::cout << app.get_formatter()->make_help(&app, "locksim", CLI::AppFormatMode::Normal);
    return 0;
  }
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_name() != topic) continue;
    std::cout << sub->get_formatter()->make_help(sub, "locksim " + topic, CLI::AppFormatMode::Normal);
    return 0;
  }
  return unknown_command(app, topic);
}

}  // namespace

int main(int argc, char** argv) {
  locksim::keep_freed_heap();  // a search runs world after world: keep the heap they free
  CLI::App app{
      "locksim: runs real Redis lock scripts (Redisson's RLock, FairLock, SET NX PX tokens, ...) in a\n"
      "deterministic in-process fake Redis 7.0 on a simulated clock.",
      "locksim"};
  app.formatter(std::make_shared<locksim::app::HelpFormatter>(locksim::app::terminal_style().width));
  app.require_subcommand(0, 1);  // none: the usage and the list of commands, not just an error
  app.set_version_flag("-V,--version", version_text, "Print locksim's version (and the fake Redis's) and exit");

  namespace cli = locksim::app;
  std::vector<std::unique_ptr<cli::Command>> commands;
  for (auto* add : {cli::add_run_command, cli::add_redis_command, cli::add_demo_command, cli::add_explore_command,
                    cli::add_audit_command, cli::add_serve_command, cli::add_check_command, cli::add_merge_command})
    commands.push_back(add(app));

  std::string help_topic;
  CLI::App* help = app.add_subcommand("help", "Prints the help of locksim, or of one command: locksim help run.");
  help->add_option("command", help_topic, "The command to explain");
  // Set last, so that the commands' own help does not inherit it.
  app.footer("`locksim help COMMAND` (or `locksim COMMAND --help`) explains a command.");
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version
    return app.exit(e);
  } catch (const CLI::ExtrasError& e) {
    const std::vector<std::string> extra = app.remaining();
    if (app.get_subcommands().empty() && !extra.empty() && !extra[0].starts_with("-")) return unknown_command(app, extra[0]);
    app.exit(e);
    return 2;
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  if (app.get_subcommands().empty()) {
    std::cerr << app.get_formatter()->make_help(&app, "locksim", CLI::AppFormatMode::Normal);
    return 2;
  }
  if (*help) return print_help(app, help_topic);
  try {
    for (const auto& command : commands)
      if (command->sub()) return command->run();
  } catch (const std::exception& e) {
    std::cerr << "locksim: " << e.what() << "\n";
    return 2;
  }
  return 2;
}
