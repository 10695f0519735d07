// The stories of scenarios/redisson/: each holds at the default (every option fixed) and is violated
// with the option that models the affected versions. Until scenarios can name a Redisson version,
// the options are set here on the loaded file.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "model/checkers.hpp"
#include "scenario/loader.hpp"
#include "scenario/runner.hpp"

namespace locksim::scenario {
namespace {

const std::string kRows = std::string(LOCKSIM_SOURCE_DIR) + "/scenarios/redisson/";

model::Validity verdict(const Scenario& s, const std::string& property) {
  const ScenarioResult r = run_scenario(s);
  EXPECT_FALSE(r.error) << *r.error;
  for (const PropertyResult& p : r.properties)
    if (p.property == property) return p.verdict.valid;
  ADD_FAILURE() << s.name << " judges no " << property;
  return model::Validity::Unknown;
}

void expect_row(const std::string& file, const std::string& property,
                const std::function<void(client::MultiOptions&)>& affected) {
  Scenario s = load_scenario(kRows + file);
  bool expects_holds = false;
  for (const auto& [p, expected] : s.expect) expects_holds = expects_holds || (p == property && expected == "holds");
  EXPECT_TRUE(expects_holds) << file << " states the verdict of the fixed versions";
  const ScenarioResult fixed = run_scenario(s);
  EXPECT_TRUE(fixed.passed()) << file << " comes out as it expects";
  EXPECT_EQ(verdict(s, property), model::Validity::Yes) << file << " fixed";
  affected(s.lock.multi);
  EXPECT_EQ(verdict(s, property), model::Validity::No) << file << " affected";
}

TEST(RedissonRows, Issue2172TryLockMinusOneHoldsFixedAndIsViolatedUpTo3_11_0) {
  expect_row("2172-multilock-trylock-minus-one.yaml", "mutual_exclusion",
             [](client::MultiOptions& m) { m.negative_sub_lease = true; });
}

TEST(RedissonRows, Issue5484LeaseUnitHoldsFixedAndIsViolatedFrom3_17_0To3_25_0) {
  expect_row("5484-multilock-lease-unit-ignored.yaml", "mutual_exclusion",
             [](client::MultiOptions& m) { m.lease_unit_ignored = true; });
}

}  // namespace
}  // namespace locksim::scenario
