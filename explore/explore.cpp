#include "explore/explore.hpp"

#include <nlohmann/json.hpp>

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

bool violates(const Scenario& s, const std::string& property) {
  Scenario only = s;
  only.expect = {{property, "holds"}};
  const ScenarioResult r = run_scenario(only);
  if (r.error) return false;
  const PropertyResult* p = property_of(r, property);
  return p && p->verdict.valid == model::Validity::No;
}

}  // namespace

// The explore command that generates this case again (seed and configuration, no shard).
std::string regenerate_command(const ExploreConfig& c, uint64_t seed) {
  std::string cmd = "locksim explore --lock " + c.lock_type + " --clients " + std::to_string(c.clients_max) + " --ops " +
                    std::to_string(c.ops_max);
  if (!c.faults.empty()) cmd += " --faults " + join(c.faults);
  if (c.world_loss_max > 0) cmd += " --world-loss " + std::to_string(c.world_loss_max);
  if (!c.leases) cmd += " --no-leases";
  if (!c.try_locks) cmd += " --no-try-lock";
  if (c.watchdog_keep) cmd += " --watchdog-keep";
  if (c.unlock_latch) cmd += " --unlock-latch";
  if (c.lock_type == "fair") cmd += " --fair-variant " + c.fair_variant + " --thread-wait-ms " + std::to_string(c.thread_wait_ms);
  for (const auto& [name, path] : c.script_files) cmd += " --script " + name + "=" + path;
  return cmd + " --properties " + join(c.properties) + " --seed " + std::to_string(seed);
}


Scenario shrink_scenario(const rc::Shrinkable<Scenario>& start, const std::function<bool(const Scenario&)>& still_fails,
                         int runs_max, int* runs) {
  rc::Shrinkable<Scenario> current = start;
  int used = 0;
  bool progressed = true;
  while (progressed && used < runs_max) {
    progressed = false;
    rc::Seq<rc::Shrinkable<Scenario>> shrinks = current.shrinks();
    while (used < runs_max) {
      rc::Maybe<rc::Shrinkable<Scenario>> next = shrinks.next();
      if (!next) break;
      ++used;
      if (still_fails(next->value())) {
        current = std::move(*next);
        progressed = true;
        break;
      }
    }
  }
  if (runs) *runs = used;
  return current.value();
}

CaseResult explore_case(const ExploreConfig& config, uint64_t seed, const ShrinkOptions& shrink) {
  CaseResult result;
  result.seed = seed;
  const rc::Shrinkable<Scenario> generated = generate_case(config, seed);
  Scenario s = generated.value();
  result.steps = s.timeline.size();
  const ScenarioResult run = run_scenario(s);
  if (run.error) {
    result.error = *run.error;
    return result;
  }
  for (const auto& p : run.properties) {
    result.verdicts.emplace_back(p.property, std::string(model::to_string(p.verdict.valid)));
    if (result.violated.empty() && p.verdict.valid == model::Validity::No) result.violated = p.property;
  }
  if (result.violated.empty()) return result;

  const std::string property = result.violated;
  Scenario smallest = shrink.enabled
                          ? shrink_scenario(generated, [&](const Scenario& c) { return violates(c, property); },
                                            shrink.runs_max, &result.shrink_runs)
                          : s;
  smallest.name = "explore-" + config.lock_type + "-seed-" + std::to_string(seed);
  smallest.about = "Found by `" + regenerate_command(config, seed) + "`: " + property + " violated; shrunk from " +
                   std::to_string(result.steps) + " to " + std::to_string(smallest.timeline.size()) +
                   " timeline steps. Every property is expected to hold.";
  result.shrunk_steps = smallest.timeline.size();
  result.shrunk_run = run_scenario(smallest);
  if (const PropertyResult* p = property_of(result.shrunk_run, property)) {
    result.anomaly = p->verdict.anomaly;
    result.explanation = p->verdict.explanation;
    result.verdict = p->verdict;
  }
  result.shrunk = std::move(smallest);
  return result;
}

std::optional<CaseResult> find_counterexample(const ExploreConfig& config, uint64_t first, uint64_t count,
                                              const ShrinkOptions& shrink) {
  for (uint64_t seed = first; seed < first + count; ++seed) {
    CaseResult r = explore_case(config, seed, shrink);
    if (!r.violated.empty()) return r;
  }
  return std::nullopt;
}

std::string case_json_line(const CaseResult& r, const std::string& scenario_path, const std::string& timeline_path) {
  nlohmann::ordered_json j;
  j["seed"] = r.seed;
  if (r.error) {
    j["error"] = *r.error;
    return j.dump() + "\n";
  }
  nlohmann::ordered_json verdicts = nlohmann::ordered_json::object();
  for (const auto& [property, verdict] : r.verdicts) verdicts[property] = verdict;
  j["verdicts"] = verdicts;
  if (!r.violated.empty()) {
    j["violated"] = r.violated;
    j["anomaly"] = r.anomaly;
    j["steps"] = r.steps;
    j["shrunk_steps"] = r.shrunk_steps;
    j["scenario"] = scenario_path;
    j["timeline"] = timeline_path;
    j["explanation"] = r.explanation;
    j["witness"] = r.verdict.witness;
    j["evidence"] = evidence_json(r.verdict);
  }
  return j.dump() + "\n";
}

}  // namespace locksim::explore
