// Fake vs live: chosen library scenarios run in the simulated world and against real redis-servers
// that locksim starts (both at --time-scale 0.1, so the live runs take seconds), and every property
// must get the same verdict on both, except those the scenario's `live.differs` names with a reason.
// Timing tolerances: the checkers' own (watchdog slack 100 ms, liveness and fair-queue grace 500 ms);
// live timing adds loopback latency (well under 1 ms) and scheduling jitter on top of the emulated link.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "scenario/loader.hpp"
#include "scenario/runner.hpp"
#include "model/verdict.hpp"

namespace locksim::scenario {
namespace {

const std::string kSource = LOCKSIM_SOURCE_DIR;

// Every lock family, each server fault acted out on real processes, client faults and network
// faults emulated in front of real connections.
const std::vector<std::string> kChosen = {
    "pubsub-wakeup",
    "rlock-unlock-by-non-holder",
    "watchdog-long-job",
    "explicit-lease-no-renewal",
    "pause-longer-than-lease-rlock",
    "setnx-deadlock-after-crash",
    "fair-fifo-tail",
    "rwlock-writer-excludes",
    "multilock-bound",
    "redisson/4871-resent-unlock-runs-twice",
    "redis-restart-no-persistence",
    "failover-replication-lag",
    "failover-replica-caught-up",
    "redis-pause-expires-held-lock",
    "redlock-one-of-five-restarts",
    "fair-crashed-waiter-tail",
    "fair-long-hold-tail-3.32",
    "token-compare-and-delete",
    "rwlock-reader-crash",
    "failover-via-sentinel",
};

std::string describe(const ScenarioResult& r) {
  std::string out = r.error ? "error: " + *r.error + "\n" : "";
  for (const auto& p : r.properties)
    out += p.property + ": " + std::string(model::to_string(p.verdict.valid)) + " " + p.verdict.explanation + "\n";
  return out;
}

class FakeVsLive : public ::testing::TestWithParam<std::string> {};

TEST_P(FakeVsLive, SameVerdictOnEachProperty) {
  const std::string file = kSource + "/scenarios/" + GetParam() + ".yaml";
  const Scenario scenario = load_scenario(file);
  Backend fake, live;
  // Ten times shorter where the scenario allows it (app/time_scale.hpp), else as written.
  fake.time_scale = live.time_scale = scenario.live.time_scale ? 0.1 : 1.0;
  live.live = live::LiveOptions{};
  const ScenarioResult on_fake = run_scenario_file(file, fake);
  const ScenarioResult on_live = run_scenario_file(file, live);
  ASSERT_FALSE(on_fake.error) << *on_fake.error;
  ASSERT_FALSE(on_live.error) << *on_live.error;
  EXPECT_EQ(on_live.backend, "live");
  ASSERT_EQ(on_fake.properties.size(), on_live.properties.size());
  ASSERT_FALSE(on_live.properties.empty());
  // The live history has real server records: executions with the key before and after.
  EXPECT_TRUE(std::any_of(on_live.history.events().begin(), on_live.history.events().end(),
                          [](const model::Event& e) { return e.kind == model::EventKind::Exec && e.process == "redis0"; }));
  for (size_t i = 0; i < on_fake.properties.size(); ++i) {
    const std::string& property = on_fake.properties[i].property;
    const auto& differs = scenario.live.differs;
    if (std::find(differs.begin(), differs.end(), property) != differs.end()) continue;
    EXPECT_EQ(model::to_string(on_fake.properties[i].verdict.valid), model::to_string(on_live.properties[i].verdict.valid))
        << property << "\n--- fake\n" << describe(on_fake) << "--- live\n" << describe(on_live);
  }
}

INSTANTIATE_TEST_SUITE_P(Scenarios, FakeVsLive, ::testing::ValuesIn(kChosen), [](const auto& info) {
  std::string name = info.param;
  std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return name;
});

}  // namespace
}  // namespace locksim::scenario
