#pragma once
// What the Lua bridge needs while a script runs: the server to call, the script's random generator
// and its instruction budget. Scripting owns one per Lua state and hands it to the bridge.
#include <cstdint>

#include "engine/rand48.hpp"
#include "engine/script_server.hpp"

namespace locksim::engine {

struct ScriptRun {
  ScriptServer& server;
  int64_t budget;  // Lua instructions one script may execute (> 0)
  int64_t executed = 0;
  Rand48 rand{};

  // Counts `n` more instructions of the running script; false once it is over budget.
  bool charge_instructions(int64_t n) {
    executed += n;
    return executed <= budget;
  }
};

}  // namespace locksim::engine
