#pragma once
// Reading scenario files. Every mistake a user can make is a ScenarioError that names the file,
// line and column and says what was expected; nothing is guessed or silently skipped.
#include <stdexcept>
#include <string>
#include <vector>

#include "scenario/scenario.hpp"

namespace locksim::scenario {

class ScenarioError : public std::runtime_error {
 public:
  ScenarioError(const std::string& file, int line, int column, const std::string& message)
      : std::runtime_error(file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + message),
        file_(file), line_(line) {}
  const std::string& file() const { return file_; }
  int line() const { return line_; }

 private:
  std::string file_;
  int line_;
};

// Why the user's Lua file at `path` cannot stand in for a lock script (unreadable, or Redis would not
// compile it: the error as Redis words it); empty when it can.
std::string user_script_problem(const std::string& path);

// Parses one scenario file; throws ScenarioError.
Scenario load_scenario(const std::string& path);

// The scenario files named by `paths` (files, or directories searched for *.yaml / *.yml, sorted).
// Throws std::runtime_error for a path that does not exist.
std::vector<std::string> find_scenario_files(const std::vector<std::string>& paths);

}  // namespace locksim::scenario
