// The standard contention world: 8 clients on one RLock with the watchdog (no lease), each looping
// lock, work 50 ms, unlock, think 50 ms over 1-3 ms links, for 10 simulated minutes per iteration,
// and once for a simulated hour. Reports how many simulated ms pass per wall-clock second, the
// events executed, the scripts the servers ran, the history size and the heap the run holds at its
// end (malloc's count of bytes in use, after minus before: the world with its whole history).
// Then judges that history with every checker that applies to an RLock, as `locksim run` would,
// and reports how long that took and the heap the checkers' facts (model::Facts) held on top.
// BM_StandardContentionStreamed runs the same world with its history streamed to a file
// (World::stream_history) and judges that file as it streams (model/stream_judging.hpp): the heap
// after each simulated 10 minutes of the run, and the most it holds while judging.
// It also counts the C++ heap allocations (operator new) run_until makes per script: unlike the
// times, a figure that does not move with the machine's load, for tracking the world's own cost.
#include <benchmark/benchmark.h>
#include <malloc.h>


#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "bench/counted_new.hpp"
#include "bench/worlds.hpp"
#include "engine/scripting.hpp"
#include "model/checkers.hpp"
#include "model/stream_judging.hpp"

namespace {

constexpr int64_t kRunMs = locksim::bench::kStandardRunMs;
constexpr int64_t kHourMs = 60 * 60 * 1000;

struct RunFigures {
  uint64_t events = 0;
  size_t history = 0;
  uint64_t scripts = 0;  // EVAL and EVALSHA the engines ran (engine::scripts_run_total)
  uint64_t news = 0;     // operator new calls during run_until
  int64_t locks_taken = 0;
  double heap_bytes = 0;  // heap in use at the end of the run, less what was in use before it
  double judge_wall_s = 0;      // building the facts and running every checker
  double facts_heap_bytes = 0;  // heap the facts held on top of the world
  bool holds = false;           // every verdict held, as it must in this world
  bool ran_dry = false;
};

double heap_in_use() {
  const struct mallinfo2 m = mallinfo2();
  return static_cast<double>(m.uordblks + m.hblkhd);
}

// What `locksim run` does after a run: the facts once, then each applicable checker on them.
void judge(const locksim::model::History& history, RunFigures& figures) {
  namespace model = locksim::model;
  const double heap_before = heap_in_use();
  const auto start = std::chrono::steady_clock::now();
  const model::LockType& rlock = *model::find_lock_type("rlock");
  const model::Facts facts(history, &rlock);
  figures.facts_heap_bytes = heap_in_use() - heap_before;
  model::CheckerOptions options;
  options.lock_type = std::string(rlock.name);
  std::vector<model::Verdict> verdicts;
  for (const model::NamedChecker* checker : model::choose_checkers(model::applicable_properties(rlock.name), options))
    verdicts.push_back(model::judge_whole(*checker->judge(facts, options), facts));
  figures.judge_wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  figures.holds = !verdicts.empty() && model::overall(verdicts) == model::Validity::Yes;
}

// Whether the run cannot be measured (and says why): a client ran dry, or a verdict did not hold.
bool failed(benchmark::State& state, bool ran_dry, bool holds) {
  if (ran_dry) state.SkipWithError("a client ran out of queued operations before the end");
  else if (!holds) state.SkipWithError("a checker did not hold on the standard world, which is safe by construction");
  return ran_dry || !holds;
}

RunFigures run_standard_world(int64_t run_ms, double& wall_seconds) {
  const double heap_before = heap_in_use();
  locksim::sim::Simulation sim({});
  locksim::world::World& world = sim.world;
  const std::vector<std::string> clients = locksim::bench::set_up_standard_contention(world, run_ms);
  const uint64_t scripts_before = locksim::engine::scripts_run_total();

  const uint64_t news_before = locksim::bench::news_made();
  const auto start = std::chrono::steady_clock::now();
  world.run_until(run_ms);
  wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const uint64_t news = locksim::bench::news_made() - news_before;

  RunFigures figures;
  figures.heap_bytes = heap_in_use() - heap_before;
  figures.scripts = locksim::engine::scripts_run_total() - scripts_before;
  figures.news = news;
  figures.events = world.events_executed();
  figures.history = world.history().size();
  for (const auto& e : world.history().events())
    if (e.kind == locksim::model::EventKind::Ok && e.f == "lock") ++figures.locks_taken;
  figures.ran_dry = locksim::bench::any_ran_dry(world, clients);
  judge(world.history(), figures);
  return figures;
}

void run_benchmark(benchmark::State& state, int64_t run_ms) {
  double wall_total = 0;
  double sim_ms_total = 0;
  RunFigures last;
  for (auto _ : state) {
    double wall = 0;
    last = run_standard_world(run_ms, wall);
    wall_total += wall;
    sim_ms_total += static_cast<double>(run_ms);
    if (failed(state, last.ran_dry, last.holds)) break;
  }
  state.SetItemsProcessed(last.locks_taken * static_cast<int64_t>(state.iterations()));
  state.counters["sim_ms_per_wall_s"] = benchmark::Counter(wall_total > 0 ? sim_ms_total / wall_total : 0);
  state.counters["sim_ms"] = benchmark::Counter(static_cast<double>(run_ms));
  state.counters["run_wall_s"] = benchmark::Counter(wall_total / static_cast<double>(state.iterations()));
  state.counters["events"] = benchmark::Counter(static_cast<double>(last.events));
  state.counters["history"] = benchmark::Counter(static_cast<double>(last.history));
  state.counters["scripts"] = benchmark::Counter(static_cast<double>(last.scripts));
  state.counters["news_per_script"] =
      benchmark::Counter(last.scripts > 0 ? static_cast<double>(last.news) / static_cast<double>(last.scripts) : 0);
  state.counters["locks"] = benchmark::Counter(static_cast<double>(last.locks_taken));
  state.counters["heap_bytes"] = benchmark::Counter(last.heap_bytes);
  state.counters["judge_wall_s"] = benchmark::Counter(last.judge_wall_s);
  state.counters["facts_heap_bytes"] = benchmark::Counter(last.facts_heap_bytes);
}

void BM_StandardContentionWorld(benchmark::State& state) { run_benchmark(state, kRunMs); }
BENCHMARK(BM_StandardContentionWorld)->Iterations(2)->UseRealTime()->Unit(benchmark::kMillisecond);

// The same world for a simulated hour: does the memory it holds grow with simulated time?
void BM_StandardContentionHour(benchmark::State& state) { run_benchmark(state, kHourMs); }
BENCHMARK(BM_StandardContentionHour)->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);

// The standard world with its history streamed to a file, then that file judged as it streams.
struct StreamedFigures {
  std::vector<double> run_heap_bytes;  // after each 10 simulated minutes, less what was in use before the run
  double judge_peak_heap_bytes = 0;    // the most in use while judging, less what was in use before the run
  double process_heap_bytes = 0;       // the most the whole process had in use at any of those moments
  double run_wall_s = 0, judge_wall_s = 0;
  double file_bytes = 0;
  int64_t history = 0, most_kept = 0, locks_taken = 0;
  bool holds = false, ran_dry = false;
};

StreamedFigures run_streamed_world(int64_t run_ms) {
  namespace model = locksim::model;
  StreamedFigures figures;
  const std::string path =
      (std::filesystem::temp_directory_path() / ("locksim-bench-history-" + std::to_string(getpid()) + ".jsonl")).string();
  const double heap_before = heap_in_use();
  {
    locksim::sim::Simulation sim({});
    locksim::world::World& world = sim.world;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    world.stream_history(out);
    const std::vector<std::string> clients = locksim::bench::set_up_standard_contention(world, run_ms);
    const auto start = std::chrono::steady_clock::now();
    for (int64_t t = std::min(run_ms, kRunMs);; t = std::min(run_ms, t + kRunMs)) {
      world.run_until(t);
      figures.run_heap_bytes.push_back(heap_in_use() - heap_before);
      if (t == run_ms) break;
    }
    figures.run_wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    figures.ran_dry = locksim::bench::any_ran_dry(world, clients);
    out.flush();
  }
  figures.file_bytes = static_cast<double>(std::filesystem::file_size(path));
  double peak = 0;
  int64_t locks = 0;
  const auto read = [&] {
    auto in = std::make_shared<std::ifstream>(path, std::ios::binary);
    auto reader = std::make_shared<model::HistoryReader>(*in);
    locks = 0;
    return model::EventReading([in, reader, &peak, &locks, heap_before, n = int64_t{0}]() mutable {
      if (++n % 4096 == 0) peak = std::max(peak, heap_in_use() - heap_before);
      auto e = reader->next();
      if (e && e->kind == model::EventKind::Ok && e->f == "lock") ++locks;
      return e;
    });
  };
  const model::LockType& rlock = *model::find_lock_type("rlock");
  model::CheckerOptions options;
  options.lock_type = std::string(rlock.name);
  const auto start = std::chrono::steady_clock::now();
  model::StreamFigures stream;
  const std::vector<model::Verdict> verdicts =
      model::judge_stream(read, model::applicable_properties(rlock.name), options, &stream);
  figures.judge_wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  figures.judge_peak_heap_bytes = peak;
  figures.process_heap_bytes =
      heap_before + std::max(peak, *std::max_element(figures.run_heap_bytes.begin(), figures.run_heap_bytes.end()));
  figures.history = stream.events;
  figures.most_kept = stream.most_kept;
  figures.locks_taken = locks;
  figures.holds = !verdicts.empty() && model::overall(verdicts) == model::Validity::Yes;
  std::filesystem::remove(path);
  return figures;
}

// The standard world for 10 simulated minutes (argument 10) or an hour (60), streamed and judged
// so: does what it holds stay flat in simulated time?
void BM_StandardContentionStreamed(benchmark::State& state) {
  const int64_t run_ms = state.range(0) * 60 * 1000;
  StreamedFigures last;
  for (auto _ : state) {
    last = run_streamed_world(run_ms);
    if (failed(state, last.ran_dry, last.holds)) break;
  }
  state.counters["sim_ms"] = benchmark::Counter(static_cast<double>(run_ms));
  state.counters["run_wall_s"] = benchmark::Counter(last.run_wall_s);
  state.counters["judge_wall_s"] = benchmark::Counter(last.judge_wall_s);
  state.counters["history"] = benchmark::Counter(static_cast<double>(last.history));
  state.counters["most_kept"] = benchmark::Counter(static_cast<double>(last.most_kept));
  state.counters["locks"] = benchmark::Counter(static_cast<double>(last.locks_taken));
  state.counters["file_bytes"] = benchmark::Counter(last.file_bytes);
  state.counters["run_heap_first_bytes"] = benchmark::Counter(last.run_heap_bytes.empty() ? 0 : last.run_heap_bytes.front());
  state.counters["run_heap_bytes"] =
      benchmark::Counter(last.run_heap_bytes.empty() ? 0 : *std::max_element(last.run_heap_bytes.begin(), last.run_heap_bytes.end()));
  state.counters["judge_peak_heap_bytes"] = benchmark::Counter(last.judge_peak_heap_bytes);
  state.counters["process_heap_bytes"] = benchmark::Counter(last.process_heap_bytes);
}
BENCHMARK(BM_StandardContentionStreamed)->Arg(10)->Arg(60)->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);

}  // namespace
