// The version table against ../shared/redisson-versions.md: each expectation below is that file's
// row, written out here by hand (not read from the table under test).
#include "client/redisson_version.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "client/lock_factory.hpp"
#include "scenario/scenario.hpp"

namespace locksim::client {
namespace {

LockSpec at(const char* version, const char* type = "rlock") { return redisson_spec(*parse_version(version), type); }

TEST(RedissonVersion, ParsesThreeNumbersAndNothingElse) {
  EXPECT_EQ(parse_version("3.27.1"), (Version{3, 27, 1}));
  EXPECT_EQ(parse_version("3.5.10"), (Version{3, 5, 10}));
  for (const char* bad : {"", "3", "3.27", "3.27.1.0", "3.27.x", "v3.27.1", "3..1", "3.27.1 ", "-3.1.1", "3.27.1-SNAPSHOT"})
    EXPECT_EQ(parse_version(bad), std::nullopt) << bad;
  EXPECT_LT((Version{3, 9, 9}), (Version{3, 10, 0}));  // numbers, not text
}

TEST(RedissonVersion, OutsideTheModelledRangeIsAnErrorThatNamesTheRange) {
  for (const char* v : {"3.5.4", "2.15.0", "4.7.1", "4.8.0", "5.0.0"}) {
    try {
      modelled_version(v);
      ADD_FAILURE() << v << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("3.5.5 to 4.7.0"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(modelled_version("latest"), std::invalid_argument);
  EXPECT_EQ(modelled_version("3.5.5"), (Version{3, 5, 5}));
  EXPECT_EQ(modelled_version("3.52.0"), (Version{3, 52, 0}));
  EXPECT_EQ(modelled_version("4.7.0"), (Version{4, 7, 0}));
}

TEST(RedissonVersion, EveryBehaviourStartsAtTheOldestAndAscends) {
  for (const VersionedBehaviour& b : versioned_behaviours()) {
    ASSERT_FALSE(b.steps.empty()) << b.name;
    EXPECT_EQ(b.steps.front().since, oldest_modelled()) << b.name;
    for (size_t i = 1; i < b.steps.size(); ++i) EXPECT_LT(b.steps[i - 1].since, b.steps[i].since) << b.name;
    for (const VersionStep& s : b.steps) {
      EXPECT_NE(s.apply, nullptr) << b.name;
      if (s.bug) {
        EXPECT_FALSE(s.issue.empty()) << b.name << ": a bug step names its issue";
      }
    }
  }
}

TEST(RedissonVersion, RLockScriptsByEra) {
  EXPECT_EQ(at("3.10.5").rlock_scripts.unlock, "rlock_unlock_silent_missing");  // #2018, fixed 3.10.6
  EXPECT_EQ(at("3.10.6").rlock_scripts.unlock, "rlock_unlock");
  EXPECT_EQ(at("3.12.2").rlock_scripts.acquire, "rlock_acquire_hset");  // #2551, 3.12.3
  EXPECT_EQ(at("3.12.3").rlock_scripts.acquire, "rlock_acquire_hincrby");
  EXPECT_EQ(at("3.18.9").rlock_scripts.acquire, "rlock_acquire_hincrby");
  EXPECT_EQ(at("3.19.0").rlock_scripts.acquire, "rlock_acquire_one_condition");
  EXPECT_EQ(at("3.21.9").rlock_scripts.unlock, "rlock_unlock");
  EXPECT_FALSE(at("3.21.9").rlock_scripts.publish_as_argv);
  EXPECT_EQ(at("3.21.9").rlock_scripts.force_unlock, "rlock_force_unlock");
  EXPECT_EQ(at("3.22.0").rlock_scripts.unlock, "rlock_unlock_3_22");  // #5047: publish as an ARGV
  EXPECT_TRUE(at("3.22.0").rlock_scripts.publish_as_argv);
  EXPECT_EQ(at("3.22.0").rlock_scripts.force_unlock, "rlock_force_unlock_3_22");
  EXPECT_EQ(at("3.10.5").rlock_scripts.force_unlock, "rlock_force_unlock");
  EXPECT_FALSE(at("3.23.9").redisson.unlock_latch);  // #4871: the latch from 3.24.0
  EXPECT_TRUE(at("3.24.0").redisson.unlock_latch);
}

TEST(RedissonVersion, WatchdogByEra) {
  EXPECT_EQ(at("3.13.9").redisson.watchdog_on_error, WatchdogOnError::StopKeepEntry);
  EXPECT_EQ(at("3.14.0").redisson.watchdog_on_error, WatchdogOnError::StopForGood);  // PR #3334
  EXPECT_EQ(at("3.43.9").redisson.watchdog_on_error, WatchdogOnError::StopForGood);
  EXPECT_EQ(at("3.44.0").redisson.watchdog_on_error, WatchdogOnError::KeepRenewing);  // #6303
  EXPECT_EQ(at("3.10.4").redisson.unlock_cancels_renewal, UnlockCancelsRenewal::OnlyWhenAnswered);  // #1966
  EXPECT_EQ(at("3.10.5").redisson.unlock_cancels_renewal, UnlockCancelsRenewal::Always);
  EXPECT_EQ(at("3.12.0").redisson.unlock_cancels_renewal, UnlockCancelsRenewal::NotOnNil);  // #2515
  EXPECT_EQ(at("3.12.1").redisson.unlock_cancels_renewal, UnlockCancelsRenewal::Always);
  EXPECT_FALSE(at("3.10.4").redisson.renewal_ignores_not_held);
  EXPECT_TRUE(at("3.10.6").redisson.renewal_ignores_not_held);  // #2037: 3.10.5 - 3.10.6
  EXPECT_FALSE(at("3.10.7").redisson.renewal_ignores_not_held);
}

TEST(RedissonVersion, LeaseAndWakeUpByEra) {
  EXPECT_EQ(at("3.14.9").redisson.lease_memory, LeaseMemory::PerAcquire);
  EXPECT_EQ(at("3.15.0").redisson.lease_memory, LeaseMemory::StaleExplicit);  // #4818
  EXPECT_EQ(at("3.19.1").redisson.lease_memory, LeaseMemory::StaleExplicit);
  EXPECT_EQ(at("3.19.2").redisson.lease_memory, LeaseMemory::ResetOnUnlock);  // #5623
  EXPECT_EQ(at("3.27.1").redisson.lease_memory, LeaseMemory::ResetOnUnlock);
  EXPECT_EQ(at("3.27.2").redisson.lease_memory, LeaseMemory::PerAcquire);
  EXPECT_TRUE(at("3.27.9").redisson.wakeup_lost_between_check_and_listen);  // #5761, fixed 3.28.0
  EXPECT_FALSE(at("3.28.0").redisson.wakeup_lost_between_check_and_listen);
}

TEST(RedissonVersion, RetriesByEra) {
  const CommandPolicy old = at("3.47.0").redisson.commands;
  EXPECT_EQ(old.retry_attempts, 3);
  EXPECT_EQ(old.retry_interval_ms, 1500);
  EXPECT_EQ(old.retry_delay_max_ms, 0);
  const CommandPolicy now = at("3.48.0").redisson.commands;
  EXPECT_EQ(now.retry_attempts, 4);
  EXPECT_EQ(now.retry_interval_ms, 1000);
  EXPECT_EQ(now.retry_delay_max_ms, 2000);
  EXPECT_EQ(now.timeout_ms, 3000);
}

TEST(RedissonVersion, FairLockByEra) {
  EXPECT_EQ(at("3.11.0", "fair").fair.variant, FairVariant::Head);
  EXPECT_EQ(at("3.11.1", "fair").fair.variant, FairVariant::Tail);  // PR #2100
  EXPECT_EQ(at("3.30.9", "fair").fair.variant, FairVariant::Tail);
  EXPECT_EQ(at("3.31.0", "fair").fair.variant, FairVariant::Tail3_31);
  EXPECT_EQ(at("3.32.0", "fair").fair.variant, FairVariant::Tail3_32);  // #5503
  EXPECT_EQ(at("3.44.9", "fair").fair.variant, FairVariant::Tail3_32);
  EXPECT_EQ(at("3.45.0", "fair").fair.variant, FairVariant::Tail3_45);
  EXPECT_EQ(at("3.13.2", "fair").fair.thread_wait_ms, 5000);
  EXPECT_FALSE(at("3.13.2", "fair").fair.try_wait_replaces_thread_wait);
  EXPECT_EQ(at("3.13.3", "fair").fair.thread_wait_ms, 300000);  // #2883
  EXPECT_TRUE(at("3.13.3", "fair").fair.try_wait_replaces_thread_wait);
}

TEST(RedissonVersion, ReadWriteAndMultiLockByEra) {
  EXPECT_EQ(at("3.43.0", "rwlock").rw.variant, RwVariant::Silent);
  EXPECT_EQ(at("3.44.0", "rwlock").rw.variant, RwVariant::Nil3_44);
  EXPECT_EQ(at("3.43.0", "rwlock").rw.read_renewal, ReadRenewal::PerLock);
  EXPECT_EQ(at("3.44.0", "rwlock").rw.read_renewal, ReadRenewal::Batched3_44);  // PR #6883
  EXPECT_EQ(at("3.52.0", "rwlock").rw.read_renewal, ReadRenewal::Batched3_44);
  EXPECT_EQ(at("4.0.0", "rwlock").rw.read_renewal, ReadRenewal::Batched4_0);  // PR #6883 fixed
  EXPECT_EQ(at("4.3.1", "rwlock").rw.read_renewal, ReadRenewal::Batched4_0);
  EXPECT_EQ(at("4.4.0", "rwlock").rw.read_renewal, ReadRenewal::OwnReaders4_4);  // PR #7098
  EXPECT_FALSE(at("3.51.0").redisson.latch_delete_names_client);
  EXPECT_TRUE(at("3.52.0").redisson.latch_delete_names_client);  // #6844 (PR #6977)
  EXPECT_TRUE(at("4.2.0").redisson.latch_delete_names_client);
  EXPECT_FALSE(at("4.3.0").redisson.latch_delete_names_client);
  EXPECT_FALSE(at("3.43.0").redisson.renewal_at_watchdog_timeout);
  EXPECT_TRUE(at("3.44.0").redisson.renewal_at_watchdog_timeout);  // the batched LockTask
  EXPECT_FALSE(at("3.43.0").redisson.not_held_drops_thread);
  EXPECT_TRUE(at("3.44.0").redisson.not_held_drops_thread);
  EXPECT_EQ(at("3.36.0").redisson.entry_leak, client::EntryLeak::None);
  EXPECT_EQ(at("3.37.0").redisson.entry_leak, client::EntryLeak::ByName);  // #6144
  EXPECT_EQ(at("3.44.0").redisson.entry_leak, client::EntryLeak::NullName);
  EXPECT_EQ(at("3.46.0").redisson.entry_leak, client::EntryLeak::None);
  EXPECT_EQ(at("3.46.0", "rwlock").rw.read_entry_leak, client::EntryLeak::NullName);  // PR #7251
  EXPECT_EQ(at("4.6.1", "rwlock").rw.read_entry_leak, client::EntryLeak::NullName);
  EXPECT_EQ(at("4.7.0", "rwlock").rw.read_entry_leak, client::EntryLeak::None);
  EXPECT_TRUE(at("3.11.0", "multi").multi.negative_sub_lease);  // #2172
  EXPECT_FALSE(at("3.11.1", "multi").multi.negative_sub_lease);
  EXPECT_TRUE(at("3.16.9", "multi").multi.fixed_retry_wait);  // #4050
  EXPECT_FALSE(at("3.17.0", "multi").multi.fixed_retry_wait);
  EXPECT_FALSE(at("3.16.9", "multi").multi.lease_unit_ignored);
  EXPECT_TRUE(at("3.17.0", "multi").multi.lease_unit_ignored);  // #5484: 3.17.0 - 3.25.0
  EXPECT_TRUE(at("3.25.0", "multi").multi.lease_unit_ignored);
  EXPECT_FALSE(at("3.25.1", "multi").multi.lease_unit_ignored);
}

TEST(RedissonVersion, AffectedRangesAreReadFromTheSteps) {
  auto ranges = [](const char* issue) {
    std::string out;
    for (const VersionRange& r : affected_by(issue)) out += (out.empty() ? "" : "; ") + r.str();
    return out;
  };
  EXPECT_EQ(ranges("#3194"), "up to 3.43.x");  // two steps, one range
  EXPECT_EQ(ranges("#3334"), "up to 3.13.x");  // the first of them names it too
  EXPECT_EQ(ranges("#2515"), "3.12.0");
  EXPECT_EQ(ranges("#2037"), "3.10.5 - 3.10.6");
  EXPECT_EQ(ranges("#5503"), "3.11.1 - 3.31.x");
  EXPECT_EQ(ranges("#5484"), "3.17.0 - 3.25.0");
  EXPECT_EQ(ranges("#4871"), "up to 3.23.x");
  EXPECT_EQ(ranges("#2883"), "3.11.1 - 3.13.2");  // the 5 s taken off on each acquire is 3.11.1's
  EXPECT_EQ(ranges("#6883"), "3.44.0 - 3.52.x");  // fixed by 4.0.0: the last 3.x line, not "3.x"
  EXPECT_EQ(ranges("#9999"), "");
  EXPECT_TRUE(affects("#4871", {3, 23, 0}));
  EXPECT_FALSE(affects("#4871", {3, 24, 0}));
}

TEST(RedissonVersion, AScenarioStartsAsTheDefaultVersionWhichIsTheNewest) {
  EXPECT_EQ(default_version(), (Version{4, 7, 0}));
  const scenario::Scenario s;
  EXPECT_EQ(s.lock.redisson_version, "4.7.0");
  EXPECT_TRUE(s.lock.redisson.unlock_latch);
  EXPECT_EQ(s.lock.redisson.watchdog_on_error, WatchdogOnError::KeepRenewing);
  EXPECT_EQ(s.lock.fair.variant, FairVariant::Tail3_45);
  EXPECT_EQ(s.lock.fair.thread_wait_ms, 300000);
  EXPECT_EQ(s.lock.rw.variant, RwVariant::Nil3_44);
  EXPECT_EQ(s.lock.redisson.commands.retry_attempts, 4);
}

// RedissonNonReentrantLock and RedissonNonReentrantFairLock came in 4.4.0: an older version has neither.
TEST(RedissonVersion, TheNonReentrantLocksExistFrom4_4_0) {
  for (const char* type : {"nonreentrant", "nonreentrant-fair"}) {
    EXPECT_FALSE(has_lock_type({4, 3, 1}, type)) << type;
    EXPECT_TRUE(has_lock_type({4, 4, 0}, type)) << type;
    EXPECT_TRUE(has_lock_type({4, 7, 0}, type)) << type;
    try {
      redisson_spec({4, 3, 1}, type);
      ADD_FAILURE() << type << " built as 4.3.1";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), std::string("Redisson 4.3.1 has no ") + type + " lock: it came in 4.4.0");
    }
  }
  EXPECT_TRUE(has_lock_type(oldest_modelled(), "rlock"));
  EXPECT_FALSE(has_lock_type({3, 14, 1}, "spin"));
  EXPECT_TRUE(has_lock_type({3, 15, 0}, "spin"));
  EXPECT_FALSE(has_lock_type({3, 18, 1}, "fenced"));
  EXPECT_TRUE(has_lock_type({3, 19, 0}, "fenced"));
  EXPECT_EQ(redisson_spec({4, 4, 0}, "nonreentrant-fair").fair.variant, FairVariant::Tail3_45);
}

// A non-reentrant lock runs 4.4.0's acquire scripts in place of RLock's and FairLock's, and their
// unlock and renewal.
TEST(RedissonVersion, TheNonReentrantLocksRunTheirOwnAcquireScripts) {
  const std::string dir = std::string(LOCKSIM_SOURCE_DIR) + "/scripts";
  auto runs = [&](const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  const std::vector<std::string> plain = scripts_run_by(redisson_spec({4, 7, 0}, "nonreentrant"), dir);
  EXPECT_TRUE(runs(plain, "nonreentrant_acquire"));
  EXPECT_FALSE(runs(plain, "rlock_acquire_one_condition"));
  EXPECT_TRUE(runs(plain, "rlock_unlock_latch"));
  EXPECT_TRUE(runs(plain, "rlock_renew"));
  const std::vector<std::string> fair = scripts_run_by(redisson_spec({4, 7, 0}, "nonreentrant-fair"), dir);
  EXPECT_TRUE(runs(fair, "nonreentrant_fair_acquire"));
  EXPECT_TRUE(runs(fair, "nonreentrant_fair_tryacquire"));
  EXPECT_FALSE(runs(fair, "fair_acquire_tail_3_45"));
  EXPECT_TRUE(runs(fair, "fair_unlock"));
  const std::vector<std::string> spin_old = scripts_run_by(redisson_spec({3, 23, 0}, "spin"), dir);
  EXPECT_TRUE(runs(spin_old, "spin_acquire"));
  EXPECT_TRUE(runs(spin_old, "spin_unlock"));
  EXPECT_TRUE(runs(spin_old, "spin_force_unlock"));
  EXPECT_TRUE(runs(scripts_run_by(redisson_spec({3, 24, 0}, "spin"), dir), "spin_unlock_latch"));
  const std::vector<std::string> fenced = scripts_run_by(redisson_spec({3, 19, 0}, "fenced"), dir);
  EXPECT_TRUE(runs(fenced, "fenced_acquire"));
  EXPECT_FALSE(runs(fenced, "rlock_acquire_one_condition"));
  EXPECT_TRUE(runs(fenced, "rlock_unlock"));
}

}  // namespace
}  // namespace locksim::client
