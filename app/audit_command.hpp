#pragma once
// `locksim audit --redisson X.Y.Z`: what a Redisson version risks. Every row of the Redisson library
// (scenario/redisson_library.hpp) whose lock is in use runs its story as that version; the table
// says which bugs affect it (violated), which it has fixed (holds), the hazards no version avoids,
// and what is not modelled. A verdict that disagrees with the version table is a failure.
#include <iosfwd>
#include <string>
#include <vector>

#include "scenario/loader.hpp"

namespace locksim::app {

struct AuditOptions {
  std::string redisson;                            // the version audited
  std::vector<std::string> locks;                  // the lock types in use; empty: every type
  std::vector<scenario::LockOption> lock_options;  // the configuration in use (--set), on every story
  std::string scenarios;                           // the library's root; empty: the one beside locksim (base/share_dir.hpp)
  std::string out = "reports/audit";
  bool progress = false;
};

// Exit code: 0 every verdict as the version table says, 1 one differs (without --set, a fault in
// locksim's model or table; with it, the options in use bring a bug back or take it away), 2 bad
// usage or a story that does not load.
int run_audit(const AuditOptions& options, std::ostream& out, std::ostream& err);

// The version matrix (markdown): every modelled row's verdict on each version where a behaviour
// changes. docs/redisson-matrix.md is this output.
int print_matrix(const std::string& scenarios, std::ostream& out, std::ostream& err);

}  // namespace locksim::app
