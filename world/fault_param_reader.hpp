#pragma once
// Reads a fault's parameters from the words a user wrote: a scenario file's values, LOCKSIM.FAULT's
// arguments, a line of serve's schedule file, a search's --faults. One reader against one table of
// ranges (world/fault.hpp's parameters), so that every way in accepts the same values and refuses a
// bad one with the same words; each caller adds only where (file:line:column, or the command).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "world/fault.hpp"

namespace locksim::world {

// An integer as a user writes one: digits, an optional sign, and underscores between two digits
// (30_000). nullopt for anything else, or past 64 bits.
std::optional<int64_t> parse_grouped_integer(std::string_view text);

// Sets `param` of `fault` from `text`. "" when `text` is a value in the parameter's range; else what
// was expected ("for_ms is at most 1000000000 ms (about 11.6 days, the longest run), not 5e9").
std::string read_fault_param(Fault& fault, FaultParam param, std::string_view text);

// Whether a fault of its kind must name `param`: a duration or amount with no sensible default.
bool fault_param_required(const Fault& fault, FaultParam param);

// What is wrong with a fault once its parameters are read, given which were written: one it needs
// and lacks, or two that do not go together (a failover via sentinel with a lag). `at` is the
// parameter to point at, or nullopt for the whole step.
struct FaultParamsProblem {
  std::optional<FaultParam> at{};
  std::string text{};
};
std::optional<FaultParamsProblem> fault_params_problem(const Fault& fault, const std::vector<FaultParam>& given);

}  // namespace locksim::world
