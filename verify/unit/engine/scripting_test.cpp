// Unit: scripting (scripting.cpp, lua_bridge.cpp): conversions, the sandbox, and what only a
// deterministic fake can promise (the instruction budget, surviving a memory blow-up).
#include <lua.hpp>

#include "engine/lua51_compile.hpp"
#include "engine/lua51_messages.hpp"
#include "engine/lua_bridge.hpp"
#include "engine/scripting.hpp"
#include "verify/unit/engine/engine_harness.hpp"

namespace locksim::engine {
namespace {

class LoggingHost : public RecordingHost {
 public:
  void script_log(int level, std::string_view message) override { logs.emplace_back(level, std::string(message)); }
  std::vector<std::pair<int, std::string>> logs;
};

class ScriptingTest : public ::testing::Test {
 protected:
  Reply eval(std::string_view body, std::initializer_list<std::string_view> rest = {"0"}) {
    std::vector<std::string_view> argv{"EVAL", body};
    argv.insert(argv.end(), rest.begin(), rest.end());
    return engine_.execute(session_, std::span<const std::string_view>(argv));
  }
  static Reply error_starting(const Reply& reply, std::string_view prefix) {
    return reply.is_error() && reply.str.starts_with(prefix) ? Reply::error(prefix) : reply;
  }
  static bool fails_with(const Reply& reply, std::string_view text) {
    return reply.is_error() && reply.str.find(text) != std::string::npos;
  }

  LoggingHost host_;
  Engine engine_{host_, EngineOptions{.script_instruction_budget = 2'000'000}};
  SessionId session_ = engine_.open_session();
};

TEST_F(ScriptingTest, LuaValuesBecomeReplies) {
  EXPECT_EQ(eval("return 3.99"), Reply::integer_of(3));
  EXPECT_EQ(eval("return -3.99"), Reply::integer_of(-3));
  EXPECT_EQ(eval("return true"), Reply::integer_of(1));
  EXPECT_EQ(eval("return false"), Reply::nil());
  EXPECT_EQ(eval("return {1, 2, nil, 3}"), Reply::array({Reply::integer_of(1), Reply::integer_of(2)}));
  EXPECT_EQ(eval("return {true, false, 's'}"), Reply::array({Reply::integer_of(1), Reply::nil(), Reply::bulk("s")}));
  EXPECT_EQ(eval("return {err = 'My Error'}"), Reply::error("My Error"));
  EXPECT_EQ(eval("return {ok = 'fine'}"), Reply::status("fine"));
  EXPECT_EQ(eval("return {double = 0.1}"), Reply::bulk("0.10000000000000001"));
  EXPECT_EQ(eval("return redis.error_reply('boom')"), Reply::error("ERR boom"));
  EXPECT_EQ(eval("return redis.error_reply('My err')"), Reply::error("My err"));
  EXPECT_EQ(eval("return redis.status_reply('FINE')"), Reply::status("FINE"));
}

TEST_F(ScriptingTest, RepliesBecomeLuaValues) {
  EXPECT_EQ(eval("return type(redis.call('get', 'nokey'))"), Reply::bulk("boolean"));
  EXPECT_EQ(eval("return redis.call('set', 'k', 'v').ok"), Reply::bulk("OK"));
  EXPECT_EQ(eval("return redis.pcall('hget', 'k', 'f').err"), Reply::bulk(kWrongType));
  EXPECT_EQ(eval("local ok, e = pcall(redis.call, 'hget', 'k', 'f') return e"), Reply::bulk(kWrongType));
}

TEST_F(ScriptingTest, NumberArgumentsFormatAsRedis70) {
  EXPECT_EQ(eval("redis.call('set', 'n', 3.0) return redis.call('get', 'n')"), Reply::bulk("3"));
  EXPECT_EQ(eval("redis.call('set', 'n', 0.1) return redis.call('get', 'n')"), Reply::bulk("0.10000000000000001"));
  EXPECT_EQ(eval("redis.call('set', 'n', 1e300) return redis.call('get', 'n')"), Reply::bulk("1.0000000000000001e+300"));
  EXPECT_EQ(eval("redis.call('set', 'n', 1/0) return redis.call('get', 'n')"), Reply::bulk("inf"));
  EXPECT_EQ(eval("redis.call('set', 'n', 9007199254740993) return redis.call('get', 'n')"),
            Reply::bulk("9007199254740992"));
}

TEST_F(ScriptingTest, ErrorsNameTheScriptAndLine) {
  const std::string sha = engine_.execute(session_, {"SCRIPT", "LOAD", "\nerror('boom')"}).str;
  EXPECT_EQ(eval("\nerror('boom')"), Reply::error("ERR user_script:2: boom script: " + sha + ", on @user_script:2."));
  EXPECT_EQ(eval("return 1 +"),
            Reply::error("ERR Error compiling script (new function): user_script:1: unexpected symbol near '<eof>'"));
  EXPECT_EQ(error_starting(eval("return redis.call('nosuch')"), "ERR Unknown Redis command called from script script: "),
            Reply::error("ERR Unknown Redis command called from script script: "));
  EXPECT_EQ(eval("local t = nil; return t.x").str.find("attempt to index local 't' (a nil value)") != std::string::npos,
            true);
}

TEST_F(ScriptingTest, SandboxHidesGlobalsAndFreezesTables) {
  for (const char* name : {"os", "io", "require", "loadfile", "dofile", "debug", "print"}) {
    const Reply reply = eval(std::string("return ") + name);
    EXPECT_NE(reply.str.find(std::string("Script attempted to access nonexistent global variable '") + name + "'"),
              std::string::npos)
        << describe(reply);
  }
  for (const char* body : {"x = 1", "redis.call = nil", "string.x = 1", "_G.x = 1", "math.random = nil"}) {
    EXPECT_NE(eval(body).str.find("Attempt to modify a readonly table"), std::string::npos) << body;
  }
  EXPECT_EQ(eval("return loadstring(string.dump(function() return 1 end))"), Reply::nil());
  EXPECT_EQ(eval("return loadstring('return 5')()"), Reply::integer_of(5));
  EXPECT_EQ(eval("return math.type"), Reply::nil());
}

TEST_F(ScriptingTest, MathRandomContinuesAcrossScriptsAndRandomseedResets) {
  const Reply first = eval("return {math.random(1000000), math.random(1000000)}");
  const Reply second = eval("return {math.random(1000000), math.random(1000000)}");
  EXPECT_NE(first, second);
  // A fresh engine starts where a freshly started Redis does.
  ManualHost other_host;
  Engine other(other_host);
  const SessionId s = other.open_session();
  EXPECT_EQ(other.execute(s, {"EVAL", "return {math.random(1000000), math.random(1000000)}", "0"}), first);
  const Reply seeded = eval("math.randomseed(7) return math.random(1000000)");
  EXPECT_EQ(eval("math.randomseed(7) return math.random(1000000)"), seeded);
}

TEST_F(ScriptingTest, RedisLogGoesToTheHost) {
  EXPECT_EQ(eval("redis.log(redis.LOG_WARNING, 'a', 'b') return 1"), Reply::integer_of(1));
  // Numbers as 5.1 prints them; a separator before every argument but the first, even where the
  // first was not text (luaRedisLogCommand).
  EXPECT_EQ(eval("redis.log(redis.LOG_NOTICE, {}, 2^31, '', 'b') return 1"), Reply::integer_of(1));
  EXPECT_EQ(host_.logs, (std::vector<std::pair<int, std::string>>{{3, "a b"}, {2, " 2147483648  b"}}));
}

TEST_F(ScriptingTest, EndlessLoopStopsAtTheBudgetAndTheEngineAnswersNext) {
  const Reply reply = eval("while true do end");
  ASSERT_TRUE(reply.is_error()) << describe(reply);
  EXPECT_NE(reply.str.find("instruction budget of 2000000"), std::string::npos) << reply.str;
  EXPECT_EQ(engine_.execute(session_, {"SET", "k", "v"}), Reply::ok());
  EXPECT_EQ(eval("return redis.call('get', 'k')"), Reply::bulk("v"));
}

TEST_F(ScriptingTest, PcallCannotSwallowTheBudgetStop) {
  const Reply reply = eval("while true do pcall(function() while true do end end) end");
  EXPECT_TRUE(fails_with(reply, "instruction budget")) << describe(reply);
  const Reply caught = eval("local ok = pcall(function() while true do end end) redis.call('set', 'after', '1') return 1");
  EXPECT_TRUE(fails_with(caught, "instruction budget")) << describe(caught);
  EXPECT_EQ(engine_.execute(session_, {"GET", "after"}), Reply::nil());
  EXPECT_EQ(eval("return 7"), Reply::integer_of(7));
}

TEST_F(ScriptingTest, CoroutineCannotEscapeTheBudget) {
  const Reply reply = eval(
      "local co = coroutine.wrap(function() while true do end end) co() return 1");
  ASSERT_TRUE(reply.is_error()) << describe(reply);
  EXPECT_NE(reply.str.find("instruction budget"), std::string::npos) << reply.str;
  const Reply resumed = eval(
      "while true do local co = coroutine.create(function() for i = 1, 1000 do end end) "
      "coroutine.resume(co) end");
  EXPECT_NE(resumed.str.find("instruction budget"), std::string::npos) << describe(resumed);
  EXPECT_EQ(eval("return 8"), Reply::integer_of(8));
}

TEST_F(ScriptingTest, MemoryBlowUpFailsTheScriptOnly) {
  Engine engine(host_);  // the default budget: memory runs out first
  const SessionId s = engine.open_session();
  const Reply reply = engine.execute(
      s, {"EVAL", "local t = {} while true do t[#t+1] = string.rep('x', 1000000) end", "0"});
  ASSERT_TRUE(reply.is_error()) << describe(reply);
  EXPECT_NE(reply.str.find("not enough memory"), std::string::npos) << reply.str;
  EXPECT_EQ(engine.execute(s, {"SET", "k", "v"}), Reply::ok());
  EXPECT_EQ(engine.execute(s, {"EVAL", "return #string.rep('y', 1000)", "0"}), Reply::integer_of(1000));
}

// C loops over positions run on 5.1's C ints: an infinite position is int 0, not a count of 2^63
// steps that no instruction budget would stop (table.insert used to hang the engine here).
TEST_F(ScriptingTest, TableInsertAndRemoveAtHugePositionsEndAtOnce) {
  EXPECT_EQ(eval("local t = {} table.insert(t, -math.huge, 100) return {t[0], t[1]}"),
            Reply::array({Reply::integer_of(100)}));
  EXPECT_EQ(eval("local t = {} table.insert(t, math.huge, 7) return t[0]"), Reply::integer_of(7));
  // 2^32 + 1 is int 1 (its low 32 bits), as in Redis: the first element goes.
  EXPECT_EQ(eval("local t = {1, 2} return {table.remove(t, 2^32 + 1), #t, t[1]}"),
            Reply::array({Reply::integer_of(1), Reply::integer_of(1), Reply::integer_of(2)}));
}

// A backtracking pattern runs in C, out of the instruction hook's reach: its steps count against
// the budget instead, so it stops as an endless loop does (Redis would stay BUSY for good).
TEST_F(ScriptingTest, ABacktrackingPatternStopsAtTheBudget) {
  const Reply reply = eval("return string.find(string.rep('a', 40), string.rep('a*', 40) .. 'b')");
  EXPECT_TRUE(fails_with(reply, "instruction budget")) << describe(reply);
  const Reply caught = eval("pcall(string.gsub, string.rep('a', 40), string.rep('a*', 40) .. 'b', '') return 1");
  EXPECT_TRUE(fails_with(caught, "instruction budget")) << describe(caught);
  EXPECT_EQ(eval("return string.find('aab', 'a*b')"), Reply::integer_of(1));
}

// 5.1 has no bound on the matcher's recursion (Redis's C stack is the bound); the fake's is deep
// enough for any pattern a script writes, and a clear error past it.
TEST_F(ScriptingTest, APatternNestedPastTheMatchDepthIsTooComplex) {
  EXPECT_EQ(eval("return string.find(string.rep('a', 4000), string.rep('a?', 4000))"), Reply::integer_of(1));
  const Reply deep = eval("return string.find(string.rep('a', 6000), string.rep('a?', 6000))");
  EXPECT_TRUE(fails_with(deep, "pattern too complex")) << describe(deep);
}

// table.foreach calls its function in the order pairs walks (ordered_next.hpp), not in 5.4's
// native order, which changes with the state's string-hash seed: the same script, the same calls.
TEST_F(ScriptingTest, TableForeachWalksInPairsOrder) {
  EXPECT_EQ(eval("local seen = {} table.foreach({c = 1, a = 2, [2] = 3, b = 4, [1] = 5}, "
                 "function(k) seen[#seen + 1] = tostring(k) end) return table.concat(seen, ',')"),
            Reply::bulk("1,2,a,b,c"));
  EXPECT_EQ(eval("return table.foreach({x = 1, y = 2}, function(k, v) if v == 2 then return k end end)"),
            Reply::bulk("y"));
  EXPECT_EQ(eval("local n = 0 table.foreach(string, function() n = n + 1 end) return n > 10"),
            Reply::integer_of(1));
}

// What 5.1 has no token for becomes a control character 5.4's parser refuses in the same place;
// strings, long strings and comments are left alone but for escapes 5.1 does not know; lines stay.
TEST(Lua51Compile, ReadsTheSourceAs51sLexerDoes) {
  using lua51_compile::as_54_source;
  EXPECT_EQ(as_54_source("return 7 // 2"), "return 7 /\x04 2");
  EXPECT_EQ(as_54_source("a = b & c | ~d ~= e"), "a = b \x01 c \x02 \x03" "d ~= e");
  EXPECT_EQ(as_54_source("x = 1 << 2 >> 3 <= 4"), "x = 1 <\x05 2 >\x06 3 <= 4");
  EXPECT_EQ(as_54_source("local a, b <const> = 1"), "local a, b \x05" "const> = 1");
  EXPECT_EQ(as_54_source("if a < b then end"), "if a < b then end");
  EXPECT_EQ(as_54_source("goto done ::done::"), "_oto done \x07:done\x07:");
  EXPECT_EQ(as_54_source("local goto = 1"), "local goto = 1");  // a name in 5.1: 5.4 refuses it itself
  EXPECT_EQ(as_54_source("s = 'a\\x41 \\. \\n \\\\ \\' \\065'"), "s = 'ax41 . \\n \\\\ \\' \\065'");
  // A numeric for's start and step go through the 5.1 number function, unless they are integer literals.
  EXPECT_EQ(as_54_source("for c=counter, 1, -1 do end"), "for c=__locksim_for51(counter), 1, -1 do end");
  EXPECT_EQ(as_54_source("for i = 1, n do end"), "for i = 1, n do end");
  EXPECT_EQ(as_54_source("for i = f(a, b), 2, s do end"), "for i =__locksim_for51( f(a, b)), 2,__locksim_for51( s )do end");
  EXPECT_EQ(as_54_source("for k, v in pairs(t) do end"), "for k, v in pairs(t) do end");
  EXPECT_EQ(as_54_source("for i = (function() return 1 end)(), 2 do end"), "for i = (function() return 1 end)(), 2 do end");
  EXPECT_EQ(as_54_source("for i = t[1]\n, 2 do end"), "for i =__locksim_for51( t[1]\n), 2 do end");
  EXPECT_EQ(as_54_source("s = [[a & \\x]] -- b // \\x\n--[==[ ~ ]==] t = 'a\\\r\nb'"),
            "s = [[a & \\x]] -- b // \\x\n--[==[ ~ ]==] t = 'a\\\r\nb'");
  EXPECT_EQ(as_54_source("t = {...} u = a..b"), "t = {...} u = a..b");
  EXPECT_EQ(as_54_source("s = \"unfinished\n& x"), "s = \"unfinished\n\x01 x");
}

TEST(LuaBridge, MessagesAreReworded51Style) {
  EXPECT_EQ(lua51_compile::as_lua51_compile_message("user_script:1: '=' expected near <eof>"),
            "user_script:1: '=' expected near '<eof>'");
  EXPECT_EQ(lua51_compile::as_lua51_compile_message("x: <name> expected near '<eof>'"), "x: '<name>' expected near '<eof>'");
  EXPECT_EQ(lua51_messages::as_lua51_runtime_message("user_script:1: attempt to call a nil value (field 'f')"),
            "user_script:1: attempt to call field 'f' (a nil value)");
  EXPECT_EQ(lua51_messages::as_lua51_runtime_message("user_script:1: attempt to call a string value (constant 'x')"),
            "user_script:1: attempt to call a string value");
  EXPECT_EQ(lua51_messages::as_lua51_runtime_message("attempt to compare number with nil"),
            "attempt to compare number with nil");
}

}  // namespace
}  // namespace locksim::engine

namespace locksim::engine {
namespace {

// A reply that contains itself ends in an error element at the depth limit instead of exhausting the
// stack (Redis ends near Lua 5.1's 8000 slots with the same error; docs/fidelity.md).
TEST(ScriptReplies, ATableThatContainsItselfEndsInAStackLimitError) {
  ManualHost host;
  Engine engine(host);
  const SessionId s = engine.open_session();
  Reply r = engine.execute(s, {"EVAL", "local a = {}; local b = {a}; a[1] = b; return a", "0"});
  int depth = 0;
  while (r.kind == Reply::Kind::Array && r.elements.size() == 1) {
    Reply inner = std::move(r.elements[0]);
    r = std::move(inner);
    ++depth;
  }
  EXPECT_EQ(r, Reply::error("ERR reached lua stack limit"));
  EXPECT_EQ(depth, 1001);
}

}  // namespace
}  // namespace locksim::engine
