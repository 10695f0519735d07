#include "explore/explore.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "explore/shrink.hpp"
#include "model/anomaly.hpp"
#include "report/verdict_json.hpp"

namespace locksim::explore {

using scenario::PropertyResult;
using scenario::Scenario;
using scenario::ScenarioResult;
using report::evidence_json;
namespace {

std::string join(const std::vector<std::string>& items, const char* sep = ",") {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : sep) + item;
  return out;
}

const PropertyResult* property_of(const ScenarioResult& r, const std::string& name) {
  for (const auto& p : r.properties)
    if (p.property == name) return &p;
  return nullptr;
}

// One property judged alone (the other checkers not run): its verdict (Unknown when the run
// stopped) and the run, whose history a hazard's bound reads and whose pending operations say
// whether the verdict is one.
struct Judged {
  model::Validity valid = model::Validity::Unknown;
  ScenarioResult run;
  Scenario scenario;
  const model::Verdict* verdict() const {
    const PropertyResult* p = property_of(run, scenario.expect.front().first);
    return p ? &p->verdict : nullptr;
  }
  Violation violation() const { return Violation{&scenario, &run.history, verdict()}; }
};

Judged judge(const Scenario& s, const std::string& property) {
  Judged j;
  j.scenario = s;
  j.scenario.expect = {{property, "holds"}};
  j.run = run_scenario(j.scenario);
  if (j.run.error) return j;
  const PropertyResult* p = property_of(j.run, property);
  j.valid = p ? p->verdict.valid : model::Validity::Unknown;
  return j;
}

std::vector<std::pair<std::string, std::string>> verdicts_of(const ScenarioResult& run) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& p : run.properties) out.emplace_back(p.property, std::string(model::to_string(p.verdict.valid)));
  return out;
}

// A run whose acquires have not all returned has no verdict to compare: how they end could change it.
bool waiting_at_end(const ScenarioResult& run) { return run.pending.acquires() > 0; }

// A differential case's finding: the first property violated under the configuration and holding
// under --against (the bug a fix removes), else the first the other way round. A side still waiting
// at the end holds nothing: the first such pair is kept as `no_verdict` when no difference is found.
void first_difference(CaseResult& r, bool config_waits, bool against_waits) {
  const std::string violated(model::to_string(model::Validity::No)), holds(model::to_string(model::Validity::Yes));
  std::string pair_property, pair_side;
  for (const std::string side : {"config", "against"}) {
    const bool theirs_wait = side == "config" ? against_waits : config_waits;
    for (size_t i = 0; i < r.verdicts.size() && r.violated.empty(); ++i) {
      const std::string& mine = side == "config" ? r.verdicts[i].second : r.against_verdicts[i].second;
      const std::string& theirs = side == "config" ? r.against_verdicts[i].second : r.verdicts[i].second;
      if (mine != violated || theirs != holds) continue;
      if (!theirs_wait) {
        r.violated = r.verdicts[i].first;
        r.side = side;
      } else if (pair_property.empty()) {
        pair_property = r.verdicts[i].first;
        pair_side = side;
      }
    }
  }
  if (!r.violated.empty() || pair_property.empty()) return;
  r.violated = pair_property;
  r.side = pair_side;
  r.no_verdict = pair_side == "config" ? "against" : "config";
}

// Whether a hazard that weighs each violation (`excuses`: the lease's) explains `violation` of
// `candidate`: present, excusing it, and the violation gone without it. A finding's shrink must not
// drift into one: a finding whose garbled lease shrank away would read as a lease running out.
bool weighed_hazard_explains(const Plan& candidate, const ExploreConfig& config, const Violation& violation,
                             const std::string& property) {
  for (const HazardInfo& h : hazards()) {
    if (!h.excuses || !h.explains(violation.verdict->anomaly) || !h.applies(candidate, config, nullptr)) continue;
    if (!h.excuses(violation)) continue;
    if (judge(to_scenario(h.without(candidate, config), config), property).valid != model::Validity::No) return true;
  }
  return false;
}

// A violation that holds once every hazard of the configuration is taken out is the
// configuration's: `result.hazard` names the hazard it needs, and it is shrunk only to be shown. One
// that stays is a finding, shrunk from the case without the hazards (returned), so that shrinking
// cannot drift into one. The cheapest experiment runs first: the first hazard alone (usually a
// lease) often clears it. A case still violated without its hazards may tell another story, one a
// bounded hazard explains (a lease taken out leaves the watchdog at the network's mercy): its run
// (`violating`) is read again and any hazard now within its bound taken out too. In a differential
// run `keeps` is the difference, so both sides are re-run. `cleared`, when given, gets the plan
// without every hazard taken out, where one explains the violation.
Plan put_down_to_hazards(const Plan& plan, const ExploreConfig& config, const Violation& raw,
                         const std::function<bool(const Plan&)>& keeps,
                         const std::function<Judged(const Plan&)>& violating, CaseResult& result,
                         Plan* cleared = nullptr) {
  if (!raw.verdict) return plan;
  std::vector<const HazardInfo*> removed;
  Plan current = plan;
  Violation seen_violation = raw;
  std::optional<Judged> seen;  // the run of `current`, once it is not the raw case
  for (;;) {
    std::vector<const HazardInfo*> now;
    const Plan clean = without_hazards(current, config, seen_violation.verdict->anomaly, &seen_violation, &now);
    if (now.empty()) return current;
    if (removed.empty() && now.size() > 1) {
      ++result.shrink_runs;
      if (!keeps(now.front()->without(plan, config))) {
        result.hazard = now.front();
        if (cleared) *cleared = now.front()->without(plan, config);
        return plan;
      }
    }
    for (const HazardInfo* h : now)
      if (std::find(removed.begin(), removed.end(), h) == removed.end()) removed.push_back(h);
    std::sort(removed.begin(), removed.end());  // the table's order: its entries lie in one vector
    ++result.shrink_runs;
    if (!keeps(clean)) {
      result.hazard = hazard_of(plan, config, raw.verdict->anomaly, removed, keeps, &result.shrink_runs);
      if (cleared) *cleared = clean;
      return plan;
    }
    // A hazard left in the clean case that this violation did not call on (one bounded by, or excusing
    // only, the violation it explains) may explain the clean case's own: that violation is looked at
    // in turn. (A failover that lost a later hold, behind a lease that explained an earlier overlap.)
    const bool conditional_left = std::any_of(hazards().begin(), hazards().end(), [&](const HazardInfo& h) {
      return (h.bound || h.excuses) && h.present(clean, config) &&
             std::find(removed.begin(), removed.end(), &h) == removed.end();
    });
    if (!conditional_left) return clean;
    ++result.shrink_runs;
    seen.emplace(violating(clean));
    if (seen->valid != model::Validity::No || !seen->verdict()) return clean;
    seen_violation = seen->violation();
    current = clean;
  }
}

// `plan` with every session unlocking what it acquired: a holder that never unlocks leaves its
// waiters waiting at the end, with no verdict to compare.
Plan unlocking(const Plan& plan) {
  Plan out = plan;
  for (ClientPlan& client : out.clients)
    for (SessionPlan& session : client.sessions) session.unlock = true;
  return out;
}

// "the configuration (Redisson 3.23.0)" or "--against redisson=3.52.0".
std::string side_name(const std::string& side, const ExploreConfig& config, const ScenarioResult& run) {
  if (side == "against") return "--against " + variation_text(*config.against);
  return "the configuration" + (run.redisson.empty() ? std::string() : " (Redisson " + run.redisson + ")");
}

}  // namespace

// The explore command that generates this case again: every setting that is not the default.
std::string regenerate_command(const ExploreConfig& c, uint64_t seed) {
  const ExploreConfig d;
  std::string cmd = "locksim explore --lock " + c.lock_type + " --clients " + std::to_string(c.clients_max) + " --ops " +
                    std::to_string(c.ops_max);
  if (c.threads_max != d.threads_max) cmd += " --threads " + std::to_string(c.threads_max);
  if (!c.faults.empty()) cmd += " --faults " + join(c.faults);
  if (!c.faults.empty() && c.faults_max != d.faults_max) cmd += " --faults-max " + std::to_string(c.faults_max);
  if (c.world_loss_max > 0) cmd += " --world-loss " + std::to_string(c.world_loss_max);
  if (c.reorder) cmd += " --reorder";
  if (c.horizon_ms != d.horizon_ms) cmd += " --horizon-ms " + std::to_string(c.horizon_ms);
  if (c.work_ms_max != d.work_ms_max) cmd += " --work-ms-max " + std::to_string(c.work_ms_max);
  if (c.wait_ms_max != d.wait_ms_max) cmd += " --wait-ms-max " + std::to_string(c.wait_ms_max);
  if (!c.leases) cmd += " --no-leases";
  if (!c.try_locks) cmd += " --no-try-lock";
  if (!c.lock_options.empty()) cmd += " --set " + variation_text({c.lock_options, {}});
  for (const auto& [name, path] : c.script_files) cmd += " --script " + name + "=" + path;
  if (c.against) cmd += " --against " + variation_text(*c.against);
  return cmd + " --properties " + join(c.properties) + " --seed " + std::to_string(seed);
}

namespace {

// The finding's case, `smallest`, as two scenario files would hold it (the second under --against),
// each run, and the violated property's verdict on the violating side. `run` and `other` are the
// runs of `plan`, the case as generated: reused when nothing was shrunk.
void write_counterexample(CaseResult& result, const Plan& smallest, const Plan& plan, ScenarioResult run,
                          ScenarioResult other, const ExploreConfig& config,
                          const std::optional<ExploreConfig>& against, const std::string& property) {
  const uint64_t seed = result.seed;
  const std::string finding = property + (result.side.empty() ? "" : " violated under " + std::string(result.side == "config" ? "the configuration" : "--against") + " only");
  result.shrunk = to_scenario(smallest, config);
  result.shrunk.name = "explore-" + config.lock_type + "-seed-" + std::to_string(seed);
  result.shrunk.about = "Found by `" + regenerate_command(config, seed) + "`: " + finding + "; shrunk from " +
                        std::to_string(result.steps) + " to " + std::to_string(result.shrunk.timeline.size()) +
                        " timeline steps. Every property is expected to hold.";
  result.shrunk_steps = result.shrunk.timeline.size();
  // Unshrunk, the case is the one already run (its name and about are not in the run).
  result.shrunk_run = smallest == plan ? std::move(run) : run_scenario(result.shrunk);
  if (against) {
    result.shrunk_against = to_scenario(smallest, *against);
    result.shrunk_against.name = result.shrunk.name + "-against";
    result.shrunk_against.about = "The case of " + result.shrunk.name + " under --against " +
                                  variation_text(*config.against) +
                                  ". Every property is expected to hold.";
    result.shrunk_against_run = smallest == plan ? std::move(other) : run_scenario(result.shrunk_against);
  }
  const ScenarioResult& violating = result.side == "against" ? result.shrunk_against_run : result.shrunk_run;
  if (const PropertyResult* p = property_of(violating, property)) {
    result.anomaly = p->verdict.anomaly;
    result.explanation = p->verdict.explanation;
    result.verdict = p->verdict;
  }
}

}  // namespace

namespace {

// A case's runs as generated: under the configuration and, in a differential run, under --against.
struct CaseRuns {
  Scenario scenario;
  ScenarioResult run;
  std::optional<Scenario> other_scenario;
  ScenarioResult other;
};

// Runs `plan` (on both sides when `against` is given) into `result`: its verdicts and the property
// violated (the first difference, in a differential run). False when a run could not be made.
bool run_case(const Plan& plan, const ExploreConfig& config, const std::optional<ExploreConfig>& against,
              CaseRuns& runs, CaseResult& result) {
  runs.scenario = to_scenario(plan, config);
  result.steps = runs.scenario.timeline.size();
  runs.run = run_scenario(runs.scenario);
  if (runs.run.error) {
    result.error = *runs.run.error;
    return false;
  }
  result.verdicts = verdicts_of(runs.run);
  if (!against) {
    for (const auto& [property, verdict] : result.verdicts)
      if (result.violated.empty() && verdict == model::to_string(model::Validity::No)) result.violated = property;
    return true;
  }
  runs.other_scenario = to_scenario(plan, *against);
  runs.other = run_scenario(*runs.other_scenario);
  if (runs.other.error) {
    result.error = "--against: " + *runs.other.error;
    return false;
  }
  result.against_verdicts = verdicts_of(runs.other);
  first_difference(result, waiting_at_end(runs.run), waiting_at_end(runs.other));
  return true;
}

// A violated case made into a finding, or put down to a hazard of the configuration (or, in a
// differential run, a pair with no verdict on one side), then shrunk. Every step asks the same
// question of a candidate plan, `keeps`: whether it still shows the violation.
class CaseInvestigation {
 public:
  CaseInvestigation(const ExploreConfig& config, const std::optional<ExploreConfig>& against, const Plan& plan,
                    const CaseRuns& runs, CaseResult& result)
      : config_(config),
        against_(against),
        plan_(plan),
        runs_(runs),
        result_(result),
        property_(result.violated),
        on_against_(result.side == "against"),
        breaks_(on_against_ ? *against : config),
        other_side_(!against ? nullptr : on_against_ ? &config : &*against),
        violating_scenario_(on_against_ ? *runs.other_scenario : runs.scenario),
        violating_run_(on_against_ ? runs.other : runs.run),
        violated_(property_of(violating_run_, property_)),
        raw_{&violating_scenario_, &violating_run_.history, violated_ ? &violated_->verdict : nullptr},
        anomaly_(violated_ ? violated_->verdict.anomaly : "") {}
  CaseInvestigation(const CaseInvestigation&) = delete;
  CaseInvestigation& operator=(const CaseInvestigation&) = delete;

  // The case a shrink starts from: the generated one, or one without what a hazard or chance adds.
  Plan start() {
    if (!against_) return put_down_to_hazards(plan_, config_, raw_, keeps_, run_violating_, result_);
    Plan start = plan_;
    if (!result_.no_verdict.empty()) start = comparable_pair();
    if (result_.no_verdict.empty()) return differential_start(start);
    fixed_world_ = leaves_nothing_to_chance(start, config_);
    return start;
  }

  // The smallest case that keeps the violation (`start` itself when it is not to be shrunk).
  Plan smallest(Plan start, const ShrinkOptions& shrink, bool shrinks) {
    // A violation that needs no chance makes a smaller, steadier story: try that first.
    if (!against_ && shrinks && !leaves_nothing_to_chance(start, config_)) {
      const Plan fixed = without_chance(start, config_);
      if (keeps_(fixed)) start = fixed;
      ++result_.shrink_runs;
    }
    if (!against_) fixed_world_ = leaves_nothing_to_chance(start, config_);
    ShrinkStats stats;
    shrinking_ = !result_.hazard;
    // A shrink keeps the property, not the anomaly: a fifo-inversion may end as a starved waiter, often
    // another face of one bug (docs/exploration.md, "Shrinking", has the numbers), so the anomaly the
    // shrink started from is kept beside the result. On request, a shrink that changed it is done again
    // from the same start, keeping it.
    result_.found_anomaly = anomaly_;
    if (shrinks) {
      ++result_.shrink_runs;
      if (keeps_alone_(start)) result_.found_anomaly = last_anomaly_;
    }
    Plan smallest = shrinks ? shrink_plan(start, config_, keeps_, shrink.runs_max, &stats) : start;
    if (shrinks && shrink.keep_anomaly) {
      const std::string wanted = result_.found_anomaly;
      keeps_alone_(smallest);
      ++result_.shrink_runs;
      if (last_anomaly_ != wanted) {
        const std::function<bool(const Plan&)> same = [&](const Plan& c) { return keeps_(c) && last_anomaly_ == wanted; };
        ShrinkStats again;
        smallest = shrink_plan(start, config_, same, shrink.runs_max, &again);
        stats.runs += again.runs;
      }
    }
    shrinking_ = false;
    result_.shrink_runs += stats.runs;
    return smallest;
  }

 private:
  // Whether `candidate` still violates the property under `breaks_` and, given `holding`, holds under
  // that configuration with every acquire returned (a verdict to compare).
  bool violates(const Plan& candidate, const ExploreConfig* holding) {
    if (fixed_world_ && !leaves_nothing_to_chance(candidate, config_)) return false;
    const Judged v = judge(to_scenario(candidate, breaks_), property_);
    if (v.valid != model::Validity::No) return false;
    last_anomaly_ = v.verdict() ? v.verdict()->anomaly : "";
    if (shrinking_ && v.verdict() && within_a_bound(candidate, breaks_, v.violation())) return false;
    if (shrinking_ && v.verdict() && weighed_hazard_explains(candidate, breaks_, v.violation(), property_)) return false;
    if (!holding) return true;
    const Judged h = judge(to_scenario(candidate, *holding), property_);
    return h.valid == model::Validity::Yes && !waiting_at_end(h.run);
  }

  // A side with no verdict: its waiters often wait on a holder that never unlocks, or on a hazard.
  // Where every session unlocks, or without the hazards, both sides may complete and differ: that
  // case is the finding (returned, no_verdict cleared). Else the pair is what each side showed, the
  // violating one put down to its hazards alone.
  Plan comparable_pair() {
    std::vector<const HazardInfo*> present;
    const Plan clean = without_hazards(plan_, breaks_, anomaly_, &raw_, &present);
    std::vector<Plan> comparable{unlocking(plan_)};
    if (!present.empty()) {
      comparable.push_back(clean);
      comparable.push_back(unlocking(clean));
    }
    for (const Plan& candidate : comparable) {
      if (candidate == plan_) continue;
      ++result_.shrink_runs;
      if (keeps_(candidate)) {
        result_.no_verdict.clear();
        return candidate;
      }
    }
    put_down_to_hazards(plan_, breaks_, raw_, keeps_alone_, run_violating_, result_);
    describe_no_verdict_pair();
    return plan_;
  }

  void describe_no_verdict_pair() {
    const ScenarioResult& waiting = on_against_ ? runs_.run : runs_.other;
    const std::string waiting_name = side_name(result_.no_verdict, config_, waiting);
    result_.pending = waiting.pending.describe();
    result_.liveness_there = [&] {
      for (const auto& p : waiting.properties)
        if (p.property == model::property::kLiveness) return std::string(model::to_string(p.verdict.valid));
      ++result_.shrink_runs;
      return std::string(model::to_string(
          judge(on_against_ ? runs_.scenario : *runs_.other_scenario, std::string(model::property::kLiveness)).valid));
    }();
    result_.sides = side_name(result_.side, config_, violating_run_) + ": violated" +
                    (result_.hazard ? " through a hazard (" + std::string(result_.hazard->name) + ")"
                                    : " (no hazard of the configuration explains it)") +
                    "; " + waiting_name + ": no verdict, " + result_.pending + "; liveness " + result_.liveness_there +
                    " there";
  }

  // A differential finding's start: without chance where it still differs, and past the hazard
  // experiment, which both sides pass (a difference that disappears without the hazards is theirs).
  Plan differential_start(Plan start) {
    // Chance is keyed to what it decides (world/chance.hpp): a message both configurations send meets
    // the same fate in both, so a difference under chance is the configurations' own. A case without
    // chance is still the steadier story, tried first and kept while shrinking when it differs too.
    if (!leaves_nothing_to_chance(start, config_)) {
      const Plan fixed = without_chance(start, config_);
      if (keeps_(fixed)) start = fixed;
      ++result_.shrink_runs;
    }
    fixed_world_ = leaves_nothing_to_chance(start, config_);
    ++result_.shrink_runs;
    const Judged v = judge(to_scenario(start, breaks_), property_);
    if (!v.verdict()) return start;
    const Plan before = start;
    Plan clean;
    start = put_down_to_hazards(before, breaks_, v.violation(), keeps_, run_violating_, result_, &clean);
    if (result_.hazard) describe_hazard_sides(clean);
    return start;
  }

  // How each side fares once the hazards are taken out of the case (`clean`).
  void describe_hazard_sides(const Plan& clean) {
    const Judged v_clean = judge(to_scenario(clean, breaks_), property_);
    const Judged h_clean = judge(to_scenario(clean, *other_side_), property_);
    result_.shrink_runs += 2;
    const ScenarioResult& holding_run = on_against_ ? runs_.run : runs_.other;
    std::string theirs = side_name(on_against_ ? "config" : "against", config_, holding_run) + ": holds";
    if (h_clean.valid == model::Validity::No) theirs += ", violated once the hazards are taken out";
    else if (h_clean.valid == model::Validity::Yes && waiting_at_end(h_clean.run))
      theirs += ", no verdict once the hazards are taken out (" + h_clean.run.pending.describe() + ")";
    result_.sides = side_name(result_.side, config_, violating_run_) + ": violated" +
                    (v_clean.valid == model::Validity::No ? ", and still once the hazards are taken out"
                                                          : " through a hazard (" + std::string(result_.hazard->name) + ")") +
                    "; " + theirs;
  }

  const ExploreConfig& config_;
  const std::optional<ExploreConfig>& against_;
  const Plan& plan_;
  const CaseRuns& runs_;
  CaseResult& result_;
  const std::string property_;
  const bool on_against_;
  const ExploreConfig& breaks_;      // the side that violates
  const ExploreConfig* other_side_;  // the side that holds (differential runs)
  const Scenario& violating_scenario_;
  const ScenarioResult& violating_run_;
  const PropertyResult* violated_;
  const Violation raw_;
  const std::string anomaly_;
  bool fixed_world_ = false;  // once the case leaves nothing to chance, its shrinks must not either
  bool shrinking_ = false;    // a finding's shrink must not drift into what network trouble may explain
  std::string last_anomaly_;  // the anomaly of the latest candidate found violated
  const std::function<bool(const Plan&)> keeps_ = [this](const Plan& c) { return violates(c, other_side_); };
  const std::function<bool(const Plan&)> keeps_alone_ = [this](const Plan& c) { return violates(c, nullptr); };
  const std::function<Judged(const Plan&)> run_violating_ = [this](const Plan& c) {
    return judge(to_scenario(c, breaks_), property_);
  };
};

}  // namespace

CaseResult explore_case(const ExploreConfig& config, uint64_t seed, const ShrinkOptions& shrink) {
  CaseResult result;
  result.seed = seed;
  const Plan plan = generate_plan(config, seed);
  const std::optional<ExploreConfig> against = config.against ? std::optional(varied(config, *config.against)) : std::nullopt;
  CaseRuns runs;
  if (!run_case(plan, config, against, runs, result) || result.violated.empty()) return result;
  const std::string property = result.violated;
  Plan smallest;
  bool shrinks = false;
  {
    CaseInvestigation investigation(config, against, plan, runs, result);
    const Plan start = investigation.start();
    shrinks = shrink.enabled && result.no_verdict.empty() && (!result.hazard || shrink.hazards);
    smallest = investigation.smallest(start, shrink, shrinks);
  }
  write_counterexample(result, smallest, plan, std::move(runs.run), std::move(runs.other), config, against, property);
  // A hazard's seeds are grouped by the hazard; only a shrunk case has a shape worth signing.
  if (shrinks || (!result.hazard && result.no_verdict.empty()))
    result.signature = signature_of(result.shrunk, property, result.anomaly, result.side);
  return result;
}

std::optional<CaseResult> find_counterexample(const ExploreConfig& config, uint64_t first, uint64_t count,
                                              const ShrinkOptions& shrink) {
  for (uint64_t seed = first; seed < first + count; ++seed) {
    CaseResult r = explore_case(config, seed, shrink);
    if (config.against ? r.is_finding() : !r.violated.empty()) return r;
  }
  return std::nullopt;
}

std::string case_json_line(const CaseResult& r) {
  nlohmann::ordered_json j;
  j["seed"] = r.seed;
  if (r.error) {
    j["error"] = *r.error;
    return j.dump() + "\n";
  }
  auto object = [](const std::vector<std::pair<std::string, std::string>>& verdicts) {
    nlohmann::ordered_json o = nlohmann::ordered_json::object();
    for (const auto& [property, verdict] : verdicts) o[property] = verdict;
    return o;
  };
  j["verdicts"] = object(r.verdicts);
  if (!r.against_verdicts.empty()) j["verdicts_against"] = object(r.against_verdicts);
  if (!r.violated.empty()) {
    j["violated"] = r.violated;
    if (!r.side.empty()) j["violated_under"] = r.side;
    if (!r.no_verdict.empty()) {
      j["no_verdict_under"] = r.no_verdict;
      j["pending"] = r.pending;
      j["liveness_there"] = r.liveness_there;
    }
    j["anomaly"] = r.anomaly;
    if (!r.found_anomaly.empty() && r.found_anomaly != r.anomaly) j["found_as"] = r.found_anomaly;
    if (!r.signature.id.empty()) {
      j["finding"] = r.signature.id;
      j["shape"] = r.signature.shape;
    }
    if (r.hazard) {
      j["hazard"] = std::string(r.hazard->name);
      j["hazard_reason"] = std::string(r.hazard->reason);
    }
    if (!r.sides.empty()) j["sides"] = r.sides;
    j["steps"] = r.steps;
    j["shrunk_steps"] = r.shrunk_steps;
    j["shrink_runs"] = r.shrink_runs;
    j["explanation"] = r.explanation;
    j["witness"] = r.verdict.witness;
    j["evidence"] = evidence_json(r.verdict);
  }
  return j.dump() + "\n";
}

}  // namespace locksim::explore
