// The interrupt fault under exploration: #7272 (open at 4.7.0, so there is no fixed version to run
// against) is found by plain exploration on the newest version, and its shrunk case replays violated
// from its file; and what an interrupt cannot break, it does not: thousands of seeds with interrupts
// find no violation of mutual exclusion or reentrancy.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "explore/explore.hpp"
#include "explore/generator.hpp"
#include "scenario/runner.hpp"
#include "scenario/writer.hpp"
#include "world/fault.hpp"

namespace locksim::explore {
namespace {

model::Validity verdict_of(const scenario::ScenarioResult& r, const std::string& property) {
  for (const auto& p : r.properties)
    if (p.property == property) return p.verdict.valid;
  return model::Validity::Unknown;
}

TEST(InterruptExploration, Issue7272IsFoundOnTheNewestVersionAndReplaysFromItsFile) {
  ExploreConfig c;
  c.lock_type = "rlock";
  c.faults = {"interrupt"};
  c.properties = {"liveness", "watchdog"};
  ShrinkOptions shrink;
  shrink.runs_max = 600;
  std::optional<CaseResult> found;
  for (uint64_t seed = 1; seed <= 2000 && !found; ++seed) {
    CaseResult r = explore_case(c, seed, shrink);
    ASSERT_FALSE(r.error) << "seed " << seed << ": " << *r.error;
    if (r.is_finding()) found = std::move(r);
  }
  ASSERT_TRUE(found) << "#7272: not found in 2,000 seeds";
  const bool interrupted = std::any_of(found->shrunk.timeline.begin(), found->shrunk.timeline.end(), [](const auto& e) {
    return e.fault && e.fault->kind == world::FaultKind::Interrupt;
  });
  EXPECT_TRUE(interrupted) << "the shrunk case needs its interrupt\n" << scenario::write_scenario(found->shrunk);

  const auto dir = std::filesystem::temp_directory_path() / ("locksim-interrupt-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string file = (dir / "found.yaml").string();
  scenario::write_scenario_file(found->shrunk, file);
  EXPECT_EQ(verdict_of(scenario::run_scenario_file(file), found->violated), model::Validity::No)
      << "seed " << found->seed << "\n" << scenario::write_scenario(found->shrunk);
  std::filesystem::remove_all(dir);
}

// An interrupted acquire that took the lock leaves a hold nobody believes in: nobody else can then
// get in, and the thread's own later unlock is an unlock of an acquire that ran. Neither overlaps a
// hold nor miscounts one.
TEST(InterruptExploration, InterruptsBreakNeitherMutualExclusionNorReentrancy) {
  ExploreConfig c;
  c.lock_type = "rlock";
  c.threads_max = 2;
  c.faults = {"interrupt"};
  c.properties = {"mutual_exclusion", "reentrancy"};
  uint64_t interrupted = 0;  // cases with an interrupt: what the "holds" was tested on
  for (uint64_t seed = 1; seed <= 2000; ++seed) {
    const CaseResult r = explore_case(c, seed, ShrinkOptions{});
    ASSERT_FALSE(r.error) << "seed " << seed << ": " << *r.error;
    EXPECT_FALSE(r.is_finding()) << "seed " << seed << ": " << r.violated << ": " << r.explanation;
    const Plan plan = generate_plan(c, seed);
    interrupted += !plan.faults.empty();
  }
  EXPECT_GT(interrupted, 1500u);
}

}  // namespace
}  // namespace locksim::explore
