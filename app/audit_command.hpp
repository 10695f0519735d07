#pragma once
// `locksim audit --redisson X.Y.Z`: what a Redisson version risks, and what to do about it. Every
// row of the Redisson library (scenario/redisson_library.hpp) whose lock is in use runs its story as
// that version (scenario/audit.hpp); the report opens with the advice (report/audit_report.hpp),
// then a row per story. `--matrix` prints every row on every version where a behaviour changes.
#include <iosfwd>
#include <string>
#include <vector>

#include "report/text_table.hpp"
#include "scenario/loader.hpp"

namespace locksim::app {

struct AuditOptions {
  std::string redisson;                            // the version audited
  std::vector<std::string> locks;                  // the lock types in use; empty: every type
  std::vector<scenario::LockOption> lock_options;  // the configuration in use (--set), on every story
  std::string scenarios;                           // the library's root; empty: the one beside locksim (base/share_dir.hpp)
  std::string out = "reports/audit";
  std::string format = "text";                     // text (aligned to style.width) | md
  report::TextStyle style;                         // the terminal's width, and whether it takes colour
  bool self_check = false;                         // also check every verdict against the version table
  bool progress = false;
};

// Exit code: 0 no modelled bug that a version fixes affects the version (with the options in use),
// 1 one does (the advice says what to do), 2 bad usage or a story that does not load. With
// --self-check: 0 every verdict as the version table says, 1 one differs (a fault in locksim).
int run_audit(const AuditOptions& options, std::ostream& out, std::ostream& err);

// The version matrix (markdown): every modelled row's verdict on each version where a behaviour
// changes. docs/redisson-matrix.md is this output.
int print_matrix(const std::string& scenarios, std::ostream& out, std::ostream& err);

}  // namespace locksim::app
