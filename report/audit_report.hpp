#pragma once
// An audit (scenario/audit.hpp) for people. Every form opens with what to do: the version to
// upgrade to and the bugs it fixes, the fixes' options that take a bug away short of it, and what
// no version avoids with its mitigation and the scenario that shows it working. Then the table: a
// row per story, read as the version's user reads it (affected, fixed, affected in every version),
// with a replay command whose path is relative to the report folder. The terminal's form fits its
// width; summary.md (and --format md) is the same in Markdown; index.html the same as a page, with
// the checkers' explanations. Whether each verdict is what locksim's version table says is locksim
// checking itself: write_self_check prints that, apart.
#include <iosfwd>
#include <string>
#include <vector>

#include "report/run_index.hpp"
#include "report/text_table.hpp"
#include "scenario/audit.hpp"

namespace locksim::report {

// How the audit reads a story: affected, fixed, ... (report/outcome.hpp's audit outcomes).
Outcome audit_outcome(const scenario::StoryRun& run);

// What to do, as sections of advice (the page's, the terminal's and the Markdown's are these).
// Links and paths are relative to the report folder.
std::vector<AdviceSection> audit_advice(const scenario::Audit& audit);

// The terminal's form, `out_dir` named where the replay commands run from.
void write_audit_text(const scenario::Audit& audit, const std::string& out_dir, const TextStyle& style, std::ostream& out);
// The Markdown form (summary.md; `links`: the timelines as links, for a file beside them).
std::string audit_markdown(const scenario::Audit& audit, const std::string& out_dir, bool links);

// index.html, summary.md, results.json, junit.xml, and per story and mitigation a folder with its
// history, timelines and the story as it ran (story.yaml: `locksim run <folder>` replays it).
// Throws std::runtime_error naming a path it cannot write.
void write_audit_reports(const scenario::Audit& audit, const std::string& dir);

// Each story's verdict against the version table, the ones that differ named; true when none does.
bool write_self_check(const scenario::Audit& audit, const TextStyle& style, std::ostream& out);

}  // namespace locksim::report
