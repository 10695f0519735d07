#pragma once
// Hazards by construction: what a configuration breaks in every Redisson version, as opposed to a
// bug (../shared/redisson-versions.md, "Hazards in every version"): an explicit lease shorter than
// the work it guards, a pause or partition longer than the lease, a restart that loses what was not
// persisted, a failover that loses what the replica had not received, a FairLock judged by skewed
// clocks, network trouble that no lock survives.
//
// A hazard may explain some anomalies only, and network trouble only within a bound the violating
// run shows (DESIGN.md, Properties, "Findings"): it explains a waiter kept from a free lock
// (`starved`) only when the waiter sat out at most one retry interval of its client after the
// trouble ended, and two owners in one lock only when the trouble left the holder whose key expired
// less than one renewal period of working connection, in one stretch, before the expiry. A holder
// that had a renewal period and still lost its key (#3194) is a finding.
//
// A counterexample is put down to a hazard by experiment, not by its looks: the hazard is removed
// from the plan (and nothing else), and if the property then holds, the hazard is what the
// violation needs; the bound only decides whether the trouble may be the hazard. One table; the
// first hazard whose removal clears the violation names it, and "hazards-together" one that only
// all of them together explain.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "explore/generator.hpp"
#include "model/facts.hpp"
#include "model/history.hpp"
#include "model/verdict.hpp"

namespace locksim::explore {

// A violation as the run that showed it: what a hazard's bound reads.
struct Violation {
  const scenario::Scenario* scenario = nullptr;  // the case as it ran (its lock's options)
  const model::History* history = nullptr;
  const model::Verdict* verdict = nullptr;       // the violated property's
  // The facts of `history`, learnt once for every bound that reads them (learning them is most of
  // a bound's cost, and one violation is weighed by several); copies share them.
  const model::Facts& facts() const;
  mutable std::shared_ptr<const model::Facts> learnt{};
};

struct HazardInfo {
  std::string_view name;    // "lease-shorter-than-work"
  std::string_view reason;  // one line: why this is the configuration, not a bug
  // Whether `plan` has the hazard; and `plan` without it.
  bool (*present)(const Plan& plan, const ExploreConfig& config);
  Plan (*without)(const Plan& plan, const ExploreConfig& config);
  // The anomalies it explains, whichever property reports them; empty: any.
  std::vector<std::string_view> anomalies = {};
  // Whether it can explain this violation of an anomaly it explains (null: every one), whatever its
  // removal does to the run: a violation it cannot cause is a finding even where it is present.
  bool (*excuses)(const Violation& violation) = nullptr;
  // Whether the violation lies within what the hazard may explain (null: whatever the run shows).
  // A bounded hazard is present only where its bound holds on the violating run.
  bool (*bound)(const Violation& violation) = nullptr;
  bool explains(std::string_view anomaly) const;
  // Present in `plan`, and within its bound on `violation` (a bounded hazard without one: not present).
  bool applies(const Plan& plan, const ExploreConfig& config, const Violation* violation) const;
};

const std::vector<HazardInfo>& hazards();

// `plan` without every hazard of the table that explains a violation with `anomaly` (as `violation`
// shows it: bounded hazards need it); `removed`, when given, gets those it had, in the table's order.
Plan without_hazards(const Plan& plan, const ExploreConfig& config, std::string_view anomaly, const Violation* violation,
                     std::vector<const HazardInfo*>* removed = nullptr);

// The hazard a violation (with `anomaly`) in `plan` needs, given the hazards taken out of it
// (`removed`, in the table's order) without which it holds: the first that explains `anomaly` and
// whose removal alone makes `keeps` (still violated) false; else the table's last entry,
// "hazards-together" (it has no present or without of its own). A hazard removed only once the
// case told another story (a lease taken out, the network then starved a waiter) names no anomaly
// it does not explain. With one hazard removed, it is that one and nothing is run.
const HazardInfo* hazard_of(const Plan& plan, const ExploreConfig& config, std::string_view anomaly,
                            const std::vector<const HazardInfo*>& removed, const std::function<bool(const Plan&)>& keeps,
                            int* runs = nullptr);

// Whether the server had the lease each acquire of the violating run asked for (the lease hazard
// excuses only those): a lease the client garbled or dropped is the bug, not the user's choice.
bool leases_reached_the_server(const Violation& violation);

// Whether a bounded hazard present in `plan` is within its bound on `violation`: a shrink that
// keeps a finding must not drift into a case that network trouble may explain.
bool within_a_bound(const Plan& plan, const ExploreConfig& config, const Violation& violation);

// The retry interval of a client of the lock `scenario` configures: the longest it may take to learn
// that a message sent as network trouble ended was lost and to act on it: a command's timeout, then
// its resend delay (a polling lock's sleep between tries added), or a Redisson waiter's
// subscriptionTimeout (a lost SUBSCRIBE is not resent). A waiter may sit that out after the trouble.
int64_t retry_interval_ms(const scenario::Scenario& scenario);

}  // namespace locksim::explore
