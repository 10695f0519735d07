// A scenario written back to a file loads and runs to the same history, byte for byte: for every
// file of the library, and (in explore_test.cpp) for generated scenarios.
#include <gtest/gtest.h>

#include <filesystem>
#include <unistd.h>

#include "explore/generator.hpp"
#include "scenario/loader.hpp"
#include "scenario/runner.hpp"
#include "scenario/writer.hpp"

namespace locksim::scenario {
namespace {

using explore::ExploreConfig;
using explore::generate_case;
using explore::all_fault_kinds;

std::filesystem::path temp_dir() {
  const auto dir = std::filesystem::temp_directory_path() / ("locksim-writer-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

TEST(ScenarioWriter, EveryLibraryFileRoundTripsToTheSameHistory) {
  const auto files = find_scenario_files({std::string(LOCKSIM_SOURCE_DIR) + "/scenarios"});
  ASSERT_GT(files.size(), 20u);
  const auto dir = temp_dir();
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    const Scenario original = load_scenario(file);
    const std::string path = (dir / std::filesystem::path(file).filename()).string();
    write_scenario_file(original, path);
    const Scenario reloaded = load_scenario(path);
    // Writing what was read back gives the same text: nothing is lost on the way.
    EXPECT_EQ(write_scenario(reloaded), write_scenario(original));
    const ScenarioResult a = run_scenario(original);
    const ScenarioResult b = run_scenario(reloaded);
    ASSERT_FALSE(a.error) << *a.error;
    ASSERT_FALSE(b.error) << *b.error;
    EXPECT_EQ(a.history.to_jsonl(), b.history.to_jsonl());
    ASSERT_EQ(a.properties.size(), b.properties.size());
    for (size_t i = 0; i < a.properties.size(); ++i) EXPECT_EQ(a.properties[i].passed, b.properties[i].passed);
    EXPECT_EQ(a.passed(), b.passed());
  }
  std::filesystem::remove_all(dir);
}

TEST(ScenarioWriter, QuotesNamesYamlWouldReadOtherwise) {
  Scenario s;
  s.name = "a: \"b\"\n# c";
  s.about = "yes";
  s.lock.type = "token";
  s.lock.name = "orders:{1}";
  s.clients = {{"true", 0, 0}, {"B 2", 5, -3}};
  TimelineEntry e;
  e.client = "true";
  e.op = world::OpSpec::lock_op(s.lock.name, 1200);
  s.timeline.push_back(e);
  s.run_ms = 9000;
  const auto path = (temp_dir() / "quoted.yaml").string();
  write_scenario_file(s, path);
  const Scenario r = load_scenario(path);
  EXPECT_EQ(r.name, s.name);
  EXPECT_EQ(r.about, s.about);
  EXPECT_EQ(r.lock.name, s.lock.name);
  ASSERT_EQ(r.clients.size(), 2u);
  EXPECT_EQ(r.clients[0].name, "true");
  EXPECT_EQ(r.clients[1].name, "B 2");
  EXPECT_EQ(r.clients[1].clock_offset_ms, 5);
  EXPECT_EQ(r.clients[1].drift_ppm, -3);
  ASSERT_EQ(r.timeline.size(), 1u);
  EXPECT_EQ(r.timeline[0].op->lease_ms, 1200);
  EXPECT_EQ(r.run_ms, 9000);
  std::filesystem::remove(path);
  std::error_code ignored;
  std::filesystem::remove(temp_dir(), ignored);  // the folder, once empty
}

TEST(ScenarioWriter, ErrorRepliesAndResetsRoundTrip) {
  Scenario s;
  s.name = "fast faults";
  s.lock.type = "rlock";
  s.lock.name = "orders";
  s.clients = {{"A", 0, 0}};
  auto fault_at = [&](int64_t at, world::Fault f) {
    TimelineEntry e;
    e.at_ms = at;
    e.fault = std::move(f);
    s.timeline.push_back(e);
  };
  world::Fault busy;  // the default text: Redis's BUSY
  busy.kind = world::FaultKind::ErrorReply;
  busy.for_ms = 6000;
  fault_at(100, busy);
  world::Fault odd = busy;  // a text YAML would read otherwise unquoted
  odd.text = "ERR a: \"quoted\" # not a comment";
  odd.for_ms = 10;
  fault_at(200, odd);
  world::Fault reset;
  reset.kind = world::FaultKind::Reset;
  reset.client = "A";
  fault_at(300, reset);
  TimelineEntry lock;  // a file with no op on the lock is refused: there would be nothing to judge
  lock.at_ms = 400;
  lock.client = "A";
  lock.op = world::OpSpec::lock_op("orders");
  s.timeline.push_back(lock);
  s.run_ms = 9000;
  const std::string text = write_scenario(s);
  // Redis's BUSY is the default, so a file need not spell it out.
  EXPECT_EQ(text.find("BUSY"), std::string::npos) << text;
  const auto path = (temp_dir() / "fast-faults.yaml").string();
  write_scenario_file(s, path);
  const Scenario r = load_scenario(path);
  ASSERT_EQ(r.timeline.size(), 4u);
  EXPECT_EQ(r.timeline[0].fault->kind, world::FaultKind::ErrorReply);
  EXPECT_EQ(r.timeline[0].fault->for_ms, 6000);
  EXPECT_EQ(r.timeline[0].fault->text,
            "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.");
  EXPECT_EQ(r.timeline[1].fault->text, "ERR a: \"quoted\" # not a comment");
  EXPECT_EQ(r.timeline[1].fault->for_ms, 10);
  EXPECT_EQ(r.timeline[2].fault->kind, world::FaultKind::Reset);
  EXPECT_EQ(r.timeline[2].fault->client, "A");
  EXPECT_EQ(write_scenario(r), text);
  std::filesystem::remove(path);
  std::error_code ignored;
  std::filesystem::remove(temp_dir(), ignored);  // the folder, once empty
}

}  // namespace
}  // namespace locksim::scenario
