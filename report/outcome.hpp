#pragma once
// What a row of a report came to, the one vocabulary the terminal table, summary.md, junit.xml and
// index.html share: a violation that was expected reads differently from one that was not, a
// skipped scenario is skipped, and a verdict nothing was expected of is only seen. An audit reads
// its stories in words of its own (a bug that affects the version is "affected", one it fixed
// "fixed"), and a differential finding "differs": a test's pass or fail says nothing to the user
// of a Redisson version.
#include <string>
#include <string_view>

namespace locksim::report {

enum class Outcome {
  Pass,                 // expected holds (or an op pin met), and so it came out
  ExpectedViolation,    // expected violated, and the checker found the violation
  UnexpectedViolation,  // expected holds, observed violated
  MissedViolation,      // expected violated, but the property held (or could not be judged)
  Fail,                 // any other unmet expectation (an op pin, an unknown verdict)
  Seen,                 // no expectation: the verdict is shown, not judged
  Skipped,              // not run, and the row says why
  Error,                // the file did not load, the run stopped, or live servers could not be set up
  // locksim audit: what a Redisson bug or hazard does to the version audited.
  Affected,             // a bug the version has (an upgrade fixes it)
  Hazard,               // violated in every version: no upgrade helps, a mitigation does
  Fixed,                // a bug this version has fixed
  NotAffected,          // a bug the version has, which the options in use take away
  NotYet,               // a bug that begins in a later version
  Mitigated,            // a mitigation's story shows it working
  // locksim explore --against: one configuration's verdict differs from the other's.
  Differs,
};

// The row's outcome from what was expected ("" none), observed and whether that counts as passing.
Outcome outcome_of(std::string_view expected, std::string_view observed, bool passed);

// The terminal's word (pass, FAIL, seen, skipped): short, and one of them per row.
std::string_view outcome_word(Outcome outcome);
// The words a reader of summary.md and index.html sees ("pass: violation expected", "FAIL:
// unexpected violation", "affected").
std::string_view outcome_label(Outcome outcome);
// The CSS class index.html colours the result with, and the key its filters use.
std::string_view outcome_class(Outcome outcome);
// An unmet expectation, an error, a bug the audited version has or a difference: what "failed only"
// shows and what makes the exit code non-zero.
bool is_failure(Outcome outcome);

}  // namespace locksim::report
