#include "engine/function_lua.hpp"

#include <cstdlib>
#include <lua.hpp>
#include <strings.h>

#include "base/assert.hpp"
#include "engine/errors.hpp"
#include "engine/lua51_compile.hpp"
#include "engine/lua51_messages.hpp"
#include "engine/lua_bridge.hpp"
#include "engine/script_flags.hpp"
#include "engine/script_run.hpp"

namespace locksim::engine::function_lua {
namespace {

constexpr const char* kLoadingKey = "locksim.function_loading";  // the Loaded being filled, while a load runs

// Raises {err = "ERR <text>"}, as luaPushError and luaError do.
[[noreturn]] void raise(lua_State* L, std::string_view text) {
  lua_createtable(L, 0, 1);
  const std::string err = errors::err(text);
  lua_pushlstring(L, err.data(), err.size());
  lua_setfield(L, -2, "err");
  lua_error(L);
  std::abort();  // lua_error does not return
}

// A string argument, as luaGetStringSds reads one (a number is taken as its text).
std::optional<std::string> string_at(lua_State* L, int index) {
  if (!lua_isstring(L, index)) return std::nullopt;
  size_t len = 0;
  const char* s = lua_tolstring(L, index, &len);
  return std::string(s, len);
}

// luaRegisterFunctionReadFlags: the table on top, an array of known flag names.
std::optional<uint64_t> read_flags(lua_State* L) {
  uint64_t flags = 0;
  for (lua_Integer j = 1;; ++j) {
    lua_pushinteger(L, j);
    lua_gettable(L, -2);
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      return flags;
    }
    if (!lua_isstring(L, -1)) {
      lua_pop(L, 1);
      return std::nullopt;
    }
    const auto flag = script_flags::named(lua_tostring(L, -1), /*nocase=*/true);
    if (flag) flags |= *flag;
    lua_pop(L, 1);
    if (!flag) return std::nullopt;
  }
}

// Raises `text`, releasing the callback already taken into the registry (if any).
[[noreturn]] void refuse(lua_State* L, std::optional<int> ref, std::string_view text) {
  if (ref) luaL_unref(L, LUA_REGISTRYINDEX, *ref);
  raise(L, text);
}

// luaRegisterFunctionReadNamedArgs: redis.register_function{function_name=, callback=, ...}.
Registered read_named(lua_State* L) {
  if (!lua_istable(L, 1))
    raise(L, "calling redis.register_function with a single argument is only applicable to Lua table "
             "(representing named arguments).");
  Registered r;
  std::optional<std::string> name;
  std::optional<int> ref;
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    if (!lua_isstring(L, -2)) refuse(L, ref, "named argument key given to redis.register_function is not a string");
    const std::string key = lua_tostring(L, -2);
    if (strcasecmp(key.c_str(), "function_name") == 0) {
      name = string_at(L, -1);
      if (!name) refuse(L, ref, "function_name argument given to redis.register_function must be a string");
    } else if (strcasecmp(key.c_str(), "description") == 0) {
      r.description = string_at(L, -1);
      if (!r.description) refuse(L, ref, "description argument given to redis.register_function must be a string");
    } else if (strcasecmp(key.c_str(), "callback") == 0) {
      if (!lua_isfunction(L, -1)) refuse(L, ref, "callback argument given to redis.register_function must be a function");
      if (ref) luaL_unref(L, LUA_REGISTRYINDEX, *ref);  // given twice (two spellings): the last one counts
      ref = luaL_ref(L, LUA_REGISTRYINDEX);
      continue;  // luaL_ref popped the value
    } else if (strcasecmp(key.c_str(), "flags") == 0) {
      if (!lua_istable(L, -1))
        refuse(L, ref, "flags argument to redis.register_function must be a table representing function flags");
      const auto flags = read_flags(L);
      if (!flags) refuse(L, ref, "unknown flag given");
      r.flags = *flags;
    } else {
      refuse(L, ref, "unknown argument given to redis.register_function");
    }
    lua_pop(L, 1);
  }
  if (!name) refuse(L, ref, "redis.register_function must get a function name argument");
  if (!ref) raise(L, "redis.register_function must get a callback argument");
  r.name = std::move(*name);
  r.ref = *ref;
  return r;
}

// luaRegisterFunctionReadPositionalArgs: redis.register_function(name, callback).
Registered read_positional(lua_State* L) {
  auto name = string_at(L, 1);
  if (!name) raise(L, "first argument to redis.register_function must be a string");
  if (!lua_isfunction(L, 2)) raise(L, "second argument to redis.register_function must be a function");
  Registered r;
  r.name = std::move(*name);
  r.ref = luaL_ref(L, LUA_REGISTRYINDEX);
  return r;
}

// luaRegisterFunction, with functionLibCreateFunction's checks.
int register_function(lua_State* L) {
  lua_getfield(L, LUA_REGISTRYINDEX, kLoadingKey);
  auto* loaded = static_cast<Loaded*>(lua_touserdata(L, -1));
  lua_pop(L, 1);
  if (loaded == nullptr) raise(L, "redis.register_function can only be called on FUNCTION LOAD command");
  const int argc = lua_gettop(L);
  if (argc < 1 || argc > 2) raise(L, "wrong number of arguments to redis.register_function");
  Registered r = argc == 1 ? read_named(L) : read_positional(L);
  if (!valid_name(r.name)) refuse(L, r.ref, errors::kBadFunctionName);
  for (const Registered& other : loaded->functions)
    if (other.name == r.name) refuse(L, r.ref, "Function already exists in the library");
  loaded->functions.push_back(std::move(r));
  return 0;
}

// luaExtractErrorInformation's message: a string error gets "ERR ", a table gives its err.
std::string error_message(lua_State* L) {
  if (lua_type(L, -1) == LUA_TSTRING) return errors::err(lua51_messages::as_lua51_runtime_message(lua_tostring(L, -1)));
  if (lua_istable(L, -1)) {
    lua_getfield(L, -1, "err");
    std::string text = lua_isstring(L, -1) ? lua_tostring(L, -1) : "";
    lua_pop(L, 1);
    return text;
  }
  return "";
}

}  // namespace

bool valid_name(std::string_view name) {
  if (name.empty()) return false;
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}

void install(lua_State* L) { lua_bridge::install_function_api(L, register_function); }

void release(lua_State* L, int ref) { luaL_unref(L, LUA_REGISTRYINDEX, ref); }

Loaded load(lua_State* L, std::string_view code) {
  LS_ASSERT(lua_gettop(L) == 0);
  Loaded loaded;
  if (lua51_compile::load(L, code, "@user_function") != LUA_OK) {
    size_t len = 0;
    const char* msg = lua_tolstring(L, -1, &len);
    loaded.error = "ERR Error compiling function: " + std::string(msg ? msg : "", msg ? len : 0);
    lua_settop(L, 0);
    return loaded;
  }
  lua_bridge::push_function_globals(L);
  const char* upvalue = lua_setupvalue(L, -2, 1);
  LS_ASSERT(upvalue != nullptr);
  lua_pushlightuserdata(L, &loaded);
  lua_setfield(L, LUA_REGISTRYINDEX, kLoadingKey);
  lua_bridge::set_function_globals_loading(L, true);
  lua_bridge::arm_budget(L, /*loading=*/true);
  const int status = lua_pcall(L, 0, 0, 0);
  lua_bridge::disarm_budget(L);
  lua_bridge::set_function_globals_loading(L, false);
  lua_pushnil(L);
  lua_setfield(L, LUA_REGISTRYINDEX, kLoadingKey);
  if (status != LUA_OK) {
    // The instruction budget stands for Redis's load timeout, and is named as Redis names that.
    loaded.error = lua_bridge::over_budget(L) ? "ERR Error registering functions: FUNCTION LOAD timeout"
                                               : "ERR Error registering functions: " + error_message(L);
    for (const Registered& r : loaded.functions) release(L, r.ref);
    loaded.functions.clear();
  }
  lua_settop(L, 0);
  return loaded;
}

}  // namespace locksim::engine::function_lua
