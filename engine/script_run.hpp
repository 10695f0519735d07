#pragma once
// What the Lua bridge needs while a script runs: the server to call, the script's random generator
// and its instruction budget. Scripting owns one per Lua state and hands it to the bridge.
#include <cstdint>

#include "engine/rand48.hpp"
#include "engine/script_server.hpp"

namespace locksim::engine {

struct ScriptRun {
  // What FUNCTION LOAD's top level may execute at most: Redis times a load out after 500 ms even
  // where scripts run until killed, and a load cannot be killed.
  static constexpr int64_t kLoadBudget = 100'000'000;

  ScriptServer& server;
  int64_t budget;  // Lua instructions one script may execute (> 0; INT64_MAX: no budget)
  int64_t executed = 0;
  int64_t limit = 0;      // the budget of the run armed last: `budget`, or a load's
  bool loading = false;   // the run armed last is FUNCTION LOAD's, which nothing interrupts
  Rand48 rand{};

  // Counts `n` more instructions of the running script; false once it is over budget.
  bool charge_instructions(int64_t n) {
    executed += n;
    return executed <= limit;
  }
};

}  // namespace locksim::engine
