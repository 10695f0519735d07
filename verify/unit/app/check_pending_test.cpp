// `locksim check` on a run's history names what was still waiting when it ended, as `locksim run`
// does: held whole (table and results.json) and judged as it streams (table). The history is
// verify/scenario/pending-lock-waiter.yaml's, where B's lock() at 100 ms never returns.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

#include "app/check_command.hpp"
#include "scenario/runner.hpp"

namespace locksim::app {
namespace {

const std::string kLine = "\n    pending: 1 lock() call still waiting at the end (B:1 since 100 ms)\n";

class CheckPending : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("locksim-check-pending-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    const scenario::ScenarioResult run =
        scenario::run_scenario_file(std::string(LOCKSIM_SOURCE_DIR) + "/verify/scenario/pending-lock-waiter.yaml");
    ASSERT_FALSE(run.error) << *run.error;
    history_ = (dir_ / "history.jsonl").string();
    std::ofstream file(history_, std::ios::binary);
    run.history.write_jsonl(file);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
  std::string history_;
};

TEST_F(CheckPending, TheTableAndResultsJsonNameTheWaitingCall) {
  CheckOptions o;
  o.history = history_;
  o.out = (dir_ / "out").string();
  std::ostringstream out, err;
  ASSERT_EQ(run_check(o, out, err), 0) << out.str() << err.str();
  EXPECT_NE(out.str().find(kLine), std::string::npos) << out.str();
  std::ifstream results(dir_ / "out" / "results.json");
  const auto json = nlohmann::json::parse(results);
  ASSERT_EQ(json["results"][0]["pending"].size(), 1u) << json.dump();
  EXPECT_EQ(json["results"][0]["pending"][0]["owner"], "B:1");
  EXPECT_EQ(json["results"][0]["pending"][0]["since_ms"], 100);
}

TEST_F(CheckPending, AStreamedCheckSaysSoToo) {
  CheckOptions o;
  o.history = history_;
  o.stream = true;
  std::ostringstream out, err;
  ASSERT_EQ(run_check(o, out, err), 0) << out.str() << err.str();
  EXPECT_NE(out.str().find(kLine), std::string::npos) << out.str();
}

}  // namespace
}  // namespace locksim::app
