#include "engine/lua_call.hpp"

#include <atomic>
#include <lua.hpp>
#include <string>

#include "base/assert.hpp"
#include "engine/errors.hpp"
#include "engine/lua_bridge.hpp"

namespace locksim::engine {
namespace {

// Relaxed: a tally for benchmarks, never an order between threads.
std::atomic<uint64_t> g_scripts_run{0};

// Time stands still on the server for as long as one script runs.
class FrozenTime {
 public:
  FrozenTime(ScriptServer& server, const LuaCall& call) : server_(server) {
    server_.enter_script(call.read_only, call.mode == LuaCall::Mode::Eval, call.name);
  }
  ~FrozenTime() { server_.leave_script(); }
  FrozenTime(const FrozenTime&) = delete;
  FrozenTime& operator=(const FrozenTime&) = delete;

 private:
  ScriptServer& server_;
};

// The error on top of the stack, as luaCallFunction replies it.
Reply error_reply(lua_State* L, std::string_view name) {
  if (!lua_istable(L, -1)) {
    // Errors that bypass the handler (out of memory).
    const char* msg = lua_tostring(L, -1);
    return Reply::error(errors::script_failed(name, msg ? msg : "execution failure"));
  }
  // {err=, source=, line=} from the error handler.
  lua_getfield(L, -1, "err");
  const char* err = lua_tostring(L, -1);
  std::string text = err ? err : std::string(errors::kUnknownLuaError);
  lua_pop(L, 1);
  lua_getfield(L, -1, "source");
  lua_getfield(L, -2, "line");
  if (lua_isstring(L, -2) && lua_isinteger(L, -1)) {
    text += " script: " + std::string(name) + ", on " + lua_tostring(L, -2) + ":" +
            std::to_string(lua_tointeger(L, -1)) + ".";
  }
  lua_pop(L, 2);
  return Reply::error(text);
}

}  // namespace

uint64_t scripts_run_total() { return g_scripts_run.load(std::memory_order_relaxed); }

Reply run_lua(lua_State* L, ScriptServer& server, const LuaCall& call) {
  LS_ASSERT(lua_gettop(L) == 0);
  g_scripts_run.fetch_add(1, std::memory_order_relaxed);
  FrozenTime frozen(server, call);
  const bool eval = call.mode == LuaCall::Mode::Eval;
  if (eval) {
    lua_bridge::set_global_array(L, "KEYS", call.keys.data(), call.keys.size());
    lua_bridge::set_global_array(L, "ARGV", call.args.data(), call.args.size());
  }
  lua_pushcfunction(L, lua_bridge::error_handler);
  lua_rawgeti(L, LUA_REGISTRYINDEX, call.function_ref);
  if (!eval) {
    lua_bridge::push_array(L, call.keys.data(), call.keys.size());
    lua_bridge::push_array(L, call.args.data(), call.args.size());
  }
  lua_bridge::arm_budget(L, /*loading=*/false);
  const int status = lua_pcall(L, eval ? 0 : 2, 1, 1);
  lua_bridge::disarm_budget(L);
  Reply reply = status == LUA_OK ? lua_bridge::to_reply(L, -1) : error_reply(L, call.name);
  lua_settop(L, 0);
  return reply;
}

}  // namespace locksim::engine
