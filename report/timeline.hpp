#pragma once
// Timelines of a run, for people: what every client believed and waited for, what the server's lock
// key did, the faults, and the checkers' violations, on one virtual-time axis.
//
// render_timeline_html: one self-contained HTML file (inline CSS, JS and SVG; no network). At the top,
// whether each verdict met the scenario's expectation (an expected violation reads calm, an unexpected one
// red). A lane per client thread (believed-holding bars per lock, acquire waits hatched, other operations thin, outcome
// markers, renewals as ticks, writes, lost messages as red crosses), a lane per server (each key's
// life as a bar coloured by the client whose hold it carries, grey where a restart or failover left
// it unknown, every Exec as a tick), for a FairLock a lane for its waiter queue (a row per waiter:
// its place in the queue over time, its timeout score, how it left: granted, pruned, gave up; the
// wake-ups it got), a world lane only when the world has events of its own,
// faults shaded (client faults on the client's lanes, restart/failover as a band across every lane),
// violations in red: the explanation in a box at the top with "jump to first violation", the witness
// events ringed and marked by dashed lines. What it draws of beliefs, faults and keys comes from
// model/facts.hpp, the same facts the checkers judged; a bar still open when its client crashed ends at
// the crash. An operation still waiting when the run ended (model/pending.hpp) runs to the run's end
// with an arrow head there, and the header names each ("pending at the end: ...", a link that
// selects it). The page opens fitted to the span where something happens, which then runs to the
// run's end, so that no open wait is out of view (a button shows the whole run);
// the plot zooms (buttons, ctrl+wheel) and scrolls sideways. Hovering a mark shows its event's details,
// clicking it pins them in a side panel (so does the URL hash #select=<event index>, and the witness
// numbers in the violation box). Lane groups carry class="lane" and data-lane="A:1" (client A, thread
// 1), "redis0" or "queue orders". Supported widths: 800 px and up; the page's script checks that no
// label, axis label or box is cut off and lists what is in the body's data-overflow (empty: nothing).
//
// render_timeline_text: a header (verdicts first, each with whether it met the scenario's expectation
// when there is one; then the operations pending at the end with their Invoke events), then one
// line per event: time, index (a '!' marks
// a witness of a violation), a fixed-width column per client and per server with a short summary in
// the column of the event's process, and the event's long details (commands, replies, reasons) after
// the last column.
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "model/history.hpp"
#include "model/verdict.hpp"

namespace locksim::report {

struct TimelineInput {
  std::string title;                  // e.g. the scenario's name
  std::string about;                  // a sentence or two on what the run is
  std::string lock;                   // the lock the run is about (its key row comes first)
  std::string lock_type;              // its type (model/lock_types.hpp), "" when not known
  std::string redisson;               // the Redisson version it ran as, "" when not one of Redisson's
  std::vector<std::string> clients;   // lane order; clients found only in the history come after
  const model::History* history = nullptr;
  std::vector<model::Verdict> verdicts;
  // What the scenario expects of each verdict, in the same order: "holds", "violated", or "" (or
  // missing) when it expects nothing of it and the verdict is only observed.
  std::vector<std::string> expected;
  // Whether each verdict is what was expected, as the run judged it (scenario::PropertyResult::passed):
  // the page shows that judgement (report/outcome.hpp), it does not make its own.
  std::vector<bool> met;
  // A FairLock's threadWaitTime: with it each waiter's timeout score is drawn where its script put it
  // (the wait its acquire was told + this); -1 when not known: the told wait alone is drawn.
  int64_t thread_wait_ms = -1;
  bool real_time = false;  // a live run: its ms are real, not virtual
};

// Each writes its page to `out` as it goes, so a long history's timeline is never held whole; the
// render_ forms return the same bytes as a string.
void write_timeline_html(const TimelineInput& input, std::ostream& out);
void write_timeline_text(const TimelineInput& input, std::ostream& out);
std::string render_timeline_html(const TimelineInput& input);
std::string render_timeline_text(const TimelineInput& input);

}  // namespace locksim::report
