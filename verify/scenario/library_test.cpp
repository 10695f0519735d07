// The scenario library: every file must come out as it says, and `locksim run`'s reports must agree
// with what it printed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "app/run_command.hpp"
#include "report/report.hpp"
#include "scenario/loader.hpp"
#include "scenario/runner.hpp"

namespace locksim::app {
namespace {

using scenario::Backend;
using scenario::ScenarioResult;
using scenario::run_scenario_file;
using scenario::load_scenario;
using scenario::find_scenario_files;
using report::print_table;
using report::write_reports;
using report::slug;

const std::string kSource = LOCKSIM_SOURCE_DIR;

std::vector<std::string> library() { return find_scenario_files({kSource + "/scenarios"}); }

std::string describe_failure(const ScenarioResult& r) {
  std::ostringstream out;
  if (r.error) out << "error: " << *r.error << "\n";
  for (const auto& p : r.properties)
    if (!p.passed)
      out << p.property << ": expected " << p.expected << ", observed " << model::to_string(p.verdict.valid) << " — "
          << p.verdict.explanation << "\n";
  for (const auto& p : r.pins)
    if (!p.passed) out << p.pin.client << " " << p.pin.op << " #" << p.pin.nth << ": expected " << p.pin.result << ", observed " << p.observed << "\n";
  return out.str();
}

class Library : public ::testing::TestWithParam<std::string> {};

TEST_P(Library, ComesOutAsTheFileExpects) {
  const ScenarioResult r = run_scenario_file(GetParam());
  EXPECT_FALSE(r.properties.empty() && r.pins.empty()) << "a library scenario must expect something";
  EXPECT_TRUE(r.passed()) << describe_failure(r);
}

// --time-scale's contract: a scenario that does not opt out still comes out as it expects when all
// its durations shrink tenfold (checked on the fake, where it is cheap).
TEST_P(Library, ComesOutTheSameScaledByATenthUnlessItOptsOut) {
  Backend scaled;
  scaled.time_scale = 0.1;
  const ScenarioResult r = run_scenario_file(GetParam(), scaled);
  if (!load_scenario(GetParam()).live.time_scale) {
    ASSERT_TRUE(r.skipped.has_value());
    EXPECT_NE(r.skipped->find("does not allow --time-scale"), std::string::npos) << *r.skipped;
    EXPECT_TRUE(r.history.events().empty()) << "a skipped scenario does not run";
    return;
  }
  EXPECT_TRUE(r.passed()) << describe_failure(r);
}

INSTANTIATE_TEST_SUITE_P(Scenarios, Library, ::testing::ValuesIn(library()), [](const auto& info) {
  std::string name = std::filesystem::path(info.param).stem().string();
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
});

RunOptions options_for(std::vector<std::string> paths, std::string out) {
  RunOptions options;
  options.paths = std::move(paths);
  options.out = std::move(out);
  return options;
}

TEST(LibraryRuns, TheSameScenarioGivesTheSameHistory) {
  const std::string file = kSource + "/scenarios/pause-longer-than-lease-token.yaml";
  EXPECT_EQ(run_scenario_file(file).history.to_jsonl(), run_scenario_file(file).history.to_jsonl());
}

std::string temp_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("locksim-test-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  return dir.string();
}

std::string read(const std::string& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// A FairLock run's timeline knows threadWaitTime, so its queue lane draws each waiter's timeout score
// (reply time + told wait + threadWaitTime), not only the wait it was told.
TEST(LocksimRun, AFairRunsTimelineDrawsTimeoutScoresAndTheRunsJudgement) {
  const ScenarioResult r = run_scenario_file(kSource + "/scenarios/fair-crashed-waiter-head.yaml");
  ASSERT_FALSE(r.error) << *r.error;
  EXPECT_EQ(r.thread_wait_ms, 5000);  // Redisson 3.11.0's threadWaitTime
  const std::string dir = temp_dir("fair-scores");
  write_reports(dir, {r});
  const std::string html = read(dir + "/" + slug(r.name) + "/timeline.html");
  std::filesystem::remove_all(dir);
  EXPECT_NE(html.find("&#39;s timeout score: "), std::string::npos) << "no timeout score on the fair run's page";
  EXPECT_EQ(html.find(" told to wait until "), std::string::npos) << "a score drawn as a told wait: threadWaitTime missing";
  // The page shows the run's own judgement of its expectations (fair_queue violated, as expected).
  EXPECT_NE(html.find("The verdicts met the scenario&#39;s expectations"), std::string::npos);
  EXPECT_EQ(run_scenario_file(kSource + "/scenarios/watchdog-long-job.yaml").thread_wait_ms, -1);
}

TEST(LocksimRun, TheReportsAgreeWithTheTable) {
  const std::string out = temp_dir("reports");
  std::ostringstream table, err;
  const int code = run_scenarios(options_for({kSource + "/scenarios"}, out), table, err);
  EXPECT_EQ(code, 0) << table.str();
  const auto json = nlohmann::json::parse(read(out + "/results.json"));
  const std::string junit = read(out + "/junit.xml");
  const size_t files = library().size();
  ASSERT_EQ(json["scenarios"].get<size_t>(), files);
  EXPECT_EQ(json["failed"].get<int>(), 0);
  const int checks = json["checks"].get<int>();
  // One JUnit test case per scenario and check, and one table row each.
  const std::regex testcase("<testcase ");
  EXPECT_EQ(std::distance(std::sregex_iterator(junit.begin(), junit.end(), testcase), std::sregex_iterator()), checks);
  EXPECT_EQ(junit.find("<failure"), std::string::npos);
  const std::string text = table.str();
  int rows = 0;
  for (size_t at = text.find("  pass\n"); at != std::string::npos; at = text.find("  pass\n", at + 1)) ++rows;
  EXPECT_EQ(rows, checks);
  EXPECT_NE(text.find(std::to_string(files) + " scenarios, " + std::to_string(checks) + " checks: " +
                      std::to_string(checks) + " passed, 0 failed"),
            std::string::npos)
      << text;
  size_t violations = 0;
  for (const auto& result : json["results"]) {
    const std::string folder = out + "/" + result["folder"].get<std::string>();
    // Every verdict carries its evidence as data: each item has a role, and the events it names
    // are the witness's and exist in the history.
    const size_t events = [&] {
      std::ifstream in(folder + "/history.jsonl");
      size_t n = 0;
      for (std::string line; std::getline(in, line);) ++n;
      return n;
    }();
    for (const auto& check : result["checks"]) {
      if (!check.contains("evidence")) continue;
      ASSERT_TRUE(check["evidence"].is_array()) << check;
      if (check["observed"] != "violated") continue;
      ++violations;
      EXPECT_FALSE(check["evidence"].empty()) << check;
      std::set<int64_t> witness;
      for (const auto& w : check["witness"]) witness.insert(w.get<int64_t>());
      for (const auto& item : check["evidence"]) {
        EXPECT_TRUE(item.contains("role")) << item;
        for (const char* field : {"event", "end_event"})
          if (item.contains(field)) {
            EXPECT_LT(item[field].get<size_t>(), events) << item;
            EXPECT_TRUE(witness.count(item[field].get<int64_t>())) << item;
          }
      }
    }
    EXPECT_TRUE(std::filesystem::exists(folder + "/history.jsonl")) << folder;
    EXPECT_TRUE(std::filesystem::exists(folder + "/timeline.html")) << folder;
    EXPECT_TRUE(std::filesystem::exists(folder + "/timeline.txt")) << folder;
  }
  EXPECT_GT(violations, 20u);
  // index.html and summary.md have the table's rows: one per check and per observed verdict.
  size_t table_rows = 0;
  for (const auto& result : json["results"]) table_rows += result["checks"].size();
  const std::string index = read(out + "/index.html");
  const std::regex index_row("<tr class=\"row ");
  EXPECT_EQ(static_cast<size_t>(std::distance(std::sregex_iterator(index.begin(), index.end(), index_row), std::sregex_iterator())),
            table_rows);
  const std::regex failed_row("data-failed=\"1\"");
  EXPECT_EQ(std::distance(std::sregex_iterator(index.begin(), index.end(), failed_row), std::sregex_iterator()), 0);
  const std::string summary = read(out + "/summary.md");
  const std::regex summary_row("\\| \\[timeline\\]\\([^)]+/timeline.html\\) \\[history\\]\\([^)]+/history.jsonl\\) \\|\n");
  EXPECT_EQ(static_cast<size_t>(std::distance(std::sregex_iterator(summary.begin(), summary.end(), summary_row), std::sregex_iterator())),
            table_rows);
  std::filesystem::remove_all(out);
}

TEST(LocksimRun, BadFilesGiveExitCodeTwoAndTheOthersStillRun) {
  const std::string out = temp_dir("bad");
  std::ostringstream table, err;
  const int code = run_scenarios(options_for({kSource + "/verify/scenario/bad", kSource + "/scenarios/pubsub-wakeup.yaml"}, out),
                                 table, err);
  EXPECT_EQ(code, 2);
  const std::string text = table.str();
  EXPECT_NE(text.find("unknown-op.yaml:6:29: unknown op 'grab'"), std::string::npos) << text;
  EXPECT_NE(text.find("(bad file)"), std::string::npos);
  EXPECT_TRUE(std::regex_search(text, std::regex("pubsub-wakeup +rlock, Redisson 4.7.0 +liveness +holds +holds +pass")))
      << "the good file still ran:\n" << text;
  const auto json = nlohmann::json::parse(read(out + "/results.json"));
  EXPECT_EQ(json["bad_files"].get<int>(), static_cast<int>(find_scenario_files({kSource + "/verify/scenario/bad"}).size()));
  EXPECT_NE(read(out + "/junit.xml").find("<error "), std::string::npos);
  std::filesystem::remove_all(out);
}

TEST(LocksimRun, AnUnmetExpectationGivesExitCodeOne) {
  const std::string dir = temp_dir("unmet");
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/wrong.yaml") << "name: wrong\n"
                                        "lock: {type: rlock, name: orders}\n"
                                        "clients: [A]\n"
                                        "timeline:\n"
                                        "  - {at: 0, client: A, op: lock}\n"
                                        "expect:\n"
                                        "  mutual_exclusion: violated\n";
  std::ostringstream table, err;
  EXPECT_EQ(run_scenarios(options_for({dir + "/wrong.yaml"}, dir + "/out"), table, err), 1);
  EXPECT_NE(table.str().find("FAIL"), std::string::npos) << table.str();
  EXPECT_NE(read(dir + "/out/junit.xml").find("<failure "), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(LocksimRun, AMissingPathIsBadUsage) {
  std::ostringstream table, err;
  EXPECT_EQ(run_scenarios(options_for({"/nonexistent/scenarios"}, temp_dir("missing")), table, err), 2);
  EXPECT_NE(err.str().find("/nonexistent/scenarios: no such file or directory"), std::string::npos) << err.str();
}

// A scenario that refuses --time-scale is skipped: reported, not failed, and not run.
TEST(LocksimRun, AScenarioThatRefusesTheTimeScaleIsSkippedNotFailed) {
  const std::string out = temp_dir("skipped");
  RunOptions options = options_for({kSource + "/scenarios/redis-restart-aof.yaml", kSource + "/scenarios/pubsub-wakeup.yaml"}, out);
  options.time_scale = 0.1;
  std::ostringstream table, err;
  EXPECT_EQ(run_scenarios(options, table, err), 0) << table.str() << err.str();
  EXPECT_NE(table.str().find("(skipped)"), std::string::npos) << table.str();
  EXPECT_NE(table.str().find("(1 skipped)"), std::string::npos) << table.str();
  EXPECT_EQ(table.str().find("skipped  pass"), std::string::npos) << table.str();
  const auto json = nlohmann::json::parse(read(out + "/results.json"));
  EXPECT_EQ(json["skipped"].get<int>(), 1);
  EXPECT_EQ(json["failed"].get<int>(), 0);
  EXPECT_NE(json["results"][0]["skipped"].get<std::string>().find("does not allow --time-scale"), std::string::npos);
  EXPECT_EQ(json["results"][1]["time_scale"].get<double>(), 0.1);
  EXPECT_NE(read(out + "/junit.xml").find("<skipped message="), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(out + "/redis-restart-aof/history.jsonl")) << "a skipped scenario does not run";
  std::filesystem::remove_all(out);
}

// Usage errors of the live options are exit code 2 with a message, before any server starts.
TEST(LocksimRun, LiveOptionsMisusedAreUsageErrors) {
  const std::string file = kSource + "/scenarios/pubsub-wakeup.yaml";
  auto code_and_error = [&](auto change) {
    RunOptions options = options_for({file}, temp_dir("usage"));
    change(options);
    std::ostringstream table, err;
    const int code = run_scenarios(options, table, err);
    return std::make_pair(code, err.str());
  };
  auto r = code_and_error([](RunOptions& o) { o.redis = {"127.0.0.1:6379"}; });
  EXPECT_EQ(r.first, 2);
  EXPECT_EQ(r.second, "locksim run: --redis, --password and --flush apply to --backend live\n");
  r = code_and_error([](RunOptions& o) { o.backend = "live"; o.redis = {"localhost"}; });
  EXPECT_EQ(r.first, 2);
  EXPECT_EQ(r.second, "locksim run: --redis localhost: expected HOST:PORT, e.g. 127.0.0.1:6379\n");
  r = code_and_error([](RunOptions& o) { o.backend = "live"; o.redis = {"127.0.0.1:70000"}; });
  EXPECT_EQ(r.first, 2);
  r = code_and_error([](RunOptions& o) { o.backend = "live"; o.password = "pw"; });
  EXPECT_EQ(r.first, 2);
  EXPECT_EQ(r.second, "locksim run: --password and --flush apply to the servers --redis names (locksim's own have neither)\n");
  r = code_and_error([](RunOptions& o) { o.time_scale = 0; });
  EXPECT_EQ(r.first, 2);
  EXPECT_EQ(r.second, "locksim run: --time-scale 0: expected a factor in (0, 1]\n");
  r = code_and_error([](RunOptions& o) { o.backend = "remote"; });
  EXPECT_EQ(r.first, 2);
  EXPECT_EQ(r.second, "locksim run: --backend remote: expected fake or live\n");
  std::filesystem::remove_all(temp_dir("usage"));
}

}  // namespace
}  // namespace locksim::app
