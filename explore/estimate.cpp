#include "explore/estimate.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <sstream>

#include "base/state_writer.hpp"
#include "world/world.hpp"

namespace locksim::explore {
namespace {

// log10(sum of 10^x over xs), without overflow.
double log10_sum(const std::vector<double>& xs) {
  const double top = *std::max_element(xs.begin(), xs.end());
  double sum = 0;
  for (const double x : xs) sum += std::pow(10.0, x - top);
  return top + std::log10(sum);
}

std::string power_of_ten(double log10) {
  std::ostringstream out;
  if (log10 < 6) {
    out << static_cast<uint64_t>(std::llround(std::pow(10.0, log10)));
  } else {
    const double exponent = std::floor(log10);
    out.precision(2);
    out << std::fixed << std::pow(10.0, log10 - exponent) << "e" << static_cast<int>(exponent);
  }
  return out.str();
}

}  // namespace

StateSpaceEstimate estimate_state_space(const scenario::Scenario& scenario, const ExhaustiveOptions& o, uint64_t samples) {
  world::ScheduleBounds bounds = o.bounds;
  bounds.cost_max = -1;
  world::ChoiceScheduler(bounds, {});  // refuses bounds that cannot run
  scenario::Scenario s = scenario;
  s.expect.clear();  // nothing judged: only the tree is measured
  if (!s.world.script_texts) s.world.script_texts = std::make_shared<client::ScriptTexts>();
  s.bounded = bounds;
  s.choices.clear();

  StateSpaceEstimate e;
  const auto started = std::chrono::steady_clock::now();
  std::vector<double> products;
  std::map<Fingerprint, std::pair<uint64_t, uint64_t>> states;  // -> (samples met in, the last one)
  double points = 0;
  for (uint64_t seed = 1; seed <= samples; ++seed) {
    if (o.stop && o.stop()) break;
    world::ChoiceScheduler chooser(bounds, {});
    chooser.draw_past_list(seed);
    scenario::Backend backend;
    backend.scheduler = &chooser;
    backend.observe_steps = [&](const world::World& w) {
      if (!e.fingerprinted) return;
      StateWriter out;
      if (!w.describe(out)) {
        e.fingerprinted = false;
        e.not_whole = "the lock " + s.lock.type + " does not describe its state yet (docs/exhaustive.md)";
        return;
      }
      out.begin("bounds");
      chooser.describe(out);
      out.end();
      auto& [met, last] = states[out.fingerprint()];
      if (last != seed) ++met;
      last = seed;
    };
    const scenario::ScenarioResult run = scenario::run_scenario(s, backend);
    if (run.error) throw std::runtime_error("schedule " + std::to_string(seed) + " stopped: " + *run.error);
    double log10_product = 0;
    for (const world::ChoiceRecord& c : chooser.choices()) log10_product += std::log10(static_cast<double>(c.options));
    products.push_back(log10_product);
    points += static_cast<double>(chooser.choices().size());
    ++e.samples;
  }
  e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (products.empty()) return e;
  const double n = static_cast<double>(products.size());
  e.log10_schedules = log10_sum(products) - std::log10(n);
  e.log10_smallest = *std::min_element(products.begin(), products.end());
  e.log10_largest = *std::max_element(products.begin(), products.end());
  e.choice_points = points / n;
  // The standard error of the mean, relative to it, in units of the mean (so no product overflows).
  double squares = 0;
  for (const double p : products) squares += std::pow(std::pow(10.0, p - e.log10_schedules) - 1.0, 2);
  e.relative_error = n > 1 ? std::sqrt(squares / (n - 1)) / std::sqrt(n) : 0;
  if (e.fingerprinted) {
    e.states_seen = states.size();
    for (const auto& [f, seen] : states) {
      if (seen.first == 1) ++e.states_once;
      if (seen.first == 2) ++e.states_twice;
    }
    const double f1 = static_cast<double>(e.states_once), f2 = static_cast<double>(e.states_twice);
    e.states_chao1 = static_cast<double>(e.states_seen) + (f2 > 0 ? f1 * f1 / (2 * f2) : f1 * (f1 - 1) / 2);
  }
  return e;
}

std::string describe(const StateSpaceEstimate& e) {
  std::ostringstream out;
  out << "estimate from " << e.samples << " random schedules (" << static_cast<int64_t>(std::lround(e.seconds * 10)) / 10.0
      << " s):\n";
  out << "  schedules within the bounds: about " << power_of_ten(e.log10_schedules);
  if (e.samples > 1) out << " (Knuth's estimator; relative standard error " << std::lround(e.relative_error * 100) << "%)";
  out << "\n  a schedule meets " << std::lround(e.choice_points) << " choice points on average; their products ranged from "
      << power_of_ten(e.log10_smallest) << " to " << power_of_ten(e.log10_largest) << "\n";
  if (!e.fingerprinted) {
    out << "  distinct states: not counted: " << e.not_whole << "\n";
  } else {
    out << "  distinct states: " << e.states_seen << " seen (" << e.states_once << " in one schedule only); Chao1 estimate "
        << power_of_ten(std::log10(std::max(e.states_chao1, 1.0))) << " (rough: random schedules meet early states far more often)\n";
  }
  return out.str();
}

}  // namespace locksim::explore
