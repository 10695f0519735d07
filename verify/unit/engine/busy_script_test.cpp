// Unit: busy scripts (engine.cpp's execute_while_busy and kill_script, lua_bridge.cpp's hook), as
// Redis 7.0.15's script.c and processCommand answer them. A host stands in for serve: it declares
// the script busy at its first hook call and runs other sessions' commands there, by count, not by
// time, so that the test is deterministic. Expectations are Redis's texts (server.c's
// shared.slowevalerr / slowscripterr, script.c's scriptKill, script_lua.c's luaMaskCountHook).
#include <functional>
#include <string>
#include <vector>

#include "engine/engine.hpp"
#include "verify/unit/engine/engine_harness.hpp"

namespace locksim::engine {
namespace {

constexpr std::string_view kBusyEval =
    "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.";
constexpr std::string_view kBusyFunction =
    "BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.";
constexpr std::string_view kNotBusy = "NOTBUSY No scripts in execution right now.";

// Runs `while_busy` at the script's first hook call, once, after declaring the script busy.
class BusyHost : public RecordingHost {
 public:
  void script_running() override {
    ++calls;
    if (engine == nullptr || done) return;
    done = true;
    engine->mark_script_busy();
    if (while_busy) while_busy();
  }
  Engine* engine = nullptr;
  std::function<void()> while_busy;
  bool done = false;
  int calls = 0;
};

class BusyScriptTest : public ::testing::Test {
 protected:
  BusyScriptTest() { host_.engine = &engine_; }

  // `argv` on the other session, its reply kept.
  void other(std::initializer_list<std::string_view> argv) { seen_.push_back(engine_.execute(other_, argv)); }

  BusyHost host_;
  Engine engine_{host_, EngineOptions{.script_instruction_budget = EngineOptions::kNoBudget}};
  SessionId caller_ = engine_.open_session();
  SessionId other_ = engine_.open_session();
  SessionId third_ = engine_.open_session();
  std::vector<Reply> seen_;
};

TEST(BusyScriptNoHost, KillAnswersNotBusyWhenNoScriptRuns) {
  ManualHost host;
  Engine engine(host);
  const SessionId s = engine.open_session();
  EXPECT_EQ(engine.execute(s, {"SCRIPT", "KILL"}), Reply::error(kNotBusy));
  EXPECT_EQ(engine.execute(s, {"FUNCTION", "KILL"}), Reply::error(kNotBusy));
  EXPECT_EQ(engine.execute(s, {"SCRIPT", "KILL", "x"}), Reply::error("ERR wrong number of arguments for 'script|kill' command"));
}

TEST(BusyScriptNoHost, TheDefaultHostKeepsTheInstructionBudget) {
  ManualHost host;
  Engine engine(host, EngineOptions{.script_instruction_budget = 1'000'000});
  const SessionId s = engine.open_session();
  const Reply r = engine.execute(s, {"EVAL", "while true do end", "0"});
  ASSERT_TRUE(r.is_error());
  EXPECT_NE(r.str.find("instruction budget of 1000000"), std::string::npos) << r.str;
  EXPECT_FALSE(engine.in_script());
  EXPECT_EQ(engine.execute(s, {"SCRIPT", "KILL"}), Reply::error(kNotBusy));
}

TEST_F(BusyScriptTest, OthersGetBusyAndScriptKillEndsAReadOnlyScript) {
  ASSERT_EQ(engine_.execute(other_, {"SET", "xx", "1"}), Reply::ok());
  host_.while_busy = [&] {
    other({"PING"});
    other({"GET", "xx"});
    other({"NOSUCH"});
    other({"GET"});
    other({"FUNCTION", "KILL"});
    other({"FUNCTION", "STATS"});
    other({"MULTI"});
    other({"INCR", "xx"});
    other({"SCRIPT", "KILL"});  // queued, as Redis queues an allow-busy command inside MULTI
    seen_.push_back(engine_.execute(third_, {"SCRIPT", "KILL"}));
  };
  const std::string sha = engine_.execute(caller_, {"SCRIPT", "LOAD", "while true do end"}).str;
  const Reply r = engine_.execute(caller_, {"EVAL", "while true do end", "0"});
  EXPECT_EQ(r, Reply::error("ERR Script killed by user with SCRIPT KILL... script: " + sha + ", on @user_script:1."));
  ASSERT_EQ(seen_.size(), 10u);
  EXPECT_EQ(seen_[0], Reply::error(kBusyEval));
  EXPECT_EQ(seen_[1], Reply::error(kBusyEval));
  EXPECT_EQ(seen_[2], Reply::error("ERR unknown command 'NOSUCH', with args beginning with: "));
  EXPECT_EQ(seen_[3], Reply::error("ERR wrong number of arguments for 'get' command"));
  EXPECT_EQ(seen_[4], Reply::error(kBusyEval));  // FUNCTION KILL does not kill an EVAL
  EXPECT_EQ(seen_[5], Reply::error(kBusyEval));  // FUNCTION STATS shows no EVAL
  EXPECT_EQ(seen_[6], Reply::ok());              // MULTI is allow-busy
  EXPECT_EQ(seen_[7], Reply::error(kBusyEval));  // ... and the refusal spoils the transaction
  EXPECT_EQ(seen_[8], Reply::status("QUEUED"));
  EXPECT_EQ(seen_[9], Reply::ok());
  EXPECT_EQ(engine_.execute(other_, {"INCR", "xx"}), Reply::status("QUEUED"));
  EXPECT_EQ(engine_.execute(other_, {"EXEC"}),
            Reply::error("EXECABORT Transaction discarded because of previous errors."));
  EXPECT_EQ(engine_.execute(other_, {"GET", "xx"}), Reply::bulk("1"));
  EXPECT_EQ(engine_.execute(other_, {"SCRIPT", "KILL"}), Reply::error(kNotBusy));
}

TEST_F(BusyScriptTest, ExecWhileBusyAbortsWithTheBusyError) {
  ASSERT_EQ(engine_.execute(other_, {"MULTI"}), Reply::ok());
  ASSERT_EQ(engine_.execute(other_, {"INCR", "xx"}), Reply::status("QUEUED"));
  host_.while_busy = [&] {
    other({"EXEC"});
    other({"SCRIPT", "KILL"});
  };
  EXPECT_TRUE(engine_.execute(caller_, {"EVAL", "while true do end", "0"}).is_error());
  ASSERT_EQ(seen_.size(), 2u);
  EXPECT_EQ(seen_[0], Reply::error("EXECABORT Transaction discarded because of: " + std::string(kBusyEval)));
  EXPECT_EQ(engine_.execute(other_, {"EXEC"}), Reply::error("ERR EXEC without MULTI"));
  EXPECT_EQ(engine_.execute(other_, {"GET", "xx"}), Reply::nil());
}

TEST_F(BusyScriptTest, APcallCannotCatchTheKill) {
  host_.while_busy = [&] { other({"SCRIPT", "KILL"}); };
  const Reply r = engine_.execute(
      caller_, {"EVAL", "local f = function() while 1 do redis.call('ping') end end while 1 do pcall(f) end", "0"});
  ASSERT_TRUE(r.is_error());
  EXPECT_TRUE(r.str.starts_with("ERR Script killed by user with SCRIPT KILL...")) << r.str;
  EXPECT_EQ(seen_, std::vector<Reply>{Reply::ok()});
}

TEST_F(BusyScriptTest, AScriptThatWroteIsUnkillable) {
  host_.while_busy = [&] {
    other({"SCRIPT", "KILL"});
    other({"PING"});
    engine_.abort_script();  // SHUTDOWN NOSAVE's way out, the only one left
  };
  const Reply r = engine_.execute(caller_, {"EVAL", "redis.call('set', KEYS[1], 'y') while true do end", "1", "x"});
  EXPECT_TRUE(r.is_error());
  ASSERT_EQ(seen_.size(), 2u);
  EXPECT_EQ(seen_[0], Reply::error("UNKILLABLE Sorry the script already executed write commands against the dataset. You "
                                   "can either wait the script termination or kill the server in a hard way using the "
                                   "SHUTDOWN NOSAVE command."));
  EXPECT_EQ(seen_[1], Reply::error(kBusyEval));
}

TEST_F(BusyScriptTest, FunctionKillEndsAFunctionAndScriptKillDoesNot) {
  ASSERT_EQ(engine_.execute(caller_, {"FUNCTION", "LOAD",
                                      "#!lua name=test\nredis.register_function('test', function(keys, args)\n"
                                      "  while true do end\nend)"}),
            Reply::bulk("test"));
  host_.while_busy = [&] {
    other({"PING"});
    other({"SCRIPT", "KILL"});
    other({"FUNCTION", "STATS"});
    other({"FUNCTION", "KILL"});
  };
  const Reply r = engine_.execute(caller_, {"FCALL", "test", "0"});
  EXPECT_EQ(r, Reply::error("ERR Script killed by user with SCRIPT KILL... script: test, on @user_function:3."));
  ASSERT_EQ(seen_.size(), 4u);
  EXPECT_EQ(seen_[0], Reply::error(kBusyFunction));
  EXPECT_EQ(seen_[1], Reply::error(kBusyFunction));
  // functions.tcl: running_script {name test command {fcall test 0} duration_ms *} (this host's
  // clock stands still).
  ASSERT_EQ(seen_[2].elements.size(), 4u);
  EXPECT_EQ(seen_[2].elements[1],
            Reply::array({Reply::bulk("name"), Reply::bulk("test"), Reply::bulk("command"),
                          Reply::array({Reply::bulk("FCALL"), Reply::bulk("test"), Reply::bulk("0")}),
                          Reply::bulk("duration_ms"), Reply::integer_of(0)}));
  EXPECT_EQ(seen_[3], Reply::ok());
}

TEST_F(BusyScriptTest, AScriptThatEndsInTimeIsNeverBusy) {
  EXPECT_EQ(engine_.execute(caller_, {"EVAL", "local n = 0 for i = 1, 10 do n = n + i end return n", "0"}),
            Reply::integer_of(55));
  EXPECT_FALSE(host_.done);
}

}  // namespace
}  // namespace locksim::engine
