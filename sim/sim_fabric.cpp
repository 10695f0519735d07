#include "sim/sim_fabric.hpp"

#include <algorithm>
#include <stdexcept>

#include "base/assert.hpp"
#include "model/events.hpp"
#include "model/fault_events.hpp"
#include "sim/sim_backend.hpp"

namespace locksim::sim {

void SimFabric::attach(world::Harness& world) {
  LS_ASSERT(world_ == nullptr);
  world_ = &world;
  for (int i = 0; i < world.options().servers; ++i)
    nodes_.push_back(std::make_unique<RedisNode>(world, model::server_name(i), i));
  world.queue().every(0, world.options().active_expire_every_ms, [this] { housekeeping(); },
                      [this](int64_t from) { return idle_until(from); });
}

RedisNode& SimFabric::node(int server) {
  if (server < 0 || server >= servers())
    throw std::invalid_argument("no server " + std::to_string(server) + " (the world has " + std::to_string(servers()) + ")");
  return *nodes_[static_cast<size_t>(server)];
}

std::unique_ptr<world::ClientBackend> SimFabric::connect(world::ClientProcess& client) {
  return std::make_unique<SimBackend>(*world_, client, nodes_);
}

// Redis's own timers: the active expiry cycle and, once a second, the AOF fsync. The world's queue
// runs this every active_expire_every_ms (EventQueue::every).
void SimFabric::housekeeping() {
  const int64_t now = world_->now();
  const int64_t every = world_->options().active_expire_every_ms;
  for (auto& node : nodes_) {
    if (node->paused_until() > now) continue;
    node->active_expire();
    if (now % 1000 < every) node->aof_fsync();
  }
}

// The first time from `from` on at which housekeeping() would change anything: before it, every
// node is paused, down, or has no key to expire and nothing new to write to its AOF.
int64_t SimFabric::idle_until(int64_t from) const {
  int64_t until = kNever;
  for (const auto& node : nodes_) until = std::min(until, node->housework_from(from, world_->options().active_expire_every_ms));
  return until;
}

// A failover promotes a replica that lags: the node keeps the snapshots it will need from now on.
void SimFabric::plan(const world::Fault& fault, int64_t) {
  if (fault.kind != world::FaultKind::Failover) return;
  // Via Sentinel, the replica follows its master (no lag) and has everything it had when it died.
  node(fault.server).keep_replica(fault.sentinel ? fault.down_ms : fault.lag_ms, fault.sentinel ? 0 : fault.lag_ms);
}

bool SimFabric::describe(StateWriter& out) const {
  for (const auto& node : nodes_) {
    out.begin("server");
    node->describe(out);
    out.end();
  }
  return true;
}

void SimFabric::restart(int server, world::Persistence persistence) { node(server).restart(persistence); }

void SimFabric::pause(int server, int64_t for_ms) { node(server).pause_until(world_->now() + for_ms); }

void SimFabric::failover(int server, int64_t lag_ms) { node(server).failover(lag_ms); }

void SimFabric::error_reply(int server, int64_t for_ms, const std::string& text) {
  node(server).answer_errors_until(world_->now() + for_ms, text);
}

void SimFabric::crash_master(int server, int64_t down_ms) {
  node(server).go_down();
  world_->queue().at(world_->now() + down_ms, [this, server, down_ms] {
    node(server).failover(down_ms);
    world_->record(model::fault_event(model::server_name(server), model::fault_name::kFailover, 0, -1,
                                      "Sentinel promoted the replica after " + std::to_string(down_ms) + " ms"));
  }, [&] {
    world::EventTag tag = world::EventTag::of_server(world::EventKind::ServerChange, server);
    tag.item = down_ms;  // the promoted replica's lag
    return tag;
  }());
}

}  // namespace locksim::sim
