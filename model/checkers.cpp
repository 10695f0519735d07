#include "model/checkers.hpp"

#include <algorithm>
#include <exception>
#include <stdexcept>

#include "model/anomaly.hpp"

namespace locksim::model {
namespace {

// Liveness judges a FairLock's queue by the threadWaitTime the fair queue reads.
LivenessOptions liveness_options(const CheckerOptions& o) {
  LivenessOptions l = o.liveness;
  l.thread_wait_ms = o.fair_queue.thread_wait_ms;
  l.try_wait_replaces_thread_wait = o.fair_queue.try_wait_replaces_thread_wait;
  return l;
}

}  // namespace

const std::vector<NamedChecker>& standard_checkers() {
  static const std::vector<NamedChecker> table{
      {std::string(property::kMutualExclusion), "no two owners believe they hold one lock at once",
       [](const LockType& t) { return !t.sides; },
       [](const Facts& f, const CheckerOptions& o) { return mutual_exclusion_judge(f, o.mutual_exclusion); }},
      {std::string(property::kFencing), "the resource never accepts a token another holder used or beat",
       [](const LockType& t) { return t.fencing; },
       [](const Facts& f, const CheckerOptions& o) { return fencing_judge(f, o.fencing); }},
      {std::string(property::kReentrancy), "every acquire and unlock moves its holder's count by exactly one",
       [](const LockType& t) { return t.server_reentrant || t.client_reentrant || t.refuses_reentry; },
       [](const Facts& f, const CheckerOptions& o) { return reentrancy_judge(f, o.reentrancy); }},
      {std::string(property::kWatchdog), "holds without a lease are renewed while their holder lives, and only those",
       [](const LockType& t) { return t.watchdog; },
       [](const Facts& f, const CheckerOptions& o) { return watchdog_judge(f, o.watchdog); }},
      {std::string(property::kLiveness), "no waiter waits while the server holds the lock for nobody who can release it",
       [](const LockType&) { return true; },
       [](const Facts& f, const CheckerOptions& o) { return liveness_judge(f, liveness_options(o)); }},
      {std::string(property::kFairQueue), "live waiters are granted in the order they queued",
       [](const LockType& t) { return t.fair; },
       [](const Facts& f, const CheckerOptions& o) { return fair_queue_judge(f, o.fair_queue); }},
      {std::string(property::kReadWrite), "no writer overlaps another writer or a reader",
       [](const LockType& t) { return t.sides; },
       [](const Facts& f, const CheckerOptions& o) { return read_write_judge(f, o.read_write); }},
      // It reads the server's log alone, whatever the lock; only `locksim serve` records its inputs,
      // so no run judges it, and `locksim check` can.
      {std::string(property::kResource), "no client writes the protected counter from a value another client then changed",
       [](const LockType&) { return true; },
       [](const Facts& f, const CheckerOptions& o) { return protected_resource_judge(f, o.resource); }, false},
  };
  return table;
}

std::vector<std::string> property_names() {
  std::vector<std::string> names;
  for (const NamedChecker& c : standard_checkers()) names.push_back(c.name);
  return names;
}

std::vector<std::string> scenario_property_names() {
  std::vector<std::string> names;
  for (const NamedChecker& c : standard_checkers())
    for (const LockType& t : lock_types())
      if (c.run_inputs && c.applies(t)) {
        names.push_back(c.name);
        break;
      }
  return names;
}

std::string property_list(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " or " : ", ";
    out += names[i];
  }
  return out;
}

std::vector<std::string> applicable_properties(std::string_view lock_type) {
  const LockType* type = find_lock_type(lock_type);
  std::vector<std::string> names;
  for (const NamedChecker& c : standard_checkers())
    if (!type || (c.run_inputs && c.applies(*type))) names.push_back(c.name);
  return names;
}

std::string applicability_problem(std::string_view property, std::string_view lock_type) {
  if (std::string problem = lock_problem(property, lock_type); !problem.empty()) return problem;
  const auto& table = standard_checkers();
  const auto it = std::find_if(table.begin(), table.end(), [&](const NamedChecker& c) { return c.name == property; });
  // A type the table does not know refuses nothing, as lock_problem does.
  if (it->run_inputs || !find_lock_type(lock_type)) return "";
  return "property '" + std::string(property) + "' is judged from a server's log of the protected resource (locksim " +
         "serve --resource, then locksim check), which a run does not record; for " + std::string(lock_type) + " use " +
         property_list(applicable_properties(lock_type));
}

std::string lock_problem(std::string_view property, std::string_view lock_type) {
  const auto& table = standard_checkers();
  const auto it = std::find_if(table.begin(), table.end(), [&](const NamedChecker& c) { return c.name == property; });
  if (it == table.end()) return "unknown property '" + std::string(property) + "' (expected " + property_list(property_names()) + ")";
  const LockType* type = find_lock_type(lock_type);
  if (!type || it->applies(*type)) return "";
  return "property '" + std::string(property) + "' does not apply to a " + std::string(lock_type) +
         " lock (it judges that " + it->about + "); for " + std::string(lock_type) + " use " +
         property_list(applicable_properties(lock_type));
}

std::vector<const NamedChecker*> choose_checkers(const std::vector<std::string>& names, const CheckerOptions& options,
                                                 const std::vector<NamedChecker>& table) {
  const LockType* type = find_lock_type(options.lock_type);
  std::vector<const NamedChecker*> chosen;
  for (const std::string& name : names) {
    const auto it = std::find_if(table.begin(), table.end(), [&](const NamedChecker& c) { return c.name == name; });
    if (it == table.end()) throw std::invalid_argument("no checker named '" + name + "'");
    if (type && it->applies && !it->applies(*type)) throw std::invalid_argument(applicability_problem(name, options.lock_type));
    chosen.push_back(&*it);
  }
  return chosen;
}

Verdict guarded(const NamedChecker& checker, const std::function<Verdict()>& check) {
  try {
    Verdict v = check();
    if (v.property.empty()) v.property = checker.name;
    return v;
  } catch (const std::exception& e) {
    Verdict v;
    v.property = checker.name;
    v.valid = Validity::Unknown;
    v.explanation = e.what();
    return v;
  } catch (...) {
    Verdict v;
    v.property = checker.name;
    v.valid = Validity::Unknown;
    v.explanation = "the checker threw a non-exception";
    return v;
  }
}

std::vector<Verdict> run_checkers(const History& history, const std::vector<std::string>& names,
                                  const CheckerOptions& options, const std::vector<NamedChecker>& table) {
  const std::vector<const NamedChecker*> chosen = choose_checkers(names, options, table);
  std::vector<Verdict> verdicts;
  if (chosen.empty()) return verdicts;
  const Facts facts(history, find_lock_type(options.lock_type));
  for (const NamedChecker* checker : chosen)
    verdicts.push_back(guarded(*checker, [&] { return judge_whole(*checker->judge(facts, options), facts); }));
  return verdicts;
}

Validity overall(const std::vector<Verdict>& verdicts) {
  Validity v = Validity::Yes;
  for (const Verdict& verdict : verdicts) v = merge(v, verdict.valid);
  return v;
}

}  // namespace locksim::model
