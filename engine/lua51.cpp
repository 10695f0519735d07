#include "engine/lua51.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <lua.hpp>

namespace locksim::engine::lua51 {

void push_number(lua_State* L, double d) {
  if (std::fabs(d) < kExactPrintLimit && d == std::trunc(d) && !(d == 0 && std::signbit(d))) {
    lua_pushinteger(L, static_cast<lua_Integer>(d));
  } else {
    lua_pushnumber(L, d);
  }
}

int64_t double_to_int64(double d) {
  if (std::isnan(d) || d >= 9223372036854775808.0 || d < -9223372036854775808.0) return INT64_MIN;
  return static_cast<int64_t>(d);
}

uint64_t double_to_uint64(double d) {
  constexpr double k2p63 = 9223372036854775808.0;
  if (!(d >= k2p63)) return static_cast<uint64_t>(double_to_int64(d));  // NaN takes this path too
  const int64_t low = double_to_int64(d - k2p63);                       // INT64_MIN from 2^64 up
  return static_cast<uint64_t>(low) ^ (uint64_t{1} << 63);
}

bool str2d(const char* s, double& out) {
  char* end = nullptr;
  out = std::strtod(s, &end);
  if (end == s) return false;
  if (*end == 'x' || *end == 'X') out = static_cast<double>(std::strtoul(s, &end, 16));
  while (std::isspace(static_cast<unsigned char>(*end))) ++end;
  return *end == '\0';
}

int64_t to_integer(lua_State* L, int index) {
  // 5.1 held the double, so a 5.4 integer beyond 2^53 is rounded first, as 5.1 would have.
  int is_number = 0;
  const lua_Number d = lua_tonumberx(L, index, &is_number);
  return is_number ? double_to_int64(d) : 0;
}

int type_error(lua_State* L, int arg, const char* expected) {
  // lua_typename, not 5.4's luaL_typeerror: 5.1 calls a light userdata (cjson.null) "userdata".
  return luaL_argerror(L, arg, lua_pushfstring(L, "%s expected, got %s", expected, lua_typename(L, lua_type(L, arg))));
}

double check_number(lua_State* L, int arg) {
  int is_number = 0;
  const lua_Number d = lua_tonumberx(L, arg, &is_number);
  if (!is_number) type_error(L, arg, "number");
  return d;
}

int64_t check_integer(lua_State* L, int arg) {
  if (!lua_isnumber(L, arg)) type_error(L, arg, "number");
  return to_integer(L, arg);
}

int64_t opt_integer(lua_State* L, int arg, int64_t def) {
  return lua_isnoneornil(L, arg) ? def : check_integer(L, arg);
}

std::string_view check_string(lua_State* L, int arg) {
  if (lua_type(L, arg) == LUA_TNUMBER) {
    char buf[64];
    const int n = std::snprintf(buf, sizeof buf, "%.14g", static_cast<double>(lua_tonumber(L, arg)));
    lua_pushlstring(L, buf, static_cast<size_t>(n));
    lua_replace(L, arg);
  }
  if (lua_type(L, arg) != LUA_TSTRING) type_error(L, arg, "string");
  size_t len = 0;
  const char* s = lua_tolstring(L, arg, &len);
  return std::string_view(s, len);
}

}  // namespace locksim::engine::lua51
