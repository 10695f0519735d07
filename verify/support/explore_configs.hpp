#pragma once
// Explored configurations several property suites run: every lock type under every fault kind,
// with leases and world-wide loss, judged by every property that applies to it.
#include <string>
#include <utility>
#include <vector>

#include "explore/generator.hpp"
#include "model/checkers.hpp"
#include "model/lock_types.hpp"

namespace locksim::test {

inline std::vector<std::pair<std::string, explore::ExploreConfig>> every_lock_type_under_every_fault() {
  std::vector<std::pair<std::string, explore::ExploreConfig>> configs;
  for (const model::LockType& type : model::lock_types()) {
    explore::ExploreConfig c;
    c.lock_type = std::string(type.name);
    c.faults = explore::all_fault_kinds();
    c.world_loss_max = 10;
    c.properties = model::applicable_properties(c.lock_type);
    configs.emplace_back(c.lock_type + " all faults, leases, loss", c);
  }
  return configs;
}

}  // namespace locksim::test
