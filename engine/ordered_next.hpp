#pragma once
// next and pairs for scripts, in an order fixed by the keys alone. Lua 5.4 seeds its string hashes
// per state from the time and addresses, so the native next walks a table's string keys in an order
// that differs from one process (one state) to the next, and a script that builds a reply or a key
// name with pairs would make the same run give different histories. Redis's Lua 5.1 has no such
// seed; its order is fixed but its own, which no 5.4 table reproduces: the fake promises the same
// order every time, not Redis's (docs/fidelity.md).
//
// The order: integer keys ascending, then other numbers ascending, then strings bytewise, then
// false, true; keys of other types (tables, functions) last, in the native order, which depends on
// their addresses. pairs(t) is Lua 5.1's: no __pairs metamethod.
struct lua_State;

namespace locksim::engine::ordered_next {

// The registry's table from each read-only view of the sandbox (the globals, the libraries) to
// the table it shows. Redis's read-only tables are the tables themselves, which next and pairs
// walk; a view is an empty table, so they walk what it shows instead.
inline constexpr const char* kViewsKey = "locksim.views";

// Replaces the table at `index` with the one it shows, when it is a read-only view.
void see_through_view(lua_State* L, int index);

int next(lua_State* L);
int pairs(lua_State* L);

}  // namespace locksim::engine::ordered_next
