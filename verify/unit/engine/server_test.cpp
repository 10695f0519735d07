// Unit: server commands (cmd_server.cpp) on a manual clock.
#include "verify/unit/engine/engine_harness.hpp"

namespace locksim::engine {
namespace {

class ServerTest : public EngineTest {};

TEST_F(ServerTest, PingAndEcho) {
  EXPECT_EQ(run({"PING"}), Reply::status("PONG"));
  EXPECT_EQ(run({"PING", "hi"}), bulk("hi"));
  EXPECT_EQ(run({"PING", "a", "b"}), error("ERR wrong number of arguments for 'ping' command"));
  EXPECT_EQ(run({"ECHO", "x y"}), bulk("x y"));
  EXPECT_EQ(run({"ECHO"}), error("ERR wrong number of arguments for 'echo' command"));
}

TEST_F(ServerTest, FlushallEmptiesTheKeyspace) {
  run({"SET", "a", "1"});
  run({"ZADD", "z", "1", "m"});
  EXPECT_EQ(run({"DBSIZE"}), integer(2));
  EXPECT_EQ(run({"FLUSHALL", "bogus"}), error("ERR syntax error"));
  EXPECT_EQ(run({"DBSIZE"}), integer(2));
  EXPECT_EQ(run({"FLUSHALL", "ASYNC"}), Reply::ok());
  EXPECT_EQ(run({"DBSIZE"}), integer(0));
  EXPECT_EQ(run({"GET", "a"}), Reply::nil());
}

TEST_F(ServerTest, TimeReadsTheHostClock) {
  host_.advance_ms(1234);
  EXPECT_EQ(run({"TIME"}), bulks({"1700000001", "234000"}));
}

TEST_F(ServerTest, DebugSleepAdvancesTheSimulatedClock) {
  const int64_t before = now();
  EXPECT_EQ(run({"DEBUG", "SLEEP", "0"}), Reply::ok());
  EXPECT_EQ(now(), before);
  EXPECT_EQ(run({"DEBUG", "sleep", "1.5"}), Reply::ok());
  EXPECT_EQ(now(), before + 1500);
  EXPECT_EQ(run({"DEBUG", "SLEEP", "junk"}), Reply::ok());  // strtod reads 0
  EXPECT_EQ(now(), before + 1500);
  EXPECT_EQ(run({"DEBUG", "SLEEP"}),
            error("ERR unknown subcommand or wrong number of arguments for 'SLEEP'. Try DEBUG HELP."));
  EXPECT_EQ(run({"DEBUG", "object", "k"}),
            error("ERR unknown subcommand or wrong number of arguments for 'object'. Try DEBUG HELP."));
}

TEST_F(ServerTest, DebugSleepInAScriptIsRefused) {
  EXPECT_EQ(run({"EVAL", "return redis.pcall('debug', 'sleep', '0')", "0"}),
            error("ERR This Redis command is not allowed from script"));
}

TEST_F(ServerTest, UnknownCommandNamesItsArguments) {
  EXPECT_EQ(run({"NOSUCH", "a", "b c"}),
            error("ERR unknown command 'NOSUCH', with args beginning with: 'a' 'b c' "));
}

}  // namespace
}  // namespace locksim::engine
