// Histories pinned by digest: every history of the scenario library, of the per-property stories,
// of explored cases of every lock type under every fault kind, and of the benchmarks' worlds, hashed
// and compared with verify/property/history_digests.txt. A change that is meant to leave behaviour
// alone (a reorganisation, a speed-up) must leave every one byte-identical.
//
// When behaviour is meant to change, regenerate the list and say why in the commit:
//   LOCKSIM_WRITE_HISTORY_DIGESTS=$PWD/verify/property/history_digests.txt
//   build/verify/locksim_property_tests --gtest_filter='HistoryDigests.*'
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "explore/explore.hpp"
#include "verify/support/explore_configs.hpp"
#include "scenario/runner.hpp"
#include "bench/worlds.hpp"
#include "base/sha1.hpp"
#include "model/checkers.hpp"
#include "model/lock_types.hpp"

namespace locksim::explore {
namespace {

using scenario::Scenario;
using scenario::ScenarioResult;
using scenario::TimelineEntry;
using scenario::run_scenario;
using scenario::run_scenario_file;
using scenario::PropertyResult;

namespace fs = std::filesystem;

const std::string kSource = LOCKSIM_SOURCE_DIR;
const std::string kDigests = kSource + "/verify/property/history_digests.txt";
constexpr uint64_t kSeedsPerConfig = 25;

using Digests = std::map<std::string, std::string>;  // what ran -> sha1 of its history's JSON lines

std::string digest(const model::History& history) { return sha1_hex(history.to_jsonl()); }

std::vector<std::string> yaml_files_under(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().extension() == ".yaml") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

void scenario_files(const std::string& dir, Digests& out) {
  for (const std::string& path : yaml_files_under(kSource + "/" + dir)) {
    const ScenarioResult r = run_scenario_file(path);
    ASSERT_FALSE(r.bad_input) << path << ": " << r.error.value_or("");
    out[fs::relative(path, kSource).string()] = digest(r.history);
  }
}

// The explored configurations: every lock type with every fault kind and leases, and the
// configurations the explore and soundness tests name.
std::vector<std::pair<std::string, ExploreConfig>> explore_configs() {
  std::vector<std::pair<std::string, ExploreConfig>> configs = test::every_lock_type_under_every_fault();
  ExploreConfig watchdog;
  watchdog.leases = false;
  configs.emplace_back("rlock watchdog, crashes", watchdog);
  configs.back().second.faults = {"crash"};
  ExploreConfig fair;
  fair.lock_type = "fair";
  fair.leases = false;
  fair.try_locks = false;
  for (const std::string variant : {"head", "tail", "tail-3.31", "tail-3.32", "tail-3.45"}) {
    fair.lock_options = {{"thread_wait_ms", "300000"}, {"fair_variant", variant}};
    fair.faults = {"crash", "pause"};
    configs.emplace_back("fair " + variant + " lock() only, crashes, pauses", fair);
  }
  ExploreConfig latch;
  latch.lock_options = {{"unlock_latch", "true"}, {"watchdog_on_error", "keep"}};
  latch.faults = all_fault_kinds();
  configs.emplace_back("rlock latch, watchdog keep, all faults", latch);
  // Versions whose client logic differs most from the default's (no latch, the watchdog that stops,
  // the lost wake-up, the stale lease).
  for (const std::string version : {"3.10.4", "3.17.0", "3.23.0", "3.43.0"}) {
    ExploreConfig old;
    old.lock_options = {{"redisson", version}};
    old.faults = all_fault_kinds();
    configs.emplace_back("rlock " + version + ", all faults", old);
  }
  ExploreConfig planted;
  planted.lock_options = {{"redisson", "3.21.0"}};  // the last version that runs rlock_unlock
  planted.script_files = {{"rlock_unlock", kSource + "/verify/property/planted/unlock_ignores_owner.lua"}};
  configs.emplace_back("rlock planted unlock_ignores_owner", planted);
  return configs;
}

void explored_cases(Digests& out) {
  for (const auto& [name, config] : explore_configs()) {
    for (uint64_t seed = 1; seed <= kSeedsPerConfig; ++seed) {
      const ScenarioResult r = run_scenario(generate_case(config, seed).value());
      ASSERT_FALSE(r.error) << name << " seed " << seed << ": " << *r.error;
      out["explore " + name + " seed " + std::to_string(seed)] = digest(r.history);
    }
  }
}

void bench_worlds(Digests& out) {
  {
    sim::Simulation sim({});
    world::World& w = sim.world;
    const auto clients = bench::set_up_standard_contention(w);
    w.run_until(bench::kStandardRunMs);
    ASSERT_FALSE(bench::any_ran_dry(w, clients));
    out["bench standard contention world"] = digest(w.history());
  }
  for (const auto& [clients, pairs] : std::vector<std::pair<int, int64_t>>{{1, 500}, {8, 64}}) {
    sim::Simulation sim(bench::lock_loop_options(false));
    world::World& w = sim.world;
    const auto names = bench::set_up_lock_loops(w, clients, pairs);
    ASSERT_TRUE(bench::run_until_idle(w, names, 100, 120'000));
    w.finish();
    out["bench lock loops " + std::to_string(clients) + "x" + std::to_string(pairs)] = digest(w.history());
  }
}

Digests read_digests(const std::string& path) {
  Digests d;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const size_t space = line.find(' ');
    if (space == std::string::npos) continue;
    d[line.substr(space + 1)] = line.substr(0, space);
  }
  return d;
}

TEST(HistoryDigests, EveryPinnedHistoryIsByteIdentical) {
  Digests now;
  scenario_files("scenarios", now);
  scenario_files("verify/stories", now);
  explored_cases(now);
  bench_worlds(now);
  if (HasFatalFailure()) return;

  if (const char* write_to = std::getenv("LOCKSIM_WRITE_HISTORY_DIGESTS")) {
    std::ofstream out(write_to);
    out << "# sha1 of each history's JSON lines, then what ran (verify/property/history_digests_test.cpp)\n";
    for (const auto& [name, sha] : now) out << sha << ' ' << name << '\n';
    GTEST_SKIP() << "wrote " << now.size() << " digests to " << write_to;
  }

  const Digests pinned = read_digests(kDigests);
  ASSERT_FALSE(pinned.empty()) << "no digests in " << kDigests;
  std::ostringstream changed;
  int differences = 0;
  for (const auto& [name, sha] : pinned) {
    const auto it = now.find(name);
    if (it == now.end()) changed << "  no longer run: " << name << '\n';
    else if (it->second != sha) changed << "  changed: " << name << '\n';
    else continue;
    ++differences;
  }
  for (const auto& [name, sha] : now)
    if (!pinned.count(name)) {
      changed << "  not pinned: " << name << '\n';
      ++differences;
    }
  EXPECT_EQ(differences, 0) << differences << " of " << pinned.size() << " histories differ from " << kDigests
                            << ":\n" << changed.str();
}

}  // namespace
}  // namespace locksim::explore
