// `locksim serve`: its options, and the call to run_serve.
#include <iostream>
#include <string>

#include "app/cli_checks.hpp"
#include "app/command.hpp"
#include "app/serve_command.hpp"

namespace locksim::app {
namespace {

class ServeCommand final : public Command {
 public:
  explicit ServeCommand(CLI::App& app)
      : Command(app, "serve",
                "The fake Redis 7.0 over RESP, for real clients in any language (redis-cli, redis-py, ioredis, ...): one\n"
                "event loop, each command atomic on the engine. Faults while clients run (LOCKSIM.FAULT on any connection,\n"
                "or --faults FILE), a real or virtual clock, and a history of every command that `locksim check` judges.\n"
                "Runs until SHUTDOWN, LOCKSIM.SHUTDOWN, Ctrl-C or SIGTERM, then writes the history. Guide: docs/serve.md.") {
    add_server_options();
    add_history_options();
    add_limits();
  }

  int run() override {
    options_.clock = clock_ == "virtual" ? server::ClockMode::Virtual : server::ClockMode::Real;
    if (sub_->count("--requirepass")) options_.requirepass = requirepass_;
    if (options_.history.empty() && (!options_.lock_keys.empty() || !options_.resource.empty())) {
      std::cerr << "locksim serve: --lock and --resource say what the history records: they need --history FILE\n";
      return 2;
    }
    return run_serve(options_, std::cerr);
  }

 private:
  // Where it listens, who may talk to it, and its clock.
  void add_server_options() {
    sub_->add_option("--port", options_.port, "TCP port (0: a free one, printed and written to --port-file)")
        ->capture_default_str();
    sub_->add_option("--bind", options_.bind, "Address to listen on (only loopback unless you say otherwise)")
        ->capture_default_str();
    sub_->add_option("--port-file", options_.port_file, "Write the port here once listening");
    sub_->add_option("--requirepass", requirepass_, "Clients must AUTH with this password");
    sub_->add_option("--clock", clock_,
                     "real: the machine's clock. virtual: starts at --start-ms and moves only with DEBUG SLEEP,\n"
                     "LOCKSIM.CLOCK ADVANCE <ms> or a clock_jump fault, so a 30 s lease runs out when you say")
        ->check(CLI::IsMember({"real", "virtual"}))
        ->capture_default_str();
    sub_->add_option("--start-ms", options_.start_ms, "The virtual clock's first reading (ms since the epoch)")
        ->check(integer_in(0, kLatestStartMs))
        ->capture_default_str();
  }

  // What it records, and the faults and replica it acts out.
  void add_history_options() {
    sub_->add_option("--history", options_.history,
                     "Record every command, fault and note, and write the history (JSON lines) here when the server\n"
                     "stops (default: nothing is recorded)");
    sub_->add_option("--history-limit", options_.history_limit, "Events kept at most; the history says where it was cut")
        ->check(integer_in(1, 1'000'000'000))
        ->capture_default_str();
    sub_->add_option("--lock", options_.lock_keys,
                     "A lock key: every command naming it is recorded with the key's content before and after");
    sub_->add_option("--resource", options_.resource,
                     "The protected counter: clients GET it and SET it inside their critical section; the resource\n"
                     "property then judges mutual exclusion from the server's log alone (lost updates)");
    sub_->add_option("--faults", options_.schedule,
                     "A fault schedule: lines of `<at_ms> <fault> [<param> <value>]... [client <name>]`");
    sub_->add_flag("--appendonly", options_.appendonly,
                   "Keep what an AOF fsynced every second would hold (a copy of the keyspace each second), so that\n"
                   "a redis_restart with persistence aof can restart from it");
    sub_->add_option("--replica-lag-ms", options_.replica_lag_ms,
                     "Keep an in-process replica up to this far behind, so a failover fault can promote it (-1: none)")
        ->check(integer_in(-1, 86'400'000));
    sub_->add_option("--seed", options_.seed, "Seed of the loss fault's draws")->capture_default_str();
  }

  // What a client can make it hold.
  void add_limits() {
    sub_->add_option("--maxclients", options_.max_clients, "Connections at most")
        ->check(integer_in(1, 1'000'000))
        ->capture_default_str();
    sub_->add_option("--proto-max-bulk-len", options_.limits.proto_max_bulk_len, "Longest bulk argument, bytes")
        ->check(integer_in(1, INT64_MAX))
        ->capture_default_str();
    sub_->add_option("--client-query-buffer-limit", options_.limits.client_query_buffer_limit,
                     "A client's unparsed input past this closes it, bytes")
        ->check(integer_in(1, INT64_MAX))
        ->capture_default_str();
    sub_->add_option("--script-budget", options_.script_budget,
                     "Lua instructions one script may execute before it is stopped with an error (0: none).\n"
                     "Default: none under --clock real, where a runaway script keeps the server busy past\n"
                     "busy-reply-threshold until SCRIPT KILL, FUNCTION KILL or SHUTDOWN NOSAVE, as Redis's does;\n"
                     "100000000 under --clock virtual, where nothing may depend on time")
        ->check(integer_in(0, INT64_MAX));
    sub_->add_flag("--quiet", options_.quiet, "No log lines on standard error");
  }

  server::ServeOptions options_;
  std::string clock_ = "real";
  std::string requirepass_;
};

}  // namespace

std::unique_ptr<Command> add_serve_command(CLI::App& app) { return std::make_unique<ServeCommand>(app); }

}  // namespace locksim::app
