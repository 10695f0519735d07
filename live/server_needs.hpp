#pragma once
// What a run will ask of each real server, known from its faults before it starts: the fabric
// starts a replica, a Sentinel or AOF only where a fault needs one.
#include <cstdint>
#include <vector>

#include "world/fault.hpp"

namespace locksim::live {

struct ServerNeeds {
  bool aof = false;        // a restart with persistence: aof
  int failovers = 0;       // live, a server has one replica: one failover
  bool faults = false;     // any server fault (not possible on a server locksim did not start)
  bool sentinel = false;   // a failover via Sentinel: a redis-sentinel watches the master
  int64_t down_after_ms = 1000;
};

// What each of `servers` servers needs for `faults`.
std::vector<ServerNeeds> server_needs(const std::vector<world::Fault>& faults, int servers);

}  // namespace locksim::live
