#include "server/fault_schedule.hpp"

#include <charconv>
#include <fstream>
#include <stdexcept>

#include "base/split_args.hpp"
#include "server/fault_command.hpp"
#include "world/time_limits.hpp"

namespace locksim::server {

std::vector<ScheduledFault> load_fault_schedule(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot read the fault schedule");
  std::vector<ScheduledFault> faults;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string where = path + ":" + std::to_string(number);
    const size_t hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    auto words = split_args(line);
    if (!words) throw std::runtime_error(where + ": unbalanced quotes");
    if (words->empty()) continue;
    ScheduledFault f;
    f.where = where;
    const std::string& at = (*words)[0];
    const auto [end, ec] = std::from_chars(at.data(), at.data() + at.size(), f.at_ms);
    if (ec != std::errc() || end != at.data() + at.size() || f.at_ms < 0 || f.at_ms > world::kRunMsMax)
      throw std::runtime_error(where + ": expected '<at_ms> <fault> [<param> <value>]...', got '" + at +
                               "' where the time (ms, 0 to " + std::to_string(world::kRunMsMax) + ") goes");
    f.argv = {"LOCKSIM.FAULT"};
    f.argv.insert(f.argv.end(), words->begin() + 1, words->end());
    ServedFault parsed;
    if (std::string problem = parse_fault(f.argv, parsed); !problem.empty())
      throw std::runtime_error(where + ": " + problem.substr(problem.rfind("ERR ", 0) == 0 ? 4 : 0));
    faults.push_back(std::move(f));
  }
  return faults;
}

}  // namespace locksim::server
