#include "explore/exhaustive.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "model/anomaly.hpp"

namespace locksim::explore {
namespace {

using Clock = std::chrono::steady_clock;

// Which shard a schedule belongs to. A bounded search's tree hangs off its default path: a subtree
// per first deviation, each of them a subtree per second deviation, and so on, neighbours alike in
// size. A schedule's first kSplit deviations are its key: each deviation is numbered in the order
// of its path since the deviation before it (choice point by choice point, option by option), and
// the schedule belongs to the shard the sum of the numbers comes to, modulo the shards. So each
// first deviation's subtree is dealt out round-robin in its turn. The schedules with fewer
// deviations than that are every shard's to run (to find where the subtrees begin; shard 0 counts
// their choice points) and their own key's to judge. Splitting at the first three choices, as
// before, left almost the whole tree in one shard (fair-2-waiters-3.32: 7 / 1,900 / 2).
class Sharding {
 public:
  static constexpr int kSplit = 2;

  Sharding(int shard, int shards) : shard_(static_cast<uint64_t>(shard)), shards_(static_cast<uint64_t>(shards)) {}

  // Reads the path `records`: for each choice point up to its kSplit-th deviation, the deviations
  // before it and the number its option 1 would have.
  void read(const std::vector<world::ChoiceRecord>& records) {
    before_.clear();
    base_.clear();
    split_at_ = records.size();
    int deviations = 0;
    uint64_t sum = 0, since = 0;
    for (size_t i = 0; i < records.size(); ++i) {
      before_.push_back(deviations);
      base_.push_back(sum + since);
      if (records[i].taken == 0) {
        since += records[i].options - 1;
        continue;
      }
      sum += since + records[i].taken - 1;
      since = 0;
      if (++deviations == kSplit) {
        split_at_ = i;
        break;
      }
    }
    owner_ = sum % shards_;
  }
  // Whether this shard judges the schedule read.
  bool owns_path() const { return owner_ == shard_; }
  // Whether a choice point at `depth` of the path read is this shard's to count: one with fewer
  // than kSplit deviations before it is every shard's (shard 0 counts it), one past them the
  // path's owner's.
  bool counts(size_t depth) const { return depth <= split_at_ ? shard_ == 0 : owns_path(); }
  // Whether taking `option` at choice point `i` of the path read leads to schedules this shard
  // runs: it does unless the option is a kSplit-th deviation another shard owns.
  bool runs(size_t i, uint32_t option) const {
    if (i > split_at_ || before_[i] != kSplit - 1) return true;
    return (base_[i] + option - 1) % shards_ == shard_;
  }

 private:
  uint64_t shard_, shards_;
  std::vector<int> before_;       // per choice point up to the split: the deviations before it
  std::vector<uint64_t> base_;    // and the number its option 1 would have
  size_t split_at_ = 0;           // the kSplit-th deviation's choice point (records.size(): none)
  uint64_t owner_ = 0;
};

// The next schedule depth-first after the one that made `records` (read by `sharding`): the deepest
// choice point with an option left that this shard runs, taken; nullopt when the tree is done.
// Another shard's subtree is skipped where it begins.
std::optional<std::vector<uint32_t>> next_prefix(const std::vector<world::ChoiceRecord>& records, const Sharding& sharding) {
  for (size_t i = records.size(); i-- > 0;) {
    uint32_t option = records[i].taken + 1;
    while (option < records[i].options && !sharding.runs(i, option)) ++option;
    if (option < records[i].options) {
      std::vector<uint32_t> prefix;
      prefix.reserve(i + 1);
      for (size_t j = 0; j < i; ++j) prefix.push_back(records[j].taken);
      prefix.push_back(option);
      return prefix;
    }
  }
  return std::nullopt;
}

// How much of the level's tree lies behind the path `records`, estimated from the path itself. At
// each choice point the options are weighed by the schedules under them, as if the tree below were
// `depth` choice points deep with the path's mean number of options: the default option leaves the
// deviations still allowed (`budget`, -1 for no bound), any other one deviation fewer. With a
// bound, the default's subtree is by far the largest (most of the tree deviates later), so counting
// every option alike (as before) said 0% until the search was nearly done.
double done_fraction(const std::vector<world::ChoiceRecord>& records, int budget, size_t depth) {
  if (records.empty()) return 0;
  double extra = 0;  // mean options past the default
  for (const auto& r : records) extra += r.options - 1;
  extra /= static_cast<double>(records.size());
  const double log_extra = std::log(extra);
  depth = std::max(depth, records.size());
  // The schedules under a subtree `n` choice points deep with at most `b` deviations, as a log:
  // sum over k <= b of C(n, k) * extra^k.
  const auto log_schedules = [&](size_t n, int b) {
    const size_t top = std::min<size_t>(n, static_cast<size_t>(b));
    std::vector<double> terms;
    terms.reserve(top + 1);
    for (size_t k = 0; k <= top; ++k)
      terms.push_back(std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0) + k * log_extra);
    const double most = *std::max_element(terms.begin(), terms.end());
    double sum = 0;
    for (const double t : terms) sum += std::exp(t - most);
    return most + std::log(sum);
  };
  double done = 0, share = 1;
  int left = budget;
  for (size_t j = 0; j < records.size(); ++j) {
    const auto& r = records[j];
    const size_t below = depth - j - 1;
    // A deviating option's subtree against the default's.
    const double ratio = left < 0 ? 1.0 : left == 0 ? 0.0 : std::exp(log_schedules(below, left - 1) - log_schedules(below, left));
    const double total = 1 + (r.options - 1) * ratio;
    if (r.taken > 0) done += share * (1 + (r.taken - 1) * ratio) / total;
    share *= (r.taken == 0 ? 1.0 : ratio) / total;
    if (r.taken != 0 && left > 0) --left;
  }
  return done;
}

uint64_t frontier_of(const std::vector<world::ChoiceRecord>& records) {
  uint64_t n = 0;
  for (const auto& r : records) n += r.options - r.taken - 1;
  return n;
}

// What one schedule's run counts as a counterexample, if anything: the claim it broke that matters
// most. What nobody expected comes first (a property expected to hold, then an outcome the file
// pins), so that an expected violation never hides it; then the violation the file looks for.
struct Broken {
  std::string property;  // or "ops"
  const scenario::OpPinResult* pin = nullptr;
};
std::optional<Broken> broken_claim(const scenario::ScenarioResult& run) {
  const scenario::PropertyResult* expected = nullptr;
  for (const auto& p : run.properties) {
    if (p.verdict.valid != model::Validity::No) continue;
    if (p.expected != "violated") return Broken{p.property};
    if (!expected) expected = &p;
  }
  for (const auto& pin : run.pins)
    if (!pin.passed) return Broken{"ops", &pin};
  if (expected) return Broken{expected->property};
  return std::nullopt;
}

// One schedule of `s`: its chances taken from `chooser`.
scenario::ScenarioResult run_schedule(const scenario::Scenario& s, world::ChoiceScheduler& chooser) {
  scenario::Backend backend;
  backend.scheduler = &chooser;
  return scenario::run_scenario(s, backend);
}

// One level's run so far: the schedules it reached, and what its tree held.
struct LevelCounts {
  uint64_t leaves = 0, states = 0, pruned = 0, cut = 0, judged = 0;
  uint64_t runs = 0;         // none yet: a search ending now says what the last level finished covered
  size_t default_depth = 0;  // choice points on this level's default path (its first run)
  bool capped = false;       // an option withheld for want of deviations: the next level has more
};

// One search, level by level (a single level without `shortest`), schedule by schedule.
class Search {
 public:
  Search(const scenario::Scenario& scenario, const ExhaustiveOptions& o)
      : o_(o), s_(scenario), sharding_(o.shard, o.shards) {
    s_.expect = o.properties;
    // Every schedule runs the same script text, read once (the caller's reading, when it gave one).
    if (!s_.world.script_texts) s_.world.script_texts = std::make_shared<client::ScriptTexts>();
    s_.bounded = o.bounds;
    s_.choices.clear();
    result_.unknown.assign(o.properties.size(), 0);
    result_.nothing_to_judge.assign(o.properties.size(), 0);
  }

  ExhaustiveResult run() {
    count_default_points();
    for (int level = 0;; ++level)
      if (run_level(level)) return std::move(result_);
  }

 private:
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - started_).count(); }

  void count_default_points() {
    world::ChoiceScheduler chooser(o_.bounds, {});
    run_schedule(s_, chooser);
    ++result_.runs;
    for (const auto& r : chooser.choices()) ++result_.default_points[static_cast<size_t>(r.kind)];
  }

  // Every schedule of the level this shard runs, depth-first: true when the search ends with it.
  bool run_level(int level) {
    world::ScheduleBounds bounds = o_.bounds;
    // Without `shortest`, one level with no cap on deviations: each schedule runs once.
    bounds.cost_max = o_.shortest ? level : -1;
    LevelCounts counts;
    level_started_ = Clock::now();
    std::optional<std::vector<uint32_t>> prefix = std::vector<uint32_t>{};
    while (prefix) {
      if (limit_reached()) return end_early(counts);
      world::ChoiceScheduler chooser(bounds, *prefix);
      scenario::ScenarioResult run = run_schedule(s_, chooser);
      ++result_.runs;
      ++counts.runs;
      const auto& records = chooser.choices();
      if (counts.runs == 1) counts.default_depth = records.size();
      sharding_.read(records);
      counts.capped = counts.capped || chooser.capped();
      count_nodes(chooser, prefix->size(), counts);
      // A schedule with fewer deviations ran, and was judged, at a shallower level.
      if (sharding_.owns_path() && (!o_.shortest || chooser.cost() == level)) {
        ++judged_;
        ++counts.judged;
        if (judge(run, chooser)) return end_early(counts);
      }
      show_progress(level, bounds.cost_max, counts, records);
      prefix = next_prefix(records, sharding_);
    }
    return end_level(level, counts);
  }

  // Ctrl-C or a limit: said in result_.stopped.
  bool limit_reached() {
    if (o_.stop && o_.stop()) result_.stopped = "interrupted";
    else if (o_.max_seconds > 0 && elapsed() >= o_.max_seconds) result_.stopped = "max-seconds";
    else if (o_.max_schedules > 0 && judged_ >= o_.max_schedules) result_.stopped = "max-schedules";
    return !result_.stopped.empty();
  }

  // The nodes the run reached first (those past the prefix it was given) that this shard counts.
  void count_nodes(const world::ChoiceScheduler& chooser, size_t fresh_from, LevelCounts& counts) const {
    const auto& records = chooser.choices();
    const auto counted = [&](size_t depth) { return depth >= fresh_from && sharding_.counts(depth); };
    for (size_t j = 0; j < records.size(); ++j)
      if (counted(j)) {
        ++counts.states;
        counts.pruned += records[j].pruned;
      }
    for (const auto& [depth, n] : chooser.silent_prunes())
      if (counted(depth)) counts.pruned += n;
    if (sharding_.owns_path()) {
      ++counts.leaves;
      if (chooser.cut()) ++counts.cut;
    }
  }

  // The schedule's verdicts counted: true when it ends the search (an error, or a counterexample).
  bool judge(scenario::ScenarioResult& run, const world::ChoiceScheduler& chooser) {
    if (run.error) {
      result_.error = *run.error;
      result_.error_choices = chooser.taken();
      return true;
    }
    for (size_t i = 0; i < run.properties.size(); ++i)
      if (const model::Verdict& v = run.properties[i].verdict; v.valid == model::Validity::Unknown)
        ++(v.anomaly == model::anomaly::kNothingToJudge ? result_.nothing_to_judge[i] : result_.unknown[i]);
    const auto broken = broken_claim(run);
    if (!broken) return false;
    Counterexample c;
    c.property = broken->property;
    if (broken->pin) c.pin = *broken->pin;
    c.choices = chooser.taken();
    c.records = chooser.choices();
    c.cost = chooser.cost();
    c.scenario = s_;
    c.scenario.choices = c.choices;
    c.scenario.deviations = chooser.deviations();
    c.run = std::move(run);  // last: the pin was read from it
    result_.counterexample = std::move(c);
    return true;
  }

  void show_progress(int level, int cost_max, const LevelCounts& counts, const std::vector<world::ChoiceRecord>& records) {
    if (!o_.progress || std::chrono::duration<double>(Clock::now() - last_report_).count() < o_.progress_every) return;
    last_report_ = Clock::now();
    o_.progress({level, counts.judged, result_.runs, frontier_of(records),
                 done_fraction(records, cost_max, counts.default_depth), elapsed(),
                 std::chrono::duration<double>(Clock::now() - level_started_).count()});
  }

  // A search that ends within a level (a limit, a counterexample, an error) says what that level had
  // covered so far; one that ends before the level ran anything, what the last level it finished
  // covered. Returns true: the search ends.
  bool end_early(const LevelCounts& counts) {
    result_.schedules = judged_;
    if (counts.runs > 0) {
      result_.states = counts.states;
      result_.pruned = counts.pruned;
      result_.cut = counts.cut;
    }
    result_.seconds = elapsed();
    return true;
  }

  // The level run to its end: true when it was the last (no option withheld for want of deviations).
  bool end_level(int level, const LevelCounts& counts) {
    result_.level = o_.shortest ? level : -1;
    result_.schedules = judged_;
    // Each schedule is judged once, at the level of its own deviations: the deepest level's tree
    // has as many leaves as were judged in all levels. Said, not asserted: a difference means a
    // run did not repeat itself (the search's own invariant), which the user must know.
    result_.leaves = counts.leaves;
    result_.judged_at_level_end = judged_;
    result_.states = counts.states;
    result_.pruned = counts.pruned;
    result_.cut = counts.cut;
    if (counts.capped) return false;
    result_.complete = true;
    result_.seconds = elapsed();
    return true;
  }

  const ExhaustiveOptions& o_;
  scenario::Scenario s_;
  Sharding sharding_;
  ExhaustiveResult result_;
  const Clock::time_point started_ = Clock::now();
  Clock::time_point last_report_ = started_;
  Clock::time_point level_started_ = started_;
  uint64_t judged_ = 0;  // schedules judged, every level
};

}  // namespace

ExhaustiveResult search_exhaustive(const scenario::Scenario& scenario, const ExhaustiveOptions& o) {
  if (o.shards < 1 || o.shard < 0 || o.shard >= o.shards)
    throw std::invalid_argument("--shard I/N needs 0 <= I < N, not " + std::to_string(o.shard) + "/" + std::to_string(o.shards));
  if (o.properties.empty()) throw std::invalid_argument("a bounded search needs at least one property to judge");
  world::ChoiceScheduler(o.bounds, {});  // refuses bounds that cannot run
  return Search(scenario, o).run();
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
    // What the enumeration takes for a counterexample.
    if (const auto broken = broken_claim(run)) {
      result.seed = seed;
      result.property = broken->property;
      break;
    }
  }
  result.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  return result;
}

std::string exhaustive_json(const ExhaustiveResult& r, const ExhaustiveOptions& o, const std::string& search) {
  nlohmann::ordered_json j = {{"search", search}, {"shard", o.shard},   {"shards", o.shards}, {"schedules", r.schedules},
                              {"runs", r.runs},     {"states", r.states}, {"pruned", r.pruned},
                              {"cut", r.cut},       {"level", r.level},   {"complete", r.complete},
                              {"shortest", o.shortest},
                              {"stopped", r.stopped}, {"seconds", r.seconds}, {"counterexample", nullptr}};
  // What each property was expected to show, so that a merge says what a single search would.
  j["expect"] = nlohmann::ordered_json::object();
  for (const auto& [name, value] : o.properties) j["expect"][name] = value;
  // Per property, the schedules whose verdict was unknown: a search with any is not a "holds".
  j["unknown"] = nlohmann::ordered_json::object();
  for (size_t i = 0; i < o.properties.size() && i < r.unknown.size(); ++i) j["unknown"][o.properties[i].first] = r.unknown[i];
  // Per property, the schedules with nothing to judge: a property with no other schedule was not tested.
  j["nothing_to_judge"] = nlohmann::ordered_json::object();
  for (size_t i = 0; i < o.properties.size() && i < r.nothing_to_judge.size(); ++i)
    j["nothing_to_judge"][o.properties[i].first] = r.nothing_to_judge[i];
  if (r.counterexample)
    j["counterexample"] = {{"property", r.counterexample->property},
                           {"cost", r.counterexample->cost},
                           {"choices", r.counterexample->choices}};
  return j.dump();
}

}  // namespace locksim::explore
