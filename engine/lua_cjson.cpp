// `cjson`: Debian's lua-cjson 2.1.0 built for Lua 5.4 (lua-cjson-dev, liblua5.4-cjson.a), the
// version Redis 7.0 bundles (Redis adds only overflow checks for strings of gigabytes). Its C
// functions run in our frames: each wrapper below has the instance's configuration as its upvalue 1
// (where lua_cjson.c looks for it) and calls lua-cjson's C function directly, so an argument error
// names 'encode' or 'decode' as Redis's does. What the wrappers put back to Lua 5.1's view:
// - decode: lua-cjson pushes every number as a float; 5.1 holds doubles, which print as integers
//   when integral, so decoded numbers go through lua51::push_number (an integral value below 10^14
//   becomes a 5.4 integer, so 'id:' .. t.id is "id:7" as in Redis, not "id:7.0");
// - encode: an object's members are written in the byte order of their keys. Redis writes them in
//   the order Lua 5.1's next() visits the table, fixed for a given table there; Lua 5.4 seeds string
//   hashes per state, so the fake's next() order would change from run to run. docs/fidelity.md;
// - decode's argument: a light userdata is "userdata" in 5.1's error;
// - the settings functions truncate a fractional integer argument, as 5.1's luaL_checkinteger.
// Numbers are encoded with "%.14g" (encode_number_precision's default 14) by lua-cjson itself.
#include <algorithm>
#include <cmath>
#include <lua.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/assert.hpp"
#include "engine/lua51.hpp"
#include "engine/lua_libraries.hpp"

extern "C" int luaopen_cjson(lua_State* L);  // lua-cjson.h declares it without C linkage

namespace locksim::engine::lua_libraries {
namespace {

// Every wrapper's upvalue 1 is the instance's configuration and upvalue 2 lua-cjson's function.
lua_CFunction original_of(lua_State* L) {
  return reinterpret_cast<lua_CFunction>(lua_touserdata(L, lua_upvalueindex(2)));
}

// The end of the JSON string starting at `pos` (a '"').
size_t skip_string(std::string_view json, size_t pos) {
  for (++pos; pos < json.size() && json[pos] != '"'; ++pos) {
    if (json[pos] == '\\') ++pos;
  }
  return pos + 1;
}

// Copies the JSON value at `pos` (lua-cjson's own output: no white space) to `out` with every
// object's members sorted; returns the position after it.
size_t sort_members(std::string_view json, size_t pos, std::string& out) {
  const char open = json[pos];
  if (open == '"') {
    const size_t end = skip_string(json, pos);
    out.append(json.substr(pos, end - pos));
    return end;
  }
  if (open != '{' && open != '[') {
    const size_t end = std::min(json.find_first_of(",]}", pos), json.size());
    out.append(json.substr(pos, end - pos));
    return end;
  }
  const char close = open == '{' ? '}' : ']';
  ++pos;
  std::vector<std::pair<std::string, std::string>> members;  // object: key and value; array: value only
  while (pos < json.size() && json[pos] != close) {
    std::pair<std::string, std::string> member;
    if (open == '{') {
      const size_t key_end = skip_string(json, pos);
      member.first.assign(json.substr(pos, key_end - pos));
      pos = key_end + 1;  // past ':'
    }
    pos = sort_members(json, pos, member.second);
    members.push_back(std::move(member));
    if (pos < json.size() && json[pos] == ',') ++pos;
  }
  // Two keys can print alike (1 and "1"); their values then decide, so the output is still one.
  if (open == '{') std::sort(members.begin(), members.end());
  out.push_back(open);
  for (size_t i = 0; i < members.size(); ++i) {
    if (i > 0) out.push_back(',');
    if (open == '{') {
      out += members[i].first;
      out.push_back(':');
    }
    out += members[i].second;
  }
  out.push_back(close);
  return pos + 1;
}

// Nesting. lua-cjson stops at encode_max_depth / decode_max_depth (1000 by default) or when
// lua_checkstack fails, whichever comes first. Redis's Lua 5.1 lets a C function hold 8000 stack
// slots; 5.4 a million, so a script that raises a limit past what 5.1's stack allows would have
// lua-cjson recurse until the process's own stack overflows. Below kStackBoundDepth no path can
// fill 5.1's stack first (an object level holds 2 slots, table and key, an array level 1); at or
// above it the wrappers find where Redis would stop and stop there.
constexpr int kLua51MaxCStack = 8000;
constexpr int kDefaultMaxDepth = 1000;
constexpr int kStackBoundDepth = 3999;
constexpr int kEncodeDepth = 1;
constexpr int kDecodeDepth = 2;
constexpr const char* kLimitsKey = "locksim.cjson.limits";  // configuration -> {encode, decode}, weak keys

// The encode or decode depth limit of the running wrapper's configuration (upvalue 1), as the
// settings wrappers recorded it.
int depth_limit(lua_State* L, int which) {
  int limit = kDefaultMaxDepth;
  const int top = lua_gettop(L);
  lua_getfield(L, LUA_REGISTRYINDEX, kLimitsKey);
  lua_pushvalue(L, lua_upvalueindex(1));
  if (lua_rawget(L, -2) == LUA_TTABLE && lua_rawgeti(L, -1, which) == LUA_TNUMBER) {
    limit = static_cast<int>(lua_tointeger(L, -1));
  }
  lua_settop(L, top);
  return limit;
}

void record_depth_limit(lua_State* L, int which, int limit) {
  lua_getfield(L, LUA_REGISTRYINDEX, kLimitsKey);
  lua_pushvalue(L, lua_upvalueindex(1));
  if (lua_rawget(L, -2) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_createtable(L, 2, 0);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, -2);
    lua_rawset(L, -4);
  }
  lua_pushinteger(L, limit);
  lua_rawseti(L, -2, which);
  lua_pop(L, 2);
}

// The depth at which Redis's encoder stops on 5.1's stack in the table at `index` (whose depth is
// `depth`, checked with `slots` in use), or 0. Children are visited in next() order.
int encode_stack_depth(lua_State* L, int index, int depth, int slots, int max_depth) {
  if (depth > max_depth) return 0;  // lua-cjson's own limit comes first; it raises it
  if (slots + 3 > kLua51MaxCStack) return depth;
  luaL_checkstack(L, 3, "cjson.encode: nested too deeply");
  bool array = true;
  lua_pushnil(L);
  while (lua_next(L, index)) {
    lua_pop(L, 1);
    if (lua_type(L, -1) != LUA_TNUMBER || !(lua_tonumber(L, -1) >= 1) ||
        lua_tonumber(L, -1) != std::floor(lua_tonumber(L, -1))) {
      array = false;
    }
  }
  lua_pushnil(L);
  while (lua_next(L, index)) {
    if (lua_istable(L, -1)) {
      const int found = encode_stack_depth(L, lua_gettop(L), depth + 1, slots + (array ? 1 : 2), max_depth);
      if (found > 0) {
        lua_pop(L, 2);
        return found;
      }
    }
    lua_pop(L, 1);
  }
  return 0;
}

// Where Redis's decoder stops, by depth or by 5.1's stack: the offset after the '[' or '{' and
// the depth it opens; {0, 0} when it never does.
std::pair<size_t, int> decode_stop(std::string_view json, int max_depth) {
  std::vector<char> open;
  int slots = 1;  // the argument
  for (size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (c == '"') {
      i = skip_string(json, i) - 1;
    } else if (c == '[' || c == '{') {
      const int depth = static_cast<int>(open.size()) + 1;
      if (depth > max_depth || slots + (c == '[' ? 2 : 3) > kLua51MaxCStack) return {i + 1, depth};
      slots += c == '[' ? 1 : 2;
      open.push_back(c);
    } else if ((c == ']' || c == '}') && !open.empty()) {
      slots -= open.back() == '[' ? 1 : 2;
      open.pop_back();
    }
  }
  return {0, 0};
}

// lua-cjson's decode of `prefix` (upvalues as the wrappers'), for decode_within_lua51_stack.
int decode_prefix(lua_State* L) { return original_of(L)(L); }

// Raises what Redis raises for a text it stops reading at `stop`: an error lua-cjson finds before
// it, else the nesting error. Only the text before `stop` is parsed, so lua-cjson's recursion
// stays within what 5.1's stack allows.
void raise_decode_stop(lua_State* L, std::string_view json, std::pair<size_t, int> stop) {
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushvalue(L, lua_upvalueindex(2));
  lua_pushcclosure(L, decode_prefix, 2);
  lua_pushlstring(L, json.data(), stop.first);
  if (lua_pcall(L, 1, 1, 0) == LUA_OK) lua_pushliteral(L, "");  // cannot be: the prefix is cut open
  const std::string end = "found T_END at character " + std::to_string(stop.first + 1);
  if (lua_type(L, -1) != LUA_TSTRING) lua_error(L);  // out of memory: as it came
  size_t len = 0;
  const char* message = lua_tolstring(L, -1, &len);
  if (!std::string_view(message, len).ends_with(end)) {
    luaL_where(L, 1);
    lua_insert(L, -2);
    lua_concat(L, 2);
    lua_error(L);
  }
  luaL_error(L, "Found too many nested data structures (%d) at character %d", stop.second,
             static_cast<int>(stop.first));
}

int encode(lua_State* L) {
  if (lua_gettop(L) == 1 && lua_istable(L, 1)) {
    const int max_depth = depth_limit(L, kEncodeDepth);
    if (max_depth >= kStackBoundDepth) {
      const int stop = encode_stack_depth(L, 1, 1, 1, max_depth);
      if (stop > 0) luaL_error(L, "Cannot serialise, excessive nesting (%d)", stop);
    }
  }
  const int results = original_of(L)(L);
  LS_ASSERT(results == 1);
  LS_ASSERT(lua_type(L, -1) == LUA_TSTRING);
  size_t len = 0;
  const char* text = lua_tolstring(L, -1, &len);
  const std::string_view json(text, len);
  if (json.find('{') == std::string_view::npos) return 1;  // no object, nothing to order
  std::string sorted;
  sorted.reserve(len);
  sort_members(json, 0, sorted);
  lua_pushlstring(L, sorted.data(), sorted.size());
  return 1;
}

// Replaces the decoded floats in the table at `index` (and the tables in it) by the numbers 5.1
// would show. The tables are decode's own, fresh: nothing else sees them yet.
void as_lua51_numbers(lua_State* L, int index) {
  luaL_checkstack(L, 4, "cjson.decode: nested too deeply");
  index = lua_absindex(L, index);
  lua_pushnil(L);
  while (lua_next(L, index)) {
    if (lua_type(L, -1) == LUA_TTABLE) {
      as_lua51_numbers(L, -1);
    } else if (lua_type(L, -1) == LUA_TNUMBER) {
      const double d = lua_tonumber(L, -1);
      lua_pushvalue(L, -2);
      lua51::push_number(L, d);
      lua_rawset(L, index);  // an existing key: allowed during lua_next
    }
    lua_pop(L, 1);
  }
}

int decode(lua_State* L) {
  if (lua_gettop(L) == 1 && !lua_isstring(L, 1)) lua51::type_error(L, 1, "string");  // after the count check
  if (lua_gettop(L) == 1 && lua_type(L, 1) == LUA_TSTRING) {
    const int max_depth = depth_limit(L, kDecodeDepth);
    if (max_depth >= kStackBoundDepth) {
      size_t len = 0;
      const char* text = lua_tolstring(L, 1, &len);
      const std::pair<size_t, int> stop = decode_stop(std::string_view(text, len), max_depth);
      if (stop.second > 0) raise_decode_stop(L, std::string_view(text, len), stop);
    }
  }
  const int results = original_of(L)(L);
  LS_ASSERT(results == 1);
  if (lua_type(L, -1) == LUA_TNUMBER) {
    const double d = lua_tonumber(L, -1);
    lua_pop(L, 1);
    lua51::push_number(L, d);
  } else if (lua_type(L, -1) == LUA_TTABLE) {
    as_lua51_numbers(L, -1);
  }
  return 1;
}

void wrap_instance(lua_State* L);

int new_instance(lua_State* L) {
  lua_settop(L, 0);
  original_of(L)(L);
  wrap_instance(L);
  return 1;
}

constexpr const char* kTouchedKey = "locksim.cjson.touched";

// A settings function (upvalue 3: the first argument that is an integer, 0 when none; upvalue 4:
// kEncodeDepth or kDecodeDepth for the depth limits, whose value it records, else 0).
int settings(lua_State* L) {
  lua_pushboolean(L, 1);
  lua_setfield(L, LUA_REGISTRYINDEX, kTouchedKey);
  // An option ("on", "off"...) given as a number is named in its 5.1 text when refused.
  const auto first_integer = static_cast<int>(lua_tointeger(L, lua_upvalueindex(3)));
  for (int arg = 1; arg <= lua_gettop(L) && (first_integer == 0 || arg < first_integer); ++arg)
    if (lua_type(L, arg) == LUA_TNUMBER) lua51::check_string(L, arg);
  // 5.1's luaL_checkinteger truncates 2.5 (or "2.5"); 5.4's raises "number has no integer representation".
  for (int arg = first_integer; arg > 0 && arg <= lua_gettop(L); ++arg) {
    if (lua_isnumber(L, arg) && !lua_isinteger(L, arg)) {
      lua_pushinteger(L, lua51::to_integer(L, arg));
      lua_replace(L, arg);
    }
  }
  const int results = original_of(L)(L);
  const auto which = static_cast<int>(lua_tointeger(L, lua_upvalueindex(4)));
  if (which != 0 && results == 1 && lua_isinteger(L, -1)) {
    record_depth_limit(L, which, static_cast<int>(lua_tointeger(L, -1)));
  }
  return results;
}

// Points the instance table on top of the stack at the wrappers, with its configuration.
void wrap_instance(lua_State* L) {
  struct Wrapped {
    const char* name;
    lua_CFunction wrapper;
    int first_integer;  // settings only: upvalues 3 and 4
    int depth_limit;
  };
  static constexpr Wrapped kWrapped[] = {
      {"encode", encode, -1, 0},
      {"decode", decode, -1, 0},
      {"new", new_instance, -1, 0},
      {"encode_sparse_array", settings, 2, 0},
      {"encode_max_depth", settings, 1, kEncodeDepth},
      {"decode_max_depth", settings, 1, kDecodeDepth},
      {"encode_number_precision", settings, 1, 0},
      {"encode_keep_buffer", settings, 0, 0},
      {"encode_invalid_numbers", settings, 0, 0},
      {"decode_invalid_numbers", settings, 0, 0},
  };
  const int table = lua_gettop(L);
  for (const Wrapped& w : kWrapped) {
    lua_getfield(L, table, w.name);
    LS_ASSERT(lua_iscfunction(L, -1));
    lua_CFunction original = lua_tocfunction(L, -1);
    const char* upvalue = lua_getupvalue(L, -1, 1);  // the configuration userdata
    LS_ASSERT(upvalue != nullptr);
    LS_ASSERT(lua_type(L, -1) == LUA_TUSERDATA);
    lua_pushlightuserdata(L, reinterpret_cast<void*>(original));
    int upvalues = 2;
    if (w.first_integer >= 0) {
      lua_pushinteger(L, w.first_integer);
      lua_pushinteger(L, w.depth_limit);
      upvalues += 2;
    }
    lua_pushcclosure(L, w.wrapper, upvalues);
    lua_setfield(L, table, w.name);
    lua_pop(L, 1);
  }
}

}  // namespace

int open_cjson(lua_State* L) {
  lua_pushcfunction(L, luaopen_cjson);
  lua_call(L, 0, 1);
  wrap_instance(L);
  lua_pushboolean(L, 0);
  lua_setfield(L, LUA_REGISTRYINDEX, kTouchedKey);
  if (lua_getfield(L, LUA_REGISTRYINDEX, kLimitsKey) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");  // an instance's limits go with it
    lua_setmetatable(L, -2);
    lua_setfield(L, LUA_REGISTRYINDEX, kLimitsKey);
  } else {
    lua_pop(L, 1);
  }
  return 1;
}

bool cjson_settings_touched(lua_State* L) {
  lua_getfield(L, LUA_REGISTRYINDEX, kTouchedKey);
  const bool touched = lua_toboolean(L, -1);
  lua_pop(L, 1);
  return touched;
}

}  // namespace locksim::engine::lua_libraries
