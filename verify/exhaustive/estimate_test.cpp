// The pre-run estimate (explore/estimate.hpp): on worlds small enough to search whole, Knuth's
// estimate of the schedules within the bounds has the exact count within three of its standard
// errors; a world whose lock cannot describe its state gives no count of states; and the count of
// states seen grows with the samples but never past the states the runs passed through.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "explore/estimate.hpp"
#include "scenario/loader.hpp"

namespace locksim::explore {
namespace {

const std::string kDir = std::string(LOCKSIM_SOURCE_DIR) + "/verify/exhaustive/";

ExhaustiveOptions options_for(const scenario::Scenario& s) {
  ExhaustiveOptions o;
  o.bounds = *s.bounded;
  o.properties = s.expect;
  o.shortest = false;  // one pass: every schedule once
  return o;
}

TEST(StateSpaceEstimate, KnuthsEstimateHasTheExactCountWithinThreeStandardErrors) {
  for (const char* file : {"rlock-late-trylock.yaml", "fair-queue-sometimes-queued.yaml"}) {
    const scenario::Scenario s = scenario::load_scenario(kDir + file);
    const ExhaustiveResult exact = search_exhaustive(s, options_for(s));
    ASSERT_TRUE(exact.complete) << file;
    ASSERT_FALSE(exact.counterexample) << file;
    const StateSpaceEstimate e = estimate_state_space(s, options_for(s), 4000);
    EXPECT_EQ(e.samples, 4000u);
    const double estimate = std::pow(10.0, e.log10_schedules);
    const double error = e.relative_error * estimate;
    EXPECT_GT(error, 0) << file << ": the samples all met the same options";
    EXPECT_LE(std::abs(estimate - static_cast<double>(exact.schedules)), 3 * error)
        << file << ": " << exact.schedules << " schedules, estimated " << estimate << " +- " << error;
    EXPECT_LE(e.log10_smallest, std::log10(static_cast<double>(exact.schedules)) + 1e-9);
    EXPECT_TRUE(e.fingerprinted);
    EXPECT_GT(e.states_seen, 0u);
    EXPECT_GE(e.states_chao1, static_cast<double>(e.states_seen));
  }
}

TEST(StateSpaceEstimate, MoreSamplesSeeAtLeastAsManyStates) {
  const scenario::Scenario s = scenario::load_scenario(kDir + "fair-queue-sometimes-queued.yaml");
  const StateSpaceEstimate few = estimate_state_space(s, options_for(s), 50);
  const StateSpaceEstimate many = estimate_state_space(s, options_for(s), 500);
  EXPECT_GT(many.states_seen, few.states_seen);
}

TEST(StateSpaceEstimate, ALockWithoutADescriptionCountsNoStates) {
  const scenario::Scenario s = scenario::load_scenario(kDir + "expected-and-untested.yaml");
  const StateSpaceEstimate e = estimate_state_space(s, options_for(s), 20);
  EXPECT_FALSE(e.fingerprinted);
  EXPECT_NE(e.not_whole.find("token"), std::string::npos) << e.not_whole;
  EXPECT_EQ(e.states_seen, 0u);
  EXPECT_NE(describe(e).find("not counted"), std::string::npos);
}

}  // namespace
}  // namespace locksim::explore
