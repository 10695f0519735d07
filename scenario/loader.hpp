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
        file_(file), line_(line), message_(message) {}
  const std::string& file() const { return file_; }
  int line() const { return line_; }
  const std::string& message() const { return message_; }  // without the place

 private:
  std::string file_;
  int line_;
  std::string message_;
};

// One key of a scenario file's `lock:` and its value as YAML text ("unlock_latch", "true"): how
// `locksim explore` names a lock option on its command line.
struct LockOption {
  std::string key;
  std::string value;
  bool operator==(const LockOption&) const = default;
};

// Why the user's Lua file at `path` cannot stand in for a lock script (unreadable, or Redis would not
// compile it: the error as Redis words it); empty when it can.
std::string user_script_problem(const std::string& path);

// Applies `options` to `s` exactly as the loader reads those keys of a scenario file's `lock:` (with
// its checks; paths are relative to the working directory). `type` and `name` are not options.
// Throws std::invalid_argument whose text starts with `where` and says what was expected.
void apply_lock_options(const std::vector<LockOption>& options, const std::string& where, Scenario& s);

// Parses one scenario file; throws ScenarioError. A non-empty `redisson` ("3.23.0") runs the lock as
// that Redisson version instead of the file's `redisson:` (or the default); the file's explicit
// options still override the version's. A non-empty `lock_type` runs the file's lock as that type (the
// audit runs a story written for RLock as a lock whose client shares the code it shows); the file's
// lines still name every error.
Scenario load_scenario(const std::string& path, const std::string& redisson = "", const std::string& lock_type = "");

// The scenario files named by `paths` (files, or directories searched for *.yaml / *.yml, sorted).
// Throws std::runtime_error for a path that does not exist.
std::vector<std::string> find_scenario_files(const std::vector<std::string>& paths);

}  // namespace locksim::scenario
