#pragma once
// Hazards by construction: what a configuration breaks in every Redisson version, as opposed to a
// bug (../shared/redisson-versions.md, "Hazards in every version"): an explicit lease shorter than
// the work it guards, a pause or partition longer than the lease, a restart that loses what was not
// persisted, a failover that loses what the replica had not received, a FairLock judged by skewed
// clocks.
//
// A hazard may explain one anomaly only: trouble on the network keeps a waiter from a free lock
// (`starved`, in liveness or fair_queue), but a lock that a slow link lets two owners hold is a bug
// to find.
//
// A counterexample is put down to a hazard by experiment, not by its looks: the hazard is removed
// from the shrunk plan (and nothing else), and if the property then holds, the hazard is what the
// violation needs. One table; the first hazard whose removal clears the violation names it, and
// "hazards-together" one that only all of them together explain.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "explore/generator.hpp"

namespace locksim::explore {

struct HazardInfo {
  std::string_view name;    // "lease-shorter-than-work"
  std::string_view reason;  // one line: why this is the configuration, not a bug
  // Whether `plan` has the hazard; and `plan` without it.
  bool (*present)(const Plan& plan, const ExploreConfig& config);
  Plan (*without)(const Plan& plan, const ExploreConfig& config);
  std::string_view anomaly = {};  // the one anomaly it explains, whichever property reports it; empty: any
  bool explains(std::string_view violated) const { return anomaly.empty() || anomaly == violated; }
};

const std::vector<HazardInfo>& hazards();

// `plan` without any hazard of the table that explains a violation with `anomaly`; `present` is set
// to the first it had (nullptr: none), `count` to how many it had.
Plan without_hazards(const Plan& plan, const ExploreConfig& config, std::string_view anomaly, const HazardInfo** present,
                     int* count = nullptr);

// The hazard a violation (with `anomaly`) in `plan` that holds without every hazard needs: the first
// of the table present (and explaining it) whose removal makes `keeps` (still violated) false; else the
// table's last entry, "hazards-together" (it has no present or without of its own). With one hazard
// present, it is that one and nothing is run.
const HazardInfo* hazard_of(const Plan& plan, const ExploreConfig& config, std::string_view anomaly,
                            const std::function<bool(const Plan&)>& keeps, int* runs = nullptr);

}  // namespace locksim::explore
