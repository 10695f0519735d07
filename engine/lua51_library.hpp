#pragma once
// Lua 5.1's standard library as Redis 7.0 has it, where 5.4's differs in what exists or in how it
// reads its arguments (lua_bridge.cpp installs 5.1's rep, insert, remove, max, min, random and
// log, on top of which this goes):
// - what 5.1 has and 5.4 dropped is back (table.getn, maxn, setn, foreach, foreachi, math.mod,
//   string.gfind, gcinfo), and what 5.4 added is gone (rawlen, warn, table.move, pack, unpack,
//   string.pack, unpack, packsize, coroutine.close, isyieldable): a script that runs on the fake
//   runs on Redis;
// - arguments are read as 5.1 reads them: where a C integer is wanted, a number or numeric string
//   is truncated as lua_tointeger does (5.4 refuses 2.5: "number has no integer representation"),
//   and where a C int is, only its low 32 bits are kept; where a string is wanted, a number is its
//   "%.14g" text (5.4 reads 2.0 as "2.0");
// - select, unpack, ipairs, string.char, string.format (C's sprintf item by item), table.concat,
//   math.floor, ceil, modf, fmod, assert, xpcall and the coroutine functions are 5.1's (with 5.1's
//   limits and messages), as are find, match, gmatch and gsub (lua51_pattern.hpp);
// - math.pow, ldexp and atan2 check their second argument first, as Redis's build of 5.1 does.
#include "engine/lua51_pattern.hpp"

struct lua_State;

namespace locksim::engine::lua51_library {

// Adapts the libraries and globals of the globals table at stack index `real`, before they are
// made read-only; the pattern matcher charges its steps with `charge_work`.
void adapt(lua_State* L, int real, lua51_pattern::ChargeWork charge_work);

// The message handler in effect, as 5.1 keeps one per coroutine (L->errfunc): a script runs under
// Redis's, a coroutine under none, pcall under none and xpcall under its own until they return.
// load's reader runs under it, as 5.1's protected parser does.
enum class Handler { Script, None, Own };
// pcall and xpcall put theirs in effect around their call: `handler`, a stack index of a function,
// or 0 for none; `leave_protected` restores what was.
void enter_protected(lua_State* L, int handler);
void leave_protected(lua_State* L);
// Which handler is in effect; with Own, the function is pushed.
Handler handler_in_effect(lua_State* L);
// Forgets every handler put in effect (a script begins).
void reset_protected(lua_State* L);

}  // namespace locksim::engine::lua51_library
