#pragma once
// Prepared Lua states, reused from one engine to the next on the same thread.
//
// Exploration builds thousands of worlds a second, and every engine of every world (and every
// restart or failover, which makes a new engine) used to open a Lua state, install the sandbox
// (lua_bridge::install) and compile the lock scripts again: more time than the scripts it ran.
// A state handed back when its engine ends is kept, with the functions it compiled, and the next
// engine takes it instead of building one.
//
// Why the next engine cannot tell: what a script can change in a state is closed off by the sandbox
// (globals and libraries are read-only, the registry is unreachable), KEYS and ARGV are set afresh
// before every run, the random generator and instruction count live in the engine's ScriptRun
// (lua_bridge::attach points the state at the new one, and gives it a fresh cjson if a script
// changed cjson's settings, the one library state scripts can change), and the script cache the
// engine answers EVALSHA, SCRIPT EXISTS and NOSCRIPT from starts empty: a compiled function kept
// here is only reused when that engine itself compiles the same body (EVAL or SCRIPT LOAD), and a
// compiled chunk is a pure function of its text (its one upvalue is the read-only _ENV). A state is
// garbage-collected in full when handed back, so no finalizer of one engine's garbage runs during
// another engine's scripts. Not reset: Lua's own memory figures (collectgarbage("count")) and GC
// pacing, which no script of scripts/ reads and which never matched Redis's anyway.
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>

struct lua_State;

namespace locksim::engine {

struct ScriptRun;

class PreparedLua {
 public:
  // A fresh state with the sandbox installed.
  PreparedLua();
  ~PreparedLua();
  PreparedLua(const PreparedLua&) = delete;
  PreparedLua& operator=(const PreparedLua&) = delete;

  lua_State* state() const { return lua_; }

  // The registry reference of the function compiled from `body` (whose SHA1 is `sha`) in this
  // state before, or LUA_NOREF.
  int compiled(std::string_view sha, std::string_view body) const;
  // Remembers that `ref` is `body` compiled (with its _ENV set).
  void remember(std::string_view sha, std::string_view body, int ref);
  // The SHA1 of a body this state compiled before (EVAL names a script by its body, and hashing
  // it again for every EVAL costs more than the lookup), or "" when none.
  std::string_view sha_of(std::string_view body) const;
  size_t remembered() const { return compiled_.size(); }

 private:
  struct Compiled {
    std::string body;
    int ref;
  };
  lua_State* lua_ = nullptr;
  std::map<std::string, Compiled, std::less<>> compiled_;  // sha -> function
  std::map<std::string, std::string, std::less<>> sha_by_body_;
};

// A prepared state for an engine whose scripts run with `run`: one handed back on this thread
// before, or a new one.
std::unique_ptr<PreparedLua> take_lua_state(ScriptRun& run);

// Hands a state back when its engine ends (its stack empty, no script running).
void give_back_lua_state(std::unique_ptr<PreparedLua> lua);

// The states kept on this thread, and closing them all (tests: the next engine starts fresh).
size_t pooled_lua_states();
void drop_pooled_lua_states();

}  // namespace locksim::engine
