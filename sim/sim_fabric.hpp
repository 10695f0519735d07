#pragma once
// SimFabric: simulated Redis servers (RedisNode, a fake Redis engine each) on the world's virtual
// time. The clock jumps from event to event; requests cross each client's simulated link; Redis's
// own timers (the active expiry cycle, the AOF fsync) run on the world's agenda; server faults act
// on the nodes at the exact millisecond asked.
#include <cstdint>
#include <memory>

#include "sim/redis_node.hpp"
#include "world/fabric.hpp"
#include "world/harness.hpp"

namespace locksim::sim {

class SimFabric final : public world::Fabric {
 public:
  // A server of the attached world (it has them once attached).
  RedisNode& node(int server);

  // world::Fabric
  void attach(world::Harness& world) override;
  int servers() const override { return static_cast<int>(nodes_.size()); }
  int64_t least_latency_ms() const override { return 1; }
  std::unique_ptr<world::ClientBackend> connect(world::ClientProcess& client) override;
  int64_t reachable(int64_t, int64_t until) override { return until; }
  int64_t run_at(int64_t due, int64_t) const override { return due; }
  void wait(int64_t) override {}
  void pump() override {}
  void plan(const world::Fault& fault, int64_t at) override;
  void restart(int server, world::Persistence persistence) override;
  void pause(int server, int64_t for_ms) override;
  void resume(int) override {}  // a node knows when its pause ends
  void failover(int server, int64_t lag_ms) override;
  void crash_master(int server, int64_t down_ms) override;
  void error_reply(int server, int64_t for_ms, const std::string& text) override;
  bool describe(StateWriter& out) const override;

 private:
  void housekeeping();
  int64_t idle_until(int64_t from) const;

  world::Harness* world_ = nullptr;
  Nodes nodes_;
};

}  // namespace locksim::sim
