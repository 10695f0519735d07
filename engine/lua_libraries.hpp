#pragma once
// The libraries Redis 7.0 loads for scripts besides Lua's own (script_lua.c, luaLoadLibraries):
// cjson, struct, cmsgpack and bit. Each open_* pushes a fresh library table; the bridge makes it a
// read-only global (lua_bridge.cpp). cjson and bit are Debian's builds of lua-cjson 2.1.0 and
// LuaBitOp 1.0.2 for Lua 5.4 (the versions Redis 7.0 bundles), with what Lua 5.1 would show put
// back where 5.4 shows otherwise; struct and cmsgpack have no Debian build for 5.4 and are ours,
// written to behave as Redis 7.0.15's lua_struct.c and lua_cmsgpack.c (lua-cmsgpack 0.4.0).
struct lua_State;

namespace locksim::engine::lua_libraries {

int open_cjson(lua_State* L);
// Whether a script called one of cjson's settings functions (encode_max_depth, ...) since the
// state's cjson was opened: only then does it differ from a fresh one.
bool cjson_settings_touched(lua_State* L);
int open_struct(lua_State* L);
int open_cmsgpack(lua_State* L);
int open_bit(lua_State* L);

}  // namespace locksim::engine::lua_libraries
