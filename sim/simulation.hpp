#pragma once
// Simulation: a world on simulated servers, the usual run. The fabric is made first so that it
// outlives the world it serves.
#include "sim/sim_fabric.hpp"
#include "world/world.hpp"

namespace locksim::sim {

struct Simulation {
  explicit Simulation(world::WorldOptions options) : world(std::move(options), servers) {}
  SimFabric servers;
  world::World world;
};

}  // namespace locksim::sim
