// Reused Lua states (engine/lua_state_pool.hpp) leave no trace between runs: a case run on the
// states other runs dirtied (a planted script, every fault kind, restarts and failovers that make
// new engines mid-run) has the history, byte for byte, it has on fresh states.
#include <gtest/gtest.h>

#include <string>

#include "base/sha1.hpp"
#include "engine/lua_state_pool.hpp"
#include "explore/explore.hpp"
#include "scenario/runner.hpp"

namespace locksim::explore {
namespace {

std::string digest_of(const scenario::Scenario& s) {
  const scenario::ScenarioResult r = scenario::run_scenario(s);
  EXPECT_FALSE(r.error) << s.name << ": " << r.error.value_or("");
  return sha1_hex(r.history.to_jsonl());
}

TEST(LuaStateReuse, ARunAfterADirtyOneHasTheHistoryOfAFreshOne) {
  ExploreConfig all;
  all.faults = all_fault_kinds();
  ExploreConfig planted = all;
  planted.lock_options = {{"redisson", "3.21.0"}};  // the last version that runs rlock_unlock
  planted.script_files = {{"rlock_unlock", std::string(LOCKSIM_SOURCE_DIR) + "/verify/property/planted/unlock_ignores_owner.lua"}};
  ExploreConfig fair = all;
  fair.lock_type = "fair";
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const scenario::Scenario s = generate_case(all, seed).value();
    engine::drop_pooled_lua_states();
    const std::string fresh = digest_of(s);
    // Dirty the states: other scripts, other keys, other faults.
    digest_of(generate_case(planted, seed + 1000).value());
    digest_of(generate_case(fair, seed + 2000).value());
    ASSERT_GT(engine::pooled_lua_states(), 0u);
    EXPECT_EQ(digest_of(s), fresh) << "seed " << seed;
    EXPECT_EQ(digest_of(s), fresh) << "seed " << seed << ", run a third time";
  }
}

}  // namespace
}  // namespace locksim::explore
