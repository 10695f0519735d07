#include "app/explore_findings.hpp"

#include <fstream>
#include <stdexcept>

#include "model/lock_types.hpp"
#include "report/timeline.hpp"
#include "scenario/writer.hpp"

namespace locksim::app {

using explore::CaseResult;
using report::render_timeline_html;
using report::TimelineInput;
using scenario::Scenario;

namespace {

// A file the index links to, relative to the cases folder where index.html is written.
report::IndexLink case_link(const std::string& label, const std::string& path) {
  return {label, std::filesystem::path(path).filename().string()};
}

}  // namespace

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error(path.string() + ": cannot write");
  file << text;
  if (!file) throw std::runtime_error(path.string() + ": write failed");
}



// "liveness violated under the configuration, holds under --against fair_variant=tail-3.32".
std::string finding_title(const explore::CaseResult& r, const explore::ExploreConfig& c) {
  std::string t = r.violated + " (" + r.anomaly + ")";
  // A side still waiting at the end has no verdict: it never "holds".
  const char* other = r.no_verdict.empty() ? "holds" : "no verdict";
  if (r.side == "config")
    t += std::string(" violated under the configuration, ") + other + " under --against " + explore::variation_text(*c.against);
  if (r.side == "against")
    t += std::string(" ") + other + " under the configuration, violated under --against " + explore::variation_text(*c.against);
  return t;
}

// A differential case's timelines show its verdicts as seen, not judged: what matters is how the two
// configurations differ, which neither page alone can say ("differs", never a failed expectation).
void write_case(const Scenario& s, const scenario::ScenarioResult& run, const std::string& scenario_path,
                const std::string& timeline_path, bool differential) {
  write_scenario_file(s, scenario_path);
  TimelineInput t;
  t.title = s.name;
  t.about = s.about;
  t.lock = s.lock.name;
  t.lock_type = s.lock.type;
  t.redisson = run.redisson;
  t.clients = run.clients;
  t.history = &run.history;
  if (model::is_fair(s.lock.type)) t.thread_wait_ms = s.lock.fair.thread_wait_ms;
  for (const auto& p : run.properties) {
    t.verdicts.push_back(p.verdict);
    t.expected.push_back(differential ? "" : p.expected);
    t.met.push_back(differential || p.passed);
  }
  write_text(timeline_path, render_timeline_html(t));
}


// The key of a no-verdict group: the side without a verdict, and the hazard of the violating one.
std::string no_verdict_key(const CaseResult& r) {
  return r.no_verdict + (r.hazard ? " " + std::string(r.hazard->name) : std::string());
}

// A finding's line in results.jsonl; a hazard's group is keyed by the hazard instead, a no-verdict
// group by the side without a verdict (and the violating side's hazard).
nlohmann::ordered_json finding_json(const Group& g, GroupKind kind) {
  const CaseResult& r = g.first;
  nlohmann::ordered_json j;
  if (kind == GroupKind::NoVerdict) j["no_verdict_under"] = r.no_verdict;
  if (kind != GroupKind::Finding && r.hazard) j["hazard"] = std::string(r.hazard->name);
  if (kind == GroupKind::Finding) j["finding"] = r.signature.id;
  j["seeds"] = g.seeds;
  j["first_seed"] = r.seed;
  j["property"] = r.violated;
  if (!r.side.empty()) j["violated_under"] = r.side;
  j["anomaly"] = r.anomaly;
  if (!r.signature.shape.empty()) j["shape"] = r.signature.shape;
  if (kind == GroupKind::Finding && !r.found_anomaly.empty() && r.found_anomaly != r.anomaly) j["found_as"] = r.found_anomaly;
  if (r.hazard) {
    if (kind == GroupKind::Finding) j["hazard"] = std::string(r.hazard->name);
    j["hazard_reason"] = std::string(r.hazard->reason);
  }
  if (!r.no_verdict.empty()) {
    j["pending"] = r.pending;
    j["liveness_there"] = r.liveness_there;
  }
  if (!r.sides.empty()) j["sides"] = r.sides;
  if (!g.files.scenario.empty()) j["scenario"] = g.files.scenario;
  if (!g.files.timeline.empty()) j["timeline"] = g.files.timeline;
  if (!g.files.scenario_against.empty()) j["scenario_against"] = g.files.scenario_against;
  if (!g.files.timeline_against.empty()) j["timeline_against"] = g.files.timeline_against;
  j["explanation"] = r.explanation;
  return j;
}

std::string plural(size_t n, const std::string& word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

std::string joined(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& w : words) text += (text.empty() ? "" : ", ") + w;
  return text.empty() ? "none" : text;
}


// A finding's (or a hazard's, or a no-verdict group's) row of index.html: the property violated, how
// many seeds, its replay files. A hazard's violation is one the configuration makes expected; a pair
// with no verdict on one side is shown, not judged.
report::IndexRow finding_row(const Group& g, GroupKind kind, const ExploreOptions& o) {
  const CaseResult& r = g.first;
  const bool as_hazard = kind == GroupKind::Hazard;
  report::IndexRow row;
  row.scenario = kind == GroupKind::NoVerdict ? "no verdict under " + std::string(r.no_verdict == "config" ? "the configuration" : "--against")
                 : as_hazard                  ? "hazard " + std::string(r.hazard->name)
                                              : "finding " + r.signature.id;
  row.about = finding_title(r, o.config) + (r.signature.shape.empty() ? "" : "; steps: " + r.signature.shape);
  if (!r.sides.empty()) row.about += "; " + r.sides;
  row.lock = o.config.lock_type;
  row.lock_label = r.shrunk_run.redisson.empty() ? row.lock : row.lock + ", Redisson " + r.shrunk_run.redisson;
  row.property = r.violated + " (" + r.anomaly + ")";
  row.expected = kind == GroupKind::Finding ? "holds" : as_hazard ? "violated" : "-";
  row.observed = kind == GroupKind::NoVerdict ? "violated / no verdict" : "violated";
  // A differential finding is a difference between two configurations, not a test that failed.
  const bool differs = kind == GroupKind::Finding && !r.side.empty();
  row.outcome = differs                    ? report::Outcome::Differs
                : kind == GroupKind::Finding ? report::Outcome::UnexpectedViolation
                : as_hazard                ? report::Outcome::ExpectedViolation
                                           : report::Outcome::Seen;
  row.explanation = r.explanation;
  if (r.hazard) row.explanation = "hazard " + std::string(r.hazard->name) + ": " + std::string(r.hazard->reason) + ". " + row.explanation;
  if (!g.files.scenario.empty()) row.links.push_back(case_link("scenario", g.files.scenario));
  if (!g.files.timeline.empty()) row.links.push_back(case_link("timeline", g.files.timeline));
  if (!g.files.scenario_against.empty()) row.links.push_back(case_link("--against scenario", g.files.scenario_against));
  if (!g.files.timeline_against.empty()) row.links.push_back(case_link("--against timeline", g.files.timeline_against));
  row.note = plural(g.seeds, "seed") + " (first " + std::to_string(r.seed) + ")";
  if (kind == GroupKind::Finding) row.note += ", shrunk from " + std::to_string(r.steps) + " to " + std::to_string(r.shrunk_steps) + " steps";
  return row;
}

}  // namespace locksim::app
