#include "engine/lua51_library.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <lua.hpp>

#include "base/assert.hpp"
#include "engine/lua51.hpp"
#include "engine/lua51_messages.hpp"
#include "engine/ordered_next.hpp"

namespace locksim::engine::lua51_library {
namespace {

using lua51::c_int;

int check_int(lua_State* L, int arg) { return c_int(lua51::check_integer(L, arg)); }

// How 5.1's C function reads an argument that 5.4's reads differently.
enum class Read : uint8_t {
  As54,        // the same way
  Text,        // luaL_checklstring: a string, or a number as its "%.14g" text
  Int,         // luaL_checkint: a number or numeric string, truncated, then its low 32 bits
  OptInt,      // luaL_optint: the same unless none or nil
  Integer,     // luaL_checkinteger: truncated
  OptInteger,  // luaL_optinteger
  Table,       // luaL_checktype(LUA_TTABLE)
  OptFunction, // a function unless none or nil
};

struct Reading {
  const char* library;  // nullptr: a global
  const char* name;
  std::array<Read, 4> args;
  bool second_first = false;  // checks that argument 2 is a number before anything else
};

constexpr Reading kReadings[] = {
    {LUA_STRLIBNAME, "byte", {Read::Text, Read::OptInteger, Read::OptInteger}},
    {LUA_STRLIBNAME, "len", {Read::Text}},
    {LUA_STRLIBNAME, "lower", {Read::Text}},
    {LUA_STRLIBNAME, "reverse", {Read::Text}},
    {LUA_STRLIBNAME, "sub", {Read::Text, Read::Integer, Read::OptInteger}},
    {LUA_STRLIBNAME, "upper", {Read::Text}},
    {LUA_TABLIBNAME, "sort", {Read::Table, Read::OptFunction}},
    // random's arguments depend on how many there are: it checks them itself.
    {LUA_MATHLIBNAME, "random", {Read::OptInt, Read::OptInt}},
    {LUA_MATHLIBNAME, "randomseed", {Read::Int}},
    {LUA_MATHLIBNAME, "ldexp", {Read::As54, Read::Int}, true},
    {LUA_MATHLIBNAME, "pow", {}, true},
    {LUA_MATHLIBNAME, "atan2", {}, true},
    {nullptr, "error", {Read::As54, Read::OptInt}},
};

// The function a Reading wraps runs in this frame, so that its errors name it as it is called
// (upvalue 1: the wrapped function's own upvalue, which it reads as its first; 2: the wrapped C
// function; 3: the Reading).
int read_as_51(lua_State* L) {
  auto original = reinterpret_cast<lua_CFunction>(lua_touserdata(L, lua_upvalueindex(2)));
  const Reading& r = *static_cast<const Reading*>(lua_touserdata(L, lua_upvalueindex(3)));
  if (r.second_first && !lua_isnumber(L, 2)) lua51::type_error(L, 2, "number");
  for (int arg = 1; arg <= static_cast<int>(r.args.size()); ++arg) {
    const Read how = r.args[static_cast<size_t>(arg - 1)];
    if (how == Read::Text) lua51::check_string(L, arg);
    if (how == Read::Table && lua_type(L, arg) != LUA_TTABLE) lua51::type_error(L, arg, "table");
    if (how == Read::OptFunction && !lua_isnoneornil(L, arg) && lua_type(L, arg) != LUA_TFUNCTION)
      lua51::type_error(L, arg, "function");
    const bool optional = how == Read::OptInt || how == Read::OptInteger;
    if (how == Read::Int || how == Read::Integer || (optional && !lua_isnoneornil(L, arg))) {
      const int64_t v = lua51::check_integer(L, arg);
      lua_pushinteger(L, how == Read::Int || how == Read::OptInt ? c_int(v) : v);
      lua_replace(L, arg);
    }
  }
  return original(L);
}

void wrap(lua_State* L, int real, const Reading& r) {
  if (r.library) lua_getfield(L, real, r.library);
  else lua_pushvalue(L, real);
  const int library = lua_gettop(L);
  lua_getfield(L, library, r.name);
  const lua_CFunction f = lua_tocfunction(L, -1);
  LS_ASSERT(f != nullptr);
  // Its first upvalue, if any; read_as_51 can lend it only one.
  if (lua_getupvalue(L, -1, 1) == nullptr) lua_pushnil(L);
  LS_ASSERT(lua_getupvalue(L, -2, 2) == nullptr);
  lua_pushlightuserdata(L, reinterpret_cast<void*>(f));
  lua_pushlightuserdata(L, const_cast<Reading*>(&r));
  lua_pushcclosure(L, read_as_51, 3);
  lua_setfield(L, library, r.name);
  lua_settop(L, library - 1);
}

// --- 5.1's own, where 5.4's differs in more than reading its arguments (lbaselib.c, lstrlib.c,
// ltablib.c of 5.1.5).

int select(lua_State* L) {
  const int n = lua_gettop(L);
  if (lua_type(L, 1) == LUA_TSTRING && *lua_tostring(L, 1) == '#') {
    lua_pushinteger(L, n - 1);
    return 1;
  }
  int i = check_int(L, 1);
  if (i < 0) i = n + i;
  else if (i > n) i = n;
  luaL_argcheck(L, 1 <= i, 1, "index out of range");
  return n - i;
}

// 5.1's C stack holds at most LUAI_MAXCSTACK values, the arguments included.
constexpr int kMaxCStack = 8000;

int check_table(lua_State* L, int arg) {
  if (lua_type(L, arg) != LUA_TTABLE) lua51::type_error(L, arg, "table");
  return c_int(static_cast<int64_t>(lua_rawlen(L, arg)));
}

int unpack(lua_State* L) {
  const int length = check_table(L, 1);
  int i = lua_isnoneornil(L, 2) ? 1 : check_int(L, 2);
  const int e = lua_isnoneornil(L, 3) ? length : check_int(L, 3);
  if (i > e) return 0;
  const int n = c_int(int64_t{e} - int64_t{i} + 1);  // wraps as 5.1's int arithmetic does
  if (n <= 0 || n > kMaxCStack - lua_gettop(L) || !lua_checkstack(L, n)) return luaL_error(L, "too many results to unpack");
  lua_rawgeti(L, 1, i);
  while (i++ < e) lua_rawgeti(L, 1, i);
  return n;
}

int ipairs_next(lua_State* L) {
  const int i = check_int(L, 2) + 1;
  check_table(L, 1);
  lua_pushinteger(L, i);
  lua_rawgeti(L, 1, i);
  return lua_isnil(L, -1) ? 0 : 2;
}

int ipairs(lua_State* L) {
  check_table(L, 1);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushvalue(L, 1);
  lua_pushinteger(L, 0);
  return 3;
}

int string_char(lua_State* L) {
  const int n = lua_gettop(L);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (int i = 1; i <= n; ++i) {
    const int c = check_int(L, i);
    luaL_argcheck(L, static_cast<unsigned char>(c) == c, i, "invalid value");
    luaL_addchar(&b, static_cast<char>(static_cast<unsigned char>(c)));
  }
  luaL_pushresult(&b);
  return 1;
}

// A table's numbers join as 5.1 prints them (5.4: 2.0 as "2.0"); the separator is checked first;
// a value that is neither is named as Redis's patched 5.1 names it.
int table_concat(lua_State* L) {
  const std::string_view sep = lua_isnoneornil(L, 2) ? std::string_view() : lua51::check_string(L, 2);
  const int length = check_table(L, 1);
  int i = lua_isnoneornil(L, 3) ? 1 : check_int(L, 3);
  const int last = lua_isnoneornil(L, 4) ? length : check_int(L, 4);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  const auto add = [&](int at) {
    lua_rawgeti(L, 1, at);
    const int type = lua_type(L, -1);
    if (type != LUA_TSTRING && type != LUA_TNUMBER)
      luaL_error(L, "invalid value (%s) at index %d in table for 'concat'", luaL_typename(L, -1), at);  // Redis's wording
    lua51::check_string(L, lua_gettop(L));
    luaL_addvalue(&b);
  };
  for (; i < last; ++i) {
    add(i);
    luaL_addlstring(&b, sep.data(), sep.size());
  }
  if (i == last) add(i);
  luaL_pushresult(&b);
  return 1;
}

// floor, ceil and modf give 5.1's doubles: -0 stays -0, and 2^53 prints as 5.1 prints it (5.4
// turns an integral result into an integer).
int math_floor(lua_State* L) {
  lua51::push_number(L, std::floor(lua51::check_number(L, 1)));
  return 1;
}

int math_ceil(lua_State* L) {
  lua51::push_number(L, std::ceil(lua51::check_number(L, 1)));
  return 1;
}

// 5.1's fmod is C's on doubles (5.4 refuses an integer 0: "zero"), and checks argument 2 first.
int math_fmod(lua_State* L) {
  const double y = lua51::check_number(L, 2);
  lua51::push_number(L, std::fmod(lua51::check_number(L, 1), y));
  return 1;
}

int math_modf(lua_State* L) {
  double whole = 0;
  const double fraction = std::modf(lua51::check_number(L, 1), &whole);
  lua51::push_number(L, whole);
  lua51::push_number(L, fraction);
  return 2;
}

// The message must be a string or a number, and the error gets the script's position (5.4 raises
// the message as it is).
int assert_(lua_State* L) {
  luaL_checkany(L, 1);
  if (lua_toboolean(L, 1)) return lua_gettop(L);
  // "%s": a message ends at its first NUL, as in 5.1.
  return luaL_error(L, "%s", lua_isnoneornil(L, 2) ? "assertion failed!" : lua51::check_string(L, 2).data());
}

// A format item's spec as C's sprintf takes it: at most '%', 5 flags, 2+1+2 digits and a point,
// 'l' and the option.
struct FormatSpec {
  std::array<char, 16> text{};
  size_t length = 0;
  void add(char c) { text[length++] = c; }
  bool has_precision() const { return std::memchr(text.data(), '.', length) != nullptr; }
};

// 5.1's scanformat: the flags, width and precision of the item whose '%' is before format[i],
// leaving `i` at its option. 5.1 reads the string's terminating NUL where a spec runs past the end.
FormatSpec scan_format(lua_State* L, std::string_view format, size_t& i) {
  const auto at = [&](size_t k) { return k < format.size() ? format[k] : '\0'; };
  const auto digit = [&](size_t k) { return at(k) >= '0' && at(k) <= '9'; };
  const size_t spec_start = i;
  while (at(i) != '\0' && std::strchr("-+ #0", at(i)) != nullptr) ++i;
  if (i - spec_start >= 6) luaL_error(L, "invalid format (repeated flags)");
  for (int d = 0; d < 2 && digit(i); ++d) ++i;
  if (at(i) == '.') {
    ++i;
    for (int d = 0; d < 2 && digit(i); ++d) ++i;
  }
  if (digit(i)) luaL_error(L, "invalid format (width or precision too long)");
  FormatSpec spec;
  spec.add('%');
  for (size_t k = spec_start; k < i; ++k) spec.add(format[k]);
  return spec;
}

// 5.1's addquoted: "%q".
void add_quoted(luaL_Buffer& b, std::string_view s) {
  luaL_addchar(&b, '"');
  for (const char c : s) {
    if (c == '"' || c == '\\' || c == '\n') {
      luaL_addchar(&b, '\\');
      luaL_addchar(&b, c);
    } else if (c == '\r') {
      luaL_addstring(&b, "\\r");
    } else if (c == '\0') {
      luaL_addstring(&b, "\\000");
    } else {
      luaL_addchar(&b, c);
    }
  }
  luaL_addchar(&b, '"');
}

// One item of string.format: option `option` of `spec` applied to argument `arg`, added to `b`.
void add_format_item(lua_State* L, luaL_Buffer& b, FormatSpec& spec, char option, int arg) {
  std::array<char, 512> item{};  // 5.1's MAX_ITEM: 99 digits of precision after 309 of a double fit
  switch (option) {
    case 'c':
      spec.add('c');
      std::snprintf(item.data(), item.size(), spec.text.data(), lua51::double_to_int(lua51::check_number(L, arg)));
      break;
    case 'd':
    case 'i':
      spec.add('l');
      spec.add(option);
      std::snprintf(item.data(), item.size(), spec.text.data(),
                    static_cast<long>(lua51::double_to_int64(lua51::check_number(L, arg))));
      break;
    case 'o':
    case 'u':
    case 'x':
    case 'X':
      spec.add('l');
      spec.add(option);
      std::snprintf(item.data(), item.size(), spec.text.data(),
                    static_cast<unsigned long>(lua51::double_to_uint64(lua51::check_number(L, arg))));
      break;
    case 'e':
    case 'E':
    case 'f':
    case 'g':
    case 'G':
      spec.add(option);
      std::snprintf(item.data(), item.size(), spec.text.data(), lua51::check_number(L, arg));
      break;
    case 'q':
      add_quoted(b, lua51::check_string(L, arg));
      return;
    case 's': {
      const std::string_view s = lua51::check_string(L, arg);
      if (!spec.has_precision() && s.size() >= 100) {
        lua_pushvalue(L, arg);
        luaL_addvalue(&b);
        return;
      }
      spec.add('s');
      std::snprintf(item.data(), item.size(), spec.text.data(), s.data());
      break;
    }
    case '\0':  // a format ending in '%': 5.1 prints the NUL it reads as its option as nothing
      luaL_error(L, "invalid option '%%' to 'format'");
      return;
    default:
      luaL_error(L, "invalid option '%%%c' to 'format'", option);
      return;
  }
  luaL_addstring(&b, item.data());
}

// 5.1's string.format (str_format of lstrlib.c): at most 5 flags and 2 digits of width and of
// precision; each item is C's sprintf of the spec and added up to its first NUL, so "%c" of 0 adds
// nothing and "%5s" of "a\0b" pads "a"; integer options truncate the number (5.4 refuses a
// fraction); "%s" and "%q" take a string or a number only (5.4: any value), and a string of 100
// bytes or more under a "%s" without a precision is added whole.
int string_format(lua_State* L) {
  const int top = lua_gettop(L);
  int arg = 1;
  const std::string_view format = lua51::check_string(L, arg);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  size_t i = 0;
  while (i < format.size()) {
    if (format[i] != '%') {
      luaL_addchar(&b, format[i++]);
      continue;
    }
    if (++i < format.size() && format[i] == '%') {
      luaL_addchar(&b, '%');
      ++i;
      continue;
    }
    if (++arg > top) luaL_argerror(L, arg, "no value");
    FormatSpec spec = scan_format(L, format, i);
    const char option = i < format.size() ? format[i] : '\0';
    ++i;
    add_format_item(L, b, spec, option, arg);
  }
  luaL_pushresult(&b);
  return 1;
}

int table_getn(lua_State* L) {
  lua_pushinteger(L, check_table(L, 1));
  return 1;
}

int table_maxn(lua_State* L) {
  check_table(L, 1);
  lua_Number max = 0;
  lua_pushnil(L);
  while (lua_next(L, 1)) {
    lua_pop(L, 1);
    if (lua_type(L, -1) == LUA_TNUMBER && lua_tonumber(L, -1) > max) max = lua_tonumber(L, -1);
  }
  lua51::push_number(L, max);
  return 1;
}

int table_setn(lua_State* L) {
  check_table(L, 1);
  return luaL_error(L, "'setn' is obsolete");
}

int table_foreachi(lua_State* L) {
  const int n = check_table(L, 1);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  for (int i = 1; i <= n; ++i) {
    lua_pushvalue(L, 2);
    lua_pushinteger(L, i);
    lua_rawgeti(L, 1, i);
    lua_call(L, 2, 1);
    if (!lua_isnil(L, -1)) return 1;
    lua_pop(L, 1);
  }
  return 0;
}

// foreach walks the table in the order pairs does (ordered_next.hpp): 5.4's native order depends
// on the state's string-hash seed, and the function it calls may act on what it is given.
int table_foreach(lua_State* L) {
  check_table(L, 1);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_settop(L, 2);
  lua_pushnil(L);  // 3: the key reached
  for (;;) {
    lua_pushcfunction(L, ordered_next::next);
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 3);
    lua_call(L, 2, 2);
    if (lua_isnil(L, -2)) return 0;
    lua_pushvalue(L, 2);
    lua_pushvalue(L, -3);
    lua_pushvalue(L, -3);
    lua_call(L, 2, 1);
    if (!lua_isnil(L, -1)) return 1;
    lua_pop(L, 2);
    lua_replace(L, 3);
  }
}

int gcinfo(lua_State* L) {
  lua_pushinteger(L, lua_gc(L, LUA_GCCOUNT, 0));
  return 1;
}

// The message handler xpcall hands (upvalue 1) a message in 5.1's words.
int reworded_handler(lua_State* L) {
  lua_settop(L, 1);
  lua51_messages::reword_top(L);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, 1, 1);
  return 1;
}

// 5.1's xpcall calls its function with no arguments (5.4 passes the rest along).
int xpcall(lua_State* L) {
  luaL_checkany(L, 2);
  lua_settop(L, 2);
  lua_pushcclosure(L, reworded_handler, 1);
  lua_insert(L, 1);
  enter_protected(L, 1);
  const int status = lua_pcall(L, 0, LUA_MULTRET, 1);
  leave_protected(L);
  lua_pushboolean(L, status == LUA_OK);
  lua_replace(L, 1);
  return lua_gettop(L);
}

// collectgarbage takes 5.1's options only (5.4 adds "incremental", "generational", "isrunning").
int collectgarbage(lua_State* L) {
  static const char* const kOptions[] = {"stop", "restart", "collect", "count", "step", "setpause", "setstepmul", nullptr};
  luaL_checkoption(L, 1, "collect", kOptions);
  return reinterpret_cast<lua_CFunction>(lua_touserdata(L, lua_upvalueindex(1)))(L);
}

// --- coroutine: 5.1 runs only Lua functions as coroutines, names a bad argument "coroutine
// expected", words a resume that cannot happen by the coroutine's state, and cannot yield across
// a C function, a metamethod or a for iterator (5.4 can, mostly).

lua_State* check_coroutine(lua_State* L) {
  lua_State* co = lua_tothread(L, 1);
  luaL_argcheck(L, co != nullptr, 1, "coroutine expected");
  return co;
}

void check_lua_function(lua_State* L) {
  luaL_argcheck(L, lua_isfunction(L, 1) && !lua_iscfunction(L, 1), 1, "Lua function expected");
}

// 5.4's auxstatus, named as 5.1 names the states.
const char* coroutine_state(lua_State* L, lua_State* co) {
  if (L == co) return "running";
  switch (lua_status(co)) {
    case LUA_YIELD:
      return "suspended";
    case LUA_OK: {
      lua_Debug ar;
      if (lua_getstack(co, 0, &ar)) return "normal";
      return lua_gettop(co) == 0 ? "dead" : "suspended";
    }
    default:
      return "dead";
  }
}

// The wrapped 5.4 function is upvalue 1 of these.
int call_original(lua_State* L) { return reinterpret_cast<lua_CFunction>(lua_touserdata(L, lua_upvalueindex(1)))(L); }

int coroutine_create(lua_State* L) {
  check_lua_function(L);
  return call_original(L);
}

int coroutine_resume(lua_State* L) {
  lua_State* co = check_coroutine(L);
  const char* state = coroutine_state(L, co);
  if (std::strcmp(state, "suspended") != 0) {
    lua_pushboolean(L, 0);
    lua_pushfstring(L, "cannot resume %s coroutine", state);
    return 2;
  }
  const int results = call_original(L);
  if (results == 2 && !lua_toboolean(L, -2)) lua51_messages::reword_top(L);
  return results;
}

int coroutine_status(lua_State* L) {
  lua_pushstring(L, coroutine_state(L, check_coroutine(L)));
  return 1;
}

// 5.1 answers nil in the main thread (5.4: the thread and true).
int coroutine_running(lua_State* L) {
  if (lua_pushthread(L)) lua_pushnil(L);
  return 1;
}

int coroutine_yield(lua_State* L) {
  bool crosses = !lua_isyieldable(L);
  lua_Debug ar;
  for (int level = 1; !crosses && lua_getstack(L, level, &ar); ++level) {
    lua_getinfo(L, "Sn", &ar);
    crosses = *ar.what == 'C' || (ar.namewhat != nullptr && (std::strcmp(ar.namewhat, "metamethod") == 0 ||
                                                             std::strcmp(ar.namewhat, "for iterator") == 0));
  }
  if (crosses) {
    lua_pushliteral(L, "attempt to yield across metamethod/C-call boundary");
    return lua_error(L);
  }
  return lua_yield(L, lua_gettop(L));
}

// --- Arithmetic on strings. 5.1's VM reads a string operand as luaO_str2d does and computes on
// doubles; 5.4 leaves strings to the string metatable, whose methods read them as 5.4 does ("inf"
// is no number) and word a failure their own way ("attempt to add a 'string' with a 'number'").
// These stand in: 5.1's reading, its arithmetic (a % b is a - floor(a/b)*b), and its message,
// though without the variable's name, which a metamethod cannot know.

bool arith_operand(lua_State* L, int i, double& out) {
  if (lua_type(L, i) == LUA_TNUMBER) {
    out = lua_tonumber(L, i);
    return true;
  }
  return lua_type(L, i) == LUA_TSTRING && lua51::str2d(lua_tostring(L, i), out);
}

template <char Op>
int string_arith(lua_State* L) {
  double a = 0;
  double b = 0;
  const bool a_ok = arith_operand(L, 1, a);
  const bool b_ok = Op == 'u' || arith_operand(L, 2, b);  // __unm: (a, a)
  // 5.1 blames the first operand when it is not a number, else the second.
  if (!a_ok || !b_ok) return luaL_error(L, "attempt to perform arithmetic on a %s value", luaL_typename(L, a_ok ? 2 : 1));
  double r = 0;
  switch (Op) {
    case '+': r = a + b; break;
    case '-': r = a - b; break;
    case '*': r = a * b; break;
    case '/': r = a / b; break;
    case '%': r = a - std::floor(a / b) * b; break;
    case '^': r = std::pow(a, b); break;
    default: r = -a; break;
  }
  lua51::push_number(L, r);
  return 1;
}

// Sets the value on top as `name` of `library` in the globals at `real` (a null library: a global).
void set(lua_State* L, int real, const char* library, const char* name) {
  if (library) lua_getfield(L, real, library);
  else lua_pushvalue(L, real);
  lua_insert(L, -2);
  lua_setfield(L, -2, name);
  lua_pop(L, 1);
}

}  // namespace

void adapt(lua_State* L, int real, lua51_pattern::ChargeWork charge_work) {
  for (const Reading& r : kReadings) wrap(L, real, r);

  lua_pushcfunction(L, ipairs_next);
  lua_pushcclosure(L, ipairs, 1);
  lua_setfield(L, real, "ipairs");
  const std::tuple<const char*, const char*, lua_CFunction> own[] = {
      {nullptr, "select", select},                 {nullptr, "unpack", unpack},
      {nullptr, "gcinfo", gcinfo},                 {nullptr, "assert", assert_},
      {nullptr, "xpcall", xpcall},
      {LUA_STRLIBNAME, "char", string_char},       {LUA_STRLIBNAME, "format", string_format},
      {LUA_TABLIBNAME, "concat", table_concat},
      {LUA_TABLIBNAME, "getn", table_getn},        {LUA_TABLIBNAME, "maxn", table_maxn},
      {LUA_TABLIBNAME, "setn", table_setn},        {LUA_TABLIBNAME, "foreach", table_foreach},
      {LUA_TABLIBNAME, "foreachi", table_foreachi}, {LUA_MATHLIBNAME, "floor", math_floor},
      {LUA_MATHLIBNAME, "ceil", math_ceil},        {LUA_MATHLIBNAME, "modf", math_modf},
      {LUA_MATHLIBNAME, "fmod", math_fmod},        {LUA_COLIBNAME, "status", coroutine_status},
      {LUA_COLIBNAME, "running", coroutine_running}, {LUA_COLIBNAME, "yield", coroutine_yield},
  };
  for (const auto& [library, name, f] : own) {
    lua_pushcfunction(L, f);
    set(L, real, library, name);
  }
  lua_pushliteral(L, "Lua 5.1");
  lua_setfield(L, real, "_VERSION");
  // Around 5.4's own (upvalue 1).
  const std::tuple<const char*, const char*, lua_CFunction> around[] = {
      {nullptr, "collectgarbage", collectgarbage},
      {LUA_COLIBNAME, "create", coroutine_create},
      {LUA_COLIBNAME, "wrap", coroutine_create},
      {LUA_COLIBNAME, "resume", coroutine_resume},
  };
  for (const auto& [library, name, f] : around) {
    if (library) lua_getfield(L, real, library);
    else lua_pushvalue(L, real);
    lua_getfield(L, -1, name);
    const lua_CFunction original = lua_tocfunction(L, -1);
    lua_pop(L, 2);
    lua_pushlightuserdata(L, reinterpret_cast<void*>(original));
    lua_pushcclosure(L, f, 1);
    set(L, real, library, name);
  }
  const std::pair<const char*, lua_CFunction> matching[] = {
      {"find", lua51_pattern::find}, {"match", lua51_pattern::match},
      {"gmatch", lua51_pattern::gmatch}, {"gsub", lua51_pattern::gsub},
  };
  for (const auto& [name, f] : matching) {
    lua_pushlightuserdata(L, reinterpret_cast<void*>(charge_work));
    lua_pushcclosure(L, f, 1);
    set(L, real, LUA_STRLIBNAME, name);
  }
  lua_pushliteral(L, "");
  lua_getmetatable(L, -1);
  const std::pair<const char*, lua_CFunction> arithmetic[] = {
      {"__add", string_arith<'+'>}, {"__sub", string_arith<'-'>}, {"__mul", string_arith<'*'>},
      {"__div", string_arith<'/'>}, {"__mod", string_arith<'%'>}, {"__pow", string_arith<'^'>},
      {"__unm", string_arith<'u'>},
  };
  for (const auto& [event, f] : arithmetic) {
    lua_pushcfunction(L, f);
    lua_setfield(L, -2, event);
  }
  lua_pop(L, 2);
  // 5.1's compatibility names (LUA_COMPAT_MOD, LUA_COMPAT_GFIND), as Redis builds it.
  lua_getfield(L, real, LUA_MATHLIBNAME);
  lua_getfield(L, -1, "fmod");
  lua_setfield(L, -2, "mod");
  lua_pop(L, 1);
  lua_getfield(L, real, LUA_STRLIBNAME);
  lua_getfield(L, -1, "gmatch");
  lua_setfield(L, -2, "gfind");
  lua_pop(L, 1);

  // What 5.4 added.
  for (const char* name : {"rawlen", "warn"}) {
    lua_pushnil(L);
    lua_setfield(L, real, name);
  }
  const std::pair<const char*, const char*> added[] = {
      {LUA_TABLIBNAME, "move"},      {LUA_TABLIBNAME, "pack"},    {LUA_TABLIBNAME, "unpack"},
      {LUA_STRLIBNAME, "pack"},      {LUA_STRLIBNAME, "unpack"},  {LUA_STRLIBNAME, "packsize"},
      {LUA_COLIBNAME, "close"},      {LUA_COLIBNAME, "isyieldable"},
  };
  for (const auto& [library, name] : added) {
    lua_pushnil(L);
    set(L, real, library, name);
  }
}

// The handlers put in effect, per coroutine: the registry's table at kHandlersKey maps a thread to
// a sequence of its handlers (false for none), the latest last.
namespace {
constexpr const char* kHandlersKey = "locksim.handlers";

// Pushes this thread's sequence (made when `create`); false, nothing pushed, when it has none.
bool push_handlers(lua_State* L, bool create) {
  if (lua_getfield(L, LUA_REGISTRYINDEX, kHandlersKey) != LUA_TTABLE) {
    lua_pop(L, 1);
    if (!create) return false;
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, kHandlersKey);
  }
  lua_pushthread(L);
  if (lua_rawget(L, -2) != LUA_TTABLE) {
    lua_pop(L, 1);
    if (!create) {
      lua_pop(L, 1);
      return false;
    }
    lua_newtable(L);
    lua_pushthread(L);
    lua_pushvalue(L, -2);
    lua_rawset(L, -4);
  }
  lua_remove(L, -2);
  return true;
}
}  // namespace

void enter_protected(lua_State* L, int handler) {
  handler = handler == 0 ? 0 : lua_absindex(L, handler);
  push_handlers(L, true);
  if (handler == 0) lua_pushboolean(L, 0);
  else lua_pushvalue(L, handler);
  lua_rawseti(L, -2, static_cast<lua_Integer>(lua_rawlen(L, -2)) + 1);
  lua_pop(L, 1);
}

void leave_protected(lua_State* L) {
  if (!push_handlers(L, false)) return;
  lua_pushnil(L);
  lua_rawseti(L, -2, static_cast<lua_Integer>(lua_rawlen(L, -2)));
  lua_pop(L, 1);
}

Handler handler_in_effect(lua_State* L) {
  const bool main = lua_pushthread(L) == 1;
  lua_pop(L, 1);
  if (!push_handlers(L, false)) return main ? Handler::Script : Handler::None;
  const auto n = static_cast<lua_Integer>(lua_rawlen(L, -1));
  if (n == 0) {
    lua_pop(L, 1);
    return main ? Handler::Script : Handler::None;
  }
  lua_rawgeti(L, -1, n);
  lua_remove(L, -2);
  if (lua_isfunction(L, -1)) return Handler::Own;
  lua_pop(L, 1);
  return Handler::None;
}

void reset_protected(lua_State* L) {
  lua_pushnil(L);
  lua_setfield(L, LUA_REGISTRYINDEX, kHandlersKey);
}

}  // namespace locksim::engine::lua51_library
