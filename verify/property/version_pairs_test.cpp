// `explore --redisson A --against redisson=B` for every pair of modelled versions where a behaviour
// changes, on every Redisson lock type: each configuration validates, each case runs on both sides
// without error, and each side really runs as its version (two different versions of one behaviour
// give the two steps' options).
#include <gtest/gtest.h>

#include <set>

#include "client/redisson_version.hpp"
#include "explore/explore.hpp"
#include "explore/generator.hpp"

namespace locksim::explore {
namespace {

std::vector<client::Version> boundary_versions() {
  std::set<client::Version> versions{client::newest_modelled()};
  for (const auto& b : client::versioned_behaviours())
    for (const auto& step : b.steps) versions.insert(step.since);
  return {versions.begin(), versions.end()};
}

TEST(VersionPairs, EveryPairExploresOnEveryRedissonLock) {
  const std::vector<client::Version> versions = boundary_versions();
  ASSERT_GE(versions.size(), 20u);
  const ShrinkOptions no_shrink{false, 0};
  size_t cases = 0;
  for (const char* lock : {"rlock", "fair", "multi", "red", "rwlock"}) {
    for (const client::Version& a : versions) {
      for (const client::Version& b : versions) {
        ExploreConfig c;
        c.lock_type = lock;
        c.clients_max = 2;
        c.ops_max = 3;
        c.faults = {"crash", "delay"};
        c.properties = std::string(lock) == "rwlock" ? std::vector<std::string>{"read_write"}
                                                     : std::vector<std::string>{"mutual_exclusion"};
        c.lock_options = {{"redisson", a.str()}};
        c.against = Variation{.lock_options = {{"redisson", b.str()}}, .script_files = {}};
        ASSERT_NO_THROW(validate(c)) << lock << " " << a.str() << " against " << b.str();
        // One case per pair keeps this to seconds; the seed varies so the pairs see different plans.
        const CaseResult r = explore_case(c, 1 + cases % 50, no_shrink);
        ASSERT_FALSE(r.error) << lock << " " << a.str() << " against " << b.str() << ": " << *r.error;
        ++cases;
      }
    }
  }
  EXPECT_EQ(cases, 5 * versions.size() * versions.size());
}

TEST(VersionPairs, EachSideRunsAsItsVersion) {
  ExploreConfig c;
  c.lock_options = {{"redisson", "3.23.0"}};
  c.against = Variation{.lock_options = {{"redisson", "3.24.0"}}, .script_files = {}};
  const scenario::Scenario mine = to_scenario(generate_plan(c, 7), c);
  const scenario::Scenario theirs = to_scenario(generate_plan(varied(c, *c.against), 7), varied(c, *c.against));
  EXPECT_EQ(mine.lock.redisson_version, "3.23.0");
  EXPECT_FALSE(mine.lock.redisson.unlock_latch);
  EXPECT_EQ(theirs.lock.redisson_version, "3.24.0");
  EXPECT_TRUE(theirs.lock.redisson.unlock_latch);
}

}  // namespace
}  // namespace locksim::explore
