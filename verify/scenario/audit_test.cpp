// The audit's engine (scenario/audit.hpp): the upgrade it advises, read by hand from
// docs/redisson-versions.md's ranges; options that switch a bug's own behaviour against options its
// story is only timed by (scaled with watchdog_ms, or refused when the story then no longer tells the
// versions apart); the fixes' options, tried; and the version table's options, which must give a
// lock exactly what the step they stand for gives it.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "client/redisson_version.hpp"
#include "scenario/audit.hpp"
#include "scenario/writer.hpp"

namespace locksim::scenario {
namespace {

using client::Version;

const std::string kLibrary = std::string(LOCKSIM_SOURCE_DIR) + "/scenarios";

std::vector<std::string> issues(const std::vector<const LibraryRow*>& rows) {
  std::vector<std::string> out;
  for (const LibraryRow* row : rows) out.emplace_back(row->issue);
  return out;
}

const StoryRun& story(const Audit& a, std::string_view issue) {
  for (const StoryRun& r : a.stories)
    if (r.row->issue == issue) return r;
  throw std::logic_error("no story of " + std::string(issue));
}

Audit audit(Version v, std::vector<std::string> locks, std::vector<LockOption> options = {}) {
  return audit_version({v, std::move(locks), std::move(options), kLibrary});
}

TEST(AuditUpgrade, Rlock3_23GoesTo3_46ForItsFourStories) {
  // #4871 up to 3.23.x, #3194 up to 3.43.x, #5761 up to 3.27.x; #5623 3.19.2 - 3.27.1 (its story:
  // the watchdog's late expiry of an explicit lease, issue 36). Not to 3.44.0, which has #6144
  // (3.37.0 - 3.45.x), a bug 3.23.0 does not have.
  const UpgradeAdvice a = upgrade_advice({3, 23, 0}, {"rlock"});
  ASSERT_TRUE(a.to);
  EXPECT_EQ(*a.to, (Version{3, 46, 0}));
  EXPECT_EQ(issues(a.fixes), (std::vector<std::string>{"#4871", "#3194", "#5761", "#5623"}));
  EXPECT_TRUE(a.also.empty());
}

TEST(AuditUpgrade, TheNewestVersionNeedsNone) {
  EXPECT_FALSE(upgrade_advice(client::newest_modelled(), {}).to);
  EXPECT_FALSE(upgrade_advice({3, 46, 0}, {"rlock"}).to) << "3.46.0 is past every modelled rlock bug before 3.52.0's #6844";
}

TEST(AuditUpgrade, NeverToAVersionWhereABugOfTheLockBegins) {
  // MultiLock on 3.11.0: #2172 ends at 3.11.1 and #4050 at 3.17.0, where #5484 begins (to 3.25.0):
  // the first version free of all three is 3.25.1.
  const UpgradeAdvice a = upgrade_advice({3, 11, 0}, {"multi"});
  ASSERT_TRUE(a.to);
  EXPECT_EQ(*a.to, (Version{3, 25, 1}));
  EXPECT_EQ(issues(a.fixes), (std::vector<std::string>{"#2172"}));
  EXPECT_EQ(issues(a.also), (std::vector<std::string>{"#4050"}));
}

// 3.44.0 has #6144; only 4.7.0 is past #5019 (no story of its own: among the also-fixed).
TEST(AuditUpgrade, FairOn3_13GoesTo4_7) {
  const UpgradeAdvice a = upgrade_advice({3, 13, 0}, {"fair"});
  ASSERT_TRUE(a.to);
  EXPECT_EQ(*a.to, (Version{4, 7, 0}));
  EXPECT_EQ(issues(a.fixes), (std::vector<std::string>{"#3194", "#3334", "#5761", "#5503", "#2883"}));
  EXPECT_EQ(issues(a.also), (std::vector<std::string>{"#5019"}));
}

TEST(AuditVersionTable, TheBugsOwnOptionsAndItsFix) {
  EXPECT_EQ(client::behaviour_keys("#3194"), (std::vector<std::string>{"watchdog_on_error"}));
  EXPECT_EQ(client::behaviour_keys("#4871"), (std::vector<std::string>{"unlock_latch"}));
  EXPECT_TRUE(client::behaviour_keys("#5761").empty()) << "no lock option selects the listener's place";
  EXPECT_EQ(client::fixing_option("#3194"), "watchdog_on_error=keep");
  EXPECT_EQ(client::fixing_option("#3334"), "watchdog_on_error=stop") << "3.14.0 fixed #3334 alone";
  EXPECT_EQ(client::fixing_option("#5503"), "fair_variant=tail-3.32");
  EXPECT_EQ(client::fixing_option("#5761"), "");
}

// A step's option, set through the loader on any version, gives the lock what the step's own
// function gives it: written back as a file, the two locks read the same.
TEST(AuditVersionTable, EveryStepsOptionGivesTheLockWhatTheStepGives) {
  int checked = 0;
  for (const client::VersionedBehaviour& b : client::versioned_behaviours()) {
    const std::string locks(b.locks);
    const std::string type = locks.substr(0, locks.find(','));
    for (const client::VersionStep& step : b.steps) {
      if (step.option.empty()) continue;
      std::vector<LockOption> options;
      std::string_view rest = step.option;
      while (!rest.empty()) {
        const std::string_view item = rest.substr(0, rest.find(','));
        options.push_back({std::string(item.substr(0, item.find('='))), std::string(item.substr(item.find('=') + 1))});
        rest = item.size() == rest.size() ? std::string_view() : rest.substr(item.size() + 1);
      }
      for (const Version v : behaviour_versions()) {
        Scenario by_option, by_step;
        by_option.name = by_step.name = "lock";
        by_option.lock = by_step.lock = client::redisson_spec(v, type, "orders");
        apply_lock_options(options, "--set", by_option);
        step.apply(by_step.lock);
        EXPECT_EQ(write_scenario(by_option), write_scenario(by_step)) << b.name << ": " << step.option << " on " << v.str();
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 100);
}

TEST(AuditOptions, ALongerWatchdogScalesTheStoryAndKeepsTheBug) {
  // The issue's case: with a 60 s watchdog, #3194's BUSY spell must cover the renewal at 20 s, not
  // 10 s. Scaled, the story still shows the bug; #1966's story (its own 90 s watchdog) cannot be
  // scaled down to 60 s and still show its bug, so the option is refused for it, and it still reads
  // fixed on 3.43.0 rather than as something 3.43.0 broke.
  const Audit a = audit({3, 43, 0}, {"rlock"}, {{"watchdog_ms", "60000"}});
  const StoryRun& bug = story(a, "#3194");
  EXPECT_EQ(bug.reading(), Reading::Affected);
  EXPECT_EQ(bug.scaled, 2);
  EXPECT_EQ(bug.scenario.lock.redisson.watchdog_timeout_ms, 60000);
  const StoryRun& fixed = story(a, "#1966");
  EXPECT_EQ(fixed.reading(), Reading::Fixed);
  EXPECT_FALSE(fixed.refusal.empty());
  EXPECT_EQ(fixed.refused, (std::vector<LockOption>{{"watchdog_ms", "60000"}}));
  EXPECT_EQ(fixed.scenario.lock.redisson.watchdog_timeout_ms, 90000) << "the story's own";
  for (const StoryRun& r : a.stories) {
    EXPECT_NE(r.reading(), Reading::ViolatedWhereFixed) << r.row->issue << ": a timing option read as a bug";
    EXPECT_NE(r.reading(), Reading::Unknown) << r.row->issue;
  }
}

TEST(AuditOptions, WithoutScalingTheSameWatchdogWouldHideTheBug) {
  // What the scaling is for: the story as written, run with a 60 s watchdog on 3.43.0, holds.
  const LibraryRow* row = nullptr;
  for (const LibraryRow& r : redisson_library())
    if (r.issue == "#3194") row = &r;
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(run_story(*row, {3, 43, 0}, kLibrary, {{"watchdog_ms", "60000"}}).verdict(), model::Validity::Yes);
}

// On 3.36.0, the last version that resends an unlock whose reply timed out (from 3.37.0 it is sent
// once, so no latch is needed for #4871 to stay away).
TEST(AuditOptions, TheBugsOwnSwitchIsAppliedAsIsAndBringsItBack) {
  const Audit a = audit({3, 36, 0}, {"rlock"}, {{"unlock_latch", "false"}});
  const StoryRun& r = story(a, "#4871");
  EXPECT_EQ(r.reading(), Reading::ViolatedWhereFixed);
  EXPECT_TRUE(r.refused.empty());
  EXPECT_EQ(r.applied, (std::vector<LockOption>{{"unlock_latch", "false"}}));
}

TEST(AuditOptions, AnOptionGoesOnlyToTheLocksThatTakeIt) {
  EXPECT_THROW(audit({3, 23, 0}, {"rlock"}, {{"fair_variant", "tail-3.32"}}), std::invalid_argument);
  const Audit a = audit({3, 23, 0}, {"rlock", "fair"}, {{"fair_variant", "tail-3.32"}});
  EXPECT_EQ(story(a, "#4871").not_for_lock, (std::vector<LockOption>{{"fair_variant", "tail-3.32"}}));
  EXPECT_EQ(story(a, "#5503").reading(), Reading::HoldsWhereAffected) << "3.32.0's fair scripts take #5503 away";
}

TEST(AuditFixes, EachFixsOptionIsTriedOnTheStories) {
  const Audit a = audit({3, 23, 0}, {"rlock"});
  std::vector<std::string> options;
  for (const OptionFix& f : a.option_fixes) {
    options.push_back(f.option);
    EXPECT_TRUE(f.brings.empty()) << f.option;
  }
  EXPECT_EQ(options, (std::vector<std::string>{"unlock_latch=true", "watchdog_on_error=keep"}));
  EXPECT_EQ(issues(a.option_fixes[0].removes), (std::vector<std::string>{"#4871"}));
  EXPECT_EQ(issues(a.option_fixes[1].removes), (std::vector<std::string>{"#3194"}));
}

// 3.12.0 has #3194 and #3334: watchdog_on_error=keep (3.44.0's) takes away both, =stop (3.14.0's)
// only #3334. Both set one key, so only keep is offered.
TEST(AuditFixes, OneKeyIsOneChoiceTheValueThatTakesAwayMore) {
  const Audit a = audit({3, 12, 0}, {"rlock"});
  std::vector<std::string> options;
  for (const OptionFix& f : a.option_fixes) options.push_back(f.option);
  EXPECT_EQ(options, (std::vector<std::string>{"unlock_latch=true", "watchdog_on_error=keep"}));
  ASSERT_EQ(a.option_fixes.size(), 2u);
  EXPECT_EQ(issues(a.option_fixes[1].removes), (std::vector<std::string>{"#3194", "#3334"}));
}

TEST(AuditMitigations, EveryHazardsMitigationIsShownWorking) {
  for (const Version v : {client::oldest_modelled(), Version{3, 23, 0}, client::newest_modelled()}) {
    const Audit a = audit(v, {});
    int hazards = 0;
    for (const StoryRun& r : a.stories) hazards += r.row->every_version;
    EXPECT_EQ(a.mitigations.size(), static_cast<size_t>(hazards)) << v.str();
    for (const MitigationRun& m : a.mitigations) EXPECT_TRUE(m.shown()) << m.file << " on " << v.str();
  }
}

// An audit of the fenced lock shows the pause hazard's mitigation with the fenced lock's own token,
// not with another lock type's (the row's mitigation_as); other audits keep the row's own story.
TEST(AuditMitigations, AFencedAuditShowsTheFencedLocksOwnFence) {
  const auto file_of = [](const Audit& a, std::string_view issue) {
    for (const MitigationRun& m : a.mitigations)
      if (m.row->issue == issue) return std::filesystem::path(m.file).filename().string() + (m.shown() ? "" : " (not shown)");
    return std::string("(none)");
  };
  EXPECT_EQ(file_of(audit({4, 7, 0}, {"fenced"}), "#2665"), "fenced-pause-refused-by-token.yaml");
  EXPECT_EQ(file_of(audit({4, 7, 0}, {"rlock"}), "#2665"), "pause-longer-than-lease-token.yaml");
}

// "fixed" is said of a version past a fix; one older than the bug reads "not yet", since an upgrade
// may bring it (#6144: 3.37.0 - 3.45.x).
TEST(AuditReadings, ABugThatBeginsLaterIsNotYetAndOneFixedIsFixed) {
  const LibraryRow* row = nullptr;
  for (const LibraryRow& r : redisson_library())
    if (r.issue == "#6144") row = &r;
  ASSERT_TRUE(row);
  EXPECT_EQ(run_story(*row, {3, 23, 0}, kLibrary).reading(), Reading::NotYet);
  EXPECT_EQ(run_story(*row, {3, 40, 0}, kLibrary).reading(), Reading::Affected);
  EXPECT_EQ(run_story(*row, {3, 46, 0}, kLibrary).reading(), Reading::Fixed);
}

// A story that fails over runs without WAIT on the versions that send it but are not modelled with it
// (3.12.5 to 3.51.x; from 3.17.0 they also fail an acquire no replica acknowledged): there the audit
// says its verdict is a client's that does not wait. From 3.52.0 WAIT is modelled, and before 3.12.5
// there is none: it says nothing, nor for a story with no failover.
TEST(AuditLeftOut, AFailoverStoryOnAVersionThatWaitsForReplicasSaysItRanWithoutWait) {
  const LibraryRow* failover = nullptr;
  const LibraryRow* pause = nullptr;
  for (const LibraryRow& r : redisson_library()) {
    if (r.issue == "failover") failover = &r;
    if (r.issue == "#2665") pause = &r;
  }
  ASSERT_TRUE(failover && pause);
  const std::string on_3_51 = left_out(run_story(*failover, {3, 51, 0}, kLibrary));
  EXPECT_NE(on_3_51.find("checkLockSyncedSlaves, 3.17.0 on"), std::string::npos) << on_3_51;
  EXPECT_NE(on_3_51.find("does not model WAIT"), std::string::npos) << on_3_51;
  EXPECT_EQ(left_out(run_story(*failover, {3, 52, 0}, kLibrary)), "");
  EXPECT_EQ(left_out(run_story(*failover, {4, 7, 0}, kLibrary)), "");
  const std::string on_3_13 = left_out(run_story(*failover, {3, 13, 3}, kLibrary));
  EXPECT_NE(on_3_13.find("3.12.5 on"), std::string::npos) << on_3_13;
  EXPECT_EQ(on_3_13.find("fails the acquire"), std::string::npos) << on_3_13;
  EXPECT_EQ(left_out(run_story(*failover, {3, 12, 3}, kLibrary)), "");
  EXPECT_EQ(left_out(run_story(*pause, {4, 7, 0}, kLibrary)), "");
}

}  // namespace
}  // namespace locksim::scenario

namespace locksim::scenario {
namespace {

// An audit of a lock type a story was not written for runs the story as that type, where the row
// says its client shares the code; an audit of all types runs each story as written.
TEST(AuditLockTypes, AStoryRunsAsTheAuditedTypeItsRowNames) {
  const Audit spin = audit({3, 23, 0}, {"spin"});
  EXPECT_EQ(story(spin, "#4871").file_lock_type, "rlock");
  EXPECT_EQ(story(spin, "#4871").lock_type, "spin");
  EXPECT_EQ(story(spin, "#4871").scenario.lock.type, "spin");
  EXPECT_EQ(story(spin, "#4871").reading(), Reading::Affected);
  EXPECT_EQ(story(spin, "spin-lease").lock_type, "spin");
  EXPECT_EQ(story(spin, "spin-lease").reading(), Reading::Hazard);
  EXPECT_THROW(story(spin, "#5761"), std::logic_error) << "a spin lock never listens: #5761 is not its";
  const Audit all = audit({3, 23, 0}, {});
  EXPECT_EQ(story(all, "#4871").lock_type, "rlock");
}

// A story whose lock the audited version does not have is set apart, not run.
TEST(AuditLockTypes, ALockTheVersionDoesNotHaveIsSetApart) {
  const Audit a = audit({3, 12, 0}, {});
  EXPECT_EQ(issues(a.absent), (std::vector<std::string>{"spin-lease", "fenced-lease", "fence-rule"}));
  EXPECT_THROW(story(a, "spin-lease"), std::logic_error);
  EXPECT_TRUE(audit({3, 19, 0}, {}).absent.empty());
}

}  // namespace
}  // namespace locksim::scenario
