#pragma once
// Running a scenario: its world is built from the file, driven through the timeline, and its history
// judged by the checkers the file names; each expectation is compared with what was observed.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "scenario/scenario.hpp"
#include "live/live_fabric.hpp"
#include "model/history.hpp"
#include "model/pending.hpp"
#include "model/verdict.hpp"

namespace locksim::scenario {

struct PropertyResult {
  std::string property;
  std::string expected;  // holds | violated; "" when only observed (the file expects no property)
  model::Verdict verdict;
  bool passed = false;
  std::string may_differ;  // live: the scenario's reason this verdict may differ (then it passes either way)
};

struct OpPinResult {
  OpExpectation pin;
  std::string observed;  // ok | fail | unknown | missing
  bool passed = false;
};

struct ScenarioResult {
  std::string file;
  std::string name;
  std::string about;
  std::string lock_type;
  std::string lock_name;
  std::string redisson;  // the Redisson version the lock ran as ("" for a lock that is not Redisson's)
  std::vector<std::string> clients;
  uint64_t seed = 0;
  std::string faults;  // "pause, crash", for the summary
  std::string backend = "fake";  // fake | live
  double time_scale = 1.0;
  std::optional<std::string> error;  // the file could not be loaded, or the run stopped
  bool bad_input = false;
  bool setup_error = false;  // live: the servers could not be started or used (not a finding)
  bool interrupted = false;
  // live: the run ended here (ms), before run_ms, because the world had settled (World::settled)
  // and the file gave no run_ms. The history's end event says so too.
  std::optional<int64_t> ended_early_ms;
  int64_t thread_wait_ms = -1;  // fair: threadWaitTime, for the timeline's timeout scores; -1 otherwise
  std::optional<std::string> skipped;  // not run, and why (a refused --time-scale)
  std::vector<PropertyResult> properties;
  std::vector<OpPinResult> pins;
  // What had not returned when the run ended (also when it stopped on an error, as far as recorded).
  model::PendingOps pending;
  model::History history;  // empty when streamed (history_file)
  // Streamed (Backend::stream_to): the history is this file, written as it was recorded and judged
  // from it as it streams.
  std::optional<std::string> history_file;
  bool passed() const;
};

// Where a scenario runs: the simulated world (no `live`), or real redis-servers on the real clock.
struct Backend {
  std::optional<live::LiveOptions> live;
  double time_scale = 1.0;  // see app/time_scale.hpp
  std::string redisson;     // run every scenario as this Redisson version ("": each file's own)
  // Live runs take real time: called once a second with the run's time and its planned end (ms).
  // A live run of a file without run_ms ends at the first second the world has settled
  // (ScenarioResult::ended_early_ms); a simulated run always lasts its run_ms.
  std::function<void(int64_t now_ms, int64_t end_ms)> progress;
  // Simulated only: the run's chances come from this scheduler (a bounded search's), and it ends
  // once the world has settled. Without one, a file with `bounded:` replays its `choices`.
  world::ChoiceScheduler* scheduler = nullptr;
  // Simulated and scheduled only: called before each event with the world as it is then
  // (World::observe_steps), where a search reads its states.
  std::function<void(const world::World&)> observe_steps;
  // A file: the history is written there as it is recorded and judged from it as it streams, so
  // that memory stays flat however long the run (model/stream_judging.hpp); the result then holds
  // no history, only its file. "": the history is held and judged whole.
  std::string stream_to;
};

// Runs one loaded scenario. Never throws for a problem in the run: it ends up in `error`, with the
// history recorded so far.
ScenarioResult run_scenario(const Scenario& scenario, const Backend& backend = {});

// Loads and runs one file; a file that does not load gives a result with bad_input set.
ScenarioResult run_scenario_file(const std::string& path, const Backend& backend = {});

// The scenario's faults, in timeline order.
std::vector<world::Fault> faults_of(const Scenario& scenario);

}  // namespace locksim::scenario
