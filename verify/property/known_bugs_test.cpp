// Known Redisson bugs, found by differential exploration: the buggy configuration `--against` the
// one that fixed it (docs/exploration.md, "Known Redisson bugs"; issue numbers from
// ../shared/redisson-versions.md). Each must be found within 2,000 seeds, as a verdict violated
// under the buggy configuration and holding under the fixed one, and its shrunk case must replay
// from its written files the same way.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <tuple>

#include "explore/explore.hpp"
#include "scenario/loader.hpp"
#include "scenario/runner.hpp"
#include "scenario/writer.hpp"

namespace locksim::explore {
namespace {

struct KnownBug {
  const char* issue;
  ExploreConfig config;  // the buggy configuration, with the fix as `against`
  std::vector<std::string> flips;  // properties the fix may flip
  // The anomalies that are this bug's (empty: any of the flips'): where another bug of the same
  // versions flips the same property first, the test must not pass on it.
  std::vector<std::string> anomalies = {};
};

ExploreConfig make(const std::string& lock, std::vector<std::string> faults, std::vector<std::string> properties,
                   std::vector<scenario::LockOption> buggy, std::vector<scenario::LockOption> fixed) {
  ExploreConfig c;
  c.lock_type = lock;
  c.faults = std::move(faults);
  c.properties = std::move(properties);
  c.lock_options = std::move(buggy);
  c.against = Variation{.lock_options = std::move(fixed), .script_files = {}};
  return c;
}

std::vector<KnownBug> known_bugs() {
  std::vector<KnownBug> bugs;
  // A resent unlock (its reply lost, the command resent) runs twice: fixed by the unlock latch.
  bugs.push_back({"#4871", make("rlock", {"loss", "delay"}, {"reentrancy", "mutual_exclusion"}, {{"redisson", "3.23.0"}},
                                {{"redisson", "3.24.0"}}),
                  {"reentrancy", "mutual_exclusion"}});
  // Up to 3.10.5 the unlock of a missing key publishes and answers 1: a silent success (3.10.6: nil).
  bugs.push_back({"#2018", make("rlock", {"crash", "pause", "delay"}, {"mutual_exclusion", "reentrancy", "watchdog", "liveness"},
                                {{"redisson", "3.10.5"}}, {{"redisson", "3.10.6"}}),
                  {"reentrancy"}});
  // One failed renewal ends the watchdog for good: fixed in 3.44.0 (a failed renewal is retried).
  // Its own anomalies only: the first finding of the pair (seed 322) is #6144's stale renewal entry
  // renewing a lock whose unlock was lost (3.37.0-3.43.x; 3.44.0's stale copy renews nothing).
  KnownBug watchdog{"#3194", make("rlock", {"delay", "partition", "pause", "loss"}, {"watchdog", "mutual_exclusion"},
                                  {{"redisson", "3.43.0"}}, {{"redisson", "3.44.0"}}),
                    {"watchdog", "mutual_exclusion"}, {"watchdog-lapse", "mutex-overlap"}};
  watchdog.config.leases = false;
  bugs.push_back(watchdog);
  // A queued FairLock waiter told a negative ttl waits without limit: fixed in 3.32.0.
  // threadWaitTime 5000 on both sides (fairLockWaitTimeout, 3.46.0): with 300 s the hang needs holds
  // longer than exploration draws.
  KnownBug negative_ttl{"#5503", make("fair", {"crash"}, {"liveness", "fair_queue"},
                                      {{"redisson", "3.31.0"}, {"thread_wait_ms", "5000"}}, {{"redisson", "3.32.0"}}),
                        {"liveness", "fair_queue"}};
  negative_ttl.config.leases = false;
  bugs.push_back(negative_ttl);
  // The FairLock scripts of 2.7.0-3.11.0 (scores chained from the first waiter) against 3.11.1's.
  KnownBug head{"#2099", make("fair", {}, {"liveness", "fair_queue"}, {{"redisson", "3.11.0"}}, {{"redisson", "3.11.1"}}),
                {"liveness", "fair_queue"}};
  head.config.leases = false;
  bugs.push_back(head);
  // threadWaitTime 5000 prunes live waiters (up to 3.13.2); 3.13.3 made it 300 000, and a tryLock's
  // wait replaces it.
  KnownBug thread_wait{"#2883", make("fair", {}, {"fair_queue", "liveness"}, {{"redisson", "3.13.2"}}, {{"redisson", "3.13.3"}}),
                       {"fair_queue", "liveness"}};
  thread_wait.config.leases = false;
  thread_wait.config.clients_max = 10;
  thread_wait.config.threads_max = 10;
  bugs.push_back(thread_wait);
  // 3.44.0-3.52.x's batched read renewal fails on any hash field counting 2 (PR #6883, fixed 4.0.0).
  KnownBug batched_read{"#6883", make("rwlock", {}, {"read_write"}, {{"redisson", "3.52.0"}}, {{"redisson", "4.0.0"}}),
                        {"read_write"}};
  batched_read.config.leases = false;
  bugs.push_back(batched_read);
  // Up to 4.3.x the read renewal keeps a crashed client's readers alive (#1458, PR #7098 in 4.4.0).
  KnownBug zombie{"#1458", make("rwlock", {"crash"}, {"liveness"}, {{"redisson", "4.3.1"}}, {{"redisson", "4.4.0"}}),
                  {"liveness"}};
  zombie.config.leases = false;
  bugs.push_back(zombie);
  // An unlock answered nil (a restart lost the hold) left the renewal entry (#2515, 3.12.1): another
  // thread's lock() joined it and was not renewed. Needs two threads of a client, and the restart:
  // the hold that lapses is taken after it, so the restart is no hazard of it.
  KnownBug entry{"#2515", make("rlock", {"redis_restart"}, {"watchdog", "mutual_exclusion"}, {{"redisson", "3.12.0"}},
                               {{"redisson", "3.12.1"}}),
                 {"watchdog", "mutual_exclusion"}};
  entry.config.leases = false;
  entry.config.clients_max = 2;
  entry.config.threads_max = 2;
  bugs.push_back(entry);
  // MultiLock tryLock(-1, lease) gave each part a -2 ms lease (#2172, 3.11.1); MultiLock lock(n,
  // SECONDS) read n as milliseconds (#5484, 3.25.1). The generator draws both shapes for MultiLock
  // and RedLock alone.
  bugs.push_back({"#2172", make("multi", {}, {"mutual_exclusion"}, {{"redisson", "3.11.0"}}, {{"redisson", "3.11.1"}}),
                  {"mutual_exclusion", "liveness"}});
  bugs.push_back({"#5484", make("multi", {}, {"mutual_exclusion"}, {{"redisson", "3.25.0"}}, {{"redisson", "3.25.1"}}),
                  {"mutual_exclusion", "liveness"}});
  // #4818: a reused instance's lease-less lock() sends the last explicit lease (3.15.0-3.19.1).
  bugs.push_back({"#4818", make("rlock", {}, {"mutual_exclusion", "watchdog"}, {{"redisson", "3.19.1"}},
                                {{"redisson", "3.19.2"}}),
                  {"watchdog", "mutual_exclusion"}});
  // #1966: an unlock that times out (every send lost) leaves the watchdog renewing (up to 3.10.4).
  // Two clients: with up to five, its loss met the one unlock that matters in one seed of 2,000.
  KnownBug renewing{"#1966", make("rlock", {"loss"}, {"liveness"}, {{"redisson", "3.10.4"}}, {{"redisson", "3.10.5"}}),
                    {"liveness"}};
  renewing.config.leases = false;
  renewing.config.clients_max = 2;
  bugs.push_back(renewing);
  // #5019: a response timeout inside FairLock tryLock's wait loop skips acquireFailed, so the
  // waiter's queue entry stays and keeps the waiters behind it out (up to 4.6.x).
  KnownBug queue_entry{"#5019", make("fair", {"loss"}, {"liveness", "fair_queue"}, {{"redisson", "4.6.1"}},
                                     {{"redisson", "4.7.0"}}),
                       {"liveness", "fair_queue"}};
  queue_entry.config.leases = false;
  queue_entry.config.clients_max = 3;
  bugs.push_back(queue_entry);
  // The ReadWriteLock's unlock of a missing lock answers success up to 3.43.x (a script change of
  // 3.44.0, no issue number).
  bugs.push_back({"rwlock-3.44", make("rwlock", {"crash", "pause"}, {"read_write", "reentrancy"},
                                      {{"redisson", "3.43.0"}}, {{"redisson", "3.44.0"}}),
                  {"reentrancy"}});
  // PR #3334: up to 3.13.x a renewal that fails ends the watchdog and leaves its entry, so another
  // thread of the client that takes the lock after the first's hold lapsed joins the entry and is
  // never renewed. Needs a second thread of one client, and a loss long enough to fail a renewal.
  KnownBug entry_left{"#3334", make("rlock", {"partition", "loss"}, {"watchdog"}, {{"redisson", "3.13.2"}},
                                    {{"redisson", "3.14.0"}}),
                      {"watchdog"}, {"watchdog-lapse"}};
  entry_left.config.leases = false;
  entry_left.config.threads_max = 2;
  entry_left.config.clients_max = 1;
  bugs.push_back(entry_left);
  // #5623: any unlock resets the stored lease to lockWatchdogTimeout, so a second partial unlock
  // PEXPIREs a leased hold to 30 s (3.19.2-3.27.1). Needs a thread that re-enters three times and
  // unlocks all but once (--partial-unlocks).
  KnownBug partial{"#5623", make("rlock", {}, {"watchdog"}, {{"redisson", "3.27.1"}}, {{"redisson", "3.27.2"}}),
                   {"watchdog"}, {"late-expiry"}};
  partial.config.partial_unlocks = true;
  bugs.push_back(partial);
  // #5761: a waiter checks its latch, runs its attempt and only then listens: a release's message
  // that overtakes the attempt's reply is lost, and the waiter sleeps the ttl it was told. Needs a
  // link where messages overtake one another and a reply slowed just then (the racing shape).
  KnownBug lost_wakeup{"#5761", make("rlock", {"delay"}, {"liveness"}, {{"redisson", "3.27.0"}}, {{"redisson", "3.28.0"}}),
                       {"liveness"}};
  lost_wakeup.config.reorder = true;
  bugs.push_back(lost_wakeup);
  // A re-entrant thread's last unlock leaves a stale copy first in the renewal entry (3.37.0-3.45.x;
  // the read side's to 4.6.x): needs two threads of a client on one lock.
  for (const auto& [issue, lock, property, buggy, fixed] :
       {std::tuple{"#6144", "rlock", "mutual_exclusion", "3.45.1", "3.46.0"},
        std::tuple{"#7251", "rwlock", "read_write", "4.6.1", "4.7.0"}}) {
    KnownBug leak{issue, make(lock, {}, {property}, {{"redisson", buggy}}, {{"redisson", fixed}}), {property}};
    leak.config.leases = false;
    leak.config.clients_max = 2;
    leak.config.threads_max = 3;
    bugs.push_back(leak);
  }
  return bugs;
}

model::Validity verdict_of(const scenario::ScenarioResult& r, const std::string& property) {
  for (const auto& p : r.properties)
    if (p.property == property) return p.verdict.valid;
  return model::Validity::Unknown;
}

class KnownBugs : public ::testing::TestWithParam<KnownBug> {};

TEST_P(KnownBugs, AreFoundWithin2000SeedsAndReplayViolatedUnderTheBugAndHoldingUnderTheFix) {
  const KnownBug& bug = GetParam();
  ShrinkOptions shrink;
  shrink.runs_max = 600;
  std::optional<CaseResult> found;
  for (uint64_t seed = 1; seed <= 2000 && !found; ++seed) {
    CaseResult r = explore_case(bug.config, seed, shrink);
    ASSERT_FALSE(r.error) << bug.issue << " seed " << seed << ": " << *r.error;
    const bool its_own = bug.anomalies.empty() ||
                         std::find(bug.anomalies.begin(), bug.anomalies.end(), r.anomaly) != bug.anomalies.end();
    if (r.is_finding() && r.side == "config" && its_own) found = std::move(r);
  }
  ASSERT_TRUE(found) << bug.issue << ": not found in 2,000 seeds";
  EXPECT_NE(std::find(bug.flips.begin(), bug.flips.end(), found->violated), bug.flips.end()) << found->violated;

  const auto dir = std::filesystem::temp_directory_path() / ("locksim-known-bugs-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string buggy = (dir / "buggy.yaml").string(), fixed = (dir / "fixed.yaml").string();
  scenario::write_scenario_file(found->shrunk, buggy);
  scenario::write_scenario_file(found->shrunk_against, fixed);
  const scenario::ScenarioResult under_bug = scenario::run_scenario_file(buggy);
  const scenario::ScenarioResult under_fix = scenario::run_scenario_file(fixed);
  EXPECT_EQ(verdict_of(under_bug, found->violated), model::Validity::No)
      << bug.issue << " seed " << found->seed << "\n" << scenario::write_scenario(found->shrunk);
  EXPECT_EQ(verdict_of(under_fix, found->violated), model::Validity::Yes)
      << bug.issue << " seed " << found->seed << "\n" << scenario::write_scenario(found->shrunk_against);
  // The two files differ in the lock's options only.
  EXPECT_EQ(found->shrunk.timeline.size(), found->shrunk_against.timeline.size());
  std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Redisson, KnownBugs, ::testing::ValuesIn(known_bugs()),
                         [](const ::testing::TestParamInfo<KnownBug>& info) {
                           std::string name = info.param.issue[0] == '#' ? std::string("issue") + (info.param.issue + 1)
                                                                         : std::string(info.param.issue);
                           std::replace_if(name.begin(), name.end(),
                                           [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
                           return name;
                         });

}  // namespace
}  // namespace locksim::explore
