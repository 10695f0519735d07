// Network trouble as a hazard, bounded (DESIGN.md, Properties, "Findings"): it explains a starved
// waiter only when the waiter sat out at most one retry interval of its client after the trouble
// ended, and two owners in one lock only when the trouble left the holder whose key expired less than
// one renewal period of working connection before the expiry. Each bound is pinned by a pair of
// hand-made cases, one on each side of it, and the experiment half (the case without the trouble
// holds) by running the case with the fault taken out of the plan.
#include <gtest/gtest.h>


#include "explore/explore.hpp"
#include "explore/hazards.hpp"
#include "model/facts.hpp"
#include "model/working_connection.hpp"
#include "scenario/runner.hpp"

namespace locksim::explore {
namespace {

using scenario::PropertyResult;
using scenario::Scenario;
using scenario::ScenarioResult;

// One client's session: acquire at `at` (lock()), work, and unlock when `unlock`.
SessionPlan session(int64_t at, int64_t work, bool unlock = true) {
  SessionPlan s;
  s.at_ms = at;
  s.work_ms = work;
  s.unlock = unlock;
  return s;
}

// A plan on a steady world (one latency, no loss), a session per client.
Plan plan_of(std::vector<SessionPlan> sessions, std::vector<FaultPlan> faults) {
  Plan p;
  p.latency_min_ms = 1;
  p.latency_span_ms = 0;
  for (SessionPlan& s : sessions) p.clients.push_back(ClientPlan{.sessions = {s}, .clock_offset_ms = 0});
  p.faults = std::move(faults);
  return p;
}

struct CaseRun {
  Scenario scenario;
  ScenarioResult result;
  const model::Verdict& verdict(const std::string& property) const {
    for (const PropertyResult& p : result.properties)
      if (p.property == property) return p.verdict;
    throw std::runtime_error("no verdict of " + property);
  }
  Violation violation(const std::string& property) const { return {&scenario, &result.history, &verdict(property)}; }
};

CaseRun run(const Plan& plan, const ExploreConfig& config) {
  CaseRun r{to_scenario(plan, config), {}};
  r.result = scenario::run_scenario(r.scenario);
  EXPECT_FALSE(r.result.error) << *r.result.error;
  return r;
}

const HazardInfo& hazard_named(std::string_view name) {
  for (const HazardInfo& h : hazards())
    if (h.name == name) return h;
  throw std::runtime_error("no hazard " + std::string(name));
}

ExploreConfig rlock_with(std::vector<std::string> faults, std::vector<std::string> properties,
                         std::string version = "3.52.0") {
  ExploreConfig c;
  c.faults = std::move(faults);
  c.properties = std::move(properties);
  c.leases = false;
  c.lock_options = {{"redisson", version}};
  return c;
}

// A fault of the config's only kind on client `client`.
FaultPlan fault(int client, int64_t at, int64_t for_ms, int64_t extra_ms = 1) {
  return FaultPlan{.kind = 0, .client = client, .at_ms = at, .for_ms = for_ms, .extra_ms = extra_ms, .per_thousand = 1000};
}

// Total loss on the holder's link from 12 s to 52 s: its renewals (every 10 s) are lost, its key
// expires 30 s after the one at 10 s, and B, waiting since 20 s, walks in while A works. The holder
// had 2 s of working connection between that renewal and the expiry: the network's doing.
TEST(HazardBounds, AHolderCutOffForLongerThanARenewalPeriodIsTheNetworksHazard) {
  const ExploreConfig c = rlock_with({"loss"}, {"mutual_exclusion"});
  const Plan p = plan_of({session(0, 60000), session(20000, 0)}, {fault(0, 12000, 40000)});
  const CaseRun r = run(p, c);
  ASSERT_EQ(r.verdict("mutual_exclusion").valid, model::Validity::No) << r.verdict("mutual_exclusion").explanation;
  const Violation v = r.violation("mutual_exclusion");
  EXPECT_TRUE(hazard_named("network-cuts-holder-off").applies(p, c, &v));
  EXPECT_TRUE(within_a_bound(p, c, v));
  // By the rule's own measure: less than a third of the watchdog's 30 s in one stretch before the expiry.
  const model::Facts facts(r.result.history, model::find_lock_type("rlock"));
  EXPECT_LT(model::longest_working_stretch(facts, "A", "redis0", 10000, 40100, 3000), 10000);
  // And the experiment: without the trouble the case holds.
  std::vector<const HazardInfo*> present;
  const Plan clean = without_hazards(p, c, "mutex-overlap", &v, &present);
  ASSERT_EQ(present.size(), 1u);
  EXPECT_EQ(present.front()->name, "network-cuts-holder-off");
  EXPECT_TRUE(clean.faults.empty());
  EXPECT_EQ(run(clean, c).verdict("mutual_exclusion").valid, model::Validity::Yes);
}

// Redisson #3194 on 3.43.0: a slow link times out one renewal (2 s each way against the 3 s command
// timeout, through every resend), the watchdog stops for good, and the key expires 30 s after the
// last renewal that ran while A has worked connected for far more than a renewal period since the
// delay ended. No network hazard explains it: a finding.
TEST(HazardBounds, AHolderThatHadARenewalPeriodOfConnectionAndLostItsKeyIsAFinding) {
  const ExploreConfig c = rlock_with({"delay"}, {"mutual_exclusion"}, "3.43.0");
  const Plan p = plan_of({session(0, 90000), session(20000, 0)}, {fault(0, 12000, 25000, 2000)});
  const CaseRun r = run(p, c);
  ASSERT_EQ(r.verdict("mutual_exclusion").valid, model::Validity::No) << r.verdict("mutual_exclusion").explanation;
  const Violation v = r.violation("mutual_exclusion");
  EXPECT_FALSE(hazard_named("network-cuts-holder-off").applies(p, c, &v)) << r.verdict("mutual_exclusion").explanation;
  EXPECT_FALSE(within_a_bound(p, c, v));
  std::vector<const HazardInfo*> present;
  without_hazards(p, c, "mutex-overlap", &v, &present);
  EXPECT_TRUE(present.empty());
  // 3.44.0 retries the renewal at the next period: the same case holds there.
  const ExploreConfig fixed = rlock_with({"delay"}, {"mutual_exclusion"}, "3.44.0");
  EXPECT_EQ(run(p, fixed).verdict("mutual_exclusion").valid, model::Validity::Yes);
}

// A waiter whose attempts are all lost for 10 s gets the lock (free since A's unlock at 5 s) within
// one retry interval of the loss's end: the trouble's doing, and without it the case holds.
// Up to 3.36.x, whose acquires are resent: from 3.37.0 the lost attempt ends the lock() instead.
TEST(HazardBounds, AWaiterKeptOutNoLongerThanOneRetryIntervalAfterTheTroubleIsTheNetworksHazard) {
  const ExploreConfig c = rlock_with({"loss"}, {"liveness"}, "3.36.0");
  const Plan p = plan_of({session(0, 5000), session(100, 0)}, {fault(1, 50, 10000)});
  const CaseRun r = run(p, c);
  ASSERT_EQ(r.verdict("liveness").valid, model::Validity::No) << r.verdict("liveness").explanation;
  const Violation v = r.violation("liveness");
  EXPECT_TRUE(hazard_named("network-keeps-waiter-out").applies(p, c, &v)) << r.verdict("liveness").explanation;
  std::vector<const HazardInfo*> present;
  const Plan clean = without_hazards(p, c, "starved", &v, &present);
  ASSERT_EQ(present.size(), 1u);
  EXPECT_EQ(present.front()->name, "network-keeps-waiter-out");
  EXPECT_EQ(run(clean, c).verdict("liveness").valid, model::Validity::Yes);
}

// The unlock's wake-up to B is lost in a 300 ms loss; B sleeps the ttl it was told (about 30 s)
// through a free lock, long after the loss and one retry interval: a finding, not the network's.
TEST(HazardBounds, AWakeUpLostInShortTroubleThatCostsAWaiterMoreThanARetryIntervalIsAFinding) {
  const ExploreConfig c = rlock_with({"loss"}, {"liveness"});
  const Plan p = plan_of({session(0, 5000), session(100, 0)}, {fault(1, 4900, 300)});
  const CaseRun r = run(p, c);
  ASSERT_EQ(r.verdict("liveness").valid, model::Validity::No) << r.verdict("liveness").explanation;
  const Violation v = r.violation("liveness");
  EXPECT_FALSE(hazard_named("network-keeps-waiter-out").applies(p, c, &v)) << r.verdict("liveness").explanation;
  EXPECT_FALSE(within_a_bound(p, c, v));
}

// A paused server is network trouble for a waiter too (DESIGN: "a paused or failing server
// included"): the waiter's attempts go unanswered while it is paused.
TEST(HazardBounds, APausedServerIsNetworkTroubleForAWaiter) {
  ExploreConfig c = rlock_with({"redis_pause"}, {"liveness"});
  Plan p = plan_of({session(0, 5000), session(100, 0)}, {});
  p.faults.push_back(FaultPlan{.kind = 0, .at_ms = 4000, .for_ms = 8000});
  EXPECT_TRUE(hazard_named("network-keeps-waiter-out").present(p, c));
  EXPECT_TRUE(hazard_named("network-keeps-waiter-out").without(p, c).faults.empty());
}

// Without the run that shows the violation, a bounded hazard cannot be shown within its bound: it
// explains nothing. Unbounded ones are decided by the plan alone, and each explains its anomalies only.
TEST(HazardBounds, BoundedHazardsNeedTheViolatingRun) {
  ExploreConfig c;
  c.faults = {"delay"};
  Plan plan;
  plan.faults.push_back(FaultPlan{.kind = 0, .extra_ms = 2000});
  std::vector<const HazardInfo*> present;
  without_hazards(plan, c, "starved", nullptr, &present);
  EXPECT_TRUE(present.empty());
  EXPECT_TRUE(hazard_named("network-keeps-waiter-out").present(plan, c));
  EXPECT_TRUE(hazard_named("network-keeps-waiter-out").explains("starved"));
  EXPECT_FALSE(hazard_named("network-keeps-waiter-out").explains("mutex-overlap"));
  EXPECT_TRUE(hazard_named("network-cuts-holder-off").explains("mutex-overlap"));
  EXPECT_FALSE(hazard_named("network-cuts-holder-off").explains("reentry-count"));
  plan.faults.clear();
  plan.loss_per_thousand = 5;  // world-wide loss is the same trouble
  EXPECT_TRUE(hazard_named("network-keeps-waiter-out").present(plan, c));
  EXPECT_EQ(hazard_named("network-keeps-waiter-out").without(plan, c).loss_per_thousand, 0);
  // A lock with no watchdog has no renewal for the network to cut off (its TTL is the lease hazard).
  c.lock_type = "token";
  EXPECT_FALSE(hazard_named("network-cuts-holder-off").present(plan, c));
}

// The longest a client may take, after trouble ends, to learn that a message it sent was lost and act
// on it: Redisson's lost SUBSCRIBE fails the lock() after subscriptionTimeout (7.5 s), longer than a
// command's 3 s timeout and its resend delay, unless the timeout is raised.
TEST(HazardBounds, TheRetryIntervalIsTheLongestAClientTakesToActOnALostMessage) {
  ExploreConfig c;
  c.lock_options = {{"redisson", "3.47.0"}};
  EXPECT_EQ(retry_interval_ms(to_scenario(plan_of({session(0, 0)}, {}), c)), 7500);
  c.lock_options = {{"redisson", "3.47.0"}, {"timeout_ms", "10000"}};
  EXPECT_EQ(retry_interval_ms(to_scenario(plan_of({session(0, 0)}, {}), c)), 10000 + 1500);
  c.lock_options = {{"redisson", "3.52.0"}, {"timeout_ms", "10000"}};
  EXPECT_EQ(retry_interval_ms(to_scenario(plan_of({session(0, 0)}, {}), c)), 10000 + 2000);  // a jittered delay of 2 s at most
  // A polling lock is not Redisson: its commands keep their own policy whatever the version (3 s,
  // then resends 1.5 s apart), and it sleeps between tries; it subscribes to nothing.
  c.lock_type = "token";
  c.lock_options = {{"retry_ms", "250"}};
  EXPECT_EQ(retry_interval_ms(to_scenario(plan_of({session(0, 0)}, {}), c)), 3000 + 1500 + 250);
  c.lock_options = {{"retry_ms", "250"}, {"retry_interval_ms", "400"}};
  EXPECT_EQ(retry_interval_ms(to_scenario(plan_of({session(0, 0)}, {}), c)), 3000 + 400 + 250);
}

}  // namespace
}  // namespace locksim::explore
