#include "explore/exhaustive.hpp"

#include <chrono>
#include <stdexcept>

#include <nlohmann/json.hpp>


namespace locksim::explore {
namespace {

using Clock = std::chrono::steady_clock;

// Which shard a schedule belongs to: its first `depth` choices, hashed (FNV-1a). Every shard runs
// the same tree above that depth, so the shards together cover each schedule exactly once.
int owner(const std::vector<uint32_t>& taken, size_t depth, int shards) {
  if (shards <= 1) return 0;
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < std::min(depth, taken.size()); ++i) h = (h ^ (taken[i] + 1)) * 1099511628211ULL;
  return static_cast<int>(h % static_cast<uint64_t>(shards));
}

std::vector<uint32_t> taken_of(const std::vector<world::ChoiceRecord>& records) {
  std::vector<uint32_t> out;
  out.reserve(records.size());
  for (const auto& r : records) out.push_back(r.taken);
  return out;
}

// The next schedule depth-first after the one that made `records`: the deepest choice point with an
// option left, taken one further; nullopt when the tree is done. `skip_below`: choice points from
// this depth on are not revisited (a subtree of another shard).
std::optional<std::vector<uint32_t>> next_prefix(const std::vector<world::ChoiceRecord>& records, size_t skip_below) {
  for (size_t i = records.size(); i-- > 0;) {
    if (i >= skip_below) continue;
    if (records[i].taken + 1 < records[i].options) {
      std::vector<uint32_t> prefix;
      for (size_t j = 0; j < i; ++j) prefix.push_back(records[j].taken);
      prefix.push_back(records[i].taken + 1);
      return prefix;
    }
  }
  return std::nullopt;
}

// How much of the tree lies behind the path `records`, if every node of a depth had as many options.
double done_fraction(const std::vector<world::ChoiceRecord>& records) {
  double done = 0, weight = 1;
  for (const auto& r : records) {
    weight /= r.options;
    done += weight * r.taken;
  }
  return done;
}

uint64_t frontier_of(const std::vector<world::ChoiceRecord>& records) {
  uint64_t n = 0;
  for (const auto& r : records) n += r.options - r.taken - 1;
  return n;
}

// One schedule of `s`: its chances taken from `chooser`.
scenario::ScenarioResult run_schedule(const scenario::Scenario& s, world::ChoiceScheduler& chooser) {
  scenario::Backend backend;
  backend.scheduler = &chooser;
  return scenario::run_scenario(s, backend);
}

}  // namespace

ExhaustiveResult search_exhaustive(const scenario::Scenario& scenario, const ExhaustiveOptions& o) {
  if (o.shards < 1 || o.shard < 0 || o.shard >= o.shards)
    throw std::invalid_argument("--shard I/N needs 0 <= I < N, not " + std::to_string(o.shard) + "/" + std::to_string(o.shards));
  if (o.properties.empty()) throw std::invalid_argument("a bounded search needs at least one property to judge");
  world::ChoiceScheduler(o.bounds, {});  // refuses bounds that cannot run

  scenario::Scenario s = scenario;
  s.expect = o.properties;
  // Every schedule runs the same script text, read once (the caller's reading, when it gave one).
  if (!s.world.script_texts) s.world.script_texts = std::make_shared<client::ScriptTexts>();
  s.bounded = o.bounds;
  s.choices.clear();
  const size_t m = static_cast<size_t>(std::max(o.shard_depth, 0));

  ExhaustiveResult result;
  result.unknown.assign(o.properties.size(), 0);
  const auto started = Clock::now();
  auto last_report = started;
  const auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - started).count(); };
  uint64_t judged = 0;
  {
    world::ChoiceScheduler chooser(o.bounds, {});
    run_schedule(s, chooser);
    ++result.runs;
    for (const auto& r : chooser.choices()) ++result.default_points[static_cast<size_t>(r.kind)];
  }

  for (int level = 0;; ++level) {
    world::ScheduleBounds bounds = o.bounds;
    // Without `shortest`, one level with no cap on deviations: each schedule runs once.
    bounds.cost_max = o.shortest ? level : -1;
    uint64_t leaves = 0, states = 0, pruned = 0, cut = 0, level_judged = 0;
    bool capped = false;
    std::optional<std::vector<uint32_t>> prefix = std::vector<uint32_t>{};
    // A search that ends within a level (a limit, a counterexample, an error) says what that
    // level had covered so far; one that ends before the level ran anything, what the last level
    // it finished covered.
    uint64_t level_runs = 0;
    const auto ended_early = [&]() -> ExhaustiveResult& {
      result.schedules = judged;
      if (level_runs > 0) {
        result.states = states;
        result.pruned = pruned;
        result.cut = cut;
      }
      result.seconds = elapsed();
      return result;
    };
    while (prefix) {
      if (o.stop && o.stop()) result.stopped = "interrupted";
      else if (o.max_seconds > 0 && elapsed() >= o.max_seconds) result.stopped = "max-seconds";
      else if (o.max_schedules > 0 && judged >= o.max_schedules) result.stopped = "max-schedules";
      if (!result.stopped.empty()) return ended_early();
      world::ChoiceScheduler chooser(bounds, *prefix);
      scenario::ScenarioResult run = run_schedule(s, chooser);
      ++result.runs;
      ++level_runs;
      const auto& records = chooser.choices();
      const std::vector<uint32_t> taken = taken_of(records);
      const bool owned = owner(taken, m, o.shards) == o.shard;
      capped = capped || chooser.capped();
      // The nodes this run reached first: those past the prefix it was given.
      const size_t fresh_from = prefix->size();
      const auto counted = [&](size_t depth) { return depth >= fresh_from && (depth < m ? o.shard == 0 : owned); };
      for (size_t j = 0; j < records.size(); ++j)
        if (counted(j)) {
          ++states;
          pruned += records[j].pruned;
        }
      for (const auto& [depth, n] : chooser.silent_prunes())
        if (counted(depth)) pruned += n;
      if (owned) {
        ++leaves;
        if (chooser.cut()) ++cut;
      }
      // A schedule with fewer deviations ran, and was judged, at a shallower level.
      if (owned && (!o.shortest || chooser.cost() == level)) {
        ++judged;
        ++level_judged;
        if (run.error) {
          result.error = *run.error;
          result.error_choices = chooser.taken();
          return ended_early();
        }
        const auto counterexample = [&](std::string property, std::optional<scenario::OpPinResult> pin) {
          Counterexample c;
          c.property = std::move(property);
          c.pin = std::move(pin);
          c.choices = chooser.taken();
          c.records = records;
          c.cost = chooser.cost();
          c.scenario = s;
          c.scenario.choices = c.choices;
          c.scenario.deviations = chooser.deviations();
          c.run = std::move(run);
          result.counterexample = std::move(c);
        };
        for (size_t i = 0; i < run.properties.size(); ++i) {
          const auto& p = run.properties[i];
          if (p.verdict.valid == model::Validity::Unknown) ++result.unknown[i];
          if (p.verdict.valid == model::Validity::No) {
            counterexample(p.property, std::nullopt);  // moves the run out: nothing of it is read after
            break;
          }
        }
        // The file's pinned outcomes are claims about every schedule too.
        if (!result.counterexample)
          for (const auto& pin : run.pins)
            if (!pin.passed) {
              counterexample("ops", pin);
              break;
            }
        if (result.counterexample) return ended_early();
      }
      if (o.progress && Clock::now() - last_report >= std::chrono::seconds(1)) {
        last_report = Clock::now();
        o.progress({level, level_judged, result.runs, frontier_of(records), done_fraction(records), elapsed()});
      }
      prefix = next_prefix(records, owned ? records.size() : m);
    }
    result.level = level;
    result.schedules = judged;
    // Each schedule is judged once, at the level of its own deviations: the deepest level's tree
    // has as many leaves as were judged in all levels. Said, not asserted: a difference means a
    // run did not repeat itself (the search's own invariant), which the user must know.
    result.leaves = leaves;
    result.judged_at_level_end = judged;
    result.states = states;
    result.pruned = pruned;
    result.cut = cut;
    if (!o.shortest) result.level = -1;
    if (!capped) {
      result.complete = true;
      result.seconds = elapsed();
      return result;
    }
  }
}

RandomSearchResult search_random(const scenario::Scenario& scenario, const ExhaustiveOptions& o, uint64_t max_runs,
                                 double max_seconds) {
  scenario::Scenario s = scenario;
  s.expect = o.properties;
  // Every schedule runs the same script text, read once (the caller's reading, when it gave one).
  if (!s.world.script_texts) s.world.script_texts = std::make_shared<client::ScriptTexts>();
  RandomSearchResult result;
  const auto started = Clock::now();
  for (uint64_t seed = 1; seed <= max_runs; ++seed) {
    if (o.stop && o.stop()) result.stopped = "interrupted";
    else if (max_seconds > 0 && std::chrono::duration<double>(Clock::now() - started).count() >= max_seconds)
      result.stopped = "max-seconds";
    if (!result.stopped.empty()) break;
    world::ChoiceScheduler chooser(o.bounds, {});
    chooser.draw_past_list(seed);
    const scenario::ScenarioResult run = run_schedule(s, chooser);
    ++result.runs;
    // What the enumeration takes for a counterexample: a property violated, else a pinned outcome
    // that did not come out.
    for (const auto& p : run.properties)
      if (p.verdict.valid == model::Validity::No) {
        result.seed = seed;
        result.property = p.property;
        break;
      }
    if (result.seed == 0)
      for (const auto& pin : run.pins)
        if (!pin.passed) {
          result.seed = seed;
          result.property = "ops";
          break;
        }
    if (result.seed != 0) break;
  }
  result.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return result;
}

std::string exhaustive_json(const ExhaustiveResult& r, const ExhaustiveOptions& o, const std::string& search) {
  nlohmann::ordered_json j = {{"search", search}, {"shard", o.shard},   {"shards", o.shards}, {"schedules", r.schedules},
                              {"runs", r.runs},     {"states", r.states}, {"pruned", r.pruned},
                              {"cut", r.cut},       {"level", r.level},   {"complete", r.complete},
                              {"stopped", r.stopped}, {"seconds", r.seconds}, {"counterexample", nullptr}};
  // What each property was expected to show, so that a merge says what a single search would.
  j["expect"] = nlohmann::ordered_json::object();
  for (const auto& [name, value] : o.properties) j["expect"][name] = value;
  // Per property, the schedules whose verdict was unknown: a search with any is not a "holds".
  j["unknown"] = nlohmann::ordered_json::object();
  for (size_t i = 0; i < o.properties.size() && i < r.unknown.size(); ++i) j["unknown"][o.properties[i].first] = r.unknown[i];
  if (r.counterexample)
    j["counterexample"] = {{"property", r.counterexample->property},
                           {"cost", r.counterexample->cost},
                           {"choices", r.counterexample->choices}};
  return j.dump();
}

}  // namespace locksim::explore
