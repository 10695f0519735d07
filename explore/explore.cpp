#include "explore/explore.hpp"

#include <nlohmann/json.hpp>

#include "explore/shrink.hpp"
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

// The verdict of one property alone (the other checkers not run), or Unknown when the run stopped.
model::Validity judge(const Scenario& s, const std::string& property) {
  Scenario only = s;
  only.expect = {{property, "holds"}};
  const ScenarioResult r = run_scenario(only);
  if (r.error) return model::Validity::Unknown;
  const PropertyResult* p = property_of(r, property);
  return p ? p->verdict.valid : model::Validity::Unknown;
}

std::vector<std::pair<std::string, std::string>> verdicts_of(const ScenarioResult& run) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& p : run.properties) out.emplace_back(p.property, std::string(model::to_string(p.verdict.valid)));
  return out;
}

// A differential case's finding: the first property violated under the configuration and holding
// under --against (the bug a fix removes), else the first the other way round.
void first_difference(CaseResult& r) {
  const std::string violated(model::to_string(model::Validity::No)), holds(model::to_string(model::Validity::Yes));
  for (const std::string side : {"config", "against"}) {
    for (size_t i = 0; i < r.verdicts.size() && r.violated.empty(); ++i) {
      const std::string& mine = side == "config" ? r.verdicts[i].second : r.against_verdicts[i].second;
      const std::string& theirs = side == "config" ? r.against_verdicts[i].second : r.verdicts[i].second;
      if (mine == violated && theirs == holds) {
        r.violated = r.verdicts[i].first;
        r.side = side;
      }
    }
  }
}

// A plain violation that holds once every hazard of the configuration is taken out is the
// configuration's: `result.hazard` names the hazard it needs, and it is shrunk only to be shown. One
// that stays is a finding, shrunk from the case without the hazards (returned), so that shrinking
// cannot drift into one. The cheapest experiment runs first: the first hazard alone (usually a
// lease) often clears it. (A differential finding is the change's by construction: both
// configurations share the hazards.)
Plan put_down_to_hazards(const Plan& plan, const ExploreConfig& config, const std::string& anomaly,
                         const std::function<bool(const Plan&)>& keeps, CaseResult& result) {
  const HazardInfo* first = nullptr;
  int present = 0;
  const Plan clean = without_hazards(plan, config, anomaly, &first, &present);
  if (!first) return plan;
  if (present > 1) {
    ++result.shrink_runs;
    if (!keeps(first->without(plan, config))) {
      result.hazard = first;
      return plan;
    }
  }
  ++result.shrink_runs;
  if (keeps(clean)) return clean;
  result.hazard = present == 1 ? first : hazard_of(plan, config, anomaly, keeps, &result.shrink_runs);
  return plan;
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

CaseResult explore_case(const ExploreConfig& config, uint64_t seed, const ShrinkOptions& shrink) {
  CaseResult result;
  result.seed = seed;
  const Plan plan = generate_plan(config, seed);
  const std::optional<ExploreConfig> against = config.against ? std::optional(varied(config, *config.against)) : std::nullopt;
  const Scenario s = to_scenario(plan, config);
  result.steps = s.timeline.size();
  ScenarioResult run = run_scenario(s);
  if (run.error) {
    result.error = *run.error;
    return result;
  }
  result.verdicts = verdicts_of(run);
  if (against) {
    const ScenarioResult other = run_scenario(to_scenario(plan, *against));
    if (other.error) {
      result.error = "--against: " + *other.error;
      return result;
    }
    result.against_verdicts = verdicts_of(other);
    first_difference(result);
  } else {
    for (const auto& [property, verdict] : result.verdicts)
      if (result.violated.empty() && verdict == model::to_string(model::Validity::No)) result.violated = property;
  }
  if (result.violated.empty()) return result;

  const std::string property = result.violated;
  const ExploreConfig& breaks = result.side == "against" ? *against : config;
  const ExploreConfig* keeps_holding = !against ? nullptr : result.side == "against" ? &config : &*against;
  bool fixed_world = false;  // once the case leaves nothing to chance, its shrinks must not either
  const std::function<bool(const Plan&)> keeps = [&](const Plan& candidate) {
    if (fixed_world && !leaves_nothing_to_chance(candidate, config)) return false;
    if (judge(to_scenario(candidate, breaks), property) != model::Validity::No) return false;
    return !keeps_holding || judge(to_scenario(candidate, *keeps_holding), property) == model::Validity::Yes;
  };
  const PropertyResult* violated = property_of(run, property);
  Plan start = against ? plan : put_down_to_hazards(plan, config, violated ? violated->verdict.anomaly : "", keeps, result);
  const bool shrinks = shrink.enabled && (!result.hazard || shrink.hazards);
  // A violation that needs no chance makes a smaller, steadier story: try that first. A difference
  // between two configurations must need none (leaves_nothing_to_chance says why).
  if ((shrinks || against) && !leaves_nothing_to_chance(start, config)) {
    const Plan fixed = without_chance(start, config);
    if (keeps(fixed)) start = fixed;
    ++result.shrink_runs;
  }
  fixed_world = leaves_nothing_to_chance(start, config);
  if (against && !fixed_world) {
    result.by_chance = true;
    return result;
  }
  ShrinkStats stats;
  const Plan smallest = shrinks ? shrink_plan(start, config, keeps, shrink.runs_max, &stats) : start;
  result.shrink_runs += stats.runs;

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
    result.shrunk_against_run = run_scenario(result.shrunk_against);
  }
  const ScenarioResult& violating = result.side == "against" ? result.shrunk_against_run : result.shrunk_run;
  if (const PropertyResult* p = property_of(violating, property)) {
    result.anomaly = p->verdict.anomaly;
    result.explanation = p->verdict.explanation;
    result.verdict = p->verdict;
  }
  // A hazard's seeds are grouped by the hazard; only a shrunk case has a shape worth signing.
  if (!result.hazard || shrinks) result.signature = signature_of(result.shrunk, property, result.anomaly, result.side);
  return result;
}

std::optional<CaseResult> find_counterexample(const ExploreConfig& config, uint64_t first, uint64_t count,
                                              const ShrinkOptions& shrink) {
  for (uint64_t seed = first; seed < first + count; ++seed) {
    CaseResult r = explore_case(config, seed, shrink);
    if (!r.violated.empty() && !r.by_chance) return r;
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
  if (r.by_chance) {
    j["differs_by_chance"] = r.violated;
  } else if (!r.violated.empty()) {
    j["violated"] = r.violated;
    if (!r.side.empty()) j["violated_under"] = r.side;
    j["anomaly"] = r.anomaly;
    if (!r.signature.id.empty()) {
      j["finding"] = r.signature.id;
      j["shape"] = r.signature.shape;
    }
    if (r.hazard) {
      j["hazard"] = std::string(r.hazard->name);
      j["hazard_reason"] = std::string(r.hazard->reason);
    }
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
