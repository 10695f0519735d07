#pragma once
// Fabric: the Redis servers a world's clients reach, and how its clock moves with them. sim/
// supplies simulated servers on virtual time; live/ real redis-server processes on the real clock.
// The world drives clients, operations and client faults; its fabric carries their requests, sets
// the pace of the clock and acts out server faults, which the world records.
#include <cstdint>
#include <memory>
#include <string>

#include "base/state_writer.hpp"
#include "world/fault.hpp"

namespace locksim::world {

class ClientBackend;
class Harness;
struct ClientProcess;

class Fabric {
 public:
  virtual ~Fabric() = default;

  // Called once, by the world this fabric serves, before anything is scheduled in it.
  virtual void attach(Harness& world) = 0;
  virtual int servers() const = 0;
  // The least one-way latency a client's link may have on top of this fabric's own.
  virtual int64_t least_latency_ms() const = 0;
  // The client's backend on this fabric.
  virtual std::unique_ptr<ClientBackend> connect(ClientProcess& client) = 0;

  // --- the clock
  // How far the world's clock may move now, towards `until` (from `now`): simulated servers let it
  // jump; real ones hold it to the real time elapsed.
  virtual int64_t reachable(int64_t now, int64_t until) = 0;
  // When an event due at `due` runs, once the clock may reach `reached`: at its own time
  // (simulated), or at the time reached (real: it runs late).
  virtual int64_t run_at(int64_t due, int64_t reached) const = 0;
  // Blocks until something can be read or `until_ms` comes (real servers; simulated ones never wait).
  virtual void wait(int64_t until_ms) = 0;
  // Handles every reply and message that has come. Throws when the run cannot go on.
  virtual void pump() = 0;

  // --- server faults (each throws std::runtime_error when it cannot be done)
  // What a server fault due at `at` needs before the run starts (a replica that lags).
  virtual void plan(const Fault& fault, int64_t at) = 0;
  virtual void restart(int server, Persistence persistence) = 0;
  virtual void pause(int server, int64_t for_ms) = 0;
  virtual void resume(int server) = 0;
  // The replica, `lag_ms` behind, becomes the master.
  virtual void failover(int server, int64_t lag_ms) = 0;
  // The master dies; Sentinel promotes its replica (simulated: `down_ms` later; live: when Sentinel
  // decides) and the fabric records that failover then.
  virtual void crash_master(int server, int64_t down_ms) = 0;
  // For `for_ms` from now the server answers every request at once with the error `text` and runs
  // none (error_reply). It ends by itself.
  virtual void error_reply(int server, int64_t for_ms, const std::string& text) = 0;
  // Its servers' state as data (base/state_writer.hpp), times relative to now; false where it
  // cannot be written (real servers): such a world's states are never taken for one another.
  virtual bool describe(StateWriter&) const { return false; }
};

}  // namespace locksim::world
