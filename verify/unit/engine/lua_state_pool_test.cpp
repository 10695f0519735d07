// Unit: reused Lua states (lua_state_pool.hpp). An engine on a state another engine dirtied must
// answer exactly as an engine on a fresh state: same replies, same random numbers, an empty script
// cache, nothing a script left behind.
#include <string>
#include <vector>

#include "base/sha1.hpp"
#include "engine/lua_state_pool.hpp"
#include "verify/unit/engine/engine_harness.hpp"

namespace locksim::engine {
namespace {

constexpr std::string_view kLoaded = "return redis.call('incr', KEYS[1])";

// What a script of one engine may see of another: the answers of a fixed list of probes.
std::vector<Reply> probe(Engine& engine, SessionId session) {
  const std::string sha = sha1_hex(kLoaded);
  std::vector<Reply> seen;
  auto run = [&](std::initializer_list<std::string_view> argv) { seen.push_back(engine.execute(session, argv)); };
  run({"EVALSHA", sha, "1", "k"});           // NOSCRIPT: the cache starts empty
  run({"SCRIPT", "EXISTS", sha});            // 0
  run({"EVAL", "return math.random(1000000)", "0"});  // Redis's generator, from its start
  run({"EVAL", "return math.random(1000000)", "0"});
  run({"EVAL", "return {type(KEYS), #KEYS, #ARGV}", "0"});
  run({"EVAL", "return KEYS[1] .. ARGV[1]", "1", "key", "arg"});
  run({"EVAL", "return pcall(function() return leaked end)", "0"});
  run({"EVAL", "return tostring(rawget(_G, 'leaked'))", "0"});
  run({"EVAL", "return string.leaked == nil and 1 or 0", "0"});
  run({"EVAL", "return redis.call('get', 'k')", "0"});  // a new engine's keyspace is empty
  run({"EVAL", "return (", "0"});                         // a compile error, word for word
  run({"EVAL", "error('boom')", "0"});                    // a runtime error, word for word
  run({"EVAL", "return cjson.encode({1/3, {{1}}})", "0"});  // cjson's settings are the defaults
  return seen;
}

// Everything a script may try to leave behind, and a few ways of failing mid-way.
void dirty(Engine& engine, SessionId session) {
  for (auto argv : std::vector<std::vector<std::string_view>>{
           {"SCRIPT", "LOAD", kLoaded},
           {"EVAL", kLoaded, "1", "k"},
           {"EVAL", "math.randomseed(42); return math.random(10)", "0"},
           {"EVAL", "leaked = 1", "0"},
           {"EVAL", "rawset(_G, 'leaked', 1)", "0"},
           {"EVAL", "string.leaked = 1", "0"},
           {"EVAL", "local t = setmetatable({}, {__gc = function() end}); return 1", "0"},
           {"EVAL", "local co = coroutine.create(function() coroutine.yield(1) end); coroutine.resume(co); return 1", "0"},
           {"EVAL", "while true do end", "0"},  // stopped by the instruction budget mid-run
           {"EVAL", "return redis.call('nosuchcommand')", "0"},
           {"EVAL", "cjson.encode_number_precision(3) cjson.encode_max_depth(1) return 1", "0"},
       }) {
    engine.execute(session, std::span<const std::string_view>(argv));
  }
}

TEST(LuaStatePool, AnEngineOnAReusedStateAnswersAsOnAFreshOne) {
  drop_pooled_lua_states();
  ManualHost host;
  const EngineOptions options{.script_instruction_budget = 1'000'000};
  std::vector<Reply> fresh;
  {
    Engine engine(host, options);
    EXPECT_EQ(pooled_lua_states(), 0u);
    const SessionId session = engine.open_session();
    fresh = probe(engine, session);
    dirty(engine, session);
  }
  EXPECT_EQ(pooled_lua_states(), 1u);  // handed back
  {
    Engine engine(host, options);
    EXPECT_EQ(pooled_lua_states(), 0u);  // and taken again
    const SessionId session = engine.open_session();
    EXPECT_EQ(probe(engine, session), fresh);
    // What it compiled before is reused only once this engine compiles it itself.
    EXPECT_EQ(engine.execute(session, {"SCRIPT", "LOAD", kLoaded}), Reply::bulk(sha1_hex(kLoaded)));
    EXPECT_EQ(engine.execute(session, {"EVALSHA", sha1_hex(kLoaded), "1", "n"}), Reply::integer_of(1));
    EXPECT_EQ(engine.execute(session, {"SCRIPT", "FLUSH"}), Reply::status("OK"));
    EXPECT_TRUE(engine.execute(session, {"EVALSHA", sha1_hex(kLoaded), "1", "n"}).str.starts_with("NOSCRIPT"));
  }
  drop_pooled_lua_states();
  EXPECT_EQ(pooled_lua_states(), 0u);
}

}  // namespace
}  // namespace locksim::engine
