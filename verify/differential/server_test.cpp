// Differential: server commands (cmd_server.cpp) and the dispatch checks of engine.cpp.
#include <cctype>

#include "verify/support/differential.hpp"

namespace locksim::test {

TEST_F(Differential, PingAndEcho) {
  expect_same({"PING"});
  expect_same({"ping", "hello"});
  expect_same({"PING", ""});
  expect_same({"PING", "a", "b"});
  expect_same({"ECHO", "hi there"});
  expect_same({"ECHO", std::string("bin\0ary", 7)});
  expect_same({"ECHO"});
  expect_same({"ECHO", "a", "b"});
}

TEST_F(Differential, FlushallAndDbsize) {
  expect_same({"DBSIZE"});
  expect_same({"SET", "a", "1"});
  expect_same({"HSET", "h", "f", "v"});
  expect_same({"ZADD", "z", "1", "m"});
  expect_same({"DBSIZE"});
  expect_same({"DBSIZE", "x"});
  expect_same({"FLUSHALL", "bogus"});
  expect_same({"FLUSHALL", "SYNC", "ASYNC"});
  expect_same({"DBSIZE"});
  expect_same({"FLUSHALL"});
  expect_same({"DBSIZE"});
  expect_same({"SET", "a", "1"});
  expect_same({"FLUSHALL", "sync"});
  expect_same({"SET", "a", "1"});
  expect_same({"FLUSHALL", "ASYNC"});
  expect_same({"DBSIZE"});
  expect_same({"GET", "a"});
}

TEST_F(Differential, TimeIsTwoDecimalBulks) {
  auto [fake, live] = both({"TIME"});
  for (const Reply* r : {&fake, &live}) {
    ASSERT_EQ(r->kind, Reply::Kind::Array) << locksim::describe(*r);
    ASSERT_EQ(r->elements.size(), 2u);
    for (const auto& e : r->elements) {
      ASSERT_EQ(e.kind, Reply::Kind::Bulk);
      ASSERT_FALSE(e.str.empty());
      for (char c : e.str) EXPECT_TRUE(std::isdigit(static_cast<unsigned char>(c))) << e.str;
    }
    EXPECT_LT(std::stoll(r->elements[1].str), 1'000'000);
  }
  EXPECT_NEAR(std::stoll(fake.elements[0].str), std::stoll(live.elements[0].str), 2);
  expect_same({"TIME", "x"});
}

TEST_F(Differential, DebugSleep) {
  expect_same({"DEBUG", "SLEEP", "0"});
  expect_same({"debug", "sleep", "0.01"});
  expect_same({"DEBUG", "SLEEP", "abc"});
  expect_same({"DEBUG", "SLEEP"});
  expect_same({"DEBUG", "SLEEP", "0", "1"});
  expect_same({"DEBUG", "NOSUCHTHING"});
  expect_same({"DEBUG"});
}

TEST_F(Differential, UnknownCommandsAndArity) {
  expect_same({"NOSUCH"});
  expect_same({"nosuch", "a", "b c"});
  expect_same({"NOSUCH", std::string(200, 'x'), "y"});
  expect_same({"NOSUCH", "line\r\nbreak"});
  expect_same({"GET"});
  expect_same({"get", "a", "b"});
  expect_same({"ZADD", "z"});
  expect_same({"PUBLISH", "c"});
  expect_same({"EVAL", "return 1"});
  expect_same({"SCRIPT"});
}

TEST_F(Differential, ClusterWithoutClusterSupport) {
  expect_same({"CLUSTER", "INFO"});
  expect_same({"CLUSTER", "HELP"});
  expect_same({"CLUSTER", "KEYSLOT", "k"});
  expect_same({"CLUSTER", "KEYSLOT"});
  expect_same({"CLUSTER", "RESET", "HARD"});
  expect_same({"CLUSTER", "NOPE"});
  expect_same({"CLUSTER"});
  expect_same({"EVAL", "return redis.pcall('cluster', 'reset', 'hard')", "0"});
  expect_same({"EVAL", "return redis.pcall('cluster', 'info')", "0"});
  expect_same({"EVAL", "return redis.pcall('cluster', 'nope')", "0"});
  expect_same({"MULTI"});
  expect_same({"CLUSTER", "INFO"});
  expect_same({"CLUSTER", "NOPE"});
  expect_same({"EXEC"});
}

}  // namespace locksim::test
