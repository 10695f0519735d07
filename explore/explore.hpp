#pragma once
// Exploration: random workloads and fault plans (generator.hpp), one case per seed, each run in the
// simulated world and judged by the properties asked for, all expected to hold; with --against,
// run under a second configuration too, the finding being a verdict that differs. A case with a
// finding is shrunk (shrink.hpp) into a scenario `locksim run` replays, signed (finding.hpp) so
// that seeds with the same finding are counted as one, and checked for a hazard of the
// configuration that explains it (hazards.hpp). The command around it is app/explore_command.hpp.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "explore/finding.hpp"
#include "explore/generator.hpp"
#include "explore/hazards.hpp"
#include "scenario/runner.hpp"

namespace locksim::explore {

struct ShrinkOptions {
  bool enabled = true;
  int runs_max = 3000;   // plans run while shrinking one case, at most
  bool hazards = false;  // also shrink the cases a hazard explains (to show them)
  // A shrink that changed the anomaly is done again keeping it (slower; seeds of one bug may then
  // sign as several findings, each of its faces apart).
  bool keep_anomaly = false;
};

struct CaseResult {
  uint64_t seed = 0;
  std::vector<std::pair<std::string, std::string>> verdicts;          // property -> holds | violated | unknown
  std::vector<std::pair<std::string, std::string>> against_verdicts;  // the same under --against (else empty)
  // The finding's property ("" none). A plain run: the first property (in the config's order) that
  // is violated. A differential run: the first whose verdict is violated under one configuration
  // and holds under the other (an unknown on either side is no difference).
  std::string violated;
  std::string side;            // differential: which configuration violates it, "config" or "against"
  std::string anomaly;         // the shrunk case's
  std::string found_anomaly;   // the case's as generated (a shrink keeps the property, not always this)
  std::string explanation;     // the checker's words, for the shrunk case
  model::Verdict verdict;      // the shrunk case's verdict of the violated property, evidence and all
  size_t steps = 0;            // timeline steps as generated
  size_t shrunk_steps = 0;     // after shrinking
  int shrink_runs = 0;         // scenario runs spent shrinking and labelling
  std::optional<std::string> error;  // a run stopped (an exception in the world)
  Signature signature;         // what makes it the same finding as another seed's
  // A violation that holds once the configuration's hazards are taken out, and the hazard it needs
  // (hazards.hpp); in a differential run, a difference that disappears without them (both sides
  // re-run). Such a case is shrunk only with ShrinkOptions::hazards, and signed only then.
  const HazardInfo* hazard = nullptr;
  // Differential: the side ("config" or "against") whose run ended with acquires still waiting,
  // where the other side violates `violated`. It has no verdict to compare (DESIGN.md, "Findings"),
  // so the pair is no finding; `hazard` then labels the violating side alone (nullptr: no hazard
  // explains it). Not shrunk.
  std::string no_verdict;
  std::string pending;         // that side's operations still waiting at the end, in words
  std::string liveness_there;  // liveness on that side: holds | violated | unknown
  // Differential, a hazard or no verdict: what each side showed, in words, the violating side first.
  std::string sides;
  // Neither a hazard nor a side without a verdict: what makes explore exit 1.
  bool is_finding() const { return !error && !violated.empty() && !hazard && no_verdict.empty(); }
  scenario::Scenario shrunk;            // the smallest counterexample under the configuration
  scenario::ScenarioResult shrunk_run;  // and its run
  scenario::Scenario shrunk_against;            // differential: the same case under --against
  scenario::ScenarioResult shrunk_against_run;  // and its run
};

// Runs the case of one seed (under both configurations when config.against is set); shrinks it
// when it has a finding, keeping that finding: the same property violated, and in a differential
// run, holding under the other configuration with every acquire returned.
CaseResult explore_case(const ExploreConfig& config, uint64_t seed, const ShrinkOptions& shrink = {});

// The first case among `count` seeds from `first` that violates (plain: a hazard's too) or whose
// configurations differ in a finding (differential), or nullopt: what "a configuration that must be
// violated" tests assert.
std::optional<CaseResult> find_counterexample(const ExploreConfig& config, uint64_t first, uint64_t count,
                                              const ShrinkOptions& shrink = {});

// The `locksim explore` command line that generates the case of `seed` again.
std::string regenerate_command(const ExploreConfig& config, uint64_t seed);

// One JSON line of results.jsonl for a case: its verdicts, and its finding (by signature id) with
// the shrunk case's verdict as data. The files are named by the finding's own line, once, so that a
// case's line is the same whichever seeds ran before it (shards merge byte for byte).
std::string case_json_line(const CaseResult& result);

}  // namespace locksim::explore
