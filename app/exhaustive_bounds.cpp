#include "app/exhaustive_bounds.hpp"

#include <algorithm>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "app/cli_values.hpp"
#include "world/fault_param_reader.hpp"

namespace locksim::app {
namespace {

// KIND[=MS][@CLIENT][:COUNT]: "crash", "pause=20000:1", "crash@A:2".
world::ScheduleBounds::FaultBudget parse_fault(const std::string& text, const scenario::Scenario& s) {
  std::string rest = text;
  world::ScheduleBounds::FaultBudget budget{{}, 1};
  const auto fail = [&](const std::string& why) {
    throw std::invalid_argument("--faults " + text + ": " + why + " (expected KIND[=MS][@CLIENT][:COUNT], e.g. crash:1,pause=15000:1)");
  };
  if (const auto colon = rest.rfind(':'); colon != std::string::npos) {
    const auto count = parse_integer(rest.substr(colon + 1));
    if (!count) fail("the count is not a number");
    if (*count < 1) fail("the count is at least 1");
    if (*count > std::numeric_limits<int>::max()) fail("the count is at most " + std::to_string(std::numeric_limits<int>::max()));
    budget.count = static_cast<int>(*count);
    rest = rest.substr(0, colon);
  }
  if (const auto at = rest.find('@'); at != std::string::npos) {
    budget.fault.client = rest.substr(at + 1);
    rest = rest.substr(0, at);
    if (std::none_of(s.clients.begin(), s.clients.end(), [&](const auto& c) { return c.name == budget.fault.client; }))
      fail("no client named '" + budget.fault.client + "'");
  }
  std::string ms;
  if (const auto eq = rest.find('='); eq != std::string::npos) {
    ms = rest.substr(eq + 1);
    rest = rest.substr(0, eq);
  }
  const world::FaultInfo* info = world::find_fault(rest);
  if (!info) fail("unknown fault '" + rest + "' (expected " + world::fault_list() + ")");
  budget.fault.kind = info->kind;
  if (info->on_server) fail("a server's fault goes in the file's bounded.faults, with its parameters");
  for (const world::FaultParam p : info->params)
    if (p != world::FaultParam::ForMs) fail(std::string(info->name) + " takes parameters: put it in the file's bounded.faults");
  if (info->lasts()) {
    if (ms.empty()) fail(std::string(info->name) + " lasts: give its duration, " + std::string(info->name) + "=MS");
    if (const std::string problem = world::read_fault_param(budget.fault, world::FaultParam::ForMs, ms); !problem.empty())
      fail(problem);
  } else if (!ms.empty()) {
    fail(std::string(info->name) + " takes no duration");
  }
  return budget;
}

}  // namespace

std::string bounds_text(const world::ScheduleBounds& b) {
  std::ostringstream out;
  out << "latencies {";
  for (size_t i = 0; i < b.latencies.size(); ++i) out << (i ? ", " : "") << b.latencies[i];
  out << "} ms";
  if (b.latencies.size() > 1) out << " (slow messages " << (b.slow_max < 0 ? "any number" : "at most " + std::to_string(b.slow_max)) << ")";
  out << ", messages lost at most " << b.lost_max << ", faults ";
  if (b.faults.empty()) out << "none";
  for (size_t i = 0; i < b.faults.size(); ++i) {
    const world::Fault& f = b.faults[i].fault;
    out << (i ? ", " : "") << world::fault_name(f);
    if (world::fault_info(f.kind).lasts()) out << " " << f.for_ms << " ms";
    if (!f.client.empty()) out << " of " << f.client;
    out << " x" << b.faults[i].count;
  }
  if (!b.clock_offsets.empty()) {
    out << ", clock offsets {";
    for (size_t i = 0; i < b.clock_offsets.size(); ++i) out << (i ? ", " : "") << b.clock_offsets[i];
    out << "} ms";
  }
  out << ", depth " << b.depth << ", reduction " << (b.reduce ? "on" : "off");
  return out.str();
}

world::ScheduleBounds search_bounds(const ExhaustiveCommandOptions& o, const scenario::Scenario& s) {
  world::ScheduleBounds bounds = s.bounded.value_or(world::ScheduleBounds{});
  if (!o.latencies.empty()) bounds.latencies = o.latencies;
  if (!o.clock_offsets.empty()) bounds.clock_offsets = o.clock_offsets;
  if (o.slow_max) bounds.slow_max = *o.slow_max;
  if (o.lost_max) bounds.lost_max = *o.lost_max;
  if (o.depth) bounds.depth = *o.depth;
  if (o.no_reduce) bounds.reduce = false;
  if (o.no_faults) bounds.faults.clear();
  if (!o.faults.empty()) {
    bounds.faults.clear();
    for (const std::string& f : o.faults) bounds.faults.push_back(parse_fault(f, s));
  }
  return bounds;
}

}  // namespace locksim::app
