// `locksim check`: a history's options, the search's (--exhaustive) in a group of their own, and
// the call to run_check or run_exhaustive.
#include <unistd.h>

#include <iostream>
#include <string>
#include <tuple>
#include <vector>

#include "app/check_command.hpp"
#include "app/cli_checks.hpp"
#include "app/cli_values.hpp"
#include "app/command.hpp"
#include "app/exhaustive_command.hpp"

namespace locksim::app {
namespace {

class CheckCommand final : public Command {
 public:
  explicit CheckCommand(CLI::App& app)
      : Command(app, "check",
                "Judges a recorded history (one `locksim serve` wrote, or a run's history.jsonl) with the checkers, prints\n"
                "the verdicts and writes the usual reports and a timeline. By default it judges what the history has the\n"
                "inputs for: mutual_exclusion (clients noted their holds with LOCKSIM.NOTE) and resource (serve --resource).\n"
                "A run's history names its lock, and is judged as that lock; an older one, whose end names none, needs --lock.\n"
                "Exit code: 0 every verdict holds (or is as --expect says), 1 one does not, 2 bad input.\n"
                "With --exhaustive the file is a scenario, and every schedule of it within its bounds is run and judged.") {
    add_history_options();
    add_search_options();
  }

  int run() override {
    if (options_.stream && (exhaustive_ || sub_->count("--out") > 0)) {
      std::cerr << "locksim check: --stream judges a history and writes no reports: it takes neither "
                << (exhaustive_ ? "--exhaustive" : "--out") << "\n";
      return 2;
    }
    if (exhaustive_) return run_search();
    // The search's options mean nothing to a history: given without --exhaustive, say so.
    for (const CLI::Option* option : search_->get_options())
      if (option->count() > 0) {
        std::cerr << "locksim check: " << option->get_name() << " is an option of --exhaustive (a search of a scenario's "
                     "schedules); without it the file is a history to judge\n";
        return 2;
      }
    options_.progress = ::isatty(2) != 0;
    return run_check(options_, std::cout, std::cerr);
  }

 private:
  void add_history_options() {
    sub_->add_option("history", options_.history, "history.jsonl (with --exhaustive: a scenario file)")->required();
    sub_->add_option("--properties", options_.properties, "Properties to judge (comma-separated)")->delimiter(',');
    sub_->add_option("--expect", options_.expect, "PROPERTY=holds|violated: what this history should show")->delimiter(',');
    sub_->add_option("--out", options_.out, "Where to write the reports")->capture_default_str();
    sub_->add_option("--name", options_.name, "The report's name (default: the file's)");
    sub_->add_option("--lock", options_.lock_type,
                     "TYPE: the lock the history's clients ran (rlock, fair, rwlock, ...): the properties that apply\n"
                     "to it are judged (unless --properties names some), each as that lock works. Needed for a run's\n"
                     "history; a history of other clients is judged as a generic lock without it");
    sub_->add_flag("--stream", options_.stream,
                   "Judge the history as it streams, for one too long to hold: the file is read three times (what\n"
                   "it records, then twice to judge) and never held whole, and memory follows how long operations\n"
                   "and holds last, not how long the history is; the same verdicts, printed with their\n"
                   "explanations, and no reports or timeline (docs/checkers.md). How far it is shows on a line\n"
                   "that rewrites itself on a terminal, else on a line every 10 s");
  }

  // --exhaustive: the positional is a scenario, searched through every schedule within its bounds.
  void add_search_options() {
    sub_->add_flag("--exhaustive", exhaustive_,
                   "The file is a scenario: run every schedule within its bounds (the file's bounded:, and the\n"
                   "options below) and judge each, or write the shortest counterexample (docs/exhaustive.md);\n"
                   "--out defaults to reports/exhaustive.\n"
                   "Exit code: 0 as expected for every schedule, 1 a counterexample or not covered, 2 bad input");
    // The search's own options, in one group: --help shows them together, and a plain check refuses
    // them (a history has no schedules to bound) whatever their help says.
    search_ = sub_->add_option_group("Options of --exhaustive");
    // Lists of ms are split by parse_ms_list, not CLI11, which would drop an empty item ("1,,10").
    search_->add_option("--latencies", latencies_, "MS,...: the latencies a message may take (the first is the default)");
    search_->add_option("--clock-offsets", clock_offsets_,
                        "MS,...: each client's clock set off from the file's by one of these (the first is\n"
                        "the default; negative: behind)");
    search_->add_option("--slow-max", slow_, "messages with a latency other than the first, at most (-1: no bound)")
        ->check(integer_in(-1, 1'000'000));
    search_->add_option("--lost-max", lost_, "messages lost, at most")->check(integer_in(0, 1'000'000));
    search_->add_option("--faults", search_options_.faults,
                        "KIND[=MS][@CLIENT][:COUNT],...: faults placed before any event of their client\n"
                        "(crash:1,pause=15000:1); 'none' for none")
        ->delimiter(',');
    search_->add_option("--depth", depth_, "choice points per schedule, at most");
    search_->add_flag("--first", search_options_.first,
                      "one depth-first pass, each schedule run once: faster over a whole tree, but its first\n"
                      "counterexample may come much later than the shortest one, and is not necessarily the shortest");
    search_->add_flag("--no-reduce", search_options_.no_reduce, "reorder every pair of same-time events (no partial-order reduction)");
    search_->add_option("--max-schedules", search_options_.max_schedules, "stop after this many schedules (0: no limit)")
        ->check(integer_in(0, UINT64_MAX));
    search_->add_option("--max-seconds", search_options_.max_seconds, "stop after this many seconds (0: no limit)")
        ->check(CLI::Validator(
            [](const std::string& v) {
              try {
                return std::stod(v) >= 0 ? std::string() : "at least 0 (0: no limit), not " + v;
              } catch (const std::exception&) {
                return "a number of seconds, not " + v;
              }
            },
            "SECONDS"));
    search_->add_option("--shard", shard_, "I/N: this run's share of the tree");
    search_->add_option("--random", search_options_.random, "also run up to N random schedules of the same world, to compare")
        ->check(integer_in(0, 1'000'000'000));
    search_->add_option("--estimate", search_options_.estimate,
                        "N: instead of searching, run N random schedules of the same world and estimate the "
                        "search's size: how many schedules its bounds hold (Knuth's estimator) and how many "
                        "distinct states the samples passed through (docs/exhaustive.md); nothing is judged")
        ->check(integer_in(1, 1'000'000'000));
    search_->add_flag("--progress", search_options_.progress, "a progress line every second (default: every 10 s)");
  }

  int run_search() {
    // A history's options mean nothing to a search, whose scenario file names itself and its lock.
    for (const char* flag : {"--name", "--lock"})
      if (sub_->count(flag) > 0) {
        std::cerr << "locksim check --exhaustive: " << flag << " is an option of a history's check; a search takes "
                  << (std::string(flag) == "--name" ? "its name" : "its lock") << " from the scenario file\n";
        return 2;
      }
    if (search_options_.estimate > 0)
      for (const char* flag : {"--random", "--shard", "--first", "--max-schedules", "--expect"})
        if ((std::string_view(flag) == "--expect" ? sub_ : search_)->count(flag) > 0) {
          std::cerr << "locksim check --exhaustive: " << flag << " means nothing with --estimate, which searches and judges nothing\n";
          return 2;
        }
    ExhaustiveCommandOptions& ex = search_options_;
    ex.scenario = options_.history;
    ex.properties = options_.properties;
    ex.expect = options_.expect;
    ex.out = sub_->count("--out") ? options_.out : "reports/exhaustive";
    for (const auto& [flag, items, out] : {std::tuple{"--latencies", &latencies_, &ex.latencies},
                                           std::tuple{"--clock-offsets", &clock_offsets_, &ex.clock_offsets}})
      if (const std::string problem = parse_ms_list(flag, *items, *out); !problem.empty()) {
        std::cerr << "locksim check --exhaustive: " << problem << "\n";
        return 2;
      }
    if (slow_ != -2) ex.slow_max = slow_;
    if (lost_ != -2) ex.lost_max = lost_;
    if (depth_ != -2) ex.depth = depth_;
    if (search_->count("--shard") > 0) ex.shard = shard_;
    if (ex.faults.size() == 1 && ex.faults[0] == "none") {
      ex.faults.clear();
      ex.no_faults = true;
    }
    return run_exhaustive(ex, std::cout, std::cerr);
  }

  CheckOptions options_;
  bool exhaustive_ = false;
  CLI::Option_group* search_ = nullptr;
  ExhaustiveCommandOptions search_options_;
  std::vector<std::string> latencies_, clock_offsets_;
  int slow_ = -2, lost_ = -2, depth_ = -2;  // -2: not given, the file's bound stands
  std::string shard_;
};

}  // namespace

std::unique_ptr<Command> add_check_command(CLI::App& app) { return std::make_unique<CheckCommand>(app); }

}  // namespace locksim::app
