#pragma once
// Differential testing: the same commands go to the fake and to a live redis-server, and every
// reply must match (type, value and exact error text). The live server is the oracle: a mismatch is
// fixed in the fake, never by changing the expectation.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/engine.hpp"
#include "verify/support/redis_server.hpp"

namespace locksim::test {

// One redis-server for the whole test binary, started on first use and stopped at exit.
RedisServer& shared_redis_server();

// A host whose clock follows the wall clock, so that TTLs on the fake and on the live server tick
// alike. Only the differential tests use it; the simulated world never does.
class WallClockHost : public engine::Host {
 public:
  int64_t now_ms() override;
  void sleep_ms(int64_t ms) override;
  void deliver(engine::SessionId, std::string_view, std::string_view, std::string_view) override {}
};

// What the fake's PUBLISH path delivered, to whom, through which subscription.
struct Delivery {
  engine::SessionId session;
  std::string channel;
  std::string message;
  std::string pattern{};  // "" for a subscriber of the channel itself
  bool operator==(const Delivery&) const = default;
};

// A wall-clock host that keeps every delivery, for the pub/sub and notification tests.
class RecordingHost : public WallClockHost {
 public:
  void deliver(engine::SessionId session, std::string_view channel, std::string_view message,
               std::string_view pattern) override {
    delivered.push_back({session, std::string(channel), std::string(message), std::string(pattern)});
  }
  std::vector<Delivery> delivered;
};

// One client's connection to both: a session of the fake and a connection to the live server.
// Tests that need a second client (WATCH, SELECT) open more with Differential::connect().
struct Connection {
  engine::SessionId fake = 0;
  std::unique_ptr<RedisClient> live;
};

// Each test starts from an empty server (FLUSHALL, SCRIPT FLUSH, FUNCTION FLUSH) and a fresh fake. The live
// server's active expiry is off: expired keys go only when a command touches them, on both sides.
class Differential : public ::testing::Test {
 protected:
  static void SetUpTestSuite();
  void SetUp() override;

  // Another client's connection: a new session of the fake, a new connection to the live server.
  Connection connect();
  // Sends argv to both and expects identical replies.
  void expect_same(const std::vector<std::string>& argv);
  // The same on another client's connection.
  void expect_same(Connection& connection, const std::vector<std::string>& argv);
  // As expect_same, but integer replies may differ by `tolerance` (TTL, PTTL: real time passes).
  void expect_close(const std::vector<std::string>& argv, int64_t tolerance);
  // Sends argv to both and returns {fake, live} without comparing.
  std::pair<Reply, Reply> both(const std::vector<std::string>& argv);
  std::pair<Reply, Reply> both(Connection& connection, const std::vector<std::string>& argv);

  WallClockHost host_;
  std::unique_ptr<engine::Engine> fake_;
  engine::SessionId session_ = 0;
  std::unique_ptr<RedisClient> live_;
};

// The fake's reply as the live side's client reads it: hiredis reads RESP2's null array (*-1) and
// null bulk ($-1) alike, so the flag that tells them apart is dropped (the socket stories in
// verify/serve/ compare the two on the wire).
Reply as_hiredis_reads(Reply reply);

// Reads scripts/<name>.lua.
std::string lock_script(const std::string& name);

}  // namespace locksim::test
