// The live fabric's parts on real redis-servers: process faults, named servers, a server that dies.
#include <gtest/gtest.h>

#include <chrono>

#include "live/live_fabric.hpp"
#include "live/redis_process.hpp"
#include "live/sync_client.hpp"
#include "world/world.hpp"

namespace locksim::live {
namespace {

world::WorldOptions live_world() {
  world::WorldOptions options;
  options.epoch_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  return options;
}

TEST(RedisProcess, AKilledServerStartedAgainFromItsAofKeepsWhatItWrote) {
  RedisProcessOptions aof;
  aof.aof = true;
  RedisProcess server(aof);
  {
    SyncClient c(server.port());
    ASSERT_EQ(c.command({"SET", "k", "v"}), Reply::ok());
  }
  server.start_again(true);
  {
    SyncClient c(server.port());
    EXPECT_EQ(c.command({"GET", "k"}), Reply::bulk("v"));
  }
  server.start_again(false);  // without persistence: empty
  SyncClient c(server.port());
  EXPECT_EQ(c.command({"GET", "k"}), Reply::nil());
}

TEST(RedisProcess, AStoppedServerAnswersOnlyOnceContinued) {
  RedisProcess server;
  SyncClient c("127.0.0.1", server.port(), "", 300);
  server.stop_signal();
  EXPECT_TRUE(c.command({"PING"}).is_error());  // timed out
  server.continue_signal();
  SyncClient again(server.port());
  EXPECT_EQ(again.command({"PING"}), Reply::status("PONG"));
}

TEST(LiveFabric, RefusesServerFaultsOnANamedServer) {
  RedisProcess server;
  LiveOptions options;
  options.servers = {Address{"127.0.0.1", server.port()}};
  ServerNeeds needs;
  needs.faults = true;
  try {
    LiveFabric fabric(options, {needs});
    FAIL() << "a restart on a server locksim did not start was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("servers it starts itself"), std::string::npos) << e.what();
  }
}

TEST(LiveFabric, RefusesANamedServerWithKeysUnlessToldToFlushIt) {
  RedisProcess server;
  SyncClient(server.port()).command({"SET", "someone-elses", "data"});
  LiveOptions options;
  options.servers = {Address{"127.0.0.1", server.port()}};
  EXPECT_THROW(LiveFabric(options, {ServerNeeds{}}), std::runtime_error);
  options.flush = true;
  LiveFabric fabric(options, {ServerNeeds{}});
  EXPECT_EQ(SyncClient(server.port()).command({"DBSIZE"}), Reply::integer_of(0));
}

TEST(LiveFabric, APasswordProtectedServerNeedsTheRightPassword) {
  RedisProcess server;
  ASSERT_EQ(SyncClient(server.port()).command({"CONFIG", "SET", "requirepass", "s3cret"}), Reply::ok());
  LiveOptions options;
  options.servers = {Address{"127.0.0.1", server.port()}};
  try {
    LiveFabric fabric(options, {ServerNeeds{}});
    FAIL() << "a server asking for a password was used without one";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("NOAUTH"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("(pass its password with --password)"), std::string::npos) << e.what();
  }
  options.password = "wrong";
  try {
    LiveFabric fabric(options, {ServerNeeds{}});
    FAIL() << "a wrong password was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("refused the password"), std::string::npos) << e.what();
  }
  options.password = "s3cret";
  LiveFabric fabric(options, {ServerNeeds{}});
  EXPECT_EQ(fabric.servers(), 1);
}

TEST(LiveFabric, MoreThanOneFailoverOfAServerIsRefusedLive) {
  ServerNeeds needs;
  needs.faults = true;
  needs.failovers = 2;
  try {
    LiveFabric fabric(LiveOptions{}, {needs});
    FAIL() << "two failovers of one server were accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("redis0 fails over 2 times"), std::string::npos) << e.what();
  }
}

TEST(LiveFabric, ANamedServerGetsItsSettingBackAndLosesOnlyTheKeysTheRunCreated) {
  RedisProcess server;
  SyncClient admin(server.port());
  ASSERT_EQ(admin.command({"CONFIG", "SET", "notify-keyspace-events", "Kx"}), Reply::ok());
  const Reply setting = admin.command({"CONFIG", "GET", "notify-keyspace-events"});
  LiveOptions options;
  options.servers = {Address{"127.0.0.1", server.port()}};
  {
    LiveFabric fabric(options, {ServerNeeds{}});
    world::World w(live_world(), fabric);
    client::LockSpec lock;
    lock.name = "orders";
    w.add_lock(lock);
    w.add_client("A");
    world::OpSpec acquire;
    acquire.lock = "orders";
    w.op(0, "A", 1, acquire);
    w.run_until(300);
    ASSERT_EQ(admin.command({"EXISTS", "orders"}), Reply::integer_of(1)) << "A holds the lock";
    admin.command({"SET", "someone-elses", "data"});  // written during the run by someone else
  }
  EXPECT_EQ(admin.command({"EXISTS", "orders"}), Reply::integer_of(0));
  EXPECT_EQ(admin.command({"GET", "someone-elses"}), Reply::bulk("data"));
  EXPECT_EQ(admin.command({"CONFIG", "GET", "notify-keyspace-events"}), setting);
}

TEST(LiveFabric, ANamedServerThatDiesEndsTheRunWithAClearErrorAndTheHistoryKept) {
  RedisProcess server;
  LiveOptions options;
  options.servers = {Address{"127.0.0.1", server.port()}};
  LiveFabric fabric(options, {ServerNeeds{}});
  world::World w(live_world(), fabric);
  client::LockSpec lock;
  lock.name = "orders";
  w.add_lock(lock);
  w.add_client("A");
  world::OpSpec acquire;
  acquire.lock = "orders";
  w.op(0, "A", 1, acquire);
  w.at(300, [&server] { server.kill(); }, world::EventTag::test());
  try {
    w.run_until(5000);
    FAIL() << "the run went on without its server";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("lost redis0 at 127.0.0.1:" + std::to_string(server.port())), std::string::npos)
        << e.what();
  }
  EXPECT_LT(w.now(), 2000);  // noticed promptly, not at the end
  bool held = false;
  for (const auto& e : w.history().events()) held = held || (e.kind == model::EventKind::Hold && e.process == "A");
  EXPECT_TRUE(held) << "what happened before the death is kept";
}

}  // namespace
}  // namespace locksim::live
