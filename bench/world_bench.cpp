// The standard contention world: 8 clients on one RLock with the watchdog (no lease), each looping
// lock, work 50 ms, unlock, think 50 ms over 1-3 ms links, for 10 simulated minutes per iteration.
// Reports how many simulated ms pass per wall-clock second, the events executed and the history size.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "world/world.hpp"

namespace {

using locksim::world::OpSpec;

constexpr int kClients = 8;
constexpr int64_t kThread = 1;
constexpr int64_t kRunMs = 10 * 60 * 1000;
constexpr int64_t kWorkMs = 50;
constexpr int64_t kThinkMs = 50;
constexpr int64_t kTopUpEveryMs = 10'000;
// Cycles queued per client every kTopUpEveryMs: more than a lone client could finish (one cycle
// takes at least work + think), so no thread ever runs dry.
constexpr int64_t kCyclesPerTopUp = kTopUpEveryMs / (kWorkMs + kThinkMs) + 1;

const std::string kLockName = "orders";

std::vector<OpSpec> one_cycle() {
  return {
      {OpSpec::Kind::Lock, kLockName, -1, -1, 0},
      {OpSpec::Kind::Work, "", -1, -1, kWorkMs},
      {OpSpec::Kind::Unlock, kLockName, -1, -1, 0},
      {OpSpec::Kind::Work, "", -1, -1, kThinkMs},
  };
}

// Queues the next cycles on every client's thread. A busy thread takes its next operation from its
// queue by itself, so the operations go straight there (one event per top-up, not one per
// operation, which would swell the events counted); an idle thread is started through World::op.
void top_up(locksim::world::World& world, const std::vector<std::string>& clients) {
  const std::vector<OpSpec> cycle = one_cycle();
  for (const std::string& name : clients) {
    locksim::world::ClientProcess& process = world.client(name);
    locksim::world::ClientThread& thread = process.threads[kThread];
    for (int64_t i = 0; i < kCyclesPerTopUp; ++i) {
      for (const OpSpec& spec : cycle) {
        if (thread.busy) {
          thread.pending.push_back(spec);
        } else {
          world.op(world.now(), name, kThread, spec);
        }
      }
    }
  }
}

struct RunFigures {
  uint64_t events = 0;
  size_t history = 0;
  int64_t locks_taken = 0;
  bool ran_dry = false;
};

RunFigures run_standard_world(double& wall_seconds) {
  locksim::world::World world({});
  locksim::world::LockSpec spec;
  spec.type = "rlock";
  spec.name = kLockName;
  world.add_lock(spec);
  std::vector<std::string> clients;
  for (int i = 0; i < kClients; ++i) {
    std::string name = "c";
    name += std::to_string(i + 1);  // not "c" + to_string(): GCC 12 warns falsely (-Wrestrict)
    clients.push_back(name);
    world.add_client(clients.back());
  }
  for (int64_t t = 0; t < kRunMs; t += kTopUpEveryMs) world.at(t, [&world, &clients] { top_up(world, clients); });

  const auto start = std::chrono::steady_clock::now();
  world.run_until(kRunMs);
  wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  RunFigures figures;
  figures.events = world.events_executed();
  figures.history = world.history().size();
  for (const auto& e : world.history().events())
    if (e.kind == locksim::model::EventKind::Ok && e.f == "lock") ++figures.locks_taken;
  for (const std::string& name : clients)
    if (world.client(name).threads[kThread].pending.empty()) figures.ran_dry = true;
  return figures;
}

void BM_StandardContentionWorld(benchmark::State& state) {
  double wall_total = 0;
  double sim_ms_total = 0;
  RunFigures last;
  for (auto _ : state) {
    double wall = 0;
    last = run_standard_world(wall);
    wall_total += wall;
    sim_ms_total += static_cast<double>(kRunMs);
    if (last.ran_dry) {
      state.SkipWithError("a client ran out of queued operations before the end");
      break;
    }
  }
  state.SetItemsProcessed(last.locks_taken * static_cast<int64_t>(state.iterations()));
  state.counters["sim_ms_per_wall_s"] = benchmark::Counter(wall_total > 0 ? sim_ms_total / wall_total : 0);
  state.counters["sim_ms"] = benchmark::Counter(static_cast<double>(kRunMs));
  state.counters["events"] = benchmark::Counter(static_cast<double>(last.events));
  state.counters["history"] = benchmark::Counter(static_cast<double>(last.history));
  state.counters["locks"] = benchmark::Counter(static_cast<double>(last.locks_taken));
}
BENCHMARK(BM_StandardContentionWorld)->Iterations(2)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
