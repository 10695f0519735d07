// The standard contention world: 8 clients on one RLock with the watchdog (no lease), each looping
// lock, work 50 ms, unlock, think 50 ms over 1-3 ms links, for 10 simulated minutes per iteration.
// Reports how many simulated ms pass per wall-clock second, the events executed and the history size.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "bench/worlds.hpp"

namespace {

constexpr int64_t kRunMs = locksim::bench::kStandardRunMs;

struct RunFigures {
  uint64_t events = 0;
  size_t history = 0;
  int64_t locks_taken = 0;
  bool ran_dry = false;
};

RunFigures run_standard_world(double& wall_seconds) {
  locksim::sim::Simulation sim({});
  locksim::world::World& world = sim.world;
  const std::vector<std::string> clients = locksim::bench::set_up_standard_contention(world);

  const auto start = std::chrono::steady_clock::now();
  world.run_until(kRunMs);
  wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  RunFigures figures;
  figures.events = world.events_executed();
  figures.history = world.history().size();
  for (const auto& e : world.history().events())
    if (e.kind == locksim::model::EventKind::Ok && e.f == "lock") ++figures.locks_taken;
  figures.ran_dry = locksim::bench::any_ran_dry(world, clients);
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
