#include "engine/lua_bridge.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <lua.hpp>
#include <string>
#include <vector>

#include "base/assert.hpp"
#include "base/sha1.hpp"
#include "engine/command_table.hpp"
#include "engine/errors.hpp"
#include "engine/lua51.hpp"
#include "engine/lua51_compile.hpp"
#include "engine/lua51_library.hpp"
#include "engine/lua51_messages.hpp"
#include "engine/lua_libraries.hpp"
#include "engine/numbers.hpp"
#include "engine/ordered_next.hpp"
#include "engine/script_run.hpp"

namespace locksim::engine::lua_bridge {
namespace {

constexpr const char* kRealGlobalsKey = "locksim.globals";    // holds KEYS/ARGV, set with rawset
constexpr const char* kProtectedKey = "locksim.protected";    // tables no script may modify
constexpr const char* kStringMetatableKey = "locksim.string_mt";  // what getmetatable('') shows
constexpr const char* kGlobalsMetatableKey = "locksim.globals_mt";  // what getmetatable(_G) shows
constexpr const char* kFunctionLoadApiKey = "locksim.function_load_api";  // FUNCTION LOAD's globals
constexpr const char* kFunctionGlobalsKey = "locksim.function_globals";    // the functions' _ENV
constexpr int kHookEvery = 1000;                               // instructions between budget checks

ScriptRun& run_of(lua_State* L) { return **static_cast<ScriptRun**>(lua_getextraspace(L)); }

// Redis's luaPushErrorBuff: "-CODE msg" keeps its code, anything else gets "ERR ".
std::string error_text(std::string_view raw) {
  std::string text;
  if (!raw.empty() && raw[0] == '-') {
    raw.remove_prefix(1);
    text = raw.find(' ') == std::string_view::npos ? errors::err(raw) : std::string(raw);
  } else {
    text = errors::err(raw);
  }
  while (!text.empty() && (text.back() == '\r' || text.back() == '\n')) text.pop_back();
  return text;
}

void push_error_table(lua_State* L, std::string_view text) {
  lua_createtable(L, 0, 1);
  lua_pushlstring(L, text.data(), text.size());
  lua_setfield(L, -2, "err");
}

// redis.call and redis.pcall: the same command table as clients use.
int redis_generic_call(lua_State* L, bool raise) {
  const int argc = lua_gettop(L);
  if (argc == 0) {
    push_error_table(L, errors::kCallWithoutArguments);
    return raise ? lua_error(L) : 1;
  }
  constexpr int kInline = 16;
  std::string_view inline_args[kInline];
  char inline_numbers[kInline][32];
  std::vector<std::string_view> heap_args;
  std::vector<std::string> heap_numbers;
  const bool inline_storage = argc <= kInline;
  if (!inline_storage) {
    heap_args.resize(static_cast<size_t>(argc));
    heap_numbers.resize(static_cast<size_t>(argc));
  }
  std::string_view* args = inline_storage ? inline_args : heap_args.data();
  for (int i = 1; i <= argc; ++i) {
    const int type = lua_type(L, i);
    if (type == LUA_TNUMBER) {
      // Redis 7.0 formats a Lua number argument with "%.17g" (its Lua 5.1 has only doubles);
      // an integer subtype prints the same digits for any value a double holds exactly.
      // A Lua 5.4 integer beyond 2^53 is rounded to the double Lua 5.1 would have held.
      char local[32];
      constexpr lua_Integer kExact = lua_Integer{1} << 53;
      const bool exact = lua_isinteger(L, i) && lua_tointeger(L, i) <= kExact && lua_tointeger(L, i) >= -kExact;
      int n = exact ? static_cast<int>(std::to_chars(local, local + sizeof local, lua_tointeger(L, i)).ptr - local)
                    : std::snprintf(local, sizeof local, "%.17g", static_cast<double>(lua_tonumber(L, i)));
      LS_ASSERT(n > 0);
      LS_ASSERT(n < 32);
      if (inline_storage) {
        std::copy(local, local + n, inline_numbers[i - 1]);
        args[i - 1] = std::string_view(inline_numbers[i - 1], static_cast<size_t>(n));
      } else {
        heap_numbers[static_cast<size_t>(i - 1)].assign(local, static_cast<size_t>(n));
        args[i - 1] = heap_numbers[static_cast<size_t>(i - 1)];
      }
    } else if (type == LUA_TSTRING) {
      size_t len = 0;
      const char* p = lua_tolstring(L, i, &len);
      args[i - 1] = std::string_view(p, len);
    } else {
      push_error_table(L, errors::kCallArgumentType);
      return raise ? lua_error(L) : 1;
    }
  }
  Reply reply = run_of(L).server.call_from_script(
      std::span<const std::string_view>(args, static_cast<size_t>(argc)));
  if (reply.is_error()) {
    push_error_table(L, error_text("-" + reply.str));
    return raise ? lua_error(L) : 1;
  }
  push_reply(L, reply);
  return 1;
}

int redis_call(lua_State* L) { return redis_generic_call(L, true); }
int redis_pcall(lua_State* L) { return redis_generic_call(L, false); }

int redis_error_reply(lua_State* L) {
  if (lua_gettop(L) != 1 || lua_type(L, -1) != LUA_TSTRING) {
    push_error_table(L, errors::kWrongArgumentsOrType);
    return 1;
  }
  std::string text = lua_tostring(L, -1);
  push_error_table(L, error_text(text[0] == '-' ? text : "-" + text));
  return 1;
}

int redis_status_reply(lua_State* L) {
  if (lua_gettop(L) != 1 || lua_type(L, -1) != LUA_TSTRING) {
    push_error_table(L, errors::kWrongArgumentsOrType);
    return 1;
  }
  lua_createtable(L, 0, 1);
  lua_pushvalue(L, 1);
  lua_setfield(L, -2, "ok");
  return 1;
}

int redis_sha1hex(lua_State* L) {
  if (lua_gettop(L) != 1) {
    push_error_table(L, error_text("wrong number of arguments"));  // luaPushError
    return lua_error(L);
  }
  if (lua_type(L, 1) == LUA_TNUMBER) lua51::check_string(L, 1);  // hashed as 5.1 prints it
  size_t len = 0;
  const char* s = lua_tolstring(L, 1, &len);
  const std::string hex = sha1_hex(std::string_view(s ? s : "", s ? len : 0));
  lua_pushlstring(L, hex.data(), hex.size());
  return 1;
}

int redis_log(lua_State* L) {
  const int argc = lua_gettop(L);
  if (argc < 2) {
    push_error_table(L, errors::kLogArity);
    return lua_error(L);
  }
  if (!lua_isnumber(L, 1)) {
    push_error_table(L, errors::kLogLevelNotNumber);
    return lua_error(L);
  }
  const lua_Integer level = static_cast<lua_Integer>(lua_tonumber(L, 1));
  if (level < 0 || level > 3) {
    push_error_table(L, errors::kLogLevelInvalid);
    return lua_error(L);
  }
  std::string message;
  for (int i = 2; i <= argc; ++i) {
    if (lua_type(L, i) == LUA_TNUMBER) lua51::check_string(L, i);  // logged as 5.1 prints it
    size_t len = 0;
    const char* s = lua_tolstring(L, i, &len);
    if (s == nullptr) continue;
    if (i != 2) message += ' ';  // as luaRedisLogCommand: after any argument but the first
    message.append(s, len);
  }
  run_of(L).server.script_log(static_cast<int>(level), message);
  return 0;
}

int redis_setresp(lua_State* L) {
  if (lua_gettop(L) != 1) {
    push_error_table(L, errors::kSetrespArity);
    return lua_error(L);
  }
  const lua_Integer resp = lua_tointeger(L, 1);
  if (resp != 2 && resp != 3) {
    push_error_table(L, errors::kRespVersion);
    return lua_error(L);
  }
  if (resp == 3) {
    push_error_table(L, errors::kResp3Unsupported);
    return lua_error(L);
  }
  return 0;
}

int redis_set_repl(lua_State* L) {
  if (lua_gettop(L) != 1) {
    push_error_table(L, errors::kSetReplArity);
    return lua_error(L);
  }
  // Redis reads the flags as a C int from the number (lua_tonumber: 0 for what is none).
  const int flags = lua51::double_to_int(lua_tonumber(L, 1));
  constexpr int kPropagateAll = 3;  // PROPAGATE_AOF | PROPAGATE_REPL
  if ((flags & ~kPropagateAll) != 0) {
    push_error_table(L, errors::kSetReplFlags);
    return lua_error(L);
  }
  return 0;
}

// redis.acl_check_cmd(command, args...): whether the script's user may run it. The fake has one
// user, allowed everything, so the answer is true for any command the fake knows (looked up as
// Redis's lookupCommand does, a container's subcommand included); an unknown one is an error.
int redis_acl_check_cmd(lua_State* L) {
  const int argc = lua_gettop(L);
  if (argc == 0) {
    push_error_table(L, errors::kCallWithoutArguments);
    return lua_error(L);
  }
  for (int i = 1; i <= argc; ++i) {
    if (lua_type(L, i) != LUA_TNUMBER && lua_type(L, i) != LUA_TSTRING) {
      push_error_table(L, errors::kCallArgumentType);
      return lua_error(L);
    }
  }
  // A number never names a command: its text is all that matters here.
  const CommandSpec* command = lua_type(L, 1) == LUA_TSTRING ? run_of(L).server.find_command(lua_tostring(L, 1)) : nullptr;
  const bool known = command != nullptr &&
                     (argc == 1 || command->subcommands.empty() ||
                      (lua_type(L, 2) == LUA_TSTRING && lookup_subcommand(*command, lua_tostring(L, 2)) != nullptr));
  if (!known) {
    push_error_table(L, errors::kAclCheckUnknownCommand);
    return lua_error(L);
  }
  lua_pushboolean(L, 1);
  return 1;
}

int redis_replicate_commands(lua_State* L) {
  lua_pushboolean(L, 1);
  return 1;
}

int redis_noop(lua_State*) { return 0; }

int redis_breakpoint(lua_State* L) {
  lua_pushboolean(L, 0);
  return 1;
}

// math.random and math.randomseed as Redis's patched Lua 5.1 has them (redisLrand48).
int math_random(lua_State* L) {
  Rand48& rand = run_of(L).rand;
  const double r = static_cast<double>(rand.next() % Rand48::kMax) / static_cast<double>(Rand48::kMax);
  switch (lua_gettop(L)) {
    case 0:
      lua_pushnumber(L, r);
      return 1;
    case 1: {
      const lua_Integer u = luaL_checkinteger(L, 1);
      luaL_argcheck(L, 1 <= u, 1, "interval is empty");
      lua_pushnumber(L, std::floor(r * static_cast<double>(u)) + 1);
      return 1;
    }
    case 2: {
      const lua_Integer l = luaL_checkinteger(L, 1);
      const lua_Integer u = luaL_checkinteger(L, 2);
      luaL_argcheck(L, l <= u, 2, "interval is empty");
      lua_pushnumber(L, std::floor(r * static_cast<double>(u - l + 1)) + static_cast<double>(l));
      return 1;
    }
    default:
      return luaL_error(L, "wrong number of arguments");
  }
}

// math.max and math.min as Lua 5.1 has them: every argument goes through luaL_checknumber, so a
// numeric string counts as its number (Redisson's `math.max(pttl, ARGV[1])`; 5.4 compares the
// values as they are and fails on number against string), and the result is a number. An
// integral result is pushed as an integer, which 5.1's %.14g prints the same way.
int math_extreme(lua_State* L, bool max) {
  const int n = lua_gettop(L);
  lua_Number best = lua51::check_number(L, 1);
  for (int i = 2; i <= n; ++i) {
    const lua_Number d = lua51::check_number(L, i);
    if (max ? d > best : d < best) best = d;
  }
  lua51::push_number(L, best);  // -0 stays -0, and 2^53 prints as 5.1's double
  return 1;
}
int math_max(lua_State* L) { return math_extreme(L, true); }
int math_min(lua_State* L) { return math_extreme(L, false); }

int math_randomseed(lua_State* L) {
  run_of(L).rand.seed(static_cast<int32_t>(luaL_checkinteger(L, 1)));
  return 0;
}

// Redis 7.0's pcall (luaRedisPcall): an error table with a string `err` reaches the script as
// that string, so `pcall(redis.call, ...)` yields "ERR ...".
int redis_style_pcall(lua_State* L) {
  luaL_checkany(L, 1);
  const int argc = lua_gettop(L);
  lua51_library::enter_protected(L, 0);
  const int status = lua_pcall(L, argc - 1, LUA_MULTRET, 0);
  lua51_library::leave_protected(L);
  if (status == LUA_OK) {
    lua_pushboolean(L, 1);
    lua_insert(L, 1);
    return lua_gettop(L);
  }
  if (lua_istable(L, -1)) {
    if (lua_getfield(L, -1, "err") == LUA_TSTRING) lua_replace(L, -2);
    else lua_pop(L, 1);
  } else {
    lua51_messages::reword_top(L);
  }
  lua_pushboolean(L, 0);
  lua_insert(L, -2);
  return 2;
}

// rawget of a read-only view reads the table it shows, as rawget of Redis's read-only table does.
int view_aware_rawget(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checkany(L, 2);
  lua_settop(L, 2);
  ordered_next::see_through_view(L, 1);
  lua_rawget(L, 1);
  return 1;
}

// getmetatable as 5.1's, except that a string's metatable is shown as Redis shows it: a read-only
// table whose __index is the (read-only) string library. The real metatable cannot be made
// read-only itself, because the VM reads its __index raw.
int string_aware_getmetatable(lua_State* L) {
  luaL_checkany(L, 1);
  if (lua_type(L, 1) == LUA_TSTRING) {
    lua_getfield(L, LUA_REGISTRYINDEX, kStringMetatableKey);
    return 1;
  }
  // A read-only view stands for a table Redis protects in place: a library shows no metatable,
  // the globals the error metatable that names a nonexistent global (luaSetErrorMetatable), itself
  // read-only.
  lua_getfield(L, LUA_REGISTRYINDEX, ordered_next::kViewsKey);
  lua_pushvalue(L, 1);
  const bool view = lua_rawget(L, -2) != LUA_TNIL;
  lua_pop(L, 2);
  if (view) {
    lua_getfield(L, LUA_REGISTRYINDEX, "locksim.env");
    const bool globals = lua_rawequal(L, 1, -1);
    lua_pop(L, 1);
    if (globals) lua_getfield(L, LUA_REGISTRYINDEX, kGlobalsMetatableKey);
    else lua_pushnil(L);
    return 1;
  }
  if (!lua_getmetatable(L, 1)) {
    lua_pushnil(L);
    return 1;
  }
  luaL_getmetafield(L, 1, "__metatable");
  return 1;
}

// Lua 5.1's error: a number message gets the position too (5.4 adds it to strings only).
int lua51_error(lua_State* L) {
  const int level = static_cast<int>(luaL_optinteger(L, 2, 1));
  lua_settop(L, 1);
  const int type = lua_type(L, 1);
  if ((type == LUA_TNUMBER || type == LUA_TSTRING) && level > 0) {
    lua51::check_string(L, 1);  // concatenated, a number is its 5.1 text: 2^31 is "2147483648"
    luaL_where(L, level);
    lua_pushvalue(L, 1);
    lua_concat(L, 2);
  }
  return lua_error(L);
}

// Lua 5.1's tostring for numbers: "%.14g", so 2^3 prints "8", not 5.4's "8.0".
int lua51_tostring(lua_State* L) {
  luaL_checkany(L, 1);
  // An integer of 15 digits or more prints as 5.1's double does too ("1.2345678901234e+14").
  if (lua_type(L, 1) == LUA_TNUMBER &&
      (!lua_isinteger(L, 1) || std::fabs(static_cast<double>(lua_tointeger(L, 1))) >= lua51::kExactPrintLimit)) {
    char buf[64];
    const int n = std::snprintf(buf, sizeof buf, "%.14g", static_cast<double>(lua_tonumber(L, 1)));
    lua_pushlstring(L, buf, static_cast<size_t>(n));
    return 1;
  }
  luaL_tolstring(L, 1, nullptr);
  return 1;
}

// Lua 5.1's tonumber gives a double; 5.4's an exact integer for "9007199254740993". Beyond 10^14 the
// result is the float 5.1 would hold (lua51.hpp), so it compares and prints as in Redis (upvalue 1:
// Lua's tonumber, called in this frame so that its errors name 'tonumber').
int lua51_tonumber(lua_State* L) {
  auto original = reinterpret_cast<lua_CFunction>(lua_touserdata(L, lua_upvalueindex(1)));
  if (!lua_isnoneornil(L, 2)) {
    // 5.1 reads the base as a C int, and base 10 as no base at all (5.4 wants a string then too);
    // with another base, a number is read as its text.
    const int base = lua51::c_int(lua51::check_integer(L, 2));
    if (base == 10) {
      lua_settop(L, 1);
    } else {
      // strtoul's reading, as 5.1's: leading spaces, a sign (negating the unsigned value), "0x"
      // in base 16, then trailing spaces only.
      const std::string_view text = lua51::check_string(L, 1);
      luaL_argcheck(L, 2 <= base && base <= 36, 2, "base out of range");
      char* end = nullptr;
      const unsigned long n = std::strtoul(text.data(), &end, base);
      if (end != text.data()) {
        while (std::isspace(static_cast<unsigned char>(*end))) ++end;
        if (*end == '\0' && static_cast<size_t>(end - text.data()) == text.size()) {
          lua51::push_number(L, static_cast<double>(n));
          return 1;
        }
      }
      lua_pushnil(L);
      return 1;
    }
  }
  if (lua_type(L, 1) == LUA_TSTRING) {
    double d = 0;
    if (lua51::str2d(lua_tostring(L, 1), d)) lua51::push_number(L, d);
    else lua_pushnil(L);
    return 1;
  }
  const int results = original(L);
  if (results == 1 && lua_isinteger(L, -1)) {
    const double d = static_cast<double>(lua_tointeger(L, -1));
    lua_pop(L, 1);
    lua51::push_number(L, d);
  }
  return results;
}

int readonly_error(lua_State* L) { return luaL_error(L, "Attempt to modify a readonly table"); }

// The same refusal raised from inside a C function (rawset, setmetatable): Redis's patched VM
// reports it without a script position there.
int readonly_error_in_c(lua_State* L) {
  lua_pushliteral(L, "Attempt to modify a readonly table");
  return lua_error(L);
}

// What 5.1's for loop held: an integral start or step, a numeric string's too, as the 5.4 integer
// that prints as 5.1 printed the double (lua51_compile.hpp). Anything else passes unchanged, and
// 5.4's loop refuses it in 5.1's words ("'for' initial value must be a number").
int for_number(lua_State* L) {
  lua_settop(L, 1);
  double d = 0;
  if (lua_type(L, 1) == LUA_TSTRING) {
    if (lua51::str2d(lua_tostring(L, 1), d)) lua51::push_number(L, d);
  } else if (lua_type(L, 1) == LUA_TNUMBER && !lua_isinteger(L, 1)) {
    lua51::push_number(L, lua_tonumber(L, 1));
  }
  return 1;
}

int nonexistent_global(lua_State* L) {
  const char* name = lua_tostring(L, 2);
  if (name && std::strcmp(name, lua51_compile::kForNumber) == 0) {
    lua_pushcfunction(L, for_number);
    return 1;
  }
  return luaL_error(L, "Script attempted to access nonexistent global variable '%s'", name ? name : "?");
}

bool is_protected(lua_State* L, int index) {
  index = lua_absindex(L, index);
  lua_getfield(L, LUA_REGISTRYINDEX, kProtectedKey);
  lua_pushvalue(L, index);
  lua_rawget(L, -2);
  const bool result = lua_toboolean(L, -1);
  lua_pop(L, 2);
  return result;
}

// rawset that honours read-only tables, as Redis 7.0's patched Lua does.
int safe_rawset(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checkany(L, 2);
  luaL_checkany(L, 3);
  if (is_protected(L, 1)) return readonly_error_in_c(L);
  lua_settop(L, 3);
  lua_rawset(L, 1);
  return 1;
}

// Lua 5.1's setmetatable, as Redis 7.0 runs it: it honours read-only tables, words its refusals as
// 5.1 does, and marks no table for finalization. 5.1 runs no __gc of a table, while 5.4 would run
// it whenever the collector got there (in a later script, or as the state is pooled); 5.4 marks an
// object only if its metatable has __gc when set, so the field is lifted for the call and put back.
int safe_setmetatable(lua_State* L) {
  const int type = lua_type(L, 2);
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_argcheck(L, type == LUA_TNIL || type == LUA_TTABLE, 2, "nil or table expected");
  // Redis refuses a read-only table in lua_setmetatable, after these checks; its read-only tables
  // have no __metatable, while the fake's hide their metatable behind one: so this comes first.
  if (is_protected(L, 1)) return readonly_error_in_c(L);
  if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL) return luaL_error(L, "cannot change a protected metatable");
  lua_settop(L, 2);
  bool lifted = false;
  if (type == LUA_TTABLE) {
    // Raw, as 5.4's own check is: no metamethod of the metatable runs.
    lua_pushliteral(L, "__gc");
    lifted = lua_rawget(L, 2) != LUA_TNIL;  // at 3 when lifted
    if (lifted) {
      lua_pushliteral(L, "__gc");
      lua_pushnil(L);
      lua_rawset(L, 2);
    } else {
      lua_pop(L, 1);
    }
  }
  lua_pushvalue(L, 2);
  lua_setmetatable(L, 1);
  if (lifted) {
    lua_pushliteral(L, "__gc");
    lua_pushvalue(L, 3);
    lua_rawset(L, 2);
  }
  lua_settop(L, 1);
  return 1;
}

// --- Lua 5.1's versions of library functions whose 5.4 version takes more arguments, or refuses
// what 5.1 accepts (5.1's lstrlib.c, ltablib.c, lmathlib.c).

// string.rep(s, n): no separator; a fractional count is truncated.
int lua51_string_rep(lua_State* L) {
  const std::string_view s = lua51::check_string(L, 1);
  const int n = lua51::c_int(lua51::check_integer(L, 2));  // a C int: 2^31 is negative, so ""
  if (s.empty() || n <= 0) {
    lua_pushliteral(L, "");
    return 1;
  }
  // What the allocator would refuse anyway, refused before a long loop.
  if (static_cast<uint64_t>(n) > kLuaMemoryLimit / s.size()) return luaL_error(L, "not enough memory");
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (int i = 0; i < n; ++i) luaL_addlstring(&b, s.data(), s.size());
  luaL_pushresult(&b);
  return 1;
}

// math.log(x): no base.
int lua51_math_log(lua_State* L) {
  lua_pushnumber(L, std::log(lua51::check_number(L, 1)));
  return 1;
}

// table.insert(t, [pos,] v): raw, and any position (5.4: "position out of bounds").
int lua51_table_insert(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  // C ints, as 5.1's: a position of -2^40 is 0 there (one move), not a loop of 2^40 moves.
  int end = lua51::c_int(static_cast<int64_t>(lua_rawlen(L, 1))) + 1;  // the first empty slot
  int pos = end;
  switch (lua_gettop(L)) {
    case 2:
      break;
    case 3:
      pos = lua51::c_int(lua51::check_integer(L, 2));
      if (pos > end) end = pos;
      break;
    default:
      return luaL_error(L, "wrong number of arguments to 'insert'");
  }
  if (is_protected(L, 1)) return readonly_error_in_c(L);
  for (int i = end; i > pos; --i) {
    lua_rawgeti(L, 1, i - 1);
    lua_rawseti(L, 1, i);
  }
  lua_rawseti(L, 1, pos);  // the value, on top
  return 0;
}

// table.remove(t [, pos]): raw; a position outside 1..#t (as a C int) removes nothing and returns nothing.
int lua51_table_remove(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  const int end = lua51::c_int(static_cast<int64_t>(lua_rawlen(L, 1)));
  int pos = lua51::c_int(lua51::opt_integer(L, 2, end));
  if (pos < 1 || pos > end) return 0;
  if (is_protected(L, 1)) return readonly_error_in_c(L);
  lua_rawgeti(L, 1, pos);
  for (; pos < end; ++pos) {
    lua_rawgeti(L, 1, pos + 1);
    lua_rawseti(L, 1, pos);
  }
  lua_pushnil(L);
  lua_rawseti(L, 1, end);
  return 1;
}

// What load and loadstring return: the chunk, which sees the same read-only globals as the script
// that loaded it, or nil and the message.
int loaded(lua_State* L, int status) {
  if (status != LUA_OK) {
    lua_pushnil(L);
    lua_insert(L, -2);
    return 2;
  }
  lua_getfield(L, LUA_REGISTRYINDEX, "locksim.env");
  if (lua_setupvalue(L, -2, 1) == nullptr) lua_pop(L, 1);
  return 1;
}

// loadstring accepts source text only: no bytecode, as in Redis.
int safe_loadstring(lua_State* L) {
  const std::string_view chunk = lua51::check_string(L, 1);
  const char* name = lua_isnoneornil(L, 2) ? chunk.data() : lua51::check_string(L, 2).data();
  return loaded(L, lua51_compile::load(L, chunk, name));
}

// Calls load's reader (upvalue 1) until it returns nil and joins the pieces; its own error is
// prefixed with the position of load's caller (upvalue 2), as 5.1's generic_reader's is.
int read_chunk(lua_State* L) {
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (;;) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_call(L, 0, 1);
    if (lua_isnil(L, -1)) break;
    if (!lua_isstring(L, -1)) {
      lua_pushvalue(L, lua_upvalueindex(2));
      lua_pushliteral(L, "reader function must return a string");
      lua_concat(L, 2);
      return lua_error(L);
    }
    lua51::check_string(L, lua_gettop(L));  // a number as 5.1 prints it
    luaL_addvalue(&b);
  }
  lua_pop(L, 1);
  luaL_pushresult(&b);
  return 1;
}

// 5.1's load takes a reader function only (5.4's takes a string too, which 5.1 leaves to
// loadstring). The pieces are joined first, so that the chunk compiles as 5.1 reads it. An error
// while reading fails the load (nil and the error), as 5.1's protected parser does, after the
// message handler in effect made it what it makes of one: at a script's top level Redis's error
// table, under pcall the message itself, under xpcall what its handler returns.
int safe_load(lua_State* L) {
  const char* name = luaL_optstring(L, 2, "=(load)");
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_settop(L, 2);
  const lua51_library::Handler handler = lua51_library::handler_in_effect(L);
  if (handler == lua51_library::Handler::Script) lua_pushcfunction(L, error_handler);
  else if (handler == lua51_library::Handler::None) lua_pushnil(L);  // a place holder: no handler
  lua_pushvalue(L, 1);
  luaL_where(L, 1);
  lua_pushcclosure(L, read_chunk, 2);
  const int msgh = handler == lua51_library::Handler::None ? 0 : 3;
  if (const int status = lua_pcall(L, 0, 1, msgh); status != LUA_OK) return loaded(L, status);
  size_t length = 0;
  const char* chunk = lua_tolstring(L, -1, &length);
  return loaded(L, lua51_compile::load(L, std::string_view(chunk, length), name));
}

void mark_protected(lua_State* L, int index) {
  index = lua_absindex(L, index);
  lua_getfield(L, LUA_REGISTRYINDEX, kProtectedKey);
  lua_pushvalue(L, index);
  lua_pushboolean(L, 1);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

// Gives the table at `target` a metatable whose reads go to what `push_index` pushes (a table or a
// function), whose writes raise, and which getmetatable shows as false (Redis's protected tables).
template <typename PushIndex>
void set_readonly_metatable(lua_State* L, int target, const PushIndex& push_index) {
  target = lua_absindex(L, target);
  lua_createtable(L, 0, 3);
  push_index();
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, readonly_error);
  lua_setfield(L, -2, "__newindex");
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
  lua_setmetatable(L, target);
}

// Pushes a read-only view of the table at `index`: reads go through, writes raise.
void push_readonly_proxy(lua_State* L, int index) {
  index = lua_absindex(L, index);
  lua_newtable(L);
  set_readonly_metatable(L, -1, [&] { lua_pushvalue(L, index); });
  mark_protected(L, -1);
  lua_getfield(L, LUA_REGISTRYINDEX, ordered_next::kViewsKey);
  lua_pushvalue(L, -2);
  lua_pushvalue(L, index);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

// Marks the metatable on top read-only and keeps a read-only view of it in the registry at `key`:
// what getmetatable shows of a table Redis protects (a string, the globals). The table stays on top.
void show_readonly(lua_State* L, const char* key) {
  mark_protected(L, -1);
  push_readonly_proxy(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, key);
}

// Sets the global `name` (in the real globals table at `real`) to a read-only view of the library
// table on top of the stack, which it pops.
void set_readonly_library(lua_State* L, int real, const char* name) {
  mark_protected(L, -1);
  lua_pushstring(L, name);
  push_readonly_proxy(L, -2);
  lua_rawset(L, real);  // rawset: the globals may already refuse writes (reset_libraries)
  lua_pop(L, 1);
}

// cjson keeps its configuration (encode_max_depth, encode_number_precision, ...) in the library:
// a script's change lasts until the Lua state is made again, which Redis does at start and on
// SCRIPT FLUSH. A fresh library stands for a fresh one of those.
void install_cjson(lua_State* L, int real) {
  lua_pushcfunction(L, lua_libraries::open_cjson);
  lua_call(L, 0, 1);
  set_readonly_library(L, real, "cjson");
}

void set_field_function(lua_State* L, const char* name, lua_CFunction f) {
  lua_pushcfunction(L, f);
  lua_setfield(L, -2, name);
}

void set_field_integer(lua_State* L, const char* name, lua_Integer v) {
  lua_pushinteger(L, v);
  lua_setfield(L, -2, name);
}

// redis.log's levels and the server's version, which FUNCTION LOAD's API has too.
void set_log_levels_and_version(lua_State* L) {
  set_field_integer(L, "LOG_DEBUG", 0);
  set_field_integer(L, "LOG_VERBOSE", 1);
  set_field_integer(L, "LOG_NOTICE", 2);
  set_field_integer(L, "LOG_WARNING", 3);
  lua_pushstring(L, "7.0.15");
  lua_setfield(L, -2, "REDIS_VERSION");
  set_field_integer(L, "REDIS_VERSION_NUM", 0x0007000f);
}

void push_redis_library(lua_State* L) {
  lua_newtable(L);
  set_field_function(L, "call", redis_call);
  set_field_function(L, "pcall", redis_pcall);
  set_field_function(L, "error_reply", redis_error_reply);
  set_field_function(L, "status_reply", redis_status_reply);
  set_field_function(L, "sha1hex", redis_sha1hex);
  set_field_function(L, "log", redis_log);
  set_field_function(L, "setresp", redis_setresp);
  set_field_function(L, "set_repl", redis_set_repl);
  set_field_function(L, "acl_check_cmd", redis_acl_check_cmd);
  set_field_function(L, "replicate_commands", redis_replicate_commands);
  set_field_function(L, "breakpoint", redis_breakpoint);
  set_field_function(L, "debug", redis_noop);
  set_log_levels_and_version(L);
  set_field_integer(L, "REPL_NONE", 0);
  set_field_integer(L, "REPL_AOF", 1);
  set_field_integer(L, "REPL_SLAVE", 2);
  set_field_integer(L, "REPL_REPLICA", 2);
  set_field_integer(L, "REPL_ALL", 3);
}

void budget_hook(lua_State* L, lua_Debug*);

// Counts work done for the running script as `instructions` Lua instructions: past the budget
// the script stops. The hook counts the VM's; the pattern matcher its steps in C, which the hook
// cannot see (a backtracking pattern would otherwise hang the host).
void charge_work(lua_State* L, int64_t instructions) {
  ScriptRun* run = *static_cast<ScriptRun**>(lua_getextraspace(L));
  if (run == nullptr || run->charge_instructions(instructions)) return;
  // From now on every instruction raises, so a pcall inside the script cannot swallow the stop.
  lua_sethook(L, budget_hook, LUA_MASKCOUNT, 1);
  push_error_table(L, errors::instruction_budget_exceeded(static_cast<long long>(run->limit)));
  lua_error(L);
}

// A killed script raises on every instruction from then on, as Redis's hook does on every line,
// so that no pcall in the script can catch the kill and go on.
void killed_hook(lua_State* L, lua_Debug*) {
  push_error_table(L, errors::kScriptKilled);
  lua_error(L);
}

void budget_hook(lua_State* L, lua_Debug* ar) {
  charge_work(L, kHookEvery);
  ScriptRun* run = *static_cast<ScriptRun**>(lua_getextraspace(L));
  if (run == nullptr || run->loading || !run->server.script_interrupted()) return;
  lua_sethook(L, killed_hook, LUA_MASKCOUNT, 1);
  killed_hook(L, ar);
}

}  // namespace

void attach(lua_State* L, ScriptRun& run) {
  *static_cast<ScriptRun**>(lua_getextraspace(L)) = &run;
  // A new engine is a new server: its scripts start from cjson's defaults (lua_state_pool.hpp).
  reset_libraries(L);
}

void reset_libraries(lua_State* L) {
  // Most engines' scripts never touch cjson's settings; opening it again costs more than asking.
  if (!lua_libraries::cjson_settings_touched(L)) return;
  lua_getfield(L, LUA_REGISTRYINDEX, kRealGlobalsKey);
  install_cjson(L, lua_gettop(L));
  lua_pop(L, 1);
}

void detach(lua_State* L) { *static_cast<ScriptRun**>(lua_getextraspace(L)) = nullptr; }

namespace {

// Redis's Lua 5.1 functions over Lua 5.4's, in the real globals at `real`.
void install_lua51_functions(lua_State* L, int real) {
  // The functions Redis's Lua 5.1 has that need the bridge (the sandbox, the script's random
  // generator, the memory limit, read-only tables); lua51_library has the rest. A null library:
  // a global.
  struct Override {
    const char* library;
    const char* name;
    lua_CFunction f;
  };
  static constexpr Override kLua51Library[] = {
      {nullptr, "load", safe_load},                 {nullptr, "loadstring", safe_loadstring},
      {nullptr, "rawset", safe_rawset},             {nullptr, "rawget", view_aware_rawget},
      {nullptr, "setmetatable", safe_setmetatable}, {nullptr, "getmetatable", string_aware_getmetatable},
      {nullptr, "pcall", redis_style_pcall},        {nullptr, "next", ordered_next::next},
      {nullptr, "pairs", ordered_next::pairs},      {nullptr, "error", lua51_error},
      {nullptr, "tostring", lua51_tostring},
      // Redis 7.0 keeps its message handler as a global too (a script can see and call it).
      {nullptr, "__redis__err__handler", error_handler},
      {LUA_STRLIBNAME, "rep", lua51_string_rep},    {LUA_TABLIBNAME, "insert", lua51_table_insert},
      {LUA_TABLIBNAME, "remove", lua51_table_remove}, {LUA_MATHLIBNAME, "log", lua51_math_log},
      {LUA_MATHLIBNAME, "random", math_random},     {LUA_MATHLIBNAME, "randomseed", math_randomseed},
      {LUA_MATHLIBNAME, "max", math_max},           {LUA_MATHLIBNAME, "min", math_min},
  };
  for (const Override& o : kLua51Library) {
    if (o.library) lua_getfield(L, real, o.library);
    else lua_pushvalue(L, real);
    set_field_function(L, o.name, o.f);
    lua_pop(L, 1);
  }

  lua_getfield(L, real, LUA_MATHLIBNAME);
  // Lua 5.4 additions that Redis's Lua 5.1 does not have.
  for (const char* name : {"type", "tointeger", "ult", "maxinteger", "mininteger"}) {
    lua_pushnil(L);
    lua_setfield(L, -2, name);
  }
  lua_pop(L, 1);
  lua51_library::adapt(L, real, charge_work);
}

// The globals as scripts see them: a read-only view ("locksim.env") in which an unknown name is an
// error, what getmetatable(_G) shows of it, and the real table (at `real`, which it pops) kept for
// the host alone.
void install_globals_view(lua_State* L, int real) {
  // What getmetatable(_G) shows: Redis's error metatable, read-only.
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, nonexistent_global);
  lua_setfield(L, -2, "__index");
  show_readonly(L, kGlobalsMetatableKey);
  lua_pop(L, 1);
  // Scripts see the globals through a read-only proxy; an unknown global is an error.
  push_readonly_proxy(L, real);
  lua_pushvalue(L, -1);
  lua_setfield(L, real, "_G");
  lua_setfield(L, LUA_REGISTRYINDEX, "locksim.env");
  set_readonly_metatable(L, real, [&] { lua_pushcfunction(L, nonexistent_global); });
  mark_protected(L, real);
  lua_setfield(L, LUA_REGISTRYINDEX, kRealGlobalsKey);
}

}  // namespace

void install(lua_State* L) {
  detach(L);
  lua_newtable(L);
  lua_setfield(L, LUA_REGISTRYINDEX, kProtectedKey);
  lua_newtable(L);
  lua_setfield(L, LUA_REGISTRYINDEX, ordered_next::kViewsKey);

  luaL_requiref(L, "_G", luaopen_base, 1);
  lua_pop(L, 1);
  const std::pair<const char*, lua_CFunction> libraries[] = {
      {LUA_TABLIBNAME, luaopen_table},
      {LUA_STRLIBNAME, luaopen_string},
      {LUA_MATHLIBNAME, luaopen_math},
      {LUA_COLIBNAME, luaopen_coroutine},
  };
  for (const auto& [name, open] : libraries) {
    luaL_requiref(L, name, open, 1);
    lua_pop(L, 1);
  }

  lua_pushglobaltable(L);
  const int real = lua_gettop(L);
  // What Redis leaves out of its sandbox.
  for (const char* name : {"dofile", "loadfile", "print", "require", "package", "io", "os", "debug"}) {
    lua_pushnil(L);
    lua_setfield(L, real, name);
  }
  lua_getfield(L, real, "tonumber");
  lua_pushlightuserdata(L, reinterpret_cast<void*>(lua_tocfunction(L, -1)));
  lua_pushcclosure(L, lua51_tonumber, 1);
  lua_setfield(L, real, "tonumber");
  lua_pop(L, 1);

  install_lua51_functions(L, real);

  // Libraries become read-only views; the real tables stay reachable only from C.
  push_redis_library(L);
  lua_setfield(L, real, "redis");
  for (const char* name : {"redis", LUA_TABLIBNAME, LUA_STRLIBNAME, LUA_MATHLIBNAME, LUA_COLIBNAME}) {
    lua_getfield(L, real, name);
    set_readonly_library(L, real, name);
  }
  // Redis's own additions (script_lua.c's luaLoadLibraries), read-only as the others.
  const std::pair<const char*, lua_CFunction> redis_libraries[] = {
      {"struct", lua_libraries::open_struct},
      {"cmsgpack", lua_libraries::open_cmsgpack},
      {"bit", lua_libraries::open_bit},
  };
  for (const auto& [name, open] : redis_libraries) {
    lua_pushcfunction(L, open);
    lua_call(L, 0, 1);
    set_readonly_library(L, real, name);
  }
  install_cjson(L, real);
  // Strings' methods come from the read-only view, not the real string library.
  lua_pushliteral(L, "");
  lua_getmetatable(L, -1);
  lua_getfield(L, real, LUA_STRLIBNAME);
  lua_setfield(L, -2, "__index");
  show_readonly(L, kStringMetatableKey);
  lua_pop(L, 2);

  install_globals_view(L, real);
  // Lua 5.4 names a function its error message cannot name from the call ("bad argument #1 to
  // '?'" in 5.1, as under pcall(string.sub, ...)) by searching the loaded libraries; with none
  // registered it falls back to 5.1's '?'. Nothing in the sandbox loads a library after this.
  lua_newtable(L);
  lua_setfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  LS_ASSERT(lua_gettop(L) == 0);
}

void push_array(lua_State* L, const std::string_view* items, size_t count) {
  lua_createtable(L, static_cast<int>(count), 0);
  for (size_t i = 0; i < count; ++i) {
    lua_pushlstring(L, items[i].data(), items[i].size());
    lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
  }
}

void set_global_array(lua_State* L, const char* name, const std::string_view* items, size_t count) {
  lua_getfield(L, LUA_REGISTRYINDEX, kRealGlobalsKey);
  lua_pushstring(L, name);
  push_array(L, items, count);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

namespace {

// Gives the table on top an error for every name it lacks and for every write, and marks it
// read-only for rawset and setmetatable.
void refuse_unknown_and_writes(lua_State* L) {
  lua_createtable(L, 0, 2);
  lua_pushcfunction(L, nonexistent_global);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, readonly_error);
  lua_setfield(L, -2, "__newindex");
  lua_setmetatable(L, -2);
  mark_protected(L, -1);
}

}  // namespace

void install_function_api(lua_State* L, lua_CFunction register_function) {
  // The globals a library's code sees while FUNCTION LOAD runs it (function_lua.c's
  // LIBRARY_API): `redis` with register_function, log and the version, nothing else. An unknown
  // name, in the globals or in `redis`, is the nonexistent-global error.
  lua_newtable(L);
  lua_newtable(L);
  set_field_function(L, "register_function", register_function);
  set_field_function(L, "log", redis_log);
  set_log_levels_and_version(L);
  refuse_unknown_and_writes(L);
  lua_setfield(L, -2, "redis");
  refuse_unknown_and_writes(L);
  lua_setfield(L, LUA_REGISTRYINDEX, kFunctionLoadApiKey);

  // The globals every library's functions share: an empty read-only table whose metatable's
  // __index is the load API while FUNCTION LOAD runs a library's code, and the sandbox's globals
  // otherwise. A function sees the metatable (getmetatable(_G)); it is read-only too.
  lua_newtable(L);
  lua_createtable(L, 0, 2);
  lua_getfield(L, LUA_REGISTRYINDEX, "locksim.env");
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, readonly_error);
  lua_setfield(L, -2, "__newindex");
  mark_protected(L, -1);
  lua_setmetatable(L, -2);
  mark_protected(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, kFunctionGlobalsKey);
}

void push_function_globals(lua_State* L) { lua_getfield(L, LUA_REGISTRYINDEX, kFunctionGlobalsKey); }

void set_function_globals_loading(lua_State* L, bool loading) {
  push_function_globals(L);
  lua_getmetatable(L, -1);
  lua_pushliteral(L, "__index");
  lua_getfield(L, LUA_REGISTRYINDEX, loading ? kFunctionLoadApiKey : "locksim.env");
  lua_rawset(L, -3);  // rawset: the metatable refuses scripts' writes, not the host's
  lua_pop(L, 2);
}

void push_reply(lua_State* L, const Reply& reply) {
  luaL_checkstack(L, 4, "reply nested too deeply");
  switch (reply.kind) {
    case Reply::Kind::Nil:
      lua_pushboolean(L, 0);
      return;
    case Reply::Kind::Integer:
      // Redis 7.0 pushes the reply as a Lua 5.1 number (a double): beyond 10^14 the fake does too,
      // so 2^53 + 1 arrives rounded and prints as "%.14g", as in Redis.
      lua51::push_number(L, static_cast<double>(reply.integer));
      return;
    case Reply::Kind::Bulk:
      lua_pushlstring(L, reply.str.data(), reply.str.size());
      return;
    case Reply::Kind::Status:
      lua_createtable(L, 0, 1);
      lua_pushlstring(L, reply.str.data(), reply.str.size());
      lua_setfield(L, -2, "ok");
      return;
    case Reply::Kind::Error:
      push_error_table(L, reply.str);
      return;
    case Reply::Kind::Array:
    case Reply::Kind::Sequence:
      LS_ASSERT(reply.kind == Reply::Kind::Array);
      lua_createtable(L, static_cast<int>(reply.elements.size()), 0);
      for (size_t i = 0; i < reply.elements.size(); ++i) {
        push_reply(L, reply.elements[i]);
        lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
      }
      return;
  }
}

namespace {

std::string one_line(const char* s, size_t len) {
  std::string text(s, len);
  for (char& c : text)
    if (c == '\r' || c == '\n') c = ' ';
  return text;
}

// Redis casts a Lua number to long long; on x86 an out-of-range value or NaN becomes LLONG_MIN.
int64_t truncate_number(double d) {
  if (std::isnan(d) || d >= 9223372036854775808.0 || d < -9223372036854775808.0) return INT64_MIN;
  return static_cast<int64_t>(d);
}

}  // namespace

namespace {

// How deep a script's reply may nest. Redis 7.0 stops near Lua 5.1's 8000-slot C stack with an
// element "ERR reached lua stack limit"; the fake stops sooner, so that its own recursion (and a
// reply that contains itself) cannot exhaust the process's stack.
constexpr int kReplyDepthLimit = 1000;

// Redis reads a table's err, ok and double fields with lua_rawget: no metamethod runs.
int raw_field(lua_State* L, int index, const char* name) {
  lua_pushstring(L, name);
  return lua_rawget(L, index);
}

Reply to_reply_at(lua_State* L, int index, int depth) {
  index = lua_absindex(L, index);
  if (depth > kReplyDepthLimit || !lua_checkstack(L, 4)) return Reply::error("ERR reached lua stack limit");
  switch (lua_type(L, index)) {
    case LUA_TSTRING: {
      size_t len = 0;
      const char* s = lua_tolstring(L, index, &len);
      return Reply::bulk(std::string_view(s, len));
    }
    case LUA_TBOOLEAN:
      return lua_toboolean(L, index) ? Reply::integer_of(1) : Reply::nil();
    case LUA_TNUMBER:
      if (lua_isinteger(L, index)) return Reply::integer_of(lua_tointeger(L, index));
      return Reply::integer_of(truncate_number(lua_tonumber(L, index)));
    case LUA_TTABLE: {
      size_t len = 0;
      if (raw_field(L, index, "err") == LUA_TSTRING) {
        const char* s = lua_tolstring(L, -1, &len);
        Reply r = Reply::error(one_line(s, len));
        lua_pop(L, 1);
        return r;
      }
      lua_pop(L, 1);
      if (raw_field(L, index, "ok") == LUA_TSTRING) {
        const char* s = lua_tolstring(L, -1, &len);
        Reply r = Reply::status(one_line(s, len));
        lua_pop(L, 1);
        return r;
      }
      lua_pop(L, 1);
      if (raw_field(L, index, "double") == LUA_TNUMBER) {
        Reply r = Reply::bulk(format_double(lua_tonumber(L, -1)));
        lua_pop(L, 1);
        return r;
      }
      lua_pop(L, 1);
      Reply array = Reply::array();
      for (lua_Integer i = 1;; ++i) {
        if (lua_rawgeti(L, index, i) == LUA_TNIL) {
          lua_pop(L, 1);
          break;
        }
        array.elements.push_back(to_reply_at(L, -1, depth + 1));
        lua_pop(L, 1);
      }
      return array;
    }
    default:
      return Reply::nil();
  }
}

}  // namespace

Reply to_reply(lua_State* L, int index) { return to_reply_at(L, index, 0); }

int error_handler(lua_State* L) {
  lua_settop(L, 1);  // called by a script with nothing, it handles nil, as Redis's does
  lua_Debug ar;
  bool located = lua_getstack(L, 1, &ar) && lua_getinfo(L, "Sl", &ar);
  if (located && ar.what[0] == 'C') located = lua_getstack(L, 2, &ar) && lua_getinfo(L, "Sl", &ar);
  if (!lua_istable(L, 1)) {
    size_t len = 0;
    const char* msg = luaL_tolstring(L, 1, &len);
    const std::string text = errors::err(lua51_messages::as_lua51_runtime_message(std::string(msg, len)));
    lua_pop(L, 1);
    push_error_table(L, text);
    lua_replace(L, 1);
  }
  lua_settop(L, 1);
  if (located && ar.currentline > 0) {
    lua_pushstring(L, ar.source);
    lua_setfield(L, 1, "source");
    lua_pushinteger(L, ar.currentline);
    lua_setfield(L, 1, "line");
  }
  return 1;
}

void arm_budget(lua_State* L, bool loading) {
  lua51_library::reset_protected(L);
  ScriptRun& run = run_of(L);
  run.executed = 0;
  run.loading = loading;
  run.limit = loading ? std::min(run.budget, ScriptRun::kLoadBudget) : run.budget;
  lua_sethook(L, budget_hook, LUA_MASKCOUNT, kHookEvery);
}

void disarm_budget(lua_State* L) { lua_sethook(L, nullptr, 0, 0); }

bool over_budget(lua_State* L) { return run_of(L).executed > run_of(L).limit; }

}  // namespace locksim::engine::lua_bridge
