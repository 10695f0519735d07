#include "engine/scripting.hpp"

#include <cctype>
#include <cstdlib>
#include <lua.hpp>

#include "base/assert.hpp"
#include "base/sha1.hpp"
#include "engine/errors.hpp"
#include "engine/lua51_compile.hpp"
#include "engine/lua_bridge.hpp"
#include "engine/lua_call.hpp"
#include "engine/lua_state_pool.hpp"

namespace locksim::engine {

Scripting::Scripting(ScriptServer& server, int64_t instruction_budget)
    : run_{.server = server, .budget = instruction_budget},
      prepared_(take_lua_state(run_)),
      lua_(prepared_->state()),
      functions_(run_) {
  LS_ASSERT(run_.budget > 0);
}

Scripting::~Scripting() { give_back_lua_state(std::move(prepared_)); }

int Scripting::compile(const std::string& sha, std::string_view body, Reply& error) {
  auto cached = cache_.find(sha);
  if (cached != cache_.end()) return cached->second;
  // Compiled by an engine before this one on the same state: the same function (lua_state_pool.hpp).
  if (const int ref = prepared_->compiled(sha, body); ref != LUA_NOREF) {
    cache_.emplace(sha, ref);
    return ref;
  }
  if (lua51_compile::load(lua_, body, "@user_script") != LUA_OK) {
    size_t len = 0;
    const char* msg = lua_tolstring(lua_, -1, &len);
    error = Reply::error(errors::compile_failed(std::string_view(msg ? msg : "", msg ? len : 0)));
    lua_pop(lua_, 1);
    return LUA_NOREF;
  }
  // The chunk's _ENV is the read-only view of the globals.
  lua_getfield(lua_, LUA_REGISTRYINDEX, "locksim.env");
  const char* upvalue = lua_setupvalue(lua_, -2, 1);
  LS_ASSERT(upvalue != nullptr);
  const int ref = luaL_ref(lua_, LUA_REGISTRYINDEX);
  prepared_->remember(sha, body, ref);
  cache_.emplace(sha, ref);
  return ref;
}

// The body's SHA1, from the prepared state when it compiled the body before: a pooled state keeps
// its scripts, and every world sends the same few (each world's SCRIPT LOAD too).
std::string Scripting::sha_of(std::string_view body) const {
  const std::string_view known = prepared_->sha_of(body);
  return known.empty() ? sha1_hex(body) : std::string(known);
}

Reply Scripting::eval(std::string_view body, std::span<const std::string_view> keys,
                      std::span<const std::string_view> args) {
  const std::string sha = sha_of(body);
  Reply error;
  const int ref = compile(sha, body, error);
  if (ref == LUA_NOREF) return error;
  return run(sha, ref, keys, args);
}

Reply Scripting::evalsha(std::string_view sha, std::span<const std::string_view> keys,
                         std::span<const std::string_view> args) {
  if (sha.size() != 40) return Reply::error(errors::kNoScript);
  char lower[40];
  for (size_t i = 0; i < 40; ++i) lower[i] = (sha[i] >= 'A' && sha[i] <= 'Z') ? static_cast<char>(sha[i] + 32) : sha[i];
  auto it = cache_.find(std::string_view(lower, 40));
  if (it == cache_.end()) return Reply::error(errors::kNoScript);
  return run(it->first, it->second, keys, args);
}

Reply Scripting::load(std::string_view body) {
  const std::string sha = sha_of(body);
  Reply error;
  if (compile(sha, body, error) == LUA_NOREF) return error;
  return Reply::bulk(sha);
}

bool Scripting::exists(std::string_view sha) const {
  std::string lower(sha);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return cache_.count(lower) > 0;
}

void Scripting::flush() {
  // The compiled functions stay with the state (lua_state_pool.hpp), unreachable from scripts;
  // this engine's cache forgets them, so EVALSHA answers NOSCRIPT as Redis does after a flush.
  // Redis 7.0 makes a new Lua state on a flush, so cjson's settings go back to their defaults.
  cache_.clear();
  lua_bridge::reset_libraries(lua_);
  lua_gc(lua_, LUA_GCCOLLECT);
}

Reply Scripting::run(const std::string& sha, int function_ref, std::span<const std::string_view> keys,
                     std::span<const std::string_view> args) {
  return run_lua(lua_, run_.server,
                 {.mode = LuaCall::Mode::Eval, .name = sha, .function_ref = function_ref, .keys = keys, .args = args});
}

}  // namespace locksim::engine
