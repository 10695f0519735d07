// Reentrant acquire+release pairs per second, three ways in one run: the fake (engine::Engine),
// a live redis-server over hiredis, and the floor (the same Lua chunks on a bare lua_State whose
// redis.call is a few lines of C++ over a std::map). Each pair is one EVALSHA of
// rlock_acquire_hincrby (a fresh hold) and one of rlock_unlock (count 1 -> 0: DEL and PUBLISH).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <fstream>
#include <lua.hpp>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine.hpp"
#include "engine/host.hpp"
#include "base/reply.hpp"
#include "verify/support/redis_server.hpp"

namespace {

using locksim::Reply;

constexpr std::string_view kLock = "lock";
constexpr std::string_view kChannel = "redisson_lock__channel:{lock}";
constexpr std::string_view kLeaseMs = "30000";
constexpr std::string_view kHolder = "uuid:1";
constexpr std::string_view kUnlockMessage = "0";

std::string read_script(const std::string& name) {
  const std::string path = std::string(LOCKSIM_SCRIPTS_DIR) + "/" + name;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream body;
  body << in.rdbuf();
  return body.str();
}

const std::string& acquire_body() {
  static const std::string body = read_script("rlock_acquire_hincrby.lua");
  return body;
}

const std::string& unlock_body() {
  static const std::string body = read_script("rlock_unlock.lua");
  return body;
}

// What one pair must answer: nil (acquired), then 1 (released, waiters told).
bool pair_answered_right(const Reply& acquired, const Reply& released) {
  return acquired.kind == Reply::Kind::Nil && released.kind == Reply::Kind::Integer && released.integer == 1;
}

// --- a. the fake

void BM_FakeEvalshaPair(benchmark::State& state) {
  locksim::engine::ManualHost host;
  locksim::engine::Engine engine(host);
  const auto session = engine.open_session();
  const Reply acquire_sha = engine.execute(session, {"SCRIPT", "LOAD", acquire_body()});
  const Reply unlock_sha = engine.execute(session, {"SCRIPT", "LOAD", unlock_body()});
  if (acquire_sha.kind != Reply::Kind::Bulk || unlock_sha.kind != Reply::Kind::Bulk) {
    state.SkipWithError("SCRIPT LOAD failed on the fake");
    return;
  }
  const std::vector<std::string_view> acquire = {"EVALSHA", acquire_sha.str, "1", kLock, kLeaseMs, kHolder};
  const std::vector<std::string_view> release = {"EVALSHA", unlock_sha.str, "2", kLock, kChannel,
                                                 kUnlockMessage, kLeaseMs, kHolder};
  for (auto _ : state) {
    Reply acquired = engine.execute(session, acquire);
    Reply released = engine.execute(session, release);
    if (!pair_answered_right(acquired, released)) {
      state.SkipWithError(("fake answered " + locksim::describe(acquired) + ", " +
                           locksim::describe(released)).c_str());
      break;
    }
    benchmark::DoNotOptimize(acquired);
    benchmark::DoNotOptimize(released);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_FakeEvalshaPair)->UseRealTime();

// --- b. a live redis-server (started here, stopped when the benchmark function returns)

void BM_LiveEvalshaPair(benchmark::State& state) {
  try {
    locksim::test::RedisServer server;
    locksim::test::RedisClient client(server.port());
    const Reply acquire_sha = client.command({"SCRIPT", "LOAD", acquire_body()});
    const Reply unlock_sha = client.command({"SCRIPT", "LOAD", unlock_body()});
    if (acquire_sha.kind != Reply::Kind::Bulk || unlock_sha.kind != Reply::Kind::Bulk) {
      state.SkipWithError("SCRIPT LOAD failed on redis-server");
      return;
    }
    const std::vector<std::string> acquire = {"EVALSHA", acquire_sha.str, "1", std::string(kLock),
                                              std::string(kLeaseMs), std::string(kHolder)};
    const std::vector<std::string> release = {"EVALSHA",          unlock_sha.str,     "2",
                                              std::string(kLock), std::string(kChannel),
                                              std::string(kUnlockMessage), std::string(kLeaseMs),
                                              std::string(kHolder)};
    for (auto _ : state) {
      Reply acquired = client.command(acquire);
      Reply released = client.command(release);
      if (!pair_answered_right(acquired, released)) {
        state.SkipWithError(("redis-server answered " + locksim::describe(acquired) + ", " +
                             locksim::describe(released)).c_str());
        break;
      }
      benchmark::DoNotOptimize(acquired);
      benchmark::DoNotOptimize(released);
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
  }
}
BENCHMARK(BM_LiveEvalshaPair)->UseRealTime();

// --- c. the floor: a bare lua_State, redis.call a stub over a std::map hash

class FloorRedis {
 public:
  struct Hash {
    std::map<std::string, int64_t, std::less<>> fields;
    int64_t expire_at_ms = -1;
  };

  FloorRedis() {
    L_ = luaL_newstate();
    if (L_ == nullptr) throw std::runtime_error("luaL_newstate failed");
    luaL_openlibs(L_);
    *static_cast<FloorRedis**>(lua_getextraspace(L_)) = this;
    lua_createtable(L_, 0, 1);
    lua_pushcfunction(L_, &FloorRedis::call);
    lua_setfield(L_, -2, "call");
    lua_setglobal(L_, "redis");
  }
  ~FloorRedis() { lua_close(L_); }
  FloorRedis(const FloorRedis&) = delete;
  FloorRedis& operator=(const FloorRedis&) = delete;

  // Compiles a chunk once; the registry reference runs it.
  int compile(const std::string& body) {
    if (luaL_loadbufferx(L_, body.data(), body.size(), "@user_script", "t") != LUA_OK)
      throw std::runtime_error(lua_tostring(L_, -1));
    return luaL_ref(L_, LUA_REGISTRYINDEX);
  }

  // Runs a compiled chunk with fresh KEYS and ARGV tables, as Redis does per EVALSHA.
  Reply run(int ref, std::span<const std::string_view> keys, std::span<const std::string_view> args) {
    set_array("KEYS", keys);
    set_array("ARGV", args);
    lua_rawgeti(L_, LUA_REGISTRYINDEX, ref);
    Reply reply;
    if (lua_pcall(L_, 0, 1, 0) != LUA_OK) {
      reply = Reply::error(lua_tostring(L_, -1));
    } else if (lua_isinteger(L_, -1)) {
      reply = Reply::integer_of(lua_tointeger(L_, -1));
    }
    lua_settop(L_, 0);
    return reply;
  }

 private:
  void set_array(const char* name, std::span<const std::string_view> items) {
    lua_createtable(L_, static_cast<int>(items.size()), 0);
    for (size_t i = 0; i < items.size(); ++i) {
      lua_pushlstring(L_, items[i].data(), items[i].size());
      lua_rawseti(L_, -2, static_cast<lua_Integer>(i + 1));
    }
    lua_setglobal(L_, name);
  }

  static std::string_view arg(lua_State* L, int i) {
    size_t len = 0;
    const char* s = luaL_checklstring(L, i, &len);
    return {s, len};
  }

  // redis.call for exactly what the two lock scripts use; time stands still at now_ms_.
  static int call(lua_State* L) {
    FloorRedis& self = **static_cast<FloorRedis**>(lua_getextraspace(L));
    const std::string_view command = arg(L, 1);
    const std::string_view key = arg(L, 2);
    auto it = self.hashes_.find(key);
    if (command == "exists") {
      lua_pushinteger(L, it != self.hashes_.end() ? 1 : 0);
    } else if (command == "hexists") {
      lua_pushinteger(L, it != self.hashes_.end() && it->second.fields.count(arg(L, 3)) ? 1 : 0);
    } else if (command == "hincrby") {
      if (it == self.hashes_.end()) it = self.hashes_.emplace(std::string(key), Hash{}).first;
      const std::string_view field = arg(L, 3);
      auto f = it->second.fields.find(field);
      if (f == it->second.fields.end()) f = it->second.fields.emplace(std::string(field), 0).first;
      f->second += luaL_checkinteger(L, 4);
      lua_pushinteger(L, f->second);
    } else if (command == "pexpire") {
      if (it != self.hashes_.end()) it->second.expire_at_ms = self.now_ms_ + luaL_checkinteger(L, 3);
      lua_pushinteger(L, it != self.hashes_.end() ? 1 : 0);
    } else if (command == "pttl") {
      lua_pushinteger(L, it == self.hashes_.end()          ? -2
                         : it->second.expire_at_ms < 0 ? -1
                                                       : it->second.expire_at_ms - self.now_ms_);
    } else if (command == "del") {
      const bool found = it != self.hashes_.end();
      if (found) self.hashes_.erase(it);
      lua_pushinteger(L, found ? 1 : 0);
    } else if (command == "publish") {
      lua_pushinteger(L, 0);  // nobody subscribed
    } else {
      return luaL_error(L, "floor: unsupported command");
    }
    return 1;
  }

  lua_State* L_ = nullptr;
  std::map<std::string, Hash, std::less<>> hashes_;
  int64_t now_ms_ = 1700000000000;
};

void BM_BareLuaFloor(benchmark::State& state) {
  FloorRedis floor;
  const int acquire_ref = floor.compile(acquire_body());
  const int unlock_ref = floor.compile(unlock_body());
  const std::vector<std::string_view> acquire_keys = {kLock};
  const std::vector<std::string_view> acquire_args = {kLeaseMs, kHolder};
  const std::vector<std::string_view> release_keys = {kLock, kChannel};
  const std::vector<std::string_view> release_args = {kUnlockMessage, kLeaseMs, kHolder};
  for (auto _ : state) {
    Reply acquired = floor.run(acquire_ref, acquire_keys, acquire_args);
    Reply released = floor.run(unlock_ref, release_keys, release_args);
    if (!pair_answered_right(acquired, released)) {
      state.SkipWithError(("floor answered " + locksim::describe(acquired) + ", " +
                           locksim::describe(released)).c_str());
      break;
    }
    benchmark::DoNotOptimize(acquired);
    benchmark::DoNotOptimize(released);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_BareLuaFloor)->UseRealTime();

}  // namespace
