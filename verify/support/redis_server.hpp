#pragma once
// A private redis-server for tests: Debian's binary on 127.0.0.1, a free port, no persistence,
// DEBUG enabled. It is stopped (and its directory removed) when the object goes away.
#include <hiredis/hiredis.h>

#include <memory>
#include <string>
#include <sys/types.h>
#include <vector>

#include "engine/reply.hpp"

namespace locksim::test {

class RedisServer {
 public:
  // Starts the server and waits until it answers PING; throws std::runtime_error when it cannot.
  RedisServer();
  ~RedisServer();
  RedisServer(const RedisServer&) = delete;
  RedisServer& operator=(const RedisServer&) = delete;

  int port() const { return port_; }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

 private:
  pid_t pid_ = -1;
  int port_ = 0;
  std::string dir_;
};

// A synchronous hiredis connection whose replies come back as engine::Reply values.
class RedisClient {
 public:
  explicit RedisClient(int port);
  ~RedisClient();
  RedisClient(const RedisClient&) = delete;
  RedisClient& operator=(const RedisClient&) = delete;

  engine::Reply command(const std::vector<std::string>& argv);
  // Reads one more reply (after SUBSCRIBE with several channels, or a pushed message).
  engine::Reply read_reply();

 private:
  redisContext* context_ = nullptr;
};

engine::Reply from_hiredis(const redisReply* reply);

// A port nobody listens on right now (bound and released, as is usual for tests).
int free_port();

}  // namespace locksim::test
