// Bounded-exhaustive checking (explore/exhaustive.hpp, docs/exhaustive.md):
// - a schedule is a pure function of its choices: the same list gives the same history, and the
//   counterexample written as a scenario replays to the same violation;
// - a configuration that must break (a pause longer than the lease, a lost reply under command
//   retries) gives its counterexample at the fewest deviations; one safe within its bounds holds;
// - the reduction never hides a counterexample the unreduced search finds, on a set of small worlds;
// - shards add up to the single search and are alike in size; the progress estimate follows the
//   search; the counts of a small world are pinned, so a change to the
//   world or the pruning that changes the explored space is noticed.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "explore/exhaustive.hpp"
#include "scenario/loader.hpp"
#include "scenario/writer.hpp"

namespace locksim::explore {
namespace {

const std::string kDir = std::string(LOCKSIM_SOURCE_DIR) + "/verify/exhaustive/";
const std::string kExamples = std::string(LOCKSIM_SOURCE_DIR) + "/examples/exhaustive/";

scenario::Scenario load(const std::string& path) { return scenario::load_scenario(path); }

ExhaustiveOptions options_for(const scenario::Scenario& s) {
  ExhaustiveOptions o;
  o.bounds = *s.bounded;
  o.properties = s.expect;
  return o;
}

world::ScheduleBounds::FaultBudget budget(world::FaultKind kind, int64_t for_ms = 0, std::string client = "") {
  world::ScheduleBounds::FaultBudget b;
  b.fault.kind = kind;
  b.fault.for_ms = for_ms;
  b.fault.client = std::move(client);
  return b;
}

std::string history_of(const scenario::Scenario& s, const std::vector<uint32_t>& choices, world::ScheduleBounds bounds) {
  world::ChoiceScheduler chooser(bounds, choices);
  scenario::Backend backend;
  backend.scheduler = &chooser;
  const scenario::ScenarioResult r = scenario::run_scenario(s, backend);
  EXPECT_FALSE(r.error) << *r.error;
  return r.history.to_jsonl();
}

// `locksim run` of `s` written to a file: what a user replaying a counterexample gets.
scenario::ScenarioResult replayed(const scenario::Scenario& s, const std::string& file) {
  const std::string path = ::testing::TempDir() + file;
  scenario::write_scenario_file(s, path);
  return scenario::run_scenario_file(path);
}

// The search's counterexample is an outcome the file pins that came out `observed`.
void expect_pin_counterexample(const ExhaustiveResult& r, const std::string& observed) {
  ASSERT_TRUE(r.counterexample);
  EXPECT_EQ(r.counterexample->property, "ops");
  ASSERT_TRUE(r.counterexample->pin);
  EXPECT_EQ(r.counterexample->pin->observed, observed);
}

bool violated(const scenario::ScenarioResult& r, const std::string& property) {
  for (const auto& p : r.properties)
    if (p.property == property) return p.verdict.valid == model::Validity::No;
  return false;
}

TEST(Exhaustive, ASearchHoldsWithinItsBoundsAndPinsItsCounts) {
  const scenario::Scenario s = load(kDir + "rlock-late-trylock.yaml");
  const ExhaustiveResult r = search_exhaustive(s, options_for(s));
  EXPECT_TRUE(r.complete);
  EXPECT_FALSE(r.counterexample);
  EXPECT_FALSE(r.error);
  // Pinned: 12 messages, each fast or (at most one of them) slow, one schedule per slow message
  // that lands it somewhere new. A change here changes what the search covers: say why.
  // 16 messages (17 schedules, 28 pruned) before Redisson's scripts were sent as it sends them:
  // 3.36.0 sends EVAL, so A's acquire and unlock lost their NOSCRIPT round trips (4 messages).
  EXPECT_EQ(r.schedules, 13u);
  EXPECT_EQ(r.states, 12u);
  EXPECT_EQ(r.pruned, 20u);
  EXPECT_EQ(r.default_points[0], 12u);
  EXPECT_EQ(r.cut, 0u);
  EXPECT_EQ(r.leaves, r.schedules);  // each schedule judged once, at its own level
}

TEST(Exhaustive, ACrashPlacedAnywhereKeepsMutualExclusion) {
  const scenario::Scenario s = load(kDir + "rlock-late-trylock.yaml");
  ExhaustiveOptions o = options_for(s);
  o.bounds.faults = {budget(world::FaultKind::Crash)};
  const ExhaustiveResult r = search_exhaustive(s, o);
  EXPECT_TRUE(r.complete);
  EXPECT_FALSE(r.counterexample) << r.counterexample->property;
  // 391 schedules and 24 client events while A's first acquire and unlock each went EVALSHA, then
  // EVAL; on 3.36.0 they go as EVAL, in one round trip each.
  EXPECT_EQ(r.schedules, 245u);
  EXPECT_EQ(r.default_points[3], 20u);  // a crash may fall before any of the 20 client events
  EXPECT_EQ(r.leaves, r.schedules);
}

// One pass (each schedule once) and iterative deepening (each judged at its own level) cover the
// same tree: the same schedules, choice points and pruned orders.
TEST(Exhaustive, OnePassCoversWhatIterativeDeepeningCovers) {
  const scenario::Scenario s = load(kDir + "rlock-late-trylock.yaml");
  ExhaustiveOptions o = options_for(s);
  o.bounds.faults = {budget(world::FaultKind::Crash)};
  const ExhaustiveResult deep = search_exhaustive(s, o);
  o.shortest = false;
  const ExhaustiveResult pass = search_exhaustive(s, o);
  EXPECT_TRUE(pass.complete);
  EXPECT_EQ(pass.schedules, deep.schedules);
  EXPECT_EQ(pass.states, deep.states);
  EXPECT_EQ(pass.pruned, deep.pruned);
  EXPECT_EQ(pass.runs, pass.schedules + 1);  // and the default schedule's first look
  EXPECT_GT(deep.runs, pass.runs);
}

TEST(Exhaustive, APauseLongerThanTheLeaseIsTheShortestCounterexample) {
  const scenario::Scenario s = load(kDir + "rlock-late-trylock.yaml");
  ExhaustiveOptions o = options_for(s);
  o.bounds.faults = {budget(world::FaultKind::Pause, 40000, "A")};
  const ExhaustiveResult r = search_exhaustive(s, o);
  ASSERT_TRUE(r.counterexample);
  const Counterexample& c = *r.counterexample;
  EXPECT_EQ(c.property, "mutual_exclusion");
  EXPECT_EQ(c.cost, 1);  // the pause alone, every message fast
  int faults = 0;
  for (const auto& rec : c.records)
    if (rec.taken != 0) {
      EXPECT_EQ(rec.kind, world::ChoiceKind::Fault);
      ++faults;
    }
  EXPECT_EQ(faults, 1);

  // The written scenario replays it: `locksim run` on the file shows the same violation.
  const scenario::ScenarioResult replay = replayed(c.scenario, "exhaustive-counterexample.yaml");
  ASSERT_FALSE(replay.error) << *replay.error;
  EXPECT_TRUE(violated(replay, "mutual_exclusion"));
  EXPECT_EQ(replay.history.to_jsonl(), c.run.history.to_jsonl());

  // The file says what its deviations were; a replay that takes others (a locksim whose choice
  // points moved since the file was written) is an error, not a run of another schedule.
  ASSERT_TRUE(c.scenario.deviations);
  ASSERT_EQ(c.scenario.deviations->size(), 1u);
  scenario::Scenario drifted = c.scenario;
  drifted.deviations = {"pause B for 40000 ms at 14 ms"};
  const scenario::ScenarioResult stale = replayed(drifted, "exhaustive-drifted.yaml");
  ASSERT_TRUE(stale.error);
  EXPECT_NE(stale.error->find("bounded.choices do not replay the schedule bounded.deviations describes"), std::string::npos)
      << *stale.error;
  EXPECT_NE(stale.error->find("the file's deviations are [pause B for 40000 ms at 14 ms], this run's are [" + (*c.scenario.deviations)[0] + "]"),
            std::string::npos)
      << *stale.error;
  // `deviations: []` is a claim too: none.
  drifted.deviations = std::vector<std::string>{};
  const scenario::ScenarioResult none = replayed(drifted, "exhaustive-no-deviations.yaml");
  ASSERT_TRUE(none.error);
  EXPECT_NE(none.error->find("the file's deviations are [none]"), std::string::npos) << *none.error;
}

TEST(Exhaustive, ARunIsAPureFunctionOfItsChoices) {
  const scenario::Scenario s = load(kDir + "rlock-late-trylock.yaml");
  world::ScheduleBounds b = *s.bounded;
  b.faults = {budget(world::FaultKind::Crash)};
  const std::vector<uint32_t> choices = {0, 1, 0, 0, 1};
  const std::string first = history_of(s, choices, b);
  EXPECT_EQ(first, history_of(s, choices, b));
  EXPECT_NE(first, history_of(s, {}, b));  // the choices matter
}

TEST(Exhaustive, AChoiceTheScheduleCannotMakeIsAnError) {
  const scenario::Scenario s = load(kDir + "rlock-late-trylock.yaml");
  world::ChoiceScheduler chooser(*s.bounded, {7});
  scenario::Backend backend;
  backend.scheduler = &chooser;
  const scenario::ScenarioResult r = scenario::run_scenario(s, backend);
  ASSERT_TRUE(r.error);
  EXPECT_NE(r.error->find("has only 2 options"), std::string::npos) << *r.error;
}

TEST(Exhaustive, BoundsThatCannotRunAreRefused) {
  world::ScheduleBounds b;
  b.latencies = {0};
  EXPECT_THROW(world::ChoiceScheduler(b, {}), std::invalid_argument);
  b.latencies = {};
  EXPECT_THROW(world::ChoiceScheduler(b, {}), std::invalid_argument);
}

TEST(Exhaustive, ALostReplyUnderCommandRetriesCountsTheAcquireTwice) {
  // Redisson resends a command whose reply timed out: the acquire script runs twice and the hold
  // is counted twice (a real hazard of retry_attempts on a non-idempotent script).
  const scenario::Scenario s = load(kDir + "rlock-late-trylock.yaml");
  ExhaustiveOptions o = options_for(s);
  o.bounds.lost_max = 1;
  o.bounds.slow_max = 0;
  const ExhaustiveResult r = search_exhaustive(s, o);
  ASSERT_TRUE(r.counterexample);
  EXPECT_EQ(r.counterexample->property, "reentrancy");
  EXPECT_EQ(r.counterexample->cost, 1);
}

// The reduction leaves out only orders of events that commute: on each small world the reduced
// search finds a counterexample exactly when the full one does (the same property, no more
// deviations), explores no more schedules, and holds where it holds.
TEST(Exhaustive, TheReductionNeverHidesACounterexample) {
  const scenario::Scenario s = load(kDir + "rlock-late-trylock.yaml");
  std::vector<std::pair<std::string, ExhaustiveOptions>> worlds;
  const auto add = [&](std::string name, auto change) {
    ExhaustiveOptions o = options_for(s);
    change(o.bounds);
    worlds.emplace_back(std::move(name), o);
  };
  add("no faults", [](world::ScheduleBounds&) {});
  add("a crash", [](world::ScheduleBounds& b) { b.faults = {budget(world::FaultKind::Crash)}; });
  add("a 15 s pause", [](world::ScheduleBounds& b) { b.faults = {budget(world::FaultKind::Pause, 15000)}; });
  add("a 40 s pause of A", [](world::ScheduleBounds& b) { b.faults = {budget(world::FaultKind::Pause, 40000, "A")}; });
  add("a lost message", [](world::ScheduleBounds& b) {
    b.lost_max = 1;
    b.slow_max = 0;
  });
#ifndef LOCKSIM_SANITIZED  // several seconds here: many minutes under the sanitizers
  add("a crash and a pause", [](world::ScheduleBounds& b) {
    b.slow_max = 0;
    b.faults = {budget(world::FaultKind::Crash), budget(world::FaultKind::Pause, 40000)};
  });
  constexpr int kCounterexamples = 3;  // the long pause, the lost reply, the crash-and-pause world
#else
  constexpr int kCounterexamples = 2;
#endif
  int counterexamples = 0;
  for (auto& [name, reduced] : worlds) {
    // The unreduced tree in one pass (each schedule once), and by deviations only where it has a
    // counterexample, to compare the shortest ones.
    ExhaustiveOptions full = reduced;
    full.bounds.reduce = false;
    full.shortest = reduced.shortest = false;
    ExhaustiveResult a = search_exhaustive(s, full);
    ExhaustiveResult b = search_exhaustive(s, reduced);
    if (a.counterexample) {
      full.shortest = reduced.shortest = true;
      a = search_exhaustive(s, full);
      b = search_exhaustive(s, reduced);
    }
    ASSERT_TRUE(a.complete || a.counterexample) << name;
    EXPECT_EQ(a.counterexample.has_value(), b.counterexample.has_value()) << name;
    if (a.counterexample && b.counterexample) {
      ++counterexamples;
      EXPECT_EQ(a.counterexample->property, b.counterexample->property) << name;
      EXPECT_LE(b.counterexample->cost, a.counterexample->cost) << name;
    } else {
      EXPECT_TRUE(b.complete) << name;
      EXPECT_LE(b.schedules, a.schedules) << name;
    }
  }
  EXPECT_EQ(counterexamples, kCounterexamples);
}

TEST(Exhaustive, ShardsAddUpToOneSearch) {
  const scenario::Scenario s = load(kDir + "rlock-late-trylock.yaml");
  ExhaustiveOptions o = options_for(s);
  o.bounds.faults = {budget(world::FaultKind::Crash)};
  const ExhaustiveResult whole = search_exhaustive(s, o);
  uint64_t schedules = 0, states = 0, pruned = 0;
  for (int i = 0; i < 3; ++i) {
    ExhaustiveOptions part = o;
    part.shard = i;
    part.shards = 3;
    const ExhaustiveResult r = search_exhaustive(s, part);
    EXPECT_TRUE(r.complete);
    schedules += r.schedules;
    states += r.states;
    pruned += r.pruned;
  }
  EXPECT_EQ(schedules, whole.schedules);
  EXPECT_EQ(states, whole.states);
  EXPECT_EQ(pruned, whole.pruned);
}

// A renewal answered NOSCRIPT is sent again in full: the same request, stamped with its first send.
// Here the first send left while A was unlocking and the resend after its unlock came back, just
// before A locked again; judged by the resend's time it was "revived-after-unlock", a false
// violation the exhaustive search found at 2 deviations (rlock-2x2, --slow-max 0).
TEST(Exhaustive, ARenewalResentAfterNoscriptKeepsItsFirstSend) {
  const scenario::ScenarioResult r = scenario::run_scenario_file(kDir + "renewal-resent-after-noscript.yaml");
  ASSERT_FALSE(r.error) << *r.error;
  // The premise: a renewal that succeeded was sent before A's unlock came back and ran after it.
  int64_t unlocked_at = -1;
  bool resent_across_unlock = false;
  for (const model::Event& e : r.history.events()) {
    if (e.kind == model::EventKind::Ok && e.process == "A" && e.f == "unlock" && unlocked_at < 0) unlocked_at = e.at_ms;
    if (e.kind == model::EventKind::Exec && e.f == "renew" && e.reply == "1" && unlocked_at >= 0 && e.sent_ms < unlocked_at)
      resent_across_unlock = true;
  }
  EXPECT_TRUE(resent_across_unlock) << "the schedule no longer resends a renewal across A's unlock";
  ASSERT_EQ(r.properties.size(), 1u);
  EXPECT_EQ(r.properties[0].verdict.valid, model::Validity::Yes) << r.properties[0].verdict.explanation;
}

// One schedule that breaks an expected violation and a claim the file makes too: the claim that
// failed unexpectedly is the counterexample. Taking the first violated property, as before, called
// the search "as expected" (exit 0) while its own counterexample failed the file's pin on replay.
TEST(Exhaustive, AnExpectedViolationDoesNotHideAnUnexpectedOne) {
  const scenario::Scenario s = load(kDir + "pin-and-expected-violation.yaml");
  const ExhaustiveResult r = search_exhaustive(s, options_for(s));
  ASSERT_NO_FATAL_FAILURE(expect_pin_counterexample(r, "ok"));
  EXPECT_TRUE(violated(r.counterexample->run, "mutual_exclusion"));  // the same schedule breaks both
}

// The shards split the tree by its size, not by its first choices: the split at the first three
// choices gave this world's three shards 46 / 342 / 3 of its then 391 schedules (245 since 3.36.0
// sends its scripts as EVAL, without NOSCRIPT round trips).
TEST(Exhaustive, ShardsAreAlikeInSize) {
  const scenario::Scenario s = load(kDir + "rlock-late-trylock.yaml");
  ExhaustiveOptions o = options_for(s);
  o.bounds.faults = {budget(world::FaultKind::Crash)};
  uint64_t total = 0;
  std::vector<uint64_t> parts;
  for (int i = 0; i < 3; ++i) {
    ExhaustiveOptions part = o;
    part.shard = i;
    part.shards = 3;
    parts.push_back(search_exhaustive(s, part).schedules);
    total += parts.back();
  }
  ASSERT_EQ(total, 245u);
  for (const uint64_t n : parts) EXPECT_GE(n, total / 4) << n << " of " << total;
}

// The progress line's estimate of how much of a level is done, sampled after every run, against
// the part of that level's runs really behind it once the level is over: the estimate that weighed
// every option alike read under 2% for most of a level and then jumped.
TEST(Exhaustive, TheProgressEstimateFollowsTheSearch) {
  const scenario::Scenario s = load(kDir + "rlock-late-trylock.yaml");
  ExhaustiveOptions o = options_for(s);
  o.bounds.faults = {budget(world::FaultKind::Crash)};
  o.progress_every = 0;
  std::vector<ExhaustiveProgress> samples;
  o.progress = [&](const ExhaustiveProgress& p) { samples.push_back(p); };
  const ExhaustiveResult r = search_exhaustive(s, o);
  ASSERT_TRUE(r.complete);
  ASSERT_EQ(r.level, 2);
  // The last level's samples, and the runs it took.
  std::vector<ExhaustiveProgress> last;
  for (const auto& p : samples)
    if (p.level == r.level) last.push_back(p);
  ASSERT_GT(last.size(), 50u);
  const double first = static_cast<double>(last.front().runs) - 1, runs = static_cast<double>(r.runs) - first;
  double error = 0;
  for (const auto& p : last) {
    EXPECT_GE(p.level_done, 0.0);
    EXPECT_LE(p.level_done, 1.0);
    error += std::abs(p.level_done - (static_cast<double>(p.runs) - first) / runs);
  }
  EXPECT_LT(error / static_cast<double>(last.size()), 0.15);
}

TEST(Exhaustive, LimitsStopTheSearchAndSaySo) {
  const scenario::Scenario s = load(kDir + "rlock-late-trylock.yaml");
  ExhaustiveOptions o = options_for(s);
  o.bounds.faults = {budget(world::FaultKind::Crash)};
  o.max_schedules = 50;
  const ExhaustiveResult r = search_exhaustive(s, o);
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(r.stopped, "max-schedules");
  EXPECT_EQ(r.schedules, 50u);
  o.max_schedules = 0;
  o.stop = [] { return true; };
  EXPECT_EQ(search_exhaustive(s, o).stopped, "interrupted");
}

// FairLock, Redisson 3.11.1-3.31 scripts: a pause of the holder that stretches its hold past the
// lease plus threadWaitTime strands both waiters (they never get the lock); 3.32 on, within the
// same bounds, every schedule lets both in.
TEST(Exhaustive, TheFairLockNegativeTtlHangIsFoundAndFixedIn332) {
  const scenario::Scenario old_era = load(kExamples + "fair-2-waiters-3.13.yaml");
  const ExhaustiveResult r = search_exhaustive(old_era, options_for(old_era));
  ASSERT_NO_FATAL_FAILURE(expect_pin_counterexample(r, "missing"));
  EXPECT_EQ(r.counterexample->cost, 1);
#ifndef LOCKSIM_SANITIZED
  const scenario::Scenario fixed = load(kExamples + "fair-2-waiters-3.32.yaml");
  const ExhaustiveResult f = search_exhaustive(fixed, options_for(fixed));
  EXPECT_TRUE(f.complete);
  EXPECT_FALSE(f.counterexample) << f.counterexample->property;
#endif
}

TEST(Exhaustive, AClientsClockOffsetIsAChoiceAndFindsFairLocksClockSkewInversion) {
  // fair-clock-skew.yaml's story, with every clock right in the file: the search sets one ahead.
  const scenario::Scenario s = load(kDir + "fair-clock-offsets.yaml");
  const ExhaustiveResult r = search_exhaustive(s, options_for(s));
  ASSERT_FALSE(r.error) << *r.error;
  EXPECT_EQ(r.default_points[static_cast<size_t>(world::ChoiceKind::Clock)], 3u);  // one per client
  ASSERT_TRUE(r.counterexample);
  const Counterexample& c = *r.counterexample;
  EXPECT_EQ(c.property, "fair_queue");
  EXPECT_EQ(c.cost, 1);
  std::vector<std::string> deviations;
  for (const auto& rec : c.records)
    if (rec.taken != 0) {
      EXPECT_EQ(rec.kind, world::ChoiceKind::Clock);
      deviations.push_back(rec.what);
    }
  ASSERT_EQ(deviations.size(), 1u);
  EXPECT_TRUE(deviations[0].ends_with("'s clock set 40000 ms ahead")) << deviations[0];
  // Its file replays it: the clock offset is in its choices.
  const scenario::ScenarioResult replay = replayed(c.scenario, "fair-clock-offsets-counterexample.yaml");
  ASSERT_FALSE(replay.error) << *replay.error;
  EXPECT_TRUE(violated(replay, "fair_queue"));

  // Each client's clock is its own choice point, and only a deviation is told: B's clock ahead
  // (the second of three) reads as B's, whatever the clocks after it chose.
  world::ChoiceScheduler chooser(*s.bounded, {0, 1, 0});
  scenario::Backend backend;
  backend.scheduler = &chooser;
  const scenario::ScenarioResult b_ahead = scenario::run_scenario(s, backend);
  ASSERT_FALSE(b_ahead.error) << *b_ahead.error;
  std::vector<std::string> told;
  for (const auto& rec : chooser.choices())
    if (rec.kind == world::ChoiceKind::Clock) told.push_back(rec.what);
  EXPECT_EQ(told, (std::vector<std::string>{"", "B's clock set 40000 ms ahead", ""}));

  // With every clock as the file gives it, the same world holds for every schedule: the clock
  // choice is what finds it.
  ExhaustiveOptions right = options_for(s);
  right.bounds.clock_offsets.clear();
  const ExhaustiveResult held = search_exhaustive(s, right);
  EXPECT_TRUE(held.complete);
  EXPECT_FALSE(held.counterexample) << held.counterexample->property;
}

TEST(Exhaustive, ACrashRightAfterSendingAnAcquireIsNotStarvation) {
  // Found by the search: the replayed schedule must keep every verdict (liveness included).
  const scenario::ScenarioResult r = scenario::run_scenario_file(kDir + "liveness-crash-right-after-send.yaml");
  ASSERT_FALSE(r.error) << *r.error;
  ASSERT_FALSE(r.properties.empty());
  for (const auto& p : r.properties) EXPECT_TRUE(p.passed) << p.property << ": " << p.verdict.explanation;
  // The story it pins: A's acquire, sent in the millisecond A crashed, runs after the crash (a
  // schedule that drifted from it would pin nothing).
  int64_t crash_index = -1, crash_ms = -1;
  for (const auto& e : r.history.events())
    if (e.kind == model::EventKind::Fault && e.f == "crash" && e.process == "A") crash_index = e.index, crash_ms = e.at_ms;
  ASSERT_GE(crash_index, 0);
  bool sent_then_run_after = false;
  for (const auto& e : r.history.events())
    sent_then_run_after = sent_then_run_after || (e.kind == model::EventKind::Exec && e.client == "A" && e.f == "acquire" &&
                                                  e.sent_ms == crash_ms && e.index > crash_index);
  EXPECT_TRUE(sent_then_run_after);
}

}  // namespace
}  // namespace locksim::explore
