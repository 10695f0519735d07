// Exploration's findings: hazards of the configuration told apart from findings (and the label
// checked by an independent experiment on the written counterexample), signatures that make seeds
// one finding, differential runs that report only what the variation changes, lock options in the
// scenario format's words, and generated worlds with many threads.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "explore/explore.hpp"
#include "explore/hazards.hpp"
#include "scenario/runner.hpp"

namespace locksim::explore {
namespace {

using scenario::Scenario;

model::Validity verdict_of(const Scenario& s, const std::string& property) {
  Scenario only = s;
  only.expect = {{property, "holds"}};
  const scenario::ScenarioResult r = scenario::run_scenario(only);
  EXPECT_FALSE(r.error) << *r.error;
  for (const auto& p : r.properties)
    if (p.property == property) return p.verdict.valid;
  return model::Validity::Unknown;
}

ExploreConfig readme_example() {
  ExploreConfig c;
  c.faults = {"pause", "crash"};
  return c;
}

// Hazard labels are checked without explore's own code: the written counterexample, with the
// hazard taken away by hand, holds.
void expect_label_true(const CaseResult& r) {
  Scenario without = r.shrunk;
  const std::string name(r.hazard->name);
  const bool together = name == "hazards-together";
  if (name == "lease-shorter-than-work" || together) {
    for (auto& e : without.timeline)
      if (e.op) e.op->lease_ms = -1;  // the watchdog renews instead
  }
  if (name == "pause-longer-than-lease" || together) {
    // Two thirds of the watchdog's 30 s (it renews every 10 s), less a second for round trips: a
    // client's pauses back to back count as one.
    std::map<std::string, std::vector<std::pair<int64_t, int64_t>>> stops;
    for (const auto& e : without.timeline)
      if (e.fault) stops[e.fault->client].emplace_back(e.at_ms, e.at_ms + e.fault->for_ms);
    auto long_stop = [&](const scenario::TimelineEntry& e) {
      if (!e.fault) return false;
      int64_t from = e.at_ms, to = e.at_ms + e.fault->for_ms;
      for (bool grew = true; grew;) {
        grew = false;
        for (const auto& [a, b] : stops[e.fault->client])
          if (a <= to && b >= from && (a < from || b > to)) {
            from = std::min(from, a);
            to = std::max(to, b);
            grew = true;
          }
      }
      return to - from >= 19000;
    };
    std::erase_if(without.timeline, long_stop);
  }
  if (!together && name != "lease-shorter-than-work" && name != "pause-longer-than-lease")
    FAIL() << "seed " << r.seed << ": unexpected hazard " << name;
  EXPECT_EQ(verdict_of(without, "mutual_exclusion"), model::Validity::Yes) << "seed " << r.seed << " " << r.hazard->name;
}

// A restart or failover explains a violation of a hold it found (DESIGN.md, Findings: "The hazards:
// ... a restart without persistence; failover with lag"): on one thread per client every violation
// is such a hold, labelled so, and the shrunk case without its restarts and failovers holds. Where
// the hold came after the fault, the label does not apply: CaughtRedissonBug.
// ARestartLostReentrantHoldStarvesTheNextThreadsRenewal is that case, reported as a finding.
TEST(Hazards, ARestartOrFailoverIsLabelledForTheHoldItLost) {
  ExploreConfig c;
  c.leases = false;
  c.faults = {"redis_restart", "failover"};
  // A failover loses a hold only where no replica had to acknowledge it (WAIT, 3.52.0 on).
  c.lock_options = {{"check_lock_synced_slaves", "false"}};
  size_t labelled = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    const CaseResult r = explore_case(c, seed);
    ASSERT_FALSE(r.error) << *r.error;
    if (r.violated.empty()) continue;
    ASSERT_NE(r.hazard, nullptr) << "seed " << seed << ": a finding: " << r.signature.shape;
    const std::string name(r.hazard->name);
    ASSERT_TRUE(name == "restart-loses-locks" || name == "failover-loses-writes" || name == "hazards-together")
        << "seed " << seed << ": " << name;
    ++labelled;
    Scenario without = r.shrunk;
    std::erase_if(without.timeline, [](const scenario::TimelineEntry& e) {
      return e.fault && (e.fault->kind == world::FaultKind::RedisRestart || e.fault->kind == world::FaultKind::Failover);
    });
    EXPECT_EQ(verdict_of(without, "mutual_exclusion"), model::Validity::Yes) << "seed " << seed << " " << name;
  }
  EXPECT_GE(labelled, 40u);
}

// The README's old example: every violation is two explicit leases that run out, or a pause longer
// than the watchdog's two thirds, and explore labels them hazards, not findings.
TEST(Hazards, LeasesThatRunOutAreLabelledAndTheLabelIsTrue) {
  size_t leases = 0, violated = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    const CaseResult r = explore_case(readme_example(), seed);
    ASSERT_FALSE(r.error) << *r.error;
    if (r.violated.empty()) continue;
    ++violated;
    EXPECT_EQ(verdict_of(r.shrunk, "mutual_exclusion"), model::Validity::No) << "seed " << seed;
    ASSERT_NE(r.hazard, nullptr) << "seed " << seed << ": " << r.signature.shape;
    leases += r.hazard->name == "lease-shorter-than-work" ? 1 : 0;
    expect_label_true(r);
  }
  EXPECT_GE(violated, 50u);
  EXPECT_GE(leases, 50u);
}

TEST(Hazards, APauseLongerThanTheLeaseIsLabelledWhenTheCaseNeedsIt) {
  ExploreConfig c;
  c.faults = {"pause"};
  c.leases = false;
  size_t labelled = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    const CaseResult r = explore_case(c, seed);
    if (!r.hazard) continue;
    ASSERT_EQ(r.hazard->name, "pause-longer-than-lease");
    ++labelled;
    expect_label_true(r);
  }
  EXPECT_GE(labelled, 5u);
}

// A pause of 16 s and one of 14 s right after it stop the holder's renewals for 30 s: one pause
// longer than the watchdog's two thirds, whichever way the plan cuts it.
TEST(Hazards, PausesBackToBackAreOneLongPause) {
  ExploreConfig c;
  c.faults = {"pause"};
  Plan plan;
  plan.clients.push_back(ClientPlan{.sessions = {SessionPlan{}}, .clock_offset_ms = 0});
  plan.faults.push_back(FaultPlan{.kind = 0, .client = 0, .at_ms = 500, .for_ms = 16000});
  const HazardInfo* pause = nullptr;
  for (const HazardInfo& h : hazards())
    if (h.name == "pause-longer-than-lease") pause = &h;
  ASSERT_NE(pause, nullptr);
  EXPECT_FALSE(pause->present(plan, c));
  plan.faults.push_back(FaultPlan{.kind = 0, .client = 0, .at_ms = 16500, .for_ms = 14000});
  EXPECT_TRUE(pause->present(plan, c));
  EXPECT_TRUE(pause->without(plan, c).faults.empty());
  plan.faults.back().at_ms = 17000;  // half a second apart: the holder renews in between
  EXPECT_FALSE(pause->present(plan, c));
}

// A lock with no watchdog (a token lock's SET NX PX) holds for its TTL whatever the acquire says:
// a TTL that runs out under its holder is the lease hazard, checked by giving every acquire a lease
// longer than the run.
TEST(Hazards, ATtlWithoutAWatchdogIsTheLeaseHazard) {
  ExploreConfig c;
  c.lock_type = "token";
  size_t labelled = 0;
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    const CaseResult r = explore_case(c, seed);
    if (r.violated.empty()) continue;
    ASSERT_NE(r.hazard, nullptr) << "seed " << seed << ": " << r.explanation;
    ASSERT_EQ(r.hazard->name, "lease-shorter-than-work");
    ++labelled;
    Scenario endless = r.shrunk;
    for (auto& e : endless.timeline)
      if (e.op && (e.op->kind == world::OpSpec::Kind::Lock || e.op->kind == world::OpSpec::Kind::TryLock))
        e.op->lease_ms = 86'400'000;
    EXPECT_EQ(verdict_of(endless, "mutual_exclusion"), model::Validity::Yes) << "seed " << seed;
  }
  EXPECT_GE(labelled, 20u);
}

// One client, lost and delayed messages: every liveness violation is the network keeping the client
// from a free lock (nobody else could), and explore says so. Checked by hand: the written case
// without its loss and delay faults holds.
TEST(Hazards, NetworkTroubleThatKeepsAWaiterOutIsLabelledAndTheLabelIsTrue) {
  ExploreConfig c;
  c.faults = {"loss", "delay"};
  c.clients_max = 1;
  c.leases = false;
  c.properties = {"liveness"};
  size_t labelled = 0;
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    const CaseResult r = explore_case(c, seed);
    ASSERT_FALSE(r.error) << *r.error;
    if (r.violated.empty()) continue;
    ASSERT_NE(r.hazard, nullptr) << "seed " << seed << ": a finding with one client: " << r.explanation;
    ASSERT_EQ(r.hazard->name, "network-keeps-waiter-out") << "seed " << seed;
    ++labelled;
    Scenario without = r.shrunk;
    std::erase_if(without.timeline, [](const scenario::TimelineEntry& e) {
      return e.fault && (e.fault->kind == world::FaultKind::Loss || e.fault->kind == world::FaultKind::Delay);
    });
    EXPECT_EQ(verdict_of(without, "liveness"), model::Validity::Yes) << "seed " << seed;
  }
  EXPECT_GE(labelled, 20u);
}

// Network trouble labelled as a hazard (a holder cut off from renewing, a waiter kept out) on a
// RedLock, whose servers may each be paused: every label is checked by hand, the written case with
// every network fault deleted holds.
TEST(Hazards, NetworkTroubleLabelsAreTrue) {
  ExploreConfig c;
  c.lock_type = "red";
  c.faults = {"loss", "delay", "partition", "redis_pause"};
  c.leases = false;
  c.properties = {"mutual_exclusion", "liveness"};
  std::map<std::string, size_t> labelled;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    const CaseResult r = explore_case(c, seed);
    ASSERT_FALSE(r.error) << *r.error;
    if (!r.hazard || !std::string_view(r.hazard->name).starts_with("network-")) continue;
    ++labelled[std::string(r.hazard->name)];
    Scenario without = r.shrunk;
    std::erase_if(without.timeline, [](const scenario::TimelineEntry& e) {
      using K = world::FaultKind;
      return e.fault && (e.fault->kind == K::Loss || e.fault->kind == K::Delay || e.fault->kind == K::Partition ||
                         e.fault->kind == K::RedisPause);
    });
    EXPECT_EQ(verdict_of(without, r.violated), model::Validity::Yes) << "seed " << seed << " " << r.hazard->name;
  }
  EXPECT_GE(labelled["network-keeps-waiter-out"], 5u);
  EXPECT_GE(labelled["network-cuts-holder-off"], 1u);
}

TEST(Signatures, SeedsOfOneShapeAreOneFindingWhateverTheNamesAndTimes) {
  Scenario a;
  a.clients = {{"A"}, {"B"}};
  scenario::TimelineEntry lock_a{.at_ms = 0, .op = world::OpSpec::lock_op("orders", 100), .client = "A"};
  scenario::TimelineEntry lock_b{.at_ms = 5, .op = world::OpSpec::lock_op("orders", 100), .client = "B"};
  a.timeline = {lock_a, lock_b};
  Scenario b = a;
  b.timeline[0].client = "C";
  b.timeline[0].at_ms = 7;
  b.timeline[1].at_ms = 4000;
  const Signature sa = signature_of(a, "mutual_exclusion", "mutex-overlap", "");
  const Signature sb = signature_of(b, "mutual_exclusion", "mutex-overlap", "");
  EXPECT_EQ(sa.id, sb.id);
  EXPECT_EQ(sa.shape, "A lock+lease, B lock+lease");
  EXPECT_EQ(sb.shape, "C lock+lease, B lock+lease");  // shown with the case's own names
  EXPECT_EQ(sa.id.size(), 8u);
  // Another property, anomaly, side or step is another finding.
  EXPECT_NE(sa.id, signature_of(a, "reentrancy", "mutex-overlap", "").id);
  EXPECT_NE(sa.id, signature_of(a, "mutual_exclusion", "other", "").id);
  EXPECT_NE(sa.id, signature_of(a, "mutual_exclusion", "mutex-overlap", "config").id);
  Scenario c = a;
  c.timeline[1].op = world::OpSpec::lock_op("orders");
  EXPECT_NE(sa.id, signature_of(c, "mutual_exclusion", "mutex-overlap", "").id);
}

// FairLock's threadWaitTime of up to 3.13.2 (5 s) prunes a live waiter held up longer: many seeds,
// one story.
TEST(Signatures, SeedsOfOneStoryShareOneSignature) {
  ExploreConfig c;
  c.lock_type = "fair";
  c.lock_options = {{"redisson", "3.13.2"}};
  c.properties = {"fair_queue"};
  std::set<std::string> ids;
  size_t found = 0;
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    const CaseResult r = explore_case(c, seed);
    if (r.violated.empty() || r.hazard) continue;
    ++found;
    ASSERT_EQ(r.signature.id.size(), 8u);
    ids.insert(r.signature.id);
  }
  EXPECT_GE(found, 5u);
  EXPECT_LE(ids.size() * 4, found) << "seeds should share signatures";
}

// A shrink keeps the property, and may end in another anomaly: FairLock 3.13.2's fifo-inversions
// shrink into starved waiters (two faces of #2883). The finding says what it started from, and
// --keep-anomaly shrinks those again keeping it.
TEST(Shrinking, KeepAnomalyKeepsTheAnomalyTheShrinkStartedFrom) {
  ExploreConfig c;
  c.lock_type = "fair";
  c.lock_options = {{"redisson", "3.13.2"}};
  c.properties = {"fair_queue"};
  ShrinkOptions keep;
  keep.keep_anomaly = true;
  size_t changed = 0, kept = 0;
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    const CaseResult r = explore_case(c, seed);
    if (!r.is_finding()) continue;
    ASSERT_FALSE(r.found_anomaly.empty());
    if (r.anomaly == r.found_anomaly) continue;
    ++changed;
    const CaseResult again = explore_case(c, seed, keep);
    ASSERT_TRUE(again.is_finding()) << "seed " << seed;
    EXPECT_EQ(again.anomaly, r.found_anomaly) << "seed " << seed << ": " << again.signature.shape;
    EXPECT_EQ(again.found_anomaly, r.found_anomaly) << "seed " << seed;
    EXPECT_EQ(verdict_of(again.shrunk, "fair_queue"), model::Validity::No) << "seed " << seed;
    ++kept;
  }
  EXPECT_GE(changed, 5u) << "the drift --keep-anomaly exists for";
  EXPECT_EQ(kept, changed);
}

// A case can break through two hazards in turn: an explicit lease runs out under one holder, and,
// with leases made endless, a restart loses a later one's hold. Explore put the first down to the
// lease and, finding the case still violated without it, called it a finding; it now looks at the
// second violation too. The labels are checked by hand: without the restart alone, or without the
// leases alone, the case is violated; without both, it holds.
TEST(Hazards, TwoOverlapsEachThroughItsOwnHazardAreHazardsTogether) {
  ExploreConfig c;
  c.faults = all_fault_kinds();
  const CaseResult r = explore_case(c, 134, ShrinkOptions{false, 0});
  ASSERT_FALSE(r.error) << *r.error;
  ASSERT_NE(r.hazard, nullptr) << "seed 134 is a finding";
  EXPECT_EQ(std::string(r.hazard->name), "hazards-together");
  EXPECT_FALSE(r.is_finding());
  auto without = [&](bool restarts, bool leases) {
    Scenario s = r.shrunk;
    if (restarts)
      std::erase_if(s.timeline, [](const scenario::TimelineEntry& e) {
        return e.fault && e.fault->kind == world::FaultKind::RedisRestart;
      });
    if (leases)
      for (auto& e : s.timeline)
        if (e.op) e.op->lease_ms = -1;
    return verdict_of(s, "mutual_exclusion");
  };
  EXPECT_EQ(without(true, false), model::Validity::No);
  EXPECT_EQ(without(false, true), model::Validity::No);
  EXPECT_EQ(without(true, true), model::Validity::Yes);
}

// A variation that the lock does not read (an RLock has no polling interval) changes nothing: a
// differential run finds nothing and the verdicts agree in every case, because both configurations
// send the same messages, and chance keyed to each message gives them the same fates.
TEST(Differential, AVariationTheLockIgnoresFindsNothing) {
  ExploreConfig c;
  c.faults = all_fault_kinds();
  c.world_loss_max = 20;
  c.properties = {"mutual_exclusion", "reentrancy", "watchdog", "liveness"};
  c.against = Variation{.lock_options = {{"retry_ms", "250"}}, .script_files = {}};
  ShrinkOptions no_shrink{false, 0};
#ifdef LOCKSIM_SANITIZED
  const uint64_t count = 100;
#else
  const uint64_t count = 1000;
#endif
  for (uint64_t seed = 1; seed <= count; ++seed) {
    const CaseResult r = explore_case(c, seed, no_shrink);
    ASSERT_FALSE(r.error) << *r.error;
    ASSERT_EQ(r.verdicts, r.against_verdicts) << "seed " << seed;
    ASSERT_TRUE(r.violated.empty()) << "seed " << seed;
  }
}

// Chance is keyed to what it decides, so a reply lost under both configurations is lost in both,
// and a difference that needs the loss is the configurations' own. #4871 (a resent unlock runs
// twice; 3.24.0's latch makes it idempotent) under message loss alone: found, violated under
// 3.23.0, and its two written cases replay as found (they keep their loss).
TEST(Differential, ALostReplyLostUnderBothConfigurationsIsAFinding) {
  ExploreConfig c;
  c.faults = {"loss"};
  c.properties = {"reentrancy", "mutual_exclusion"};
  c.lock_options = {{"redisson", "3.23.0"}};
  c.against = Variation{.lock_options = {{"redisson", "3.24.0"}}, .script_files = {}};
  const std::optional<CaseResult> found = find_counterexample(c, 1, 1000);
  ASSERT_TRUE(found) << "#4871 under loss alone, within 1,000 seeds";
  EXPECT_EQ(found->side, "config");
  EXPECT_EQ(found->violated, "reentrancy");
  EXPECT_EQ(found->anomaly, "reentry-count");
  const bool lossy = std::any_of(found->shrunk.timeline.begin(), found->shrunk.timeline.end(),
                                 [](const auto& step) { return step.fault && step.fault->kind == world::FaultKind::Loss; });
  EXPECT_TRUE(lossy) << "the finding needs its loss";
  EXPECT_EQ(verdict_of(found->shrunk, "reentrancy"), model::Validity::No);
  EXPECT_EQ(verdict_of(found->shrunk_against, "reentrancy"), model::Validity::Yes);
}

// A user's script against the stock one: an unlock that ignores the owner is found as a difference,
// violated under the user's script and holding under scripts/'s own.
TEST(Differential, AUsersScriptAgainstTheStockOne) {
  ExploreConfig c;
  c.lock_options = {{"redisson", "3.21.0"}};  // the last version that runs rlock_unlock
  c.script_files = {{"rlock_unlock", std::string(LOCKSIM_SOURCE_DIR) + "/verify/property/planted/unlock_ignores_owner.lua"}};
  c.against = Variation{.lock_options = {}, .script_files = {{"rlock_unlock", "stock"}}};
  const std::optional<CaseResult> found = find_counterexample(c, 1, 200);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->side, "config");
  EXPECT_EQ(found->violated, "mutual_exclusion");
  EXPECT_EQ(found->shrunk.script_files.size(), 1u);
  EXPECT_TRUE(found->shrunk_against.script_files.empty());
  EXPECT_EQ(verdict_of(found->shrunk, "mutual_exclusion"), model::Validity::No);
  EXPECT_EQ(verdict_of(found->shrunk_against, "mutual_exclusion"), model::Validity::Yes);
}

TEST(LockOptions, AreReadAsTheScenarioFormatReadsThem) {
  ExploreConfig c;
  c.lock_options = {{"unlock_latch", "true"}, {"watchdog_ms", "9_000"}, {"timeout_ms", "500"}};
  const Scenario s = to_scenario(generate_plan(c, 1), c);
  EXPECT_TRUE(s.lock.redisson.unlock_latch);
  EXPECT_EQ(s.lock.redisson.watchdog_timeout_ms, 9000);
  EXPECT_EQ(s.checker_options.watchdog.watchdog_lease_ms, 9000);
  EXPECT_EQ(s.lock.redisson.commands.timeout_ms, 500);
}

TEST(LockOptions, AMistakeIsAnErrorThatSaysWhatWasExpected) {
  auto problem = [](const std::string& lock, const std::string& text, bool against) {
    ExploreConfig c;
    c.lock_type = lock;
    try {
      const Variation v = parse_variation(text, against ? "--against" : "--set");
      if (against) c.against = v;
      else c.lock_options = v.lock_options;
      validate(c);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(problem("rlock", "unlock-latch=true", false).find("unknown key 'unlock-latch' in lock (expected one of:"),
            std::string::npos);
  EXPECT_NE(problem("rlock", "unlock_latch=maybe", true).find("--against: expected true or false for unlock_latch, got 'maybe'"),
            std::string::npos);
  EXPECT_NE(problem("rlock", "fair_variant=tail-3.32", false).find("fair_variant applies to lock types fair and nonreentrant-fair only"),
            std::string::npos);
  EXPECT_NE(problem("rlock", "unlock_latch", true).find("expected KEY=VALUE"), std::string::npos);
  EXPECT_NE(problem("rlock", "type=fair", true).find("not an option here"), std::string::npos);
  EXPECT_NE(problem("rlock", "script:nope=x.lua", true).find("no script 'nope'"), std::string::npos);
  EXPECT_NE(problem("rlock", "unlock_latch=[", false).find("--set unlock_latch=[: not a YAML value"), std::string::npos);
  EXPECT_EQ(problem("fair", "fair_variant=tail-3.32,thread_wait_ms=300000", true), "no error");

  // A replacement script that does not compile is refused with Redis's own words.
  const auto bad = std::filesystem::temp_directory_path() / ("locksim-bad-" + std::to_string(::getpid()) + ".lua");
  std::ofstream(bad) << "return (";
  EXPECT_NE(problem("rlock", "script:rlock_unlock_latch=" + bad.string(), true).find("--against script:rlock_unlock_latch="),
            std::string::npos);
  // A replacement the configured version never runs would leave the user's code untested.
  EXPECT_NE(problem("rlock", "script:rlock_unlock=" + bad.string(), true)
                .find("--against script:rlock_unlock: the rlock lock of Redisson 4.7.0 never runs 'rlock_unlock'"),
            std::string::npos);
  std::filesystem::remove(bad);
}

TEST(Config, BoundsOutOfRangeAreErrors) {
  auto problem = [](auto edit) {
    ExploreConfig c;
    edit(c);
    try {
      validate(c);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(problem([](ExploreConfig& c) { c.threads_max = 0; }), "threads per client must be within 1..100");
  EXPECT_EQ(problem([](ExploreConfig& c) { c.threads_max = 101; }), "threads per client must be within 1..100");
  EXPECT_EQ(problem([](ExploreConfig& c) { c.work_ms_max = -1; }), "the longest work must not be negative");
  EXPECT_EQ(problem([](ExploreConfig& c) { c.wait_ms_max = -1; }), "the longest tryLock wait must not be negative");
  EXPECT_EQ(problem([](ExploreConfig& c) { c.against = Variation{}; }), "--against names no change");
  // A few digits too many would make cases that run until killed (scenario::kRunMsMax).
  EXPECT_EQ(problem([](ExploreConfig& c) { c.horizon_ms = 60'000'000'000; }),
            "the horizon is at most 1000000000 ms (about 11.6 days, a scenario's longest run), not 60000000000");
  EXPECT_EQ(problem([](ExploreConfig& c) { c.work_ms_max = 1'000'000'001; }),
            "the longest work is at most 1000000000 ms (about 11.6 days, a scenario's longest run), not 1000000001");
  EXPECT_EQ(problem([](ExploreConfig& c) { c.wait_ms_max = 1'000'000'001; }),
            "the longest tryLock wait is at most 1000000000 ms (about 11.6 days, a scenario's longest run), not "
            "1000000001");
  // An interrupt only where it reaches an acquire: the lock types and versions that model it.
  EXPECT_EQ(problem([](ExploreConfig& c) {
              c.lock_type = "spin";
              c.faults = {"interrupt"};
            }),
            "an interrupt reaches the acquires of rlock, fair, rwlock, fenced, nonreentrant and nonreentrant-fair "
            "locks; this lock is spin");
  EXPECT_NE(problem([](ExploreConfig& c) {
              c.faults = {"interrupt"};
              c.lock_options = {{"redisson", "3.16.7"}};
            }).find("an interrupt is modelled for Redisson 3.17.0 and later"),
            std::string::npos);
  EXPECT_NE(problem([](ExploreConfig& c) {
              c.faults = {"interrupt"};
              c.against = Variation{.lock_options = {{"redisson", "3.11.0"}}, .script_files = {}};
            }).find("3.11.0's met it otherwise"),
            std::string::npos);
  EXPECT_EQ(problem([](ExploreConfig& c) { c.faults = {"interrupt"}; }), "no error");
  EXPECT_EQ(problem([](ExploreConfig&) {}), "no error");
}

TEST(Generator, ClientsWithManyThreadsMakeHundredsOfWaiters) {
  ExploreConfig c;
  c.lock_type = "fair";
  c.clients_max = 26;
  c.threads_max = 20;
  c.ops_max = 200;
  size_t most = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const Scenario s = to_scenario(generate_plan(c, seed), c);
    std::set<std::pair<std::string, int64_t>> threads;
    for (const auto& e : s.timeline) {
      if (!e.op) continue;
      ASSERT_GE(e.thread, 1);
      ASSERT_LE(e.thread, 20);
      threads.emplace(e.client, e.thread);
    }
    most = std::max(most, threads.size());
  }
  EXPECT_GE(most, 100u);
}

}  // namespace
}  // namespace locksim::explore
