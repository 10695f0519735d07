#include "live/server_needs.hpp"

namespace locksim::live {

std::vector<ServerNeeds> server_needs(const std::vector<world::Fault>& faults, int servers) {
  std::vector<ServerNeeds> needs(static_cast<size_t>(servers));
  for (const world::Fault& f : faults) {
    if (!world::fault_info(f.kind).on_server) continue;
    ServerNeeds& n = needs.at(static_cast<size_t>(f.server));
    n.faults = true;
    if (f.kind == world::FaultKind::RedisRestart && f.persistence == world::Persistence::AofEverySec) n.aof = true;
    if (f.kind == world::FaultKind::Failover) ++n.failovers;
    if (f.kind == world::FaultKind::Failover && f.sentinel) {
      n.sentinel = true;
      n.down_after_ms = f.down_ms;
    }
  }
  return needs;
}

}  // namespace locksim::live
