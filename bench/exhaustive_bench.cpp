// Schedules per second of `locksim check --exhaustive` on the standard small worlds
// (examples/exhaustive/), each searched as the command searches it with the file's bounds, nothing
// written:
//   Rlock2x2      rlock-2x2.yaml: mutual_exclusion and reentrancy (they hold to the depth run),
//                 iterative deepening, stopped after kRlockSchedules schedules (its tree is ~2^50);
//   Fair332       fair-2-waiters-3.32.yaml: the whole bounded tree (it holds), iterative deepening;
//   Fair332First  the same in one depth-first pass (--first), each schedule run once;
//   Fair313       fair-2-waiters-3.13.yaml: until the shortest counterexample (the negative-ttl hang).
// Counters: schedules judged, runs (iterative deepening re-runs shallower levels), and both per
// wall second.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "explore/exhaustive.hpp"
#include "scenario/loader.hpp"

namespace {

namespace explore = locksim::explore;
namespace scenario = locksim::scenario;

constexpr uint64_t kRlockSchedules = 20'000;

struct World {
  const char* file;
  std::vector<std::pair<std::string, std::string>> properties;  // empty: the file's expect
  bool shortest = true;
  uint64_t max_schedules = 0;
  bool counterexample = false;  // whether the search must end at one
};

void search(benchmark::State& state, const World& w) {
  const scenario::Scenario s = scenario::load_scenario(std::string(LOCKSIM_EXAMPLES_DIR) + "/exhaustive/" + w.file);
  explore::ExhaustiveOptions options;
  options.bounds = s.bounded.value_or(locksim::world::ScheduleBounds{});
  options.properties = w.properties.empty() ? s.expect : w.properties;
  options.shortest = w.shortest;
  options.max_schedules = w.max_schedules;
  explore::ExhaustiveResult last;
  double seconds = 0;
  for (auto _ : state) {
    last = explore::search_exhaustive(s, options);
    seconds += last.seconds;
    if (last.error || last.counterexample.has_value() != w.counterexample) {
      state.SkipWithError((std::string(w.file) + ": " +
                           (last.error ? *last.error : last.counterexample ? "an unexpected counterexample" : "no counterexample"))
                              .c_str());
      return;
    }
  }
  const double per_iteration = seconds / static_cast<double>(state.iterations());
  state.counters["schedules"] = benchmark::Counter(static_cast<double>(last.schedules));
  state.counters["runs"] = benchmark::Counter(static_cast<double>(last.runs));
  state.counters["level"] = benchmark::Counter(last.level);
  state.counters["complete"] = benchmark::Counter(last.complete ? 1 : 0);
  state.counters["search_s"] = benchmark::Counter(per_iteration);
  state.counters["schedules_per_s"] = benchmark::Counter(static_cast<double>(last.schedules) / per_iteration);
  state.counters["runs_per_s"] = benchmark::Counter(static_cast<double>(last.runs) / per_iteration);
}

void BM_Rlock2x2(benchmark::State& state) {
  search(state, {"rlock-2x2.yaml", {{"mutual_exclusion", "holds"}, {"reentrancy", "holds"}}, true, kRlockSchedules, false});
}
BENCHMARK(BM_Rlock2x2)->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_Fair332(benchmark::State& state) { search(state, {"fair-2-waiters-3.32.yaml", {}, true, 0, false}); }
BENCHMARK(BM_Fair332)->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_Fair332First(benchmark::State& state) { search(state, {"fair-2-waiters-3.32.yaml", {}, false, 0, false}); }
BENCHMARK(BM_Fair332First)->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);

void BM_Fair313(benchmark::State& state) { search(state, {"fair-2-waiters-3.13.yaml", {}, true, 0, true}); }
BENCHMARK(BM_Fair313)->Iterations(3)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
