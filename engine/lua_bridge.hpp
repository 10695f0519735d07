#pragma once
// The Lua side of scripting, as Redis's script_lua.c: the sandboxed globals, the `redis` library,
// and the two conversions between Redis replies and Lua values.
#include <cstddef>
#include <string>
#include <string_view>

#include "base/reply.hpp"

struct lua_State;
typedef int (*lua_CFunction)(lua_State* L);

namespace locksim::engine {

struct ScriptRun;

// What one Lua state may allocate (its allocator refuses past it, and string.rep before it gets
// there): a runaway script fails, the host survives.
inline constexpr size_t kLuaMemoryLimit = size_t{1} << 30;

namespace lua_bridge {

// Opens Redis's libraries (base, table, string, math, coroutine, and Redis's cjson, struct,
// cmsgpack and bit; no io, os, package, debug), installs `redis.*`, replaces math.random, and makes
// the globals and libraries read-only.
void install(lua_State* L);

// Points the state's scripts at `run` (the server they call, their random generator and budget)
// and resets the libraries' settings, as a new server has them; detach points them at none (a
// state between engines: lua_state_pool.hpp).
void attach(lua_State* L, ScriptRun& run);
void detach(lua_State* L);

// What SCRIPT FLUSH resets of the libraries, which Redis 7.0 does by making a new Lua state:
// cjson's settings (encode_max_depth, encode_number_precision, encode_keep_buffer, ...).
void reset_libraries(lua_State* L);

// Sets the read-only global `name` (KEYS or ARGV) to a fresh array of strings.
void set_global_array(lua_State* L, const char* name, const std::string_view* items, size_t count);
// Pushes a fresh array of strings (a function's keys or args).
void push_array(lua_State* L, const std::string_view* items, size_t count);

// FUNCTION's side of a state (function_lua.c), installed once after install(): the load API a
// library's code runs against (`redis.register_function`, `redis.log`, the version) and the
// read-only globals all its functions share. `register_function` is the C function behind
// redis.register_function.
void install_function_api(lua_State* L, lua_CFunction register_function);
// Pushes the functions' globals: the _ENV of every library chunk.
void push_function_globals(lua_State* L);
// Points the functions' globals at the load API (while FUNCTION LOAD runs a library's code) or
// back at the sandbox's globals.
void set_function_globals_loading(lua_State* L, bool loading);

// Redis -> Lua (redisProtocolToLuaType): pushes one value.
void push_reply(lua_State* L, const Reply& reply);

// Lua -> Redis (luaReplyToRedisReply): converts the value at `index`.
Reply to_reply(lua_State* L, int index);

// The message handler for lua_pcall (Redis's __redis__err__handler): turns any error into a
// table {err=, source=, line=} naming where in the script it happened.
int error_handler(lua_State* L);

// Arms the instruction-budget hook for one script run (`loading`: FUNCTION LOAD's top level), its
// count starting at zero. A script run's hook also asks the server whether to stop
// (ScriptServer::script_interrupted); a load cannot be killed, as in Redis, so it keeps a budget even
// when scripts have none.
void arm_budget(lua_State* L, bool loading);
// Whether the run armed last has spent its budget (its error is the budget's).
bool over_budget(lua_State* L);
void disarm_budget(lua_State* L);

}  // namespace lua_bridge
}  // namespace locksim::engine
