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
#include "engine/script_flags.hpp"

namespace locksim::engine {

Scripting::Scripting(ScriptServer& server, int64_t instruction_budget)
    : run_{.server = server, .budget = instruction_budget},
      prepared_(take_lua_state(run_)),
      lua_(prepared_->state()),
      functions_(run_) {
  LS_ASSERT(run_.budget > 0);
}

Scripting::~Scripting() { give_back_lua_state(std::move(prepared_)); }

const Scripting::Script* Scripting::compile(const std::string& sha, std::string_view body, Reply& error) {
  auto cached = cache_.find(sha);
  if (cached != cache_.end()) return &cached->second;
  std::string shebang_error;
  const auto shebang = script_flags::eval_shebang(body, shebang_error);
  if (!shebang) {
    error = Reply::error(shebang_error);
    return nullptr;
  }
  // Compiled by an engine before this one on the same state: the same function (lua_state_pool.hpp).
  if (const int ref = prepared_->compiled(sha, body); ref != LUA_NOREF)
    return &cache_.emplace(sha, Script{ref, shebang->flags}).first->second;
  // Without its shebang line, but with that line's end: line numbers stay the user's.
  if (lua51_compile::load(lua_, body.substr(shebang->length), "@user_script") != LUA_OK) {
    size_t len = 0;
    const char* msg = lua_tolstring(lua_, -1, &len);
    error = Reply::error(errors::compile_failed(std::string_view(msg ? msg : "", msg ? len : 0)));
    lua_pop(lua_, 1);
    return nullptr;
  }
  // The chunk's _ENV is the read-only view of the globals.
  lua_getfield(lua_, LUA_REGISTRYINDEX, "locksim.env");
  const char* upvalue = lua_setupvalue(lua_, -2, 1);
  LS_ASSERT(upvalue != nullptr);
  const int ref = luaL_ref(lua_, LUA_REGISTRYINDEX);
  prepared_->remember(sha, body, ref);
  return &cache_.emplace(sha, Script{ref, shebang->flags}).first->second;
}

// The body's SHA1, from the prepared state when it compiled the body before: a pooled state keeps
// its scripts, and every world sends the same few (each world's SCRIPT LOAD too).
std::string Scripting::sha_of(std::string_view body) const {
  const std::string_view known = prepared_->sha_of(body);
  return known.empty() ? sha1_hex(body) : std::string(known);
}

Reply Scripting::eval(std::string_view body, std::span<const std::string_view> keys,
                      std::span<const std::string_view> args, bool read_only) {
  const std::string sha = sha_of(body);
  Reply error;
  const Script* script = compile(sha, body, error);
  if (script == nullptr) return error;
  return run(sha, *script, keys, args, read_only);
}

Reply Scripting::evalsha(std::string_view sha, std::span<const std::string_view> keys,
                         std::span<const std::string_view> args, bool read_only) {
  if (sha.size() != 40) return Reply::error(errors::kNoScript);
  char lower[40];
  for (size_t i = 0; i < 40; ++i) lower[i] = (sha[i] >= 'A' && sha[i] <= 'Z') ? static_cast<char>(sha[i] + 32) : sha[i];
  auto it = cache_.find(std::string_view(lower, 40));
  if (it == cache_.end()) return Reply::error(errors::kNoScript);
  return run(it->first, it->second, keys, args, read_only);
}

Reply Scripting::load(std::string_view body) {
  const std::string sha = sha_of(body);
  Reply error;
  if (compile(sha, body, error) == nullptr) return error;
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

Reply Scripting::run(const std::string& sha, const Script& script, std::span<const std::string_view> keys,
                     std::span<const std::string_view> args, bool read_only) {
  if (script_flags::refused_read_only(script.flags, read_only)) return Reply::error(errors::kWriteScriptFromReadOnly);
  return run_lua(lua_, run_.server,
                 {.mode = LuaCall::Mode::Eval, .name = sha, .function_ref = script.ref, .keys = keys, .args = args,
                  .read_only = script_flags::runs_read_only(script.flags, read_only)});
}

}  // namespace locksim::engine
