#include "engine/lua_state_pool.hpp"

#include <cstdlib>
#include <lua.hpp>
#include <vector>

#include "base/assert.hpp"
#include "engine/lua_bridge.hpp"

namespace locksim::engine {
namespace {


struct AllocState {
  size_t used = 0;
};

void* limited_alloc(void* ud, void* ptr, size_t old_size, size_t new_size) {
  auto* state = static_cast<AllocState*>(ud);
  const size_t old_block = ptr ? old_size : 0;
  if (new_size == 0) {
    state->used -= old_block;
    std::free(ptr);
    return nullptr;
  }
  if (new_size > old_block && state->used + (new_size - old_block) > kLuaMemoryLimit) return nullptr;
  void* block = std::realloc(ptr, new_size);
  if (block != nullptr) state->used = state->used - old_block + new_size;
  return block;
}

// Enough for every server of the largest world (64) is not needed: worlds come one after another,
// and a world holds a few engines at once. Extra states are closed.
constexpr size_t kPoolMax = 16;
// A state that compiled many distinct bodies (EVAL of generated scripts) is closed rather than
// kept, so the pool's memory stays bounded.
constexpr size_t kRememberedMax = 64;

// Per thread: nothing here is shared between threads, and no lock is needed.
thread_local std::vector<std::unique_ptr<PreparedLua>> t_pool;

}  // namespace

PreparedLua::PreparedLua() {
  auto* alloc_state = new AllocState();
  lua_ = lua_newstate(limited_alloc, alloc_state);
  LS_ASSERT(lua_ != nullptr);
  lua_bridge::install(lua_);
}

PreparedLua::~PreparedLua() {
  void* ud = nullptr;
  lua_getallocf(lua_, &ud);
  lua_close(lua_);
  delete static_cast<AllocState*>(ud);
}

int PreparedLua::compiled(std::string_view sha, std::string_view body) const {
  auto it = compiled_.find(sha);
  // The body is compared too: a SHA1 collision must not run another script.
  return it != compiled_.end() && it->second.body == body ? it->second.ref : LUA_NOREF;
}

void PreparedLua::remember(std::string_view sha, std::string_view body, int ref) {
  auto it = compiled_.find(sha);
  if (it != compiled_.end()) {
    luaL_unref(lua_, LUA_REGISTRYINDEX, it->second.ref);
    compiled_.erase(it);
  }
  compiled_.emplace(std::string(sha), Compiled{std::string(body), ref});
  sha_by_body_.insert_or_assign(std::string(body), std::string(sha));
}

std::string_view PreparedLua::sha_of(std::string_view body) const {
  auto it = sha_by_body_.find(body);
  return it != sha_by_body_.end() ? std::string_view(it->second) : std::string_view();
}

std::unique_ptr<PreparedLua> take_lua_state(ScriptRun& run) {
  std::unique_ptr<PreparedLua> lua;
  if (!t_pool.empty()) {
    lua = std::move(t_pool.back());
    t_pool.pop_back();
  } else {
    lua = std::make_unique<PreparedLua>();
  }
  lua_bridge::attach(lua->state(), run);
  return lua;
}

void give_back_lua_state(std::unique_ptr<PreparedLua> lua) {
  lua_State* L = lua->state();
  LS_ASSERT(lua_gettop(L) == 0);
  // Finalizers of this engine's garbage run now, while its server still exists, as lua_close
  // would have run them; then the state points at no server.
  lua_gc(L, LUA_GCCOLLECT);
  lua_bridge::detach(L);
  if (t_pool.size() < kPoolMax && lua->remembered() <= kRememberedMax) t_pool.push_back(std::move(lua));
}

size_t pooled_lua_states() { return t_pool.size(); }

void drop_pooled_lua_states() { t_pool.clear(); }

}  // namespace locksim::engine
