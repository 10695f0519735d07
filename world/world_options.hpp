#pragma once
// WorldOptions: what a world is made with, whatever its servers are.
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "client/script_text_cache.hpp"
#include "world/fenced_resource.hpp"
#include "world/network.hpp"

namespace locksim::world {

struct WorldOptions {
  uint64_t seed = 1;
  LinkOptions link{};                     // every client's link, unless changed per client
  int64_t epoch_ms = 1700000000000;       // what the servers' and clients' clocks read at time 0
  int64_t active_expire_every_ms = 100;   // Redis's active expiry cycle (simulated servers)
  std::string scripts_dir{};              // where the lock scripts are (default: client::default_scripts_dir())
  // A search's worlds share one reading of the script files (client/script_text_cache.hpp); null:
  // each world reads them.
  std::shared_ptr<client::ScriptTexts> script_texts{};
  int64_t max_events = 50'000'000;        // a run that needs more is a bug (or an unbounded scenario)
  int servers = 1;                        // independent Redis servers, redis0 .. redis<N-1> (RedLock)
  FenceRule fence_rule = FenceRule::NotLower;  // what the guarded resource accepts (fenced_resource.hpp)
  // Asked every few thousand events: true ends the run (run_until throws world::Interrupted), as
  // Ctrl-C asks. It never changes what a run that goes on does. nullptr: never asked.
  bool (*stop_requested)() = nullptr;
};

// Thrown by run_until when WorldOptions::stop_requested says so: what was recorded until then stays.
struct Interrupted : std::runtime_error {
  Interrupted() : std::runtime_error("interrupted (Ctrl-C or SIGTERM) before the run ended; the history shows what ran until then") {}
};

}  // namespace locksim::world
