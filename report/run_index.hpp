#pragma once
// index.html: the page to open after a run, explore or audit. An audit's advice first, then a row per
// scenario and property (or per finding) with what was expected, what was observed, the outcome (an
// expected violation reads apart from an unexpected one; skipped is skipped; an audit's bug reads
// affected or fixed) and the checker's explanation, under a heading per
// scenario with relative links to its files and, when its run ended with operations still waiting,
// a "pending" badge naming them; a header with the counts and what ran; filters (failed only,
// violations only, pending operations only where a scenario left one waiting, lock type) that the
// URL's hash can also set (#failed&violated&pending&lock=rlock).
// Self-contained: the CSS and script are inline (report/index.css, report/index.js), nothing is
// fetched.
#include <string>
#include <utility>
#include <vector>

#include "report/outcome.hpp"

namespace locksim::report {

struct IndexLink {
  std::string label;  // "timeline"
  std::string href;   // relative to index.html: "pubsub-wakeup/timeline.html"
};

// Consecutive rows with the same scenario share one heading, which shows the first one's name,
// lock, links, note and about.
struct IndexRow {
  std::string scenario;  // its name (explore: the finding's id)
  std::string about;     // a line under the name ("" none)
  std::string lock;      // the lock type, what the lock filter matches ("" none)
  std::string lock_label;  // as shown: "rlock, Redisson 3.52.0" ("" shows `lock`)
  std::string property;
  std::string expected;  // holds | violated | ok | ... ("-" none)
  std::string observed;
  Outcome outcome = Outcome::Pass;
  std::string explanation;  // the verdict's prose, the error or why it was skipped
  std::vector<IndexLink> links;
  std::string note;  // small print after the links: "0.12 s", "12 seeds (first 410)"
  // What was still waiting when the scenario's run ended (model::PendingOps::describe), "" nothing:
  // shown under the heading with a "pending" badge, and what the "pending only" filter keeps.
  std::string pending;
};

// What to do, before the table (an audit's advice): a heading and its items, each a line of text
// with, where there is one, a command or option to copy and links to the files that show it.
struct AdviceItem {
  std::string text;
  std::string code;  // shown as code after the text ("" none)
  std::vector<IndexLink> links;
  std::string command;  // what a terminal shows for the links: the command that replays them ("" none)
};
struct AdviceSection {
  std::string heading;
  std::vector<AdviceItem> items;
  std::string kind;  // its colour: "act" (an upgrade, a fix), "mitigate" (what no version avoids), "" plain
};

struct IndexPage {
  std::string title;  // "locksim run"
  std::vector<std::pair<std::string, std::string>> facts;  // what ran: {"backend", "fake"}, ...
  std::string summary;  // the one-line count the terminal printed
  std::vector<AdviceSection> advice;  // between the header and the table
  std::string expected_heading = "expected";  // the column of what was expected (an audit: versions affected)
  std::string failed_label = "failed only";   // the filter of the rows is_failure() marks
  std::vector<IndexRow> rows;
};

std::string render_run_index(const IndexPage& page);

}  // namespace locksim::report
