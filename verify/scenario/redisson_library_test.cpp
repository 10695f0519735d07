// The Redisson library against the version table: every bug the table marks has a row; every row's
// story is violated on the first version of each range the bug affects and holds on the version
// that fixed it; a hazard's story is violated on the oldest and the newest modelled version.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "client/redisson_version.hpp"
#include "scenario/loader.hpp"
#include "scenario/redisson_library.hpp"
#include "scenario/runner.hpp"

namespace locksim::scenario {
namespace {

const std::string kScenarios = std::string(LOCKSIM_SOURCE_DIR) + "/scenarios/";

model::Validity verdict(const LibraryRow& row, client::Version v) {
  const Scenario s = load_scenario(kScenarios + std::string(row.story), v.str());
  EXPECT_EQ(s.lock.redisson_version, v.str());
  const ScenarioResult r = run_scenario(s);
  EXPECT_FALSE(r.error) << *r.error;
  for (const auto& p : r.properties)
    if (p.property == row.property) return p.verdict.valid;
  ADD_FAILURE() << row.story << " does not judge " << row.property;
  return model::Validity::Unknown;
}

TEST(RedissonLibrary, EveryBugTheVersionTableMarksHasARow) {
  std::set<std::string_view> rows;
  for (const LibraryRow& row : redisson_library()) {
    EXPECT_TRUE(rows.insert(row.issue).second) << row.issue << " has two rows";
    EXPECT_NE(row.story.empty(), row.not_modelled.empty()) << row.issue << ": a story, or why there is none";
  }
  for (const client::VersionedBehaviour& b : client::versioned_behaviours())
    for (const client::VersionStep& step : b.steps)
      if (step.bug) {
        bool found = false;
        for (std::string_view issue : rows) found = found || client::names_issue(step, issue);
        EXPECT_TRUE(found) << step.issue << " (" << b.name << ") has no row";
      }
}

TEST(RedissonLibrary, EveryStoryExistsAndItsBugIsInTheTable) {
  for (const LibraryRow& row : redisson_library()) {
    if (row.story.empty()) continue;
    EXPECT_TRUE(std::filesystem::exists(kScenarios + std::string(row.story))) << row.story;
    if (!row.every_version) {
      EXPECT_FALSE(client::affected_by(row.issue).empty()) << row.issue << " affects no version";
    }
  }
}

// What no version avoids needs a way around it, and the audit shows that way working; a story
// timed by an option names one the audit knows how to scale.
TEST(RedissonLibrary, EveryHazardHasAMitigationAndEveryMitigationAStoryThatExists) {
  for (const LibraryRow& row : redisson_library()) {
    if (row.every_version) {
      EXPECT_FALSE(row.mitigation.empty()) << row.issue << ": no version avoids it, and no mitigation";
    }
    if (!row.mitigation_story.empty()) {
      EXPECT_TRUE(std::filesystem::exists(kScenarios + std::string(row.mitigation_story))) << row.mitigation_story;
    }
    if (row.every_version && !row.story.empty()) {
      EXPECT_FALSE(row.mitigation_story.empty()) << row.issue;
    }
    EXPECT_EQ(row.mitigation_story.empty(), row.mitigation_property.empty()) << row.issue << ": a story and its property";
    EXPECT_TRUE(row.scales_with.empty() || row.scales_with == "watchdog_ms") << row.issue << ": " << row.scales_with;
  }
}

class LibraryRowStory : public ::testing::TestWithParam<LibraryRow> {};

TEST_P(LibraryRowStory, IsViolatedWhereTheTableSaysAndHoldsWhereItWasFixed) {
  const LibraryRow& row = GetParam();
  if (row.every_version) {
    EXPECT_EQ(verdict(row, client::oldest_modelled()), model::Validity::No) << row.story << " on the oldest";
    EXPECT_EQ(verdict(row, client::newest_modelled()), model::Validity::No) << row.story << " on the newest";
    return;
  }
  for (const client::VersionRange& range : client::affected_by(row.issue)) {
    EXPECT_EQ(verdict(row, range.from), model::Validity::No) << row.story << " on " << range.from.str();
    if (range.until) {
      EXPECT_EQ(verdict(row, *range.until), model::Validity::Yes) << row.story << " on " << range.until->str();
    }
  }
}

std::vector<LibraryRow> stories() {
  std::vector<LibraryRow> out;
  for (const LibraryRow& row : redisson_library())
    if (!row.story.empty()) out.push_back(row);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Redisson, LibraryRowStory, ::testing::ValuesIn(stories()), [](const auto& info) {
  const std::string_view issue = info.param.issue;
  return issue.starts_with('#') ? "issue" + std::string(issue.substr(1)) : std::string(issue);
});

}  // namespace
}  // namespace locksim::scenario
