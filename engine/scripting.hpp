#pragma once
// Scripting: EVAL, EVALSHA and the script cache over one Lua 5.4 state per engine, and FUNCTION's
// libraries (functions.hpp) beside them. Scripts are compiled once and kept by SHA1; each run gets
// fresh KEYS/ARGV, sees time frozen, and is stopped deterministically once it exceeds its
// instruction budget.
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "base/reply.hpp"
#include "engine/functions.hpp"
#include "engine/lua_call.hpp"
#include "engine/script_run.hpp"
#include "engine/script_server.hpp"

struct lua_State;

namespace locksim::engine {

class PreparedLua;

class Scripting {
 public:
  // `instruction_budget` > 0: the Lua instructions one script may execute.
  Scripting(ScriptServer& server, int64_t instruction_budget);
  ~Scripting();
  Scripting(const Scripting&) = delete;
  Scripting& operator=(const Scripting&) = delete;

  // EVAL body: compiles (and caches) the body if needed, then runs it.
  Reply eval(std::string_view body, std::span<const std::string_view> keys,
             std::span<const std::string_view> args);
  // EVALSHA: runs a cached script, or NOSCRIPT.
  Reply evalsha(std::string_view sha, std::span<const std::string_view> keys,
                std::span<const std::string_view> args);
  // SCRIPT LOAD: the SHA as a bulk reply, or the compile error.
  Reply load(std::string_view body);
  bool exists(std::string_view sha) const;
  void flush();
  // FUNCTION and FCALL: the same server, random generator and budget as EVAL.
  Functions& functions() { return functions_; }

 private:
  std::string sha_of(std::string_view body) const;
  // The registry reference of the compiled function for `sha`, compiling `body` if needed;
  // on a compile error returns LUA_NOREF and sets `error`.
  int compile(const std::string& sha, std::string_view body, Reply& error);
  Reply run(const std::string& sha, int function_ref, std::span<const std::string_view> keys,
            std::span<const std::string_view> args);

  ScriptRun run_;  // before lua_: the bridge holds its address from the start
  std::unique_ptr<PreparedLua> prepared_;  // taken from, and handed back to, lua_state_pool.hpp
  lua_State* lua_ = nullptr;               // prepared_'s state
  std::map<std::string, int, std::less<>> cache_;  // sha -> registry ref: this engine's script cache
  Functions functions_;  // FUNCTION's libraries, on a state of their own
};

}  // namespace locksim::engine
