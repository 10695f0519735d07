// A history judged as it streams (model/stream_judging.hpp) comes out as the same history judged
// whole: every verdict, its anomaly, its evidence and its explanation, for every property a stream
// judges. The histories: the scenario library, the stories, explored cases of every lock type under
// every fault kind (as history_digests_test.cpp runs them) and the standard contention world of the
// benchmarks; each judged in steps of one event (the facts retire after every event), of 13 and of
// 4096. A stream that kept the whole history would pass too, so the test also asserts that streams
// dropped most of what long histories hold, and that many of the verdicts compared are violations.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "bench/worlds.hpp"
#include "explore/explore.hpp"
#include "verify/support/explore_configs.hpp"
#include "explore/generator.hpp"
#include "model/anomaly.hpp"
#include "model/checkers.hpp"
#include "model/stream_judging.hpp"
#include "report/verdict_json.hpp"
#include "scenario/loader.hpp"
#include "scenario/runner.hpp"
#include "sim/simulation.hpp"

namespace locksim::explore {
namespace {

namespace fs = std::filesystem;
const std::string kSource = LOCKSIM_SOURCE_DIR;
constexpr uint64_t kSeedsPerConfig = 30;

struct Tally {
  int histories = 0;
  int verdicts = 0;
  int violations = 0;
  int unknown = 0;
  int nothing_to_judge = 0;  // unknown because the history has no input for it (fencing: no fenced write)
  int long_histories = 0;   // over 20,000 events
  int dropped_most = 0;     // of those, streams that never held half of it
};


std::string shown(const model::Verdict& v) {
  return std::string(model::to_string(v.valid)) + " " + v.anomaly + "\n" + v.explanation + "\n" +
         report::evidence_json(v).dump();
}

void compare(const std::string& what, const model::History& h, const std::string& lock_type,
             const model::CheckerOptions& options, Tally& tally) {
  const std::vector<std::string> names = model::applicable_properties(lock_type);
  if (names.empty()) return;
  ++tally.histories;
  const std::vector<model::Verdict> whole = model::run_checkers(h, names, options);
  const bool long_history = h.size() > 20'000;
  if (long_history) ++tally.long_histories;
  bool dropped = long_history;
  for (const int64_t step : {int64_t{1}, int64_t{13}, int64_t{4096}}) {
    if (step == 1 && h.size() > 5'000) continue;  // an event at a time: for the short ones
    model::StreamFigures figures;
    const std::vector<model::Verdict> streamed = model::judge_stream(model::history_readings(h), names, options, &figures, step);
    ASSERT_EQ(streamed.size(), whole.size());
    EXPECT_EQ(figures.events, static_cast<int64_t>(h.size())) << what;
    for (size_t i = 0; i < names.size(); ++i)
      EXPECT_EQ(shown(streamed[i]), shown(whole[i])) << what << ", " << names[i] << ", steps of " << step;
    if (long_history && figures.most_kept * 2 > static_cast<int64_t>(h.size())) dropped = false;
  }
  if (dropped) ++tally.dropped_most;
  for (const model::Verdict& v : whole) {
    ++tally.verdicts;
    if (v.valid == model::Validity::No) ++tally.violations;
    if (v.valid == model::Validity::Unknown) ++(v.anomaly == model::anomaly::kNothingToJudge ? tally.nothing_to_judge : tally.unknown);
  }
}

void scenario_files(const std::string& dir, Tally& tally) {
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(kSource + "/" + dir))
    if (entry.is_regular_file() && entry.path().extension() == ".yaml") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  for (const std::string& path : files) {
    const scenario::Scenario s = scenario::load_scenario(path);
    const scenario::ScenarioResult r = scenario::run_scenario(s);
    ASSERT_FALSE(r.error) << path << ": " << *r.error;
    compare(fs::relative(path, kSource).string(), r.history, s.checker_options.lock_type, s.checker_options, tally);
  }
}

TEST(StreamJudging, TheLibraryAndTheStoriesComeOutAsJudgedWhole) {
  Tally tally;
  scenario_files("scenarios", tally);
  scenario_files("verify/stories", tally);
  EXPECT_GE(tally.histories, 60);
  EXPECT_GE(tally.violations, 40) << "the stories violate their properties by design";
}

TEST(StreamJudging, ExploredCasesComeOutAsJudgedWhole) {
  Tally tally;
  std::vector<std::pair<std::string, ExploreConfig>> configs = test::every_lock_type_under_every_fault();
  ExploreConfig watchdog;
  watchdog.leases = false;
  watchdog.faults = {"crash", "pause", "delay"};
  configs.emplace_back("rlock watchdog, crashes, pauses, delays", watchdog);
  ExploreConfig crowd;
  crowd.clients_max = 8;
  crowd.threads_max = 2;
  crowd.faults = all_fault_kinds();
  configs.emplace_back("rlock 8 clients x 2 threads, all faults", crowd);
  for (const std::string version : {"3.10.4", "3.17.0", "3.23.0"}) {
    ExploreConfig old;
    old.lock_options = {{"redisson", version}};
    old.faults = all_fault_kinds();
    configs.emplace_back("rlock " + version + ", all faults", old);
  }
  ExploreConfig planted;
  planted.lock_options = {{"redisson", "3.21.0"}};
  planted.script_files = {{"rlock_unlock", kSource + "/verify/property/planted/unlock_ignores_owner.lua"}};
  configs.emplace_back("rlock planted unlock_ignores_owner", planted);
  for (const auto& [name, config] : configs)
    for (uint64_t seed = 1; seed <= kSeedsPerConfig; ++seed) {
      const scenario::Scenario s = generate_case(config, seed).value();
      const scenario::ScenarioResult r = scenario::run_scenario(s);
      ASSERT_FALSE(r.error) << name << " seed " << seed << ": " << *r.error;
      compare(name + " seed " + std::to_string(seed), r.history, s.checker_options.lock_type, s.checker_options, tally);
      if (HasFailure()) return;
    }
  // Cases beyond the first seeds that once came out otherwise streamed (step 1 or 13):
  //  - multi 311: a part a restart left unknown, shown only after the waiter gave up;
  //  - red 380: a run of equal expiries that a stream's trim seemed to cut;
  //  - spin 162: a hold waiting behind an open one, read from events dropped before its Invoke;
  //  - setnx 294: a holder locked out by its own key, told from an operation the stream had retired.
  // All 400 seeds of every configuration came out as judged whole on 2026-12-06 (29 s).
  const std::map<std::string, std::vector<uint64_t>> once_apart{{"multi all faults, leases, loss", {311}},
                                                                {"red all faults, leases, loss", {380}},
                                                                {"spin all faults, leases, loss", {162}},
                                                                {"setnx all faults, leases, loss", {294}}};
  for (const auto& [name, config] : configs) {
    const auto seeds = once_apart.find(name);
    if (seeds == once_apart.end()) continue;
    for (const uint64_t seed : seeds->second) {
      const scenario::Scenario s = generate_case(config, seed).value();
      const scenario::ScenarioResult r = scenario::run_scenario(s);
      ASSERT_FALSE(r.error) << name << " seed " << seed << ": " << *r.error;
      compare(name + " seed " + std::to_string(seed), r.history, s.checker_options.lock_type, s.checker_options, tally);
    }
  }
  EXPECT_GE(tally.violations, 150) << "of " << tally.verdicts;
  EXPECT_EQ(tally.unknown, 0);
  EXPECT_LE(tally.nothing_to_judge * 20, tally.verdicts) << "cases with nothing to judge are a few, not the rule";
}

// The same world on a FairLock whose waiters are never pruned while live (threadWaitTime 300 s, as
// from Redisson 3.13.3), so that every checker, fair_queue included, judges to the end: its judge
// keeps the stays and grants it has yet to judge, and what they read, not the history.
TEST(StreamJudging, AFairLockContentionWorldIsJudgedInAFractionOfItsHistory) {
  sim::Simulation sim({});
  world::World& w = sim.world;
  constexpr int64_t kRunMs = 5 * 60 * 1000;
  client::LockSpec fair;
  fair.type = "fair";
  fair.fair.thread_wait_ms = 300'000;
  const auto clients = bench::set_up_standard_contention(w, kRunMs, fair);
  w.run_until(kRunMs);
  ASSERT_FALSE(bench::any_ran_dry(w, clients));
  Tally tally;
  model::CheckerOptions options;
  options.lock_type = "fair";
  options.fair_queue.thread_wait_ms = 300'000;
  compare("a FairLock contention world", w.history(), "fair", options, tally);
  EXPECT_EQ(tally.violations, 0) << "a FairLock without faults, its waiters never pruned, keeps every property";
  EXPECT_EQ(tally.long_histories, 1);
  EXPECT_EQ(tally.dropped_most, 1) << "a stream of the FairLock world held more than half of its history at once";
}

// A FairLock waiter crashes while queued and never comes back: its stay stays open to the end of
// the history unless a silence evicts it, which its crash does W later. Judged as it streams, the
// stay is decided then, not at the end, so the long run of A and B taking turns after it is dropped
// as it is judged.
TEST(StreamJudging, AWaiterThatCrashedWhileQueuedDoesNotHoldTheStreamBack) {
  std::ostringstream yaml;
  yaml << "name: crashed-queued-waiter\nworld: {latency_ms: 1}\n"
       << "lock: {type: fair, name: orders, redisson: 3.13.2}\nclients: [A, B, X]\ntimeline:\n"
       << "  - {at: 0, client: A, op: lock}\n  - {at: 0, client: A, op: work, for_ms: 300}\n"
       << "  - {at: 0, client: A, op: unlock}\n  - {at: 100, client: X, op: lock}\n"
       << "  - {at: 200, client: X, fault: crash}\n";
  constexpr int kTurns = 2000;
  for (int i = 1; i <= kTurns; ++i) {
    const std::string who = i % 2 == 1 ? "B" : "A";
    const std::string at = std::to_string(i * 1000);
    yaml << "  - {at: " << at << ", client: " << who << ", op: lock}\n"
         << "  - {at: " << at << ", client: " << who << ", op: work, for_ms: 100}\n"
         << "  - {at: " << at << ", client: " << who << ", op: unlock}\n";
  }
  yaml << "run_ms: " << (kTurns + 1) * 1000 << "\n";
  const fs::path dir = fs::temp_directory_path() / ("locksim-stream-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / "crashed-queued-waiter.yaml";
  std::ofstream(file) << yaml.str();
  const scenario::Scenario s = scenario::load_scenario(file.string());
  fs::remove_all(dir);
  const scenario::ScenarioResult r = scenario::run_scenario(s);
  ASSERT_FALSE(r.error) << *r.error;
  Tally tally;
  compare("a waiter that crashed while queued", r.history, "fair", s.checker_options, tally);
  EXPECT_EQ(tally.long_histories, 1);
  EXPECT_EQ(tally.dropped_most, 1) << "the crashed waiter's open stay held the stream back";
  EXPECT_GE(tally.violations, 1) << "its crash blocks B (blocked-by-evicted, as in scenarios/fair-crashed-waiter-head)";
}

TEST(StreamJudging, TheStandardContentionWorldIsJudgedInAFractionOfItsHistory) {
  sim::Simulation sim({});
  world::World& w = sim.world;
  const auto clients = bench::set_up_standard_contention(w);
  w.run_until(bench::kStandardRunMs);
  ASSERT_FALSE(bench::any_ran_dry(w, clients));
  Tally tally;
  model::CheckerOptions options;
  options.lock_type = "rlock";
  compare("the standard contention world", w.history(), "rlock", options, tally);
  EXPECT_EQ(tally.long_histories, 1);
  EXPECT_EQ(tally.dropped_most, 1) << "a stream of the standard world held more than half of its history at once";
}

}  // namespace
}  // namespace locksim::explore
