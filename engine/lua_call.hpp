#pragma once
// One run of a compiled script or function, as Redis's luaCallFunction: time frozen, the budget
// armed, the keys and arguments handed over (as the KEYS and ARGV globals for EVAL, as the two
// arguments of a function for FCALL), and a Lua error turned into Redis's error reply naming the
// script and the line.
#include <span>
#include <string_view>

#include "base/reply.hpp"
#include "engine/script_server.hpp"

struct lua_State;

namespace locksim::engine {

struct LuaCall {
  enum class Mode { Eval, Function };
  Mode mode = Mode::Eval;
  std::string_view name;  // what errors call it: the SHA1 of an EVAL's body, a function's name
  int function_ref = 0;   // the compiled function, in the registry
  std::span<const std::string_view> keys;
  std::span<const std::string_view> args;
  bool read_only = false;  // FCALL_RO, or a function flagged no-writes: no write command runs
};

// Runs `call` on `L`, whose stack is empty, calling into `server`; the reply Redis would send.
Reply run_lua(lua_State* L, ScriptServer& server, const LuaCall& call);

// How many scripts and functions (failed ones included) every engine of this process has run so
// far: instrumentation for benchmarks (scripts per explored case). Nothing in a run reads it.
uint64_t scripts_run_total();

}  // namespace locksim::engine
