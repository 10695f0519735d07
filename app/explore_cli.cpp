// `locksim explore`: its options, the configuration and seed range they give, and the call to
// run_explore.
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli_checks.hpp"
#include "app/cli_values.hpp"
#include "app/command.hpp"
#include "app/explore_command.hpp"
#include "client/redisson_version.hpp"
#include "client/script_files.hpp"
#include "model/checkers.hpp"
#include "model/lock_types.hpp"
#include "scenario/loader.hpp"
#include "world/fault.hpp"

namespace locksim::app {
namespace {

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) items.push_back(item);
  return items;
}

class ExploreCommand final : public Command {
 public:
  explicit ExploreCommand(CLI::App& app)
      : Command(app, "explore",
                "Property-based exploration: per seed, a random workload (1..N clients, lock/try_lock/unlock/work/write)\n"
                "and fault plan, run in the simulated world and judged by the properties named, each expected to hold.\n"
                "A violation is shrunk to a small scenario file (replay: locksim run FILE) and an HTML timeline; seeds that\n"
                "shrink to the same case are one finding. With --against, every case also runs under a second configuration\n"
                "and the findings are the verdicts that differ (a fix, an upgrade, your script against the stock one).\n"
                "Violations a hazard of the configuration explains (a lease shorter than the work, a pause longer than the\n"
                "lease, a restart without persistence, ...) are counted apart.\n"
                "Exit code: 0 no finding, 1 findings (or a case that could not run), 2 bad usage, 130 interrupted.\n"
                "More: docs/exploration.md.") {
    add_workload_options();
    add_configuration_options();
    add_run_options();
  }

  int run() override {
    if (const int bad = configure(); bad != 0) return bad;
    if (const int bad = read_seeds(); bad != 0) return bad;
    options_.shrink.enabled = !no_shrink_;
    options_.progress = ::isatty(2) != 0;
    return run_explore(options_, std::cout, std::cerr);
  }

 private:
  // What each case may be made of: its clients, operations and faults.
  void add_workload_options() {
    auto& config = options_.config;
    sub_->add_option("--lock", config.lock_type, "Lock type: " + model::lock_type_list())->capture_default_str();
    sub_->add_option("--clients", config.clients_max, "At most this many clients (1..26)")->capture_default_str();
    sub_->add_option("--threads", config.threads_max,
                     "Each client's sessions run on 1..N threads (1..100): with --clients 26, hundreds of waiters")
        ->capture_default_str();
    sub_->add_option("--ops", config.ops_max, "At most this many operations per client")->capture_default_str();
    std::string all_drawn;
    for (const std::string& kind : world::drawn_fault_names()) all_drawn += (all_drawn.empty() ? "" : ",") + kind;
    sub_->add_option("--faults", faults_,
                     "Fault kinds allowed, comma-separated: " + world::fault_list() + "; or all (" + all_drawn + "), or none")
        ->capture_default_str();
    sub_->add_option("--faults-max", config.faults_max, "At most this many faults per case")->capture_default_str();
    sub_->add_option("--world-loss", config.world_loss_max, "World-wide message loss per thousand, at most")
        ->capture_default_str();
    sub_->add_flag("--reorder", config.reorder,
                   "Messages on a link may overtake one another in every case (a delayed reply and a pub/sub message "
                   "racing, as on a real network with several connections); without it each direction is FIFO. With "
                   "delay among the faults, a third of the sessions also race another client's release (#5761)");
    sub_->add_option("--horizon-ms", config.horizon_ms, "Sessions and faults start within this many ms")
        ->capture_default_str();
    sub_->add_option("--work-ms-max", config.work_ms_max, "A session works 0..this many ms while holding")
        ->capture_default_str();
    sub_->add_option("--wait-ms-max", config.wait_ms_max,
                     "A tryLock waits 0..this many ms (0: every tryLock is tryLock(0), as zero_wait_tryacquire wants)")
        ->capture_default_str();
    sub_->add_flag("--no-try-lock", [&config](int64_t) { config.try_locks = false; },
                   "Every acquire is lock() (no tryLock with a wait, whose give-up can race a wake-up)");
    sub_->add_flag("--no-leases", [&config](int64_t) { config.leases = false; },
                   "Acquires never name a lease (rlock: the watchdog renews every hold)");
    sub_->add_flag("--partial-unlocks", config.partial_unlocks,
                   "A re-entered session may re-enter up to 3 times more, unlock all but once, work on holding, "
                   "then unlock last (partial unlocks that touch the lease, #5623)");
  }

  // The lock's configuration, the variation compared with it, and what is judged.
  void add_configuration_options() {
    sub_->add_option("--set", set_,
                     "KEY=VALUE[,KEY=VALUE...]: lock options in the scenario format's words (its lock: keys, e.g.\n"
                     "unlock_latch=true, watchdog_on_error=keep, watchdog_ms=10000, fair_variant=tail-3.32,\n"
                     "thread_wait_ms=300000, wait_replaces_thread_wait=true, zero_wait_tryacquire=true, rwlock_variant=3.44,\n"
                     "rwlock_read_renewal=3.8, acquire_script=rlock_acquire_hset, unlock_script=..., timeout_ms=...,\n"
                     "retry_attempts=..., retry_interval_ms=...), for every case (repeatable)")
        ->allow_extra_args(false);
    sub_->add_option("--against", against_,
                     "KEY=VALUE[,...]: run every case under this variation of the configuration too (the same lock options,\n"
                     "and script:NAME=FILE, or script:NAME=stock to undo a --script), and report the cases whose verdicts\n"
                     "differ: \"violated under the configuration, holds under --against\" (or the reverse)");
    sub_->add_flag("--show-hazards", options_.show_hazards,
                   "Report violations that a hazard of the configuration explains as findings, too");
    sub_->add_option("--redisson", redisson_,
                     "X.Y.Z: the Redisson version the lock runs as (default " + client::default_version().str() +
                         ", modelled " + client::modelled_range() +
                         "); the same as --set redisson=X.Y.Z, and --against redisson=X.Y.Z compares two versions");
    sub_->add_flag("--watchdog-keep", watchdog_keep_, "The same as --set watchdog_on_error=keep (Redisson 3.44.0 on)");
    sub_->add_flag("--unlock-latch", unlock_latch_, "The same as --set unlock_latch=true (Redisson 3.24.0 on)");
    sub_->add_option("--fair-variant", fair_variant_,
                     "The same as --set fair_variant=V: head (2.7.0-3.11.0), tail (3.11.1-3.30.x), tail-3.31,\n"
                     "tail-3.32 (3.32.0-3.44.x), tail-3.45 (3.45.0 on); --redisson sets it with everything else");
    sub_->add_option("--thread-wait-ms", thread_wait_ms_,
                     "The same as --set thread_wait_ms=N: fair's threadWaitTime (5000 up to 3.13.2; 300000 from 3.13.3,\n"
                     "the default version's); fair_queue judges evictions by it");
    sub_->add_option("--script", scripts_,
                     "NAME=FILE: run your Lua FILE wherever the lock would run scripts/NAME.lua (repeatable), to audit "
                     "your own script");
    sub_->add_option("--properties", properties_,
                     "Properties expected to hold, comma-separated, among those that apply to the lock: " +
                         model::property_list(model::scenario_property_names()) +
                         " (fencing: token, client-reentrant and fenced; reentrancy: hash locks and client-reentrant; watchdog: Redisson's locks; "
                         "fair_queue: fair and nonreentrant-fair; read_write: rwlock, which mutual_exclusion does not judge, and its default)")
        ->capture_default_str();
  }

  // Which seeds run, and what the run writes.
  void add_run_options() {
    seed_opt_ = sub_->add_option("--seed", seed_, "Run this one seed")->check(integer_in(0, UINT64_MAX));
    seeds_opt_ = sub_->add_option("--seeds", seeds_, "Run seeds A..B (inclusive)");
    auto* count_opt =
        sub_->add_option("--count", count_, "Run seeds 1..N")->check(integer_in(1, 100'000'000))->capture_default_str();
    seed_opt_->excludes(seeds_opt_)->excludes(count_opt);
    seeds_opt_->excludes(count_opt);
    sub_->add_option("--shard", shard_, "I/N: run only the seeds at positions I mod N of the range (0 <= I < N)");
    sub_->add_option("--out", options_.out, "Write one JSON line per case, then one per finding and per hazard, to this file");
    sub_->add_option("--junit", options_.junit, "Write a JUnit XML report (a test case per finding, one per hazard, skipped)");
    sub_->add_option("--cases", options_.cases_dir,
                     "Where each finding's counterexample (seed-S.yaml, seed-S.html; -against.* too) goes; none: nowhere")
        ->capture_default_str();
    sub_->add_option("--emit", options_.emit_dir,
                     "Also write every generated case, before it runs and unshrunk, as DIR/seed-S.yaml");
    sub_->add_flag("--no-shrink", no_shrink_, "Write counterexamples as generated, unshrunk");
    sub_->add_option("--shrink-runs", options_.shrink.runs_max,
                     "Plans run while shrinking one case, at most (a differential run runs two scenarios a plan)")
        ->check(integer_in(1, 1'000'000'000))
        ->capture_default_str();
    sub_->add_flag("--keep-anomaly", options_.shrink.keep_anomaly,
                   "Shrink again, keeping the anomaly, a finding whose first shrink told another (a fifo-inversion that\n"
                   "ended as a starved waiter): slower, and seeds of one bug may then show as several findings");
  }

  // The configuration from the options: 0, or 2 with what is wrong said on stderr.
  int configure() {
    auto& config = options_.config;
    config.faults = faults_ == "all" ? explore::all_fault_kinds() : faults_ == "none" ? std::vector<std::string>{} : split_commas(faults_);
    config.properties = split_commas(properties_);
    // A ReadWriteLock's mutual exclusion is read_write (readers share by design).
    if (sub_->count("--properties") == 0 && model::is_kind(config.lock_type, model::LockKind::RwLock)) config.properties = {"read_write"};
    try {
      if (!redisson_.empty()) config.lock_options.push_back({"redisson", redisson_});
      if (watchdog_keep_) config.lock_options.push_back({"watchdog_on_error", "keep"});
      if (unlock_latch_) config.lock_options.push_back({"unlock_latch", "true"});
      if (!fair_variant_.empty()) config.lock_options.push_back({"fair_variant", fair_variant_});
      if (!thread_wait_ms_.empty()) config.lock_options.push_back({"thread_wait_ms", thread_wait_ms_});
      for (const std::string& item : set_) {
        const explore::Variation v = explore::parse_variation(item, "--set");
        if (!v.script_files.empty()) throw std::invalid_argument("--set " + item + ": scripts are replaced with --script NAME=FILE");
        config.lock_options.insert(config.lock_options.end(), v.lock_options.begin(), v.lock_options.end());
      }
      if (!against_.empty()) config.against = explore::parse_variation(against_, "--against");
    } catch (const std::invalid_argument& e) {
      std::cerr << "locksim explore: " << e.what() << "\n";
      return 2;
    }
    if (options_.cases_dir == "none") options_.write_cases = false;
    for (const std::string& item : scripts_) {
      const std::string problem = script_problem(item);
      if (!problem.empty()) {
        std::cerr << "locksim explore: --script " << item << ": " << problem << "\n";
        return 2;
      }
      const auto eq = item.find('=');
      config.script_files.emplace_back(item.substr(0, eq), item.substr(eq + 1));
    }
    return 0;
  }

  // What is wrong with a --script NAME=FILE ("" nothing).
  static std::string script_problem(const std::string& item) {
    const auto eq = item.find('=');
    const std::string name = item.substr(0, eq), file = eq == std::string::npos ? "" : item.substr(eq + 1);
    if (eq == std::string::npos || name.empty() || file.empty()) return "expects NAME=FILE";
    if (!std::filesystem::exists(client::default_scripts_dir() + "/" + name + ".lua"))
      return "no script '" + name + "' in " + client::default_scripts_dir() + " to replace";
    return scenario::user_script_problem(file);
  }

  // The seed range and this run's shard of it: 0, or 2 with what is wrong said on stderr.
  int read_seeds() {
    if (*seed_opt_) {
      options_.seed_first = options_.seed_last = seed_;
    } else if (*seeds_opt_) {
      const auto dots = seeds_.find("..");
      try {
        if (dots == std::string::npos) throw std::invalid_argument("no ..");
        size_t used = 0;
        options_.seed_first = std::stoull(seeds_.substr(0, dots), &used);
        options_.seed_last = std::stoull(seeds_.substr(dots + 2), &used);
        if (used != seeds_.size() - dots - 2) throw std::invalid_argument("trailing text");
      } catch (const std::exception&) {
        std::cerr << "locksim explore: --seeds expects A..B, e.g. 1..1000, got '" << seeds_ << "'\n";
        return 2;
      }
    } else {
      options_.seed_first = 1;
      options_.seed_last = count_;
    }
    if (sub_->count("--shard") > 0) {
      const auto shard = parse_shard(shard_);
      if (!shard) {
        std::cerr << "locksim explore: --shard expects I/N, e.g. 0/4, got '" << shard_ << "'\n";
        return 2;
      }
      options_.shard_index = shard->index;
      options_.shard_count = shard->count;
    }
    return 0;
  }

  ExploreOptions options_;
  std::string faults_ = "none", properties_ = "mutual_exclusion", seeds_, shard_;
  uint64_t seed_ = 0, count_ = 1000;
  bool no_shrink_ = false;
  std::vector<std::string> set_, scripts_;
  std::string against_, redisson_, fair_variant_, thread_wait_ms_;
  bool watchdog_keep_ = false, unlock_latch_ = false;
  CLI::Option* seed_opt_ = nullptr;
  CLI::Option* seeds_opt_ = nullptr;
};

}  // namespace

std::unique_ptr<Command> add_explore_command(CLI::App& app) { return std::make_unique<ExploreCommand>(app); }

}  // namespace locksim::app
