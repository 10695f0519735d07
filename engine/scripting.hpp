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

  // EVAL body (EVAL_RO: `read_only`): compiles (and caches) the body if needed, then runs it.
  Reply eval(std::string_view body, std::span<const std::string_view> keys, std::span<const std::string_view> args,
             bool read_only = false);
  // EVALSHA (EVALSHA_RO): runs a cached script, or NOSCRIPT.
  Reply evalsha(std::string_view sha, std::span<const std::string_view> keys, std::span<const std::string_view> args,
                bool read_only = false);
  // SCRIPT LOAD: the SHA as a bulk reply, or the compile error.
  Reply load(std::string_view body);
  bool exists(std::string_view sha) const;
  void flush();
  // How many scripts EVAL and SCRIPT LOAD have cached (INFO's number_of_cached_scripts).
  size_t cached_scripts() const { return cache_.size(); }
  // The scripts cached, the random generator and the libraries, as state (base/state_writer.hpp).
  void describe(StateWriter& out) const;
  // FUNCTION and FCALL: the same server, random generator and budget as EVAL.
  Functions& functions() { return functions_; }

 private:
  // A cached script: its compiled function (a registry reference) and its shebang's flags.
  struct Script {
    int ref;
    uint64_t flags;
  };
  std::string sha_of(std::string_view body) const;
  // The cached script for `sha`, compiling `body` if needed; null on a compile or shebang error,
  // which `error` then holds.
  const Script* compile(const std::string& sha, std::string_view body, Reply& error);
  Reply run(const std::string& sha, const Script& script, std::span<const std::string_view> keys,
            std::span<const std::string_view> args, bool read_only);

  ScriptRun run_;  // before lua_: the bridge holds its address from the start
  std::unique_ptr<PreparedLua> prepared_;  // taken from, and handed back to, lua_state_pool.hpp
  lua_State* lua_ = nullptr;               // prepared_'s state
  std::map<std::string, Script, std::less<>> cache_;  // sha -> script: this engine's script cache
  Functions functions_;  // FUNCTION's libraries, on a state of their own
};

}  // namespace locksim::engine
