#pragma once
// Running checkers by name: "mutual_exclusion", "fencing", "reentrancy", "watchdog", "liveness",
// "fair_queue", "read_write", "resource". The history's facts (facts.hpp) are worked out once and every checker
// reads them. Each checker says which lock types it judges (lock_types.hpp); naming one that does
// not apply to the history's lock type is an error, never a silent "holds". A checker that throws
// gives Validity::Unknown with the exception's message as explanation. Verdicts combine with merge
// (false beats unknown beats true).
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/facts.hpp"
#include "model/fair_queue.hpp"
#include "model/fencing.hpp"
#include "model/history.hpp"
#include "model/judge.hpp"
#include "model/liveness.hpp"
#include "model/lock_types.hpp"
#include "model/mutual_exclusion.hpp"
#include "model/protected_resource.hpp"
#include "model/read_write.hpp"
#include "model/reentrancy.hpp"
#include "model/verdict.hpp"
#include "model/watchdog.hpp"

namespace locksim::model {

struct CheckerOptions {
  std::string lock_type;  // the history's lock type (lock_types.hpp); "" when not known: all apply
  MutualExclusionOptions mutual_exclusion;
  FencingOptions fencing;
  ReentrancyOptions reentrancy;
  WatchdogOptions watchdog;
  LivenessOptions liveness;
  FairQueueOptions fair_queue;
  ReadWriteOptions read_write;
  ProtectedResourceOptions resource;
};

struct NamedChecker {
  std::string name;
  std::string about;  // what it judges, in a line
  std::function<bool(const LockType&)> applies;
  // The checker, as a judge (judge.hpp): given a whole history's facts (judge_whole), or a stream's
  // as they grow (stream_judging.hpp).
  std::function<std::unique_ptr<Judge>(const Facts&, const CheckerOptions&)> judge;
  // Whether a run of locksim's clients records what it reads. resource's inputs come only from a
  // server's log of the protected counter (`locksim serve --resource`), whatever the lock.
  bool run_inputs = true;
};

// The eight checkers above, in that order.
const std::vector<NamedChecker>& standard_checkers();

// Every property name, in table order, and "a, b, ... or g" for messages.
std::vector<std::string> property_names();
// The properties a scenario file or exploration can judge: those that apply to some modelled lock
// type (resource is judged only on histories `locksim serve` records).
std::vector<std::string> scenario_property_names();
std::string property_list(const std::vector<std::string>& names);

// The properties a run of `lock_type` can judge (every one for a type the table does not know).
std::vector<std::string> applicable_properties(std::string_view lock_type);
// "" when `property` is a checker that applies to `lock_type`; otherwise why not, naming the ones
// that do. For a recorded history (`locksim check`).
std::string lock_problem(std::string_view property, std::string_view lock_type);
// The same for a run (a scenario, an exploration, a search), which records no protected resource.
std::string applicability_problem(std::string_view property, std::string_view lock_type);

// The verdicts of the checkers named `names`, looked up in `table`. Throws std::invalid_argument
// naming the first name the table does not have, or that does not apply to options.lock_type,
// before running any checker.
std::vector<Verdict> run_checkers(const History& history, const std::vector<std::string>& names,
                                  const CheckerOptions& options = {},
                                  const std::vector<NamedChecker>& table = standard_checkers());

// The checkers named `names` in `table`, checked as run_checkers checks them (it throws the same).
std::vector<const NamedChecker*> choose_checkers(const std::vector<std::string>& names, const CheckerOptions& options,
                                                 const std::vector<NamedChecker>& table = standard_checkers());
// `check` run for `checker`, its verdict named after it; a throw is an unknown verdict saying why.
Verdict guarded(const NamedChecker& checker, const std::function<Verdict()>& check);

// All verdicts merged: Yes for none.
Validity overall(const std::vector<Verdict>& verdicts);

}  // namespace locksim::model
