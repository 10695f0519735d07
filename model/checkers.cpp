#include "model/checkers.hpp"

#include <algorithm>
#include <exception>
#include <stdexcept>

#include "model/anomaly.hpp"

namespace locksim::model {

const std::vector<NamedChecker>& standard_checkers() {
  static const std::vector<NamedChecker> table{
      {std::string(property::kMutualExclusion),
       [](const History& h, const CheckerOptions& o) { return check_mutual_exclusion(h, o.mutual_exclusion); }},
      {std::string(property::kFencing),
       [](const History& h, const CheckerOptions& o) { return check_fencing(h, o.fencing); }},
      {std::string(property::kReentrancy),
       [](const History& h, const CheckerOptions& o) { return check_reentrancy(h, o.reentrancy); }},
      {std::string(property::kWatchdog),
       [](const History& h, const CheckerOptions& o) { return check_watchdog(h, o.watchdog); }},
      {std::string(property::kLiveness),
       [](const History& h, const CheckerOptions& o) { return check_liveness(h, o.liveness); }},
      {std::string(property::kFairQueue),
       [](const History& h, const CheckerOptions& o) { return check_fair_queue(h, o.fair_queue); }},
      {std::string(property::kReadWrite),
       [](const History& h, const CheckerOptions& o) { return check_read_write(h, o.read_write); }},
  };
  return table;
}

std::vector<Verdict> run_checkers(const History& history, const std::vector<std::string>& names,
                                  const CheckerOptions& options, const std::vector<NamedChecker>& table) {
  std::vector<const NamedChecker*> chosen;
  for (const std::string& name : names) {
    const auto it = std::find_if(table.begin(), table.end(), [&](const NamedChecker& c) { return c.name == name; });
    if (it == table.end()) throw std::invalid_argument("no checker named '" + name + "'");
    chosen.push_back(&*it);
  }
  std::vector<Verdict> verdicts;
  for (const NamedChecker* checker : chosen) {
    try {
      Verdict v = checker->check(history, options);
      if (v.property.empty()) v.property = checker->name;
      verdicts.push_back(std::move(v));
    } catch (const std::exception& e) {
      verdicts.push_back(Verdict{checker->name, Validity::Unknown, "", {}, e.what()});
    } catch (...) {
      verdicts.push_back(Verdict{checker->name, Validity::Unknown, "", {}, "the checker threw a non-exception"});
    }
  }
  return verdicts;
}

Validity overall(const std::vector<Verdict>& verdicts) {
  Validity v = Validity::Yes;
  for (const Verdict& verdict : verdicts) v = merge(v, verdict.valid);
  return v;
}

}  // namespace locksim::model
