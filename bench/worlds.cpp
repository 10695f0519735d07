#include "bench/worlds.hpp"

#include <chrono>

namespace locksim::bench {
namespace {

using world::OpSpec;

constexpr int64_t kThread = 1;
constexpr int kStandardClients = 8;
constexpr int64_t kWorkMs = 50;
constexpr int64_t kThinkMs = 50;
constexpr int64_t kTopUpEveryMs = 10'000;
// Cycles queued per client every kTopUpEveryMs: more than a lone client could finish (one cycle
// takes at least work + think), so no thread ever runs dry.
constexpr int64_t kCyclesPerTopUp = kTopUpEveryMs / (kWorkMs + kThinkMs) + 1;

const std::string kLockName = "orders";


std::vector<std::string> add_lock_and_clients(world::World& world, int clients, client::LockSpec spec = {}) {
  spec.name = kLockName;
  world.add_lock(spec);
  std::vector<std::string> names;
  for (int i = 0; i < clients; ++i) {
    std::string name = "c";
    name += std::to_string(i + 1);  // not "c" + to_string(): GCC 12 warns falsely (-Wrestrict)
    names.push_back(name);
    world.add_client(name);
  }
  return names;
}

// Queues the next cycles on every client's thread, up to kCyclesPerTopUp queued (more would pile up
// with the run's length: a contended client finishes far fewer). A busy thread takes its next
// operation from its queue by itself, so the operations go straight there (one event per top-up,
// not one per operation, which would swell the events counted); an idle thread is started through
// World::op. The queue always ends at a cycle's end, so what runs is the cycle, repeated.
void top_up(world::World& world, const std::vector<std::string>& clients) {
  const std::vector<OpSpec> cycle = {OpSpec::lock_op(kLockName), OpSpec::work(kWorkMs), OpSpec::unlock(kLockName),
                                     OpSpec::work(kThinkMs)};
  for (const std::string& name : clients) {
    world::ClientThread& thread = world.client(name).threads[kThread];
    const auto queued = static_cast<int64_t>(thread.pending.size() / cycle.size());
    for (int64_t i = queued; i < kCyclesPerTopUp; ++i) {
      for (const OpSpec& spec : cycle) {
        if (thread.busy) thread.pending.push_back(spec);
        else world.op(world.now(), name, kThread, spec);
      }
    }
  }
}

}  // namespace

std::vector<std::string> set_up_standard_contention(world::World& world, int64_t run_ms, client::LockSpec lock) {
  std::vector<std::string> clients = add_lock_and_clients(world, kStandardClients, std::move(lock));
  for (int64_t t = 0; t < run_ms; t += kTopUpEveryMs)
    world.at(t, [&world, clients] { top_up(world, clients); }, world::EventTag::test());
  return clients;
}

bool any_ran_dry(world::World& world, const std::vector<std::string>& clients) {
  for (const std::string& name : clients)
    if (world.client(name).threads[kThread].pending.empty()) return true;
  return false;
}

// All but the last operation go straight onto the thread's queue, the last through World::op, whose
// event (at time 0) appends it and starts the idle thread on the first one.
std::vector<std::string> set_up_lock_loops(world::World& world, int clients, int64_t pairs_per_client) {
  std::vector<std::string> names = add_lock_and_clients(world, clients);
  for (const std::string& name : names) {
    world::ClientThread& thread = world.client(name).threads[kThread];
    for (int64_t i = 0; i < pairs_per_client; ++i) {
      thread.pending.push_back(OpSpec::lock_op(kLockName));
      if (i + 1 < pairs_per_client) thread.pending.push_back(OpSpec::unlock(kLockName));
    }
    world.op(0, name, kThread, OpSpec::unlock(kLockName));
  }
  return names;
}

bool all_idle(world::World& world, const std::vector<std::string>& clients) {
  for (const std::string& name : clients) {
    const world::ClientThread& thread = world.client(name).threads[kThread];
    if (thread.busy || !thread.pending.empty()) return false;
  }
  return true;
}

bool run_until_idle(world::World& world, const std::vector<std::string>& clients, int64_t step_ms, int64_t cap_ms) {
  world.run_until(world.now());
  while (!all_idle(world, clients) && world.now() < cap_ms) world.run_until(world.now() + step_ms);
  return all_idle(world, clients);
}

world::WorldOptions lock_loop_options(bool live) {
  world::WorldOptions options;
  options.link.latency_min_ms = options.link.latency_max_ms = live ? 0 : 1;
  if (live)
    options.epoch_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                           std::chrono::system_clock::now().time_since_epoch()).count();
  return options;
}

}  // namespace locksim::bench
