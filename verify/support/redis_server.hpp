#pragma once
// The tests' private redis-server and blocking client are live/'s: one implementation of starting,
// stopping and talking to a real server.
#include "live/hiredis_reply.hpp"
#include "live/redis_process.hpp"
#include "live/sync_client.hpp"

namespace locksim::test {

using RedisServer = live::RedisProcess;
using RedisClient = live::SyncClient;
using live::free_port;
using live::from_hiredis;

}  // namespace locksim::test
