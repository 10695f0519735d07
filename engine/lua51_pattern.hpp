#pragma once
// Lua 5.1's pattern matching (lstrlib.c of 5.1.5, as Redis 7.0 builds it): string.find, match,
// gmatch and gsub. 5.4's differs in what a script can see: it knows a class %g, reads "%x" in a
// gsub replacement as an error (5.1: the letter x), words errors otherwise ("invalid capture index
// %2"), refuses patterns nested deeper than 200 ("pattern too complex"), and reads patterns past
// an embedded NUL (5.1 stops there).
//
// Two bounds 5.1 lacks, so that no pattern hangs or crashes the host: every step of the matcher
// counts against the script's instruction budget (a backtracking pattern stops as an endless loop
// does; Redis would stay BUSY), and recursion deeper than kMaxMatchDepth is "pattern too complex"
// (Redis would overflow its C stack).
struct lua_State;

#include <cstdint>

namespace locksim::engine::lua51_pattern {

inline constexpr int kMaxMatchDepth = 5000;

// Counts `steps` of matching against the running script's budget, raising its stop past it.
using ChargeWork = void (*)(lua_State* L, int64_t steps);

// Library functions whose upvalue 1 is the ChargeWork, as a light userdata.
int find(lua_State* L);
int match(lua_State* L);
int gmatch(lua_State* L);
int gsub(lua_State* L);

}  // namespace locksim::engine::lua51_pattern
