#pragma once
// Fabric: what a world's clients reach Redis through when it is not the world's own simulated nodes.
// live/ supplies one over real redis-server processes on the real clock. The world keeps driving
// clients, operations and client faults; a fabric carries requests, paces the world's clock to real
// time and acts out server faults on real processes.
#include <cstdint>
#include <memory>

#include "world/redis_node.hpp"

namespace locksim::world {

class World;
class ClientBackend;
struct ClientProcess;

class Fabric {
 public:
  virtual ~Fabric() = default;

  virtual int servers() const = 0;
  // The client's backend over this fabric (its connections open lazily).
  virtual std::unique_ptr<ClientBackend> connect(World& world, ClientProcess& client) = 0;

  // Milliseconds since the run started: the world's clock never runs ahead of it.
  virtual int64_t elapsed_ms() = 0;
  // Blocks until something can be read or `until_ms` (elapsed) comes, whichever first.
  virtual void wait(int64_t until_ms) = 0;
  // Handles, at the world's now, every reply and message that has come. Throws when the run cannot
  // go on (a server it relies on is gone for good).
  virtual void pump() = 0;

  // Server faults, now. Each throws std::runtime_error when it cannot be done.
  virtual void restart(int server, Persistence persistence) = 0;
  virtual void pause(int server) = 0;
  virtual void resume(int server) = 0;
  // The replica stops following its master: from now on it lags. Then failover promotes it.
  virtual void detach_replica(int server) = 0;
  virtual void failover(int server) = 0;
  // The master dies; its Sentinel promotes the replica when it sees fit, and the fabric moves the
  // clients (and records the failover) when the Sentinel announces the switch.
  virtual void crash_master(int server) = 0;
};

}  // namespace locksim::world
