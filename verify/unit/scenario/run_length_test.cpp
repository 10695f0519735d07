// How long a run lasts: the loader records whether the file gave run_ms (a live run without it may
// end as soon as the world has settled); a simulated run always lasts its run_ms, explicit or not,
// so its history does not change.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "scenario/loader.hpp"
#include "scenario/runner.hpp"

namespace locksim::scenario {
namespace {

// A lock taken and released within a second, with or without a run_ms line.
std::string write_file(const std::string& name, const std::string& run_ms_line) {
  const auto path = std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()) + ".yaml");
  std::ofstream(path) << "name: " << name << "\n"
                      << "lock: {type: rlock, name: orders}\n"
                      << "clients: [A]\n"
                      << "timeline:\n"
                      << "  - {at: 0,   client: A, op: lock}\n"
                      << "  - {at: 500, client: A, op: unlock}\n"
                      << run_ms_line;
  return path.string();
}

TEST(RunLength, TheLoaderRecordsWhetherTheFileGaveRunMs) {
  const std::string implicit = write_file("implicit-run-ms", "");
  const std::string explicit_ = write_file("explicit-run-ms", "run_ms: 4000\n");
  const Scenario a = load_scenario(implicit), b = load_scenario(explicit_);
  EXPECT_FALSE(a.run_ms_given);
  EXPECT_EQ(a.run_ms, 60500);
  EXPECT_TRUE(b.run_ms_given);
  EXPECT_EQ(b.run_ms, 4000);
  std::filesystem::remove(implicit);
  std::filesystem::remove(explicit_);
}

TEST(RunLength, ASimulatedRunWithoutRunMsStillLastsItsDefaultMinute) {
  const std::string file = write_file("simulated-run-length", "");
  const ScenarioResult r = run_scenario_file(file);
  std::filesystem::remove(file);
  ASSERT_FALSE(r.error) << *r.error;
  EXPECT_FALSE(r.ended_early_ms);
  ASSERT_FALSE(r.history.events().empty());
  const model::Event& end = r.history.events().back();
  EXPECT_EQ(end.kind, model::EventKind::End);
  EXPECT_EQ(end.at_ms, 60500);
  EXPECT_EQ(end.text, "");
}

}  // namespace
}  // namespace locksim::scenario
