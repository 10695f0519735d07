// The timeline's legend: an entry for every mark, line style and colour the plot can draw, each
// drawn as a small copy of the mark with the plot's own classes (so the page's one stylesheet
// colours both alike) and naming, in data-for, the CSS selector of the plot's elements it explains.
// The page's script shows only the entries whose marks the plot has, and lists in the body's
// data-unexplained any drawn mark no entry explains (the Chromium test reads it). The faults'
// entries come from the fault table (model/fault_events.hpp), so a new fault kind has one.
#include <string>
#include <vector>

#include "model/fault_events.hpp"
#include "report/markup.hpp"
#include "report/timeline_plot.hpp"

namespace locksim::report::timeline {
namespace {

struct Entry {
  std::string selector;  // the plot's elements it explains
  std::string shape;     // SVG inside a 26 x 14 swatch
  std::string label;
};

// A mark drawn as the plot draws it: a group of `classes` at the swatch's centre.
std::string mark(const std::string& classes, const std::string& inner, double x = 13) {
  return "<g class=\"" + classes + "\" transform=\"translate(" + num(x) + ",7)\">" + inner + "</g>";
}
const char* const kBar = "<rect x=\"1\" y=\"2\" width=\"24\" height=\"10\" fill=\"#3467c8\" class=\"";
const char* const kTick = "<rect x=\"-1\" y=\"-6\" width=\"2\" height=\"12\"/>";

std::vector<Entry> entries() {
  std::vector<Entry> e = {
      // What each client thread believed and did.
      {".hold:not(.open)", std::string(kBar) + "hold\"/>", "believes it holds the lock"},
      {".hold.open", std::string(kBar) + "hold open\"/>", "believes it holds until the run's end (or its crash)"},
      {".mark.notch", std::string(kBar) + "hold\"/>" + mark("mark notch", "<rect x=\"-1\" y=\"-7\" width=\"2\" height=\"14\"/>"),
       "re-entry or partial unlock"},
      {".op.wait:not(.pending)", "<rect x=\"1\" y=\"2.5\" width=\"24\" height=\"9\" class=\"op wait\" stroke=\"#3467c8\"/>",
       "waits to acquire"},
      {".op.pending,.mark.pending-end",
       "<rect x=\"1\" y=\"2.5\" width=\"18\" height=\"9\" class=\"op wait open pending\" stroke=\"#3467c8\"/>" +
           mark("mark pending-end", "<path d=\"M-9,-6 L0,0 L-9,6 Z\"/>", 25),
       "still waiting at the run's end"},
      {".op:not(.wait):not(.open)", "<rect x=\"1\" y=\"5\" width=\"24\" height=\"4\" class=\"op\"/>",
       "another operation (unlock, work, ...)"},
      {".op.open:not(.pending)", "<rect x=\"1\" y=\"5\" width=\"24\" height=\"4\" class=\"op open\"/>",
       "an operation its client's crash or the run's end cut off"},
      {".mark.ok", mark("mark ok", "<circle r=\"3.5\"/>"), "succeeded"},
      {".mark.fail", mark("mark fail", "<rect x=\"-3.5\" y=\"-3.5\" width=\"7\" height=\"7\"/>"), "failed"},
      {".mark.info", mark("mark info", "<path d=\"M0,-5 L5,0 L0,5 L-5,0 Z\"/>"), "outcome unknown (no answer)"},
      {".mark.renew:not(.refused):not(.noreply)", mark("mark renew", "<rect x=\"-1\" y=\"-7\" width=\"2\" height=\"14\"/>"),
       "watchdog renewal"},
      {".mark.renew.refused", mark("mark renew refused", "<rect x=\"-1\" y=\"-7\" width=\"2\" height=\"14\"/>"),
       "renewal refused (not held)"},
      {".mark.renew.noreply", mark("mark renew noreply", "<rect x=\"-1\" y=\"-7\" width=\"2\" height=\"14\"/>"),
       "renewal without an answer"},
      {".mark.write:not(.rejected)", mark("mark write", "<path d=\"M0,-5 L4,0 L0,5 L-4,0 Z\"/>"),
       "write to the protected resource"},
      {".mark.write.rejected", mark("mark write rejected", "<path d=\"M0,-5 L4,0 L0,5 L-4,0 Z\"/>"),
       "write the resource refused (an old fencing token)"},
      {".mark.message", mark("mark message", "<circle r=\"2\"/>"), "a pub/sub message delivered"},
      {".mark.lost", mark("mark lost", "<path d=\"M-3.5,-3.5 L3.5,3.5 M-3.5,3.5 L3.5,-3.5\"/>"), "a message lost"},
      {".mark.sent:not(.error)", mark("mark sent\" fill=\"#3467c8", kTick), "a command it sent (a client known only by its commands)"},
      {".mark.sent.error", mark("mark sent error", kTick), "a command it sent, answered with an error"},
      // Each server.
      {".key:not(.unknown)", "<rect x=\"1\" y=\"2\" width=\"24\" height=\"10\" class=\"key\" fill=\"#3467c8\"/>",
       "the key exists, in the colour of the client whose hold it carries"},
      {".key.unknown", "<rect x=\"1\" y=\"2\" width=\"24\" height=\"10\" class=\"key unknown\"/>",
       "the key's state unknown after a restart or failover (dashed)"},
      {".mark.keyev.created", mark("mark keyev created", kTick), "key created"},
      {".mark.keyev.expired,.mark.keyev.deleted", mark("mark keyev expired", kTick), "key expired or deleted"},
      {".mark.keyev:not(.created):not(.expired):not(.deleted)", mark("mark keyev", kTick), "key changed (its expiry set, ...)"},
      {".mark.exec:not(.error)", mark("mark exec\" fill=\"#3467c8", kTick), "a command the server ran, in its sender's colour"},
      {".mark.exec.error", mark("mark exec error", kTick), "a command answered with an error"},
      {".mark.world-event", mark("mark world-event", "<path d=\"M0,-5 L5,0 L0,5 L-5,0 Z\"/>"), "an event of the world"},
  };
  // Faults, from the fault table: a shaded span, a band across every lane, or an instant.
  std::string instants;
  for (const model::FaultEventInfo& f : model::fault_events()) {
    if (f.ends) continue;
    const std::string name(f.name);
    if (f.loses_keys) continue;  // the band below
    if (f.timed || f.forever || f.open)
      e.push_back({".fault." + name, "<rect x=\"1\" y=\"0\" width=\"24\" height=\"14\" class=\"fault " + name + "\"/>",
                   name + ": " + std::string(f.about)});
    else
      instants += (instants.empty() ? "" : " or ") + name;
  }
  e.push_back({".server-fault", "<rect x=\"11\" y=\"0\" width=\"4\" height=\"14\" class=\"server-fault\"/>",
               "a restart or failover: the server's keys may be lost"});
  e.push_back({".mark.fault-point", mark("mark fault-point", "<path d=\"M-5,-4 L5,-4 L0,5 Z\"/>"),
               "an instant fault (" + instants + ")"});
  // Lines and the violations.
  e.push_back({".run-end", "<line x1=\"13\" x2=\"13\" y1=\"0\" y2=\"14\" class=\"run-end\"/>", "the run's end (dotted)"});
  e.push_back({".witness", mark("witness", "<circle r=\"5.5\"/>"), "a witness of a violation"});
  e.push_back({".witness-line", "<line x1=\"13\" x2=\"13\" y1=\"0\" y2=\"14\" class=\"witness-line\"/>",
               "when a witness happened (dashed)"});
  e.push_back({".overlap", "<rect x=\"1\" y=\"1\" width=\"24\" height=\"12\" class=\"overlap\"/>",
               "two holds at once: the violation"});
  // A FairLock's waiter queue.
  const std::vector<Entry> queue = {
      {".qplace:not(.head)", "<rect x=\"1\" y=\"1\" width=\"24\" height=\"12\" class=\"qplace\" fill=\"#3467c8\"/>",
       "place in the queue (2nd, 3rd, ...)"},
      {".qplace.head", "<rect x=\"1\" y=\"1\" width=\"24\" height=\"12\" class=\"qplace head\" fill=\"#3467c8\"/>",
       "at the head of the queue"},
      {".mark.score:not(.told):not(.old)", mark("mark score", "<path d=\"M0,-7 L0,7 M0,-7 L6,-4 L0,-1\"/>"),
       "timeout score: past it, the next script prunes the waiter"},
      {".mark.score.told", mark("mark score told", "<path d=\"M0,-7 L0,7 M0,-7 L6,-4 L0,-1\"/>"),
       "the wait it was told (its score not known: dashed)"},
      {".mark.score.old:not(.told)", mark("mark score old", "<path d=\"M0,-7 L0,7 M0,-7 L6,-4 L0,-1\"/>"),
       "an earlier score, superseded"},
      {".mark.qpruned", mark("mark qpruned", "<path d=\"M-5,-5 L5,5 M-5,5 L5,-5\"/>"), "pruned from the queue"},
      {".mark.qgranted", mark("mark qgranted", "<circle r=\"4\"/>"), "granted the lock"},
      {".mark.qgaveup", mark("mark qgaveup", "<rect x=\"-3.5\" y=\"-3.5\" width=\"7\" height=\"7\"/>"), "gave up waiting"},
      {".mark.qunknown", mark("mark qunknown", "<path d=\"M0,-5 L5,0 L0,5 L-5,0 Z\"/>"), "left the queue, how not known"},
      {".mark.wake:not(.lost)", mark("mark wake", "<path d=\"M-4,-3 L4,-3 L0,3 Z\"/>"), "a wake-up"},
      {".mark.wake.lost", mark("mark wake lost", "<path d=\"M-4,-3 L4,-3 L0,3 Z\"/>"), "a wake-up lost"},
      {".mark.qchange", mark("mark qchange", kTick), "the queue changed"},
  };
  e.insert(e.end(), queue.begin(), queue.end());
  return e;
}

}  // namespace

std::string legend_html() {
  std::string out = "<div class=\"legend\" id=\"legend\">";
  for (const Entry& entry : entries())
    out += "<span class=\"key-item\" data-for=\"" + escape_markup(entry.selector) + "\"><svg width=\"26\" height=\"14\">" +
           entry.shape + "</svg>" + escape_markup(entry.label) + "</span>";
  return out + "</div>";
}

}  // namespace locksim::report::timeline
