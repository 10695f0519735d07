// The same client workload on the fake (a plain World: simulated servers, virtual time) and on a live
// redis-server (a World on a live::LiveFabric that starts its own redis-server; virtual time = real
// ms), in one run. Two workloads on one RLock "orders" with the watchdog (no lease), no work and no
// think time between operations:
//   uncontended: one client looping lock(), unlock();
//   contended:   8 clients, each looping lock(), unlock(), all on the same lock.
// Reports lock+unlock pairs per wall-clock second of the run loop (set-up, the redis-server's start
// and teardown are not timed). The fake's links take exactly 1 ms each way (the least a simulated
// world allows; virtual time costs no wall time); the live world emulates no latency on top of the
// real loopback connection, so the live rate is redis-server's and the network's.
// The standard contention world (simulated time per wall second) is world_bench.cpp's.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "live/live_fabric.hpp"
#include "bench/worlds.hpp"

namespace {

constexpr int64_t kUncontendedPairs = 500;
constexpr int kContendingClients = 8;
constexpr int64_t kContendedPairsPerClient = 64;
// The run loop's step: the fake checks for the end every 100 simulated ms; the live world every real
// ms, so the run is timed to within about a millisecond of its last unlock.
constexpr int64_t kFakeStepMs = 100;
constexpr int64_t kLiveStepMs = 1;
// Safety cap on virtual (for the live world: real) time: a run that needs longer is stuck.
constexpr int64_t kCapMs = 120'000;

struct Workload {
  int clients;
  int64_t pairs_per_client;
  int64_t pairs() const { return clients * pairs_per_client; }
};

constexpr Workload kUncontended{1, kUncontendedPairs};
constexpr Workload kContended{kContendingClients, kContendedPairsPerClient};

struct RunFigures {
  double wall_seconds = 0;
  int64_t virtual_ms = 0;
  int64_t locks = 0;
  int64_t unlocks = 0;
  uint64_t events = 0;
  std::string error;
};

// Runs the world in steps until every client thread has done all its operations (or the cap).
void run_to_completion(locksim::world::World& world, const std::vector<std::string>& clients, int64_t step_ms,
                       RunFigures& figures) {
  const auto start = std::chrono::steady_clock::now();
  const bool finished = locksim::bench::run_until_idle(world, clients, step_ms, kCapMs);
  figures.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!finished) figures.error = "the clients had not finished after " + std::to_string(kCapMs) + " ms";
}

void count(locksim::world::World& world, RunFigures& figures, const Workload& workload) {
  figures.events = world.events_executed();
  for (const auto& e : world.history().events()) {
    if (e.kind != locksim::model::EventKind::Ok) continue;
    if (e.f == "lock") ++figures.locks;
    if (e.f == "unlock") {
      ++figures.unlocks;
      figures.virtual_ms = e.at_ms;  // the last unlock's time: when the run's work was done
    }
  }
  if (figures.error.empty() && (figures.locks != workload.pairs() || figures.unlocks != workload.pairs()))
    figures.error = "expected " + std::to_string(workload.pairs()) + " locks and unlocks to succeed; " +
                    std::to_string(figures.locks) + " locks and " + std::to_string(figures.unlocks) + " unlocks did";
}

RunFigures run_fake(const Workload& workload) {
  RunFigures figures;
  locksim::sim::Simulation sim(locksim::bench::lock_loop_options(false));
  locksim::world::World& world = sim.world;
  const std::vector<std::string> clients =
      locksim::bench::set_up_lock_loops(world, workload.clients, workload.pairs_per_client);
  run_to_completion(world, clients, kFakeStepMs, figures);
  world.finish();
  count(world, figures, workload);
  return figures;
}

RunFigures run_live(const Workload& workload) {
  RunFigures figures;
  // Starts its own redis-server (127.0.0.1, a free port), stopped when the fabric goes.
  locksim::live::LiveFabric fabric(locksim::live::LiveOptions{}, std::vector<locksim::live::ServerNeeds>(1));
  locksim::world::World world(locksim::bench::lock_loop_options(true), fabric);
  const std::vector<std::string> clients =
      locksim::bench::set_up_lock_loops(world, workload.clients, workload.pairs_per_client);
  run_to_completion(world, clients, kLiveStepMs, figures);
  world.finish();
  count(world, figures, workload);
  return figures;
}

void run_benchmark(benchmark::State& state, const Workload& workload, bool live) {
  RunFigures last;
  double wall_total = 0;
  double virtual_total = 0;
  for (auto _ : state) {
    try {
      last = live ? run_live(workload) : run_fake(workload);
    } catch (const std::exception& e) {
      last.error = std::string(live ? "live" : "fake") + " run failed: " + e.what();
    }
    if (!last.error.empty()) {
      state.SkipWithError(last.error.c_str());
      break;
    }
    state.SetIterationTime(last.wall_seconds);
    wall_total += last.wall_seconds;
    virtual_total += static_cast<double>(last.virtual_ms);
  }
  const auto pairs = static_cast<double>(workload.pairs());
  state.SetItemsProcessed(workload.pairs() * static_cast<int64_t>(state.iterations()));
  state.counters["pairs"] = benchmark::Counter(pairs);
  state.counters["clients"] = benchmark::Counter(workload.clients);
  state.counters["pairs_per_wall_s"] =
      benchmark::Counter(wall_total > 0 ? pairs * static_cast<double>(state.iterations()) / wall_total : 0);
  // Virtual ms until the last unlock finished (on the live world: real ms since attach), and per pair.
  state.counters["virtual_ms"] = benchmark::Counter(static_cast<double>(last.virtual_ms));
  state.counters["virtual_ms_per_pair"] = benchmark::Counter(
      state.iterations() > 0 ? virtual_total / static_cast<double>(state.iterations()) / pairs : 0);
  state.counters["events"] = benchmark::Counter(static_cast<double>(last.events));
}

void BM_FakeUncontended(benchmark::State& state) { run_benchmark(state, kUncontended, false); }
void BM_LiveUncontended(benchmark::State& state) { run_benchmark(state, kUncontended, true); }
void BM_FakeContended8(benchmark::State& state) { run_benchmark(state, kContended, false); }
void BM_LiveContended8(benchmark::State& state) { run_benchmark(state, kContended, true); }

// Manual time: only the run loop is timed. The live runs take seconds each, so one iteration.
BENCHMARK(BM_FakeUncontended)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LiveUncontended)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_FakeContended8)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LiveContended8)->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace
