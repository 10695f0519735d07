#pragma once
// The Lua side of FUNCTION, as Redis's function_lua.c: a library's code runs once, at FUNCTION
// LOAD, against the load API (`redis.register_function`, `redis.log`, the version, nothing else),
// and what it registers is kept; its functions run later, against the sandbox's globals, with
// their keys and arguments as their two parameters.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

struct lua_State;

namespace locksim::engine::function_lua {

// One redis.register_function call of a library's code.
struct Registered {
  std::string name;
  std::optional<std::string> description;
  int ref = 0;  // the callback, in the state's registry
  uint64_t flags = 0;  // script_flags.hpp
};

// functionsVerifyName: letters, digits and underscores, at least one (a library's or function's name).
bool valid_name(std::string_view name);

// Prepares `L` (a sandboxed state, lua_bridge::install) for FUNCTION: once.
void install(lua_State* L);

// Compiles `code` (a library's code, its first line the metadata's place) and runs it against the
// load API. On success, what it registered; else the error reply's text, as Redis words it
// ("ERR Error compiling function: ...", "ERR Error registering functions: ..."), with every callback
// it had registered released. The state must be attached to a run (lua_bridge::attach): the run's
// instruction budget stands for Redis's 500 ms load timeout.
struct Loaded {
  std::vector<Registered> functions;
  std::string error;
};
Loaded load(lua_State* L, std::string_view code);

// Releases a registered callback (its library was deleted or replaced).
void release(lua_State* L, int ref);

}  // namespace locksim::engine::function_lua
