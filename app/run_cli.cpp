// `locksim run`: its options, and the call to run_scenarios.
#include <unistd.h>

#include <iostream>

#include "app/command.hpp"
#include "app/run_command.hpp"
#include "client/redisson_version.hpp"

namespace locksim::app {
namespace {

class RunCommand final : public Command {
 public:
  explicit RunCommand(CLI::App& app)
      : Command(app, "run",
                "Runs scenario files (a situation each: a lock, clients, operations and faults at exact virtual times)\n"
                "in the simulated world (or, with --backend live, against real redis-servers), judges each run\n"
                "with the checkers the file names, prints a verdict table\n"
                "and writes summary.md, results.json, junit.xml and per scenario its history and an HTML timeline.\n"
                "Exit code: 0 every expectation met, 1 one was not (or every scenario was skipped: nothing judged), 2 a bad\n"
                "file, bad usage or live servers that could not be set up, 130 (143) interrupted by Ctrl-C (SIGTERM): the\n"
                "reports then cover what ran.\n"
                "The format: docs/scenario-format.md; live runs: docs/live.md.") {
    sub_->add_option("paths", options_.paths,
                     "Scenario files or folders (default: ./scenarios, which must then exist; the installed library\n"
                     "is PREFIX/share/locksim/scenarios)");
    sub_->add_option("--out", options_.out, "Where to write the reports, relative to the current folder")
        ->capture_default_str();
    sub_->add_option("--backend", options_.backend,
                     "fake: the simulated world (deterministic, virtual time). live: the same clients against real\n"
                     "redis-servers on the real clock (a scenario's virtual ms become real ms); locksim starts its own\n"
                     "(Debian's redis-server on 127.0.0.1, free ports, no persistence unless a restart asks for AOF, a\n"
                     "replica where a failover needs one) and stops them afterwards, or uses --redis")
        ->check(CLI::IsMember({"fake", "live"}))
        ->capture_default_str();
    sub_->add_option("--redis", options_.redis,
                     "live: HOST:PORT (or [IPv6]:PORT) of a Redis to run against instead; repeat the option for a\n"
                     "scenario with several servers. It must be empty (every database), or pass --flush; locksim\n"
                     "deletes the keys its run created afterwards. Scenarios with server faults need servers locksim starts")
        ->allow_extra_args(false);  // one address per --redis: a scenario path may follow
    sub_->add_option("--password", options_.password, "live: the password (AUTH) of the --redis servers");
    sub_->add_flag("--flush", options_.flush, "live: FLUSHALL (every database!) the --redis servers before each scenario");
    sub_->add_option("--redisson", options_.redisson,
                     "X.Y.Z: run every Redisson lock as this Redisson version (its scripts, defaults and client logic,\n"
                     "bugs included) instead of each file's `redisson:` (default " +
                         client::default_version().str() + "; modelled: " + client::modelled_range() +
                         "); a file's explicit lock options still override it");
    sub_->add_option("--time-scale", options_.time_scale,
                     "Multiply every duration in each scenario (timeline, leases, waits, run length, Redisson's timers)\n"
                     "by this factor in (0, 1], on either backend, so long scenarios run shorter live; scenarios that\n"
                     "say live: {time_scale: false} are skipped (reported, not failed)")
        ->capture_default_str();
    sub_->add_flag("--stream", options_.stream,
                   "Write each history to its file as it is recorded and judge it from there as it streams, for a\n"
                   "run too long to hold (a soak): what is held follows how long operations and holds last, not\n"
                   "the run's length (the scenario's own timeline is held). The verdicts are the whole run's, or\n"
                   "unknown where a stream dropped what one needs; no timeline is written (docs/checkers.md)");
  }

  int run() override {
    options_.progress = ::isatty(2) != 0;
    return run_scenarios(options_, std::cout, std::cerr);
  }

 private:
  RunOptions options_;
};

}  // namespace

std::unique_ptr<Command> add_run_command(CLI::App& app) { return std::make_unique<RunCommand>(app); }

}  // namespace locksim::app
