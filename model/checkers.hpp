#pragma once
// Running checkers by name: "mutual_exclusion", "fencing", "reentrancy", "watchdog", "liveness", "fair_queue",
// "read_write".
// Each named checker gives one verdict, in the order asked; a checker that throws gives
// Validity::Unknown with the exception's message as explanation. Verdicts combine with merge
// (false beats unknown beats true).
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "model/fair_queue.hpp"
#include "model/fencing.hpp"
#include "model/history.hpp"
#include "model/liveness.hpp"
#include "model/mutual_exclusion.hpp"
#include "model/read_write.hpp"
#include "model/reentrancy.hpp"
#include "model/verdict.hpp"
#include "model/watchdog.hpp"

namespace locksim::model {

struct CheckerOptions {
  MutualExclusionOptions mutual_exclusion;
  FencingOptions fencing;
  ReentrancyOptions reentrancy;
  WatchdogOptions watchdog;
  LivenessOptions liveness;
  FairQueueOptions fair_queue;
  ReadWriteOptions read_write;
};

struct NamedChecker {
  std::string name;
  std::function<Verdict(const History&, const CheckerOptions&)> check;
};

// The seven checkers above, in that order.
const std::vector<NamedChecker>& standard_checkers();

// The verdicts of the checkers named `names`, looked up in `table`. Throws std::invalid_argument
// naming the first name the table does not have, before running any checker.
std::vector<Verdict> run_checkers(const History& history, const std::vector<std::string>& names,
                                  const CheckerOptions& options = {},
                                  const std::vector<NamedChecker>& table = standard_checkers());

// All verdicts merged: Yes for none.
Validity overall(const std::vector<Verdict>& verdicts);

}  // namespace locksim::model
