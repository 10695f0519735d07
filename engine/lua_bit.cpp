// `bit`: Debian's LuaBitOp 1.0.2 built for Lua 5.4 (lua-bitop-dev, liblua5.4-bitop.a), the version
// Redis 7.0 bundles. It converts its arguments as the 5.1 build does (the double plus 2^52+2^51,
// keeping the low 32 bits) and returns integers, which print as 5.1's doubles of 32-bit values do.
// Each function is wrapped to put back what 5.1 shows otherwise:
// - a light userdata argument (cjson.null) is "userdata" in 5.1's "number expected" error, checked in
//   the order LuaBitOp reads its arguments (the first, then the last down to the second);
// - bit.tohex(x, -2^31) overflows a stack buffer in Redis 7.0.15 (CVE-2024-31449) and can crash the
//   server; the fake answers as Redis's fix does (the count taken as -(2^31-1): 8 upper-case digits).
// The wrapper calls LuaBitOp's C function directly, in its own frame, so errors name 'band' etc.
#include <cstdint>
#include <cstring>
#include <lua.hpp>
#include <utility>

#include "base/assert.hpp"
#include "engine/lua51.hpp"
#include "engine/lua_libraries.hpp"

extern "C" int luaopen_bit(lua_State* L);  // lua-bitop.h declares it without C linkage

namespace locksim::engine::lua_libraries {
namespace {

constexpr int kAllArguments = -1;
constexpr int kOptionalSecond = -2;

// LuaBitOp's barg: the low 32 bits of the double after adding 2^52+2^51.
int32_t to_bit(double n) {
  const double shifted = n + 6755399441055744.0;
  uint64_t bits = 0;
  std::memcpy(&bits, &shifted, sizeof bits);
  return static_cast<int32_t>(static_cast<uint32_t>(bits));
}

void check_number(lua_State* L, int arg) {
  if (!lua_isnumber(L, arg)) lua51::type_error(L, arg, "number");
}

// Upvalue 1: LuaBitOp's function as a light userdata; upvalue 2: how many arguments it reads.
int call_bitop(lua_State* L) {
  auto original = reinterpret_cast<lua_CFunction>(lua_touserdata(L, lua_upvalueindex(1)));
  const auto reads = static_cast<int>(lua_tointeger(L, lua_upvalueindex(2)));
  check_number(L, 1);
  if (reads == kAllArguments) {
    for (int i = lua_gettop(L); i > 1; --i) check_number(L, i);
  } else if (reads == kOptionalSecond) {
    if (!lua_isnone(L, 2)) {
      check_number(L, 2);
      if (to_bit(lua_tonumber(L, 2)) == INT32_MIN) {
        lua_pushinteger(L, INT32_MIN + 1);
        lua_replace(L, 2);
      }
    }
  } else {
    for (int i = 2; i <= reads; ++i) check_number(L, i);
  }
  return original(L);
}

}  // namespace

int open_bit(lua_State* L) {
  lua_pushcfunction(L, luaopen_bit);
  lua_call(L, 0, 1);
  const std::pair<const char*, int> functions[] = {
      {"tobit", 1},
      {"bnot", 1},
      {"band", kAllArguments},
      {"bor", kAllArguments},
      {"bxor", kAllArguments},
      {"lshift", 2},
      {"rshift", 2},
      {"arshift", 2},
      {"rol", 2},
      {"ror", 2},
      {"bswap", 1},
      {"tohex", kOptionalSecond},
  };
  for (const auto& [name, reads] : functions) {
    lua_getfield(L, -1, name);
    LS_ASSERT(lua_iscfunction(L, -1));
    lua_CFunction original = lua_tocfunction(L, -1);
    lua_pop(L, 1);
    lua_pushlightuserdata(L, reinterpret_cast<void*>(original));
    lua_pushinteger(L, reads);
    lua_pushcclosure(L, call_bitop, 2);
    lua_setfield(L, -2, name);
  }
  return 1;
}

}  // namespace locksim::engine::lua_libraries
