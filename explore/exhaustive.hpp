#pragma once
// Bounded-exhaustive checking: every schedule of a scenario within its bounds (world/choice_scheduler.hpp:
// the latencies a message may take, messages lost, faults placed before a client's or server's
// events, the order of same-time events), run on the simulated servers and judged, or the shortest
// counterexample: the one with the fewest deviations from the default schedule.
//
// Stateless search: each schedule re-runs the scenario from the start with its list of choices,
// depth-first, by iterative deepening on the number of deviations (level d runs every schedule with
// at most d of them, and judges those with exactly d), so the first counterexample found is a
// shortest one. It ends when a level withheld no option for want of deviations (every schedule
// within the bounds has run), at a counterexample, or at a limit.
//
// Pruning, and why it is sound: (1) partial-order reduction: of the events due at one instant only
// those dependent on the first one are reordered (world::dependent): the others commute; (2) a
// latency that lands a message where another latency already does (behind the message before it on
// a FIFO link) is not an option; (3) a fault is placed only just before an event of the client or
// server it falls on, and not before a crashed client's leftovers. There is no state caching yet:
// every prefix is a distinct state (World::describe fingerprints a state; the search does not use
// it yet, docs/exhaustive.md).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "scenario/runner.hpp"
#include "world/choice_scheduler.hpp"

namespace locksim::explore {

struct ExhaustiveProgress {
  int level = 0;             // deviations allowed in the level being run
  uint64_t schedules = 0;    // schedules with exactly `level` deviations judged so far in it
  uint64_t runs = 0;         // every run so far, all levels
  uint64_t frontier = 0;     // choice-point options on the current path not yet tried
  double level_done = 0;     // the part of the level's tree behind the search (an estimate from the path)
  double seconds = 0;        // since the search began
  double level_seconds = 0;  // since the level began
};

struct ExhaustiveOptions {
  world::ScheduleBounds bounds;  // cost_max is the search's own (its level)
  // PROPERTY -> holds | violated: searched for a violation; a violation of one expected `violated`
  // is the counterexample looked for. The scenario's expect.ops pins are held to every schedule too.
  std::vector<std::pair<std::string, std::string>> properties;
  uint64_t max_schedules = 0;  // 0: no limit (schedules judged, all levels)
  double max_seconds = 0;      // 0: no limit
  // This run takes shard `shard` of `shards`: the subtrees of the first deviations dealt to it
  // (round-robin along the default path), and the default schedule when it is shard 0.
  int shard = 0, shards = 1;
  // Iterative deepening, so that the first counterexample is a shortest one. Without it, one
  // depth-first pass over every schedule, each run once (several times faster where same-time
  // orders make many levels), and the first counterexample found is not necessarily the shortest.
  bool shortest = true;
  std::function<void(const ExhaustiveProgress&)> progress;  // every `progress_every` seconds, between runs
  double progress_every = 1;
  std::function<bool()> stop;                               // polled between runs (Ctrl-C)
};

struct Counterexample {
  std::string property;  // or "ops": an outcome the file pins (expect.ops) came out otherwise
  std::optional<scenario::OpPinResult> pin;
  std::vector<uint32_t> choices;  // the schedule (trailing defaults left out)
  std::vector<world::ChoiceRecord> records;
  int cost = 0;                   // its deviations
  scenario::Scenario scenario;    // the scenario with `bounded.choices` set: `locksim run` replays it
  scenario::ScenarioResult run;   // its run, judged
};

struct ExhaustiveResult {
  uint64_t schedules = 0;  // distinct schedules run and judged (this shard's), each at its own level
  uint64_t runs = 0;       // scenario runs, repeats of shallower levels and shard discovery included
  // The deepest completed level's tree has `leaves` schedules; as many were judged by its end over
  // all levels (each schedule once, at the level of its own deviations), unless a schedule did not
  // run the same way at two levels: the search's own invariant, reported, not assumed.
  uint64_t leaves = 0;
  uint64_t judged_at_level_end = 0;
  // These three: of that level's tree; of the level being searched, so far, when the search ended early.
  uint64_t states = 0;     // choice points (distinct prefixes)
  uint64_t pruned = 0;     // same-time orders left out by the reduction in it
  uint64_t cut = 0;        // schedules that reached the depth bound (later choices defaulted)
  int level = -1;          // every schedule with at most this many deviations was run (-1: none fully, or not shortest)
  bool complete = false;   // every schedule within the bounds was run
  std::string stopped;     // why it ended early: "max-schedules", "max-seconds", "interrupted"
  double seconds = 0;
  // The default schedule's choice points, by kind (world::ChoiceKind order), as the unbounded
  // level sees them: how wide the tree is at its root path.
  std::vector<uint64_t> default_points = std::vector<uint64_t>(world::kChoiceKinds, 0);
  // Per property: schedules whose verdict was unknown because it could not be told, and schedules
  // that had none of its inputs (anomaly::kNothingToJudge: nobody queued, no write...), which hold
  // it vacuously and are counted apart so that "holds" says how many schedules tested it.
  std::vector<uint64_t> unknown;
  std::vector<uint64_t> nothing_to_judge;
  std::optional<Counterexample> counterexample;
  std::optional<std::string> error;  // a run stopped (its choices in error_choices)
  std::vector<uint32_t> error_choices;
};

// Random schedules of the same bounded world (every choice drawn uniformly, seeds 1..max): what
// random exploration of it would find, for comparison. The first seed whose schedule has what the
// enumeration takes for a counterexample (0: none): a property violated, else a pinned outcome not
// met ("ops"); with the runs and seconds it took.
struct RandomSearchResult {
  uint64_t seed = 0;
  uint64_t runs = 0;
  double seconds = 0;
  std::string property;
  std::string stopped;  // "" ran as far as it was to; "interrupted" (options.stop), "max-seconds"
};
// Up to `max_runs` random schedules, stopping at the first violation, when options.stop says so, or
// after `max_seconds` (0: no limit).
RandomSearchResult search_random(const scenario::Scenario& scenario, const ExhaustiveOptions& options, uint64_t max_runs,
                                 double max_seconds = 0);

// Throws std::invalid_argument for bounds or options that cannot run.
ExhaustiveResult search_exhaustive(const scenario::Scenario& scenario, const ExhaustiveOptions& options);

// The result as one JSON object: the totals, which shards of one search add up to, `search`, what
// was searched (scenario, bounds, properties), by which merging knows the shards of one search, and
// `expect`, what each property was expected to show.
std::string exhaustive_json(const ExhaustiveResult& result, const ExhaustiveOptions& options, const std::string& search);

}  // namespace locksim::explore
