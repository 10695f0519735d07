#pragma once
// SyncClient: a blocking hiredis connection for set-up and administration (AUTH, CONFIG SET,
// REPLICAOF NO ONE, FLUSHALL) and for tests. Lock clients never use it: they run on LiveBackend.
#include <hiredis/hiredis.h>

#include <string>
#include <vector>

#include "base/reply.hpp"

namespace locksim::live {

class SyncClient {
 public:
  // Connects (within `timeout_ms`) and authenticates when `password` is given; throws
  // std::runtime_error naming the address and what went wrong.
  SyncClient(const std::string& host, int port, const std::string& password = {}, int timeout_ms = 2000);
  explicit SyncClient(int port) : SyncClient("127.0.0.1", port) {}
  ~SyncClient();
  SyncClient(const SyncClient&) = delete;
  SyncClient& operator=(const SyncClient&) = delete;

  // A command's reply; a broken connection gives an error reply starting "(hiredis".
  Reply command(const std::vector<std::string>& argv);
  // Reads one more reply (after SUBSCRIBE with several channels, or a pushed message).
  Reply read_reply();

 private:
  redisContext* context_ = nullptr;
};

}  // namespace locksim::live
