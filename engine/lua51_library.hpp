#pragma once
// Lua 5.1's standard library as Redis 7.0 has it, where 5.4's differs in what exists or in how it
// reads its arguments (lua_bridge.cpp installs 5.1's rep, find, insert, remove, max, min...
// on top of which this goes):
// - what 5.1 has and 5.4 dropped is back (table.getn, maxn, setn, foreach, foreachi, math.mod,
//   string.gfind, gcinfo), and what 5.4 added is gone (rawlen, warn, table.move, pack, unpack,
//   string.pack, unpack, packsize, coroutine.close, isyieldable): a script that runs on the fake
//   runs on Redis;
// - arguments are read as 5.1 reads them: where a C integer is wanted, a number or numeric string
//   is truncated as lua_tointeger does (5.4 refuses 2.5: "number has no integer representation"),
//   and where a C int is, only its low 32 bits are kept; where a string is wanted, a number is its
//   "%.14g" text (5.4 reads 2.0 as "2.0");
// - select, unpack, ipairs, string.char and string.format are 5.1's (raw, with 5.1's limits and
//   messages; format prints each item with C's sprintf, as 5.1 does), gsub reads its replacement
//   as 5.1 does ("%x" is "x"), and
//   math.pow, ldexp and atan2 check their second argument first, as Redis's build of 5.1 does.
struct lua_State;

namespace locksim::engine::lua51_library {

// Adapts the libraries and globals of the globals table at stack index `real`, before they are
// made read-only.
void adapt(lua_State* L, int real);

}  // namespace locksim::engine::lua51_library
