#pragma once
// Timelines of a run, for people: what every client believed and waited for, what the server's lock
// key did, the faults, and the checkers' violations, on one virtual-time axis.
//
// render_timeline_html: one self-contained HTML file (inline CSS, JS and SVG; no network). A lane per
// client thread (believed-holding bars per lock, acquire waits hatched, other operations thin, outcome
// markers, renewals as ticks, writes, lost messages as red crosses), a lane per server (each key's
// life as a bar coloured by the client whose hold it carries, grey where a restart or failover left
// it unknown, every Exec as a tick),
// faults shaded (client faults on the client's lanes, restart/failover as a band across every lane),
// violations in red: the explanation in a box at the top with "jump to first violation", the witness
// events ringed and marked by dashed lines. What it draws of beliefs, faults and keys comes from
// model/facts.hpp, the same facts the checkers judged. Hovering a mark shows its event's details; the plot
// zooms (buttons, ctrl+wheel) and scrolls sideways. Lane groups carry class="lane" and
// data-lane="A:1" (client A, thread 1) or data-lane="redis0".
//
// render_timeline_text: a header (verdicts first), then one line per event: time, index (a '!' marks
// a witness of a violation), a fixed-width column per client and per server with a short summary in
// the column of the event's process, and the event's long details (commands, replies, reasons) after
// the last column.
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
  bool real_time = false;  // a live run: its ms are real, not virtual
};

std::string render_timeline_html(const TimelineInput& input);
std::string render_timeline_text(const TimelineInput& input);

}  // namespace locksim::report
