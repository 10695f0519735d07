#include "engine/ordered_next.hpp"

#include <lua.hpp>

#include <algorithm>
#include <cstring>
#include <string_view>
#include <vector>

namespace locksim::engine::ordered_next {
namespace {

// Registry key of a weak-keyed table: table -> {keys in order, key -> its place}, the snapshot a
// traversal begun with next(t, nil) walks.
constexpr const char* kSnapshots = "locksim.ordered_next";

int rank(lua_State* L, int index) {
  switch (lua_type(L, index)) {
    case LUA_TNUMBER: return lua_isinteger(L, index) ? 0 : 1;
    case LUA_TSTRING: return 2;
    case LUA_TBOOLEAN: return 3;
    default: return 4;
  }
}

// Whether the key at `a` comes before the key at `b` (both of one table: never equal).
bool before(lua_State* L, int a, int b) {
  const int ra = rank(L, a), rb = rank(L, b);
  if (ra != rb) return ra < rb;
  switch (ra) {
    case 0: return lua_tointeger(L, a) < lua_tointeger(L, b);
    case 1: return lua_tonumber(L, a) < lua_tonumber(L, b);  // NaN is never a key
    case 2: {
      size_t la = 0, lb = 0;
      const char* sa = lua_tolstring(L, a, &la);
      const char* sb = lua_tolstring(L, b, &lb);
      return std::string_view(sa, la) < std::string_view(sb, lb);
    }
    case 3: return !lua_toboolean(L, a) && lua_toboolean(L, b);
    default: return false;  // the native order, kept by the stable sort
  }
}

// Pushes the snapshot of the table at `t`, made anew: {order = {k1, k2, ...}, place = {[k] = i}}.
void push_new_snapshot(lua_State* L, int t) {
  lua_createtable(L, 0, 2);
  const int snapshot = lua_gettop(L);
  lua_newtable(L);
  const int keys = lua_gettop(L);
  lua_Integer n = 0;
  lua_pushnil(L);
  while (lua_next(L, t)) {
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    lua_rawseti(L, keys, ++n);
  }
  // Sort positions by the keys they hold; the keys stay in `keys` (alive) while compared.
  std::vector<lua_Integer> order(static_cast<size_t>(n));
  for (lua_Integer i = 0; i < n; ++i) order[static_cast<size_t>(i)] = i + 1;
  luaL_checkstack(L, 2, "ordered next");
  std::stable_sort(order.begin(), order.end(), [&](lua_Integer x, lua_Integer y) {
    lua_rawgeti(L, keys, x);
    lua_rawgeti(L, keys, y);
    const bool less = before(L, -2, -1);
    lua_pop(L, 2);
    return less;
  });
  lua_createtable(L, static_cast<int>(n), 0);
  const int sorted = lua_gettop(L);
  lua_createtable(L, 0, static_cast<int>(n));
  const int place = lua_gettop(L);
  for (lua_Integer i = 0; i < n; ++i) {
    lua_rawgeti(L, keys, order[static_cast<size_t>(i)]);
    lua_pushvalue(L, -1);
    lua_rawseti(L, sorted, i + 1);
    lua_pushinteger(L, i + 1);
    lua_rawset(L, place);
  }
  lua_setfield(L, snapshot, "place");
  lua_setfield(L, snapshot, "order");
  lua_pop(L, 1);  // keys
}

// The snapshots table, made on first use (weak keys: a snapshot goes with its table).
void push_snapshots(lua_State* L) {
  if (lua_getfield(L, LUA_REGISTRYINDEX, kSnapshots) == LUA_TTABLE) return;
  lua_pop(L, 1);
  lua_newtable(L);
  lua_createtable(L, 0, 1);
  lua_pushliteral(L, "k");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, kSnapshots);
}

}  // namespace

void see_through_view(lua_State* L, int index) {
  if (lua_type(L, index) != LUA_TTABLE) return;
  index = lua_absindex(L, index);
  if (lua_getfield(L, LUA_REGISTRYINDEX, kViewsKey) != LUA_TTABLE) {
    lua_pop(L, 1);
    return;
  }
  lua_pushvalue(L, index);
  if (lua_rawget(L, -2) == LUA_TTABLE) lua_replace(L, index);
  else lua_pop(L, 1);
  lua_pop(L, 1);
}

int next(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 2);
  see_through_view(L, 1);
  push_snapshots(L);  // 3
  lua_Integer from = 0;
  bool fresh = lua_isnil(L, 2);
  if (!fresh) {
    lua_pushvalue(L, 1);
    lua_rawget(L, 3);  // 4: the table's snapshot, or nil
    if (lua_istable(L, 4)) {
      lua_getfield(L, 4, "place");
      lua_pushvalue(L, 2);
      lua_rawget(L, -2);
      from = lua_isinteger(L, -1) ? lua_tointeger(L, -1) : 0;
      lua_pop(L, 2);
    }
    lua_settop(L, 3);
    if (from == 0) {
      // A key the snapshot does not know: the table is not the one the traversal began on.
      lua_pushvalue(L, 2);
      if (lua_rawget(L, 1) == LUA_TNIL) return luaL_error(L, "invalid key to 'next'");
      lua_pop(L, 1);
      fresh = true;
    }
  }
  if (fresh) {
    push_new_snapshot(L, 1);  // 4
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 4);
    lua_rawset(L, 3);
    if (from == 0 && !lua_isnil(L, 2)) {  // resuming from a key of a table changed since: find it anew
      lua_getfield(L, 4, "place");
      lua_pushvalue(L, 2);
      lua_rawget(L, -2);
      from = lua_tointeger(L, -1);
      lua_pop(L, 2);
    }
  } else {
    lua_pushvalue(L, 1);
    lua_rawget(L, 3);  // 4
  }
  lua_getfield(L, 4, "order");  // 5
  const lua_Integer n = static_cast<lua_Integer>(lua_rawlen(L, 5));
  // The next key still in the table: fields cleared during a traversal are passed over.
  for (lua_Integer i = from + 1; i <= n; ++i) {
    lua_rawgeti(L, 5, i);      // the key
    lua_pushvalue(L, -1);
    if (lua_rawget(L, 1) != LUA_TNIL) return 2;  // key, value
    lua_pop(L, 2);
  }
  lua_pushnil(L);
  return 1;
}

int pairs(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  see_through_view(L, 1);
  lua_pushcfunction(L, next);
  lua_pushvalue(L, 1);
  lua_pushnil(L);
  return 3;
}

}  // namespace locksim::engine::ordered_next
