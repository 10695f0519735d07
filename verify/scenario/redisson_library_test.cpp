// The Redisson library against the version table: every bug the table marks has a row; every row's
// story is violated on the first version of each range the bug affects and holds on the version
// that fixed it; a hazard's story is violated on the oldest and the newest modelled version.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>

#include "client/redisson_version.hpp"
#include "model/lock_types.hpp"
#include "scenario/loader.hpp"
#include "scenario/redisson_library.hpp"
#include "scenario/runner.hpp"

namespace locksim::scenario {
namespace {

const std::string kScenarios = std::string(LOCKSIM_SOURCE_DIR) + "/scenarios/";

// The row's story as version `v`, its lock as `type` ("" the file's).
model::Validity verdict(const LibraryRow& row, client::Version v, const std::string& type = "") {
  const Scenario s = load_scenario(kScenarios + std::string(row.story), v.str(), type);
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

// The first modelled version that has locks of `type`.
client::Version first_with(const std::string& type) {
  const model::LockType* t = model::find_lock_type(type);
  return t && !t->since.empty() ? client::parse_version(t->since).value() : client::oldest_modelled();
}

class LibraryRowStory : public ::testing::TestWithParam<LibraryRow> {};

// As its own lock type and as each it also runs as: violated on the first version of each range (or
// the first that has the type, if it came later) and holding on the fix; a hazard violated on the
// first version with the type and on the newest.
TEST_P(LibraryRowStory, IsViolatedWhereTheTableSaysAndHoldsWhereItWasFixed) {
  const LibraryRow& row = GetParam();
  std::vector<std::string> types{load_scenario(kScenarios + std::string(row.story)).lock.type};
  for (const std::string& t : runs_as(row)) types.push_back(t);
  int shown = 0;
  for (const std::string& type : types) {
    // The first version with the type on which the story can run.
    const client::Version first = std::max(first_with(type), row.story_from);
    const std::string as = std::string(row.story) + " as " + type;
    if (row.every_version) {
      EXPECT_EQ(verdict(row, first, type), model::Validity::No) << as << " on " << first.str();
      EXPECT_EQ(verdict(row, client::newest_modelled(), type), model::Validity::No) << as << " on the newest";
      ++shown;
      continue;
    }
    bool shows = false;
    for (const client::VersionRange& range : client::affected_by(row.issue)) {
      if (range.until && *range.until <= first) continue;  // over before the type came
      const client::Version from = std::max(range.from, first);
      EXPECT_EQ(verdict(row, from, type), model::Validity::No) << as << " on " << from.str();
      if (range.until) {
        EXPECT_EQ(verdict(row, *range.until, type), model::Validity::Yes) << as << " on " << range.until->str();
      }
      shows = true;
    }
    EXPECT_TRUE(shows) << as << ": the bug was over before Redisson had the type, so the story cannot show it";
    shown += shows;
  }
  EXPECT_EQ(shown, static_cast<int>(types.size()));
}

// A type a story runs as is one of Redisson's, other than the story's own.
TEST(RedissonLibrary, EveryRunsAsIsAnotherOfRedissonsLockTypes) {
  for (const LibraryRow& row : redisson_library())
    for (const std::string& type : runs_as(row)) {
      const model::LockType* t = model::find_lock_type(type);
      ASSERT_NE(t, nullptr) << row.issue << ": " << type;
      EXPECT_TRUE(t->redisson) << row.issue << ": " << type;
      EXPECT_FALSE(row.story.empty()) << row.issue << ": runs_as without a story";
      if (!row.story.empty()) {
        EXPECT_NE(load_scenario(kScenarios + std::string(row.story)).lock.type, type) << row.issue;
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
  std::string name = issue.starts_with('#') ? "issue" + std::string(issue.substr(1)) : std::string(issue);
  std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return name;
});

}  // namespace
}  // namespace locksim::scenario
