#pragma once
// What `locksim explore` groups its seeds into (a finding, a hazard's seeds, a pair with no verdict
// on one side) and how a group is written: its line in results.jsonl, its row of index.html, its
// title, and a counterexample's scenario file and timeline.
#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/explore_options.hpp"
#include "explore/explore.hpp"
#include "report/run_index.hpp"

namespace locksim::app {

// Where a case's counterexample went ("" where nothing was written).
struct CaseFiles {
  std::string scenario{}, timeline{};                  // under the configuration
  std::string scenario_against{}, timeline_against{};  // under --against
};

// One finding (or one hazard's group of seeds): its first seed's result and how many seeds share it.
struct Group {
  explore::CaseResult first;
  CaseFiles files;
  size_t seeds = 0;
};

// What a group of seeds is: a finding, a hazard's, or (differential) pairs whose other side has no
// verdict. Each is counted apart, and only findings make explore exit 1.
enum class GroupKind { Finding, Hazard, NoVerdict };

// `text` written to `path`, or an exception saying why not.
void write_text(const std::filesystem::path& path, const std::string& text);

// "liveness violated under the configuration, holds under --against fair_variant=tail-3.32".
std::string finding_title(const explore::CaseResult& r, const explore::ExploreConfig& c);

// A case as a scenario file and its timeline. A differential case's timelines show its verdicts as
// seen, not judged: what matters is how the two configurations differ, which neither page alone
// can say ("differs", never a failed expectation).
void write_case(const scenario::Scenario& s, const scenario::ScenarioResult& run, const std::string& scenario_path,
                const std::string& timeline_path, bool differential);

// The key of a no-verdict group: the side without a verdict, and the hazard of the violating one.
std::string no_verdict_key(const explore::CaseResult& r);

// A finding's line in results.jsonl; a hazard's group is keyed by the hazard instead, a no-verdict
// group by the side without a verdict (and the violating side's hazard).
nlohmann::ordered_json finding_json(const Group& g, GroupKind kind);

// A group's row of index.html: the property violated, how many seeds, its replay files.
report::IndexRow finding_row(const Group& g, GroupKind kind, const ExploreOptions& o);

// "1 seed", "3 seeds".
std::string plural(size_t n, const std::string& word);
// "a, b, c", or "none".
std::string joined(const std::vector<std::string>& words);

}  // namespace locksim::app
