// What one explored case costs, as `locksim explore --no-shrink` judges it with nothing written:
// explore::explore_case over a fixed range of seeds (cases per wall second), and the same cases
// split into their parts, each timed alone over the same seeds:
//   Generate  generate_case(...).value(): RapidCheck draws the plan and turns it into a scenario;
//   Run       scenario::run_scenario of the pre-generated scenarios: world built, run and judged;
//   Judge     model::run_checkers on the pre-run histories (the checkers alone);
// so the world's share is Run - Judge. explore_case also runs a violating case a second time (its
// "shrunk" run, which without shrinking is the generated case again): Case ~ Generate + Run x
// (1 + violating share).
//
// Scripts are counted with engine::scripts_run_total (every EVAL/EVALSHA an engine ran), so
//   world overhead per script = (Run - Judge) per case / scripts per case
// reads next to bench/engine_bench.cpp's bare-Lua floor (ns per script: BM_BareLuaFloor / 2).
//
// Three configurations: rlock with every fault kind (the target), the safe rlock (no leases, crash
// only: nothing is violated) and fair with every fault kind; mutual_exclusion judged in each.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "engine/scripting.hpp"
#include "explore/explore.hpp"
#include "explore/generator.hpp"
#include "model/checkers.hpp"
#include "scenario/runner.hpp"

namespace {

namespace explore = locksim::explore;
namespace scenario = locksim::scenario;

constexpr uint64_t kFirstSeed = 1;
constexpr uint64_t kSeeds = 2000;

enum class Config { RlockAll, RlockSafe, FairAll };

explore::ExploreConfig config_of(Config which) {
  explore::ExploreConfig c;
  c.properties = {"mutual_exclusion"};
  switch (which) {
    case Config::RlockAll:
      c.lock_type = "rlock";
      c.faults = explore::all_fault_kinds();
      break;
    case Config::RlockSafe:
      c.lock_type = "rlock";
      c.leases = false;
      c.faults = {"crash"};
      break;
    case Config::FairAll:
      c.lock_type = "fair";
      c.faults = explore::all_fault_kinds();
      break;
  }
  return c;
}

// Every counter as a per-case figure (google benchmark divides by the wall time when asked only).
void per_case(benchmark::State& state, const char* name, double total, uint64_t cases) {
  state.counters[name] = benchmark::Counter(cases ? total / static_cast<double>(cases) : 0);
}

std::vector<scenario::Scenario> generated(const explore::ExploreConfig& config) {
  std::vector<scenario::Scenario> out;
  out.reserve(kSeeds);
  for (uint64_t seed = kFirstSeed; seed < kFirstSeed + kSeeds; ++seed)
    out.push_back(explore::generate_case(config, seed).value());
  return out;
}

void BM_ExploreCase(benchmark::State& state, Config which) {
  const explore::ExploreConfig config = config_of(which);
  const explore::ShrinkOptions no_shrink{.enabled = false};
  uint64_t cases = 0, violations = 0, errors = 0;
  const uint64_t scripts_before = locksim::engine::scripts_run_total();
  for (auto _ : state) {
    for (uint64_t seed = kFirstSeed; seed < kFirstSeed + kSeeds; ++seed) {
      const explore::CaseResult r = explore::explore_case(config, seed, no_shrink);
      ++cases;
      if (r.error) ++errors;
      if (!r.violated.empty()) ++violations;
      benchmark::DoNotOptimize(r.verdicts.data());
    }
  }
  const uint64_t scripts = locksim::engine::scripts_run_total() - scripts_before;
  state.SetItemsProcessed(static_cast<int64_t>(cases));
  per_case(state, "violating", static_cast<double>(violations), cases);
  per_case(state, "errors", static_cast<double>(errors), cases);
  per_case(state, "scripts", static_cast<double>(scripts), cases);
}
BENCHMARK_CAPTURE(BM_ExploreCase, rlock_all, Config::RlockAll)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ExploreCase, rlock_safe, Config::RlockSafe)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ExploreCase, fair_all, Config::FairAll)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_Generate(benchmark::State& state, Config which) {
  const explore::ExploreConfig config = config_of(which);
  uint64_t cases = 0;
  for (auto _ : state) {
    for (uint64_t seed = kFirstSeed; seed < kFirstSeed + kSeeds; ++seed) {
      scenario::Scenario s = explore::generate_case(config, seed).value();
      ++cases;
      benchmark::DoNotOptimize(s.timeline.data());
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(cases));
}
BENCHMARK_CAPTURE(BM_Generate, rlock_all, Config::RlockAll)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_Run(benchmark::State& state, Config which) {
  const std::vector<scenario::Scenario> scenarios = generated(config_of(which));
  uint64_t cases = 0, events = 0;
  const uint64_t scripts_before = locksim::engine::scripts_run_total();
  for (auto _ : state) {
    for (const scenario::Scenario& s : scenarios) {
      const scenario::ScenarioResult r = scenario::run_scenario(s);
      ++cases;
      events += r.history.size();
      benchmark::DoNotOptimize(r.properties.data());
    }
  }
  const uint64_t scripts = locksim::engine::scripts_run_total() - scripts_before;
  state.SetItemsProcessed(static_cast<int64_t>(cases));
  per_case(state, "scripts", static_cast<double>(scripts), cases);
  per_case(state, "history_events", static_cast<double>(events), cases);
}
BENCHMARK_CAPTURE(BM_Run, rlock_all, Config::RlockAll)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_Judge(benchmark::State& state, Config which) {
  const std::vector<scenario::Scenario> scenarios = generated(config_of(which));
  std::vector<locksim::model::History> histories;
  histories.reserve(scenarios.size());
  for (const scenario::Scenario& s : scenarios) histories.push_back(scenario::run_scenario(s).history);
  const std::vector<std::string> names = {"mutual_exclusion"};
  uint64_t cases = 0;
  for (auto _ : state) {
    for (size_t i = 0; i < scenarios.size(); ++i) {
      const std::vector<locksim::model::Verdict> verdicts =
          locksim::model::run_checkers(histories[i], names, scenarios[i].checker_options);
      ++cases;
      benchmark::DoNotOptimize(verdicts.data());
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(cases));
}
BENCHMARK_CAPTURE(BM_Judge, rlock_all, Config::RlockAll)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
