#pragma once
// What `locksim serve` is told on its command line.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "server/request_parser.hpp"

namespace locksim::server {

enum class ClockMode { Real, Virtual };

struct ServeOptions {
  std::string bind = "127.0.0.1";
  int port = 6379;                        // 0: any free port (the chosen one is printed and written to port_file)
  std::string port_file{};                // written once listening, for scripts that asked for port 0
  std::optional<std::string> requirepass{};
  ClockMode clock = ClockMode::Real;
  int64_t start_ms = 1700000000000;       // the virtual clock's first reading
  std::string history{};                  // where the history goes when the server stops ("": not kept)
  size_t history_limit = 2'000'000;       // events kept at most; past it the history says it is cut
  std::vector<std::string> lock_keys{};   // keys whose content each command's Exec event records
  std::string resource{};                 // the protected counter, judged by the resource checker
  std::string schedule{};                 // a fault schedule file ("": none)
  bool appendonly = false;                // keep what an AOF fsynced every second would hold, for redis_restart persistence aof
  int64_t replica_lag_ms = -1;            // keep a replica this far behind, for failover (-1: none)
  uint64_t seed = 1;                      // for loss faults' draws
  ParserLimits limits{};
  size_t max_clients = 10000;             // maxclients
  size_t output_limit = 256UL * 1024 * 1024;  // a client's unsent replies past this close it
  int64_t script_budget = -1;             // Lua instructions a script may run (0: none; -1: the clock's default)
  bool quiet = false;                     // no log lines on stderr
};

}  // namespace locksim::server
