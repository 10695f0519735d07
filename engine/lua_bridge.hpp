#pragma once
// The Lua side of scripting, as Redis's script_lua.c: the sandboxed globals, the `redis` library,
// and the two conversions between Redis replies and Lua values.
#include "engine/reply.hpp"

struct lua_State;

namespace locksim::engine {

class Scripting;

namespace lua_bridge {

// Opens Redis's libraries (base, table, string, math, coroutine; no io, os, package, debug),
// installs `redis.*`, replaces math.random, and makes the globals and libraries read-only.
void install(lua_State* L, Scripting& scripting);

// Sets the read-only global `name` (KEYS or ARGV) to a fresh array of strings.
void set_global_array(lua_State* L, const char* name, const std::string_view* items, size_t count);

// Redis -> Lua (redisProtocolToLuaType): pushes one value.
void push_reply(lua_State* L, const Reply& reply);

// Lua -> Redis (luaReplyToRedisReply): converts the value at `index`.
Reply to_reply(lua_State* L, int index);

// The message handler for lua_pcall (Redis's __redis__err__handler): turns any error into a
// table {err=, source=, line=} naming where in the script it happened.
int error_handler(lua_State* L);

// Arms the instruction-budget hook for one script run.
void arm_budget(lua_State* L, int64_t budget);
void disarm_budget(lua_State* L);

}  // namespace lua_bridge
}  // namespace locksim::engine
