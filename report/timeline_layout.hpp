#pragma once
// The timeline's layout: who is in the run (clients, servers, the world), a lane per client thread,
// per server and per FairLock queue with its rows, the time scale, the span where something happens,
// and where each event sits. The plot and the text timeline both read it; what it knows of beliefs,
// faults, keys and queues comes from model/facts.hpp.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/facts.hpp"
#include "model/history.hpp"
#include "model/pending.hpp"
#include "report/element.hpp"
#include "report/timeline.hpp"

namespace locksim::report::timeline {

using model::Event;
using model::EventKind;
using model::History;

inline std::string ms(int64_t t) { return std::to_string(t) + " ms"; }

// --- geometry

inline constexpr double kPad = 14;          // left margin of the plot
inline constexpr double kPadRight = 40;     // right margin: room for the last axis label
inline constexpr double kAxisH = 34;        // the time axis above the lanes
inline constexpr double kRowH = 18;         // a holding row (client) or key row (server)
inline constexpr double kOpRowH = 15;       // the operations row (client) or exec row (server)
inline constexpr double kTopPad = 13;       // above a lane's rows: room for fault labels
inline constexpr double kBottomPad = 5;
inline constexpr double kLabelW = 230;      // the fixed column of lane names (longer ones are cut with "…")
inline constexpr double kStaticWidth = 1200;  // the plot's width before the page's script fits it
inline constexpr const char* kRed = "#d62728";

struct Lane {
  enum class Kind : uint8_t { Client, World, Server, Queue };
  std::string id;            // "A:1", "A" (a client without threads), "world", "redis0" or "queue orders"
  std::string process;       // the client, "world", or the server (a queue's too)
  int64_t thread = 0;
  Kind kind = Kind::Client;
  int color = -1;            // index into the palette, -1 for servers, queues and the world
  std::vector<std::string> rows;  // locks (client), keys (server) or waiters (queue), a row each
  double top = 0;
  size_t queue = 0;          // a queue lane's index into Layout::queues
  // A client known only by the commands a server ran for it (a real client on `locksim serve`): its
  // lane shows those commands, there being no operation of its own to draw.
  bool commands = false;

  bool server() const { return kind == Kind::Server; }

  double height() const { return kTopPad + kBottomPad + static_cast<double>(rows.size()) * kRowH + kOpRowH; }
  double bottom() const { return top + height(); }
  double row_y(const std::string& lock) const {
    const auto it = std::find(rows.begin(), rows.end(), lock);
    const size_t i = it == rows.end() ? 0 : static_cast<size_t>(it - rows.begin());
    return top + kTopPad + static_cast<double>(i) * kRowH + kRowH / 2;
  }
  double op_y() const { return top + kTopPad + static_cast<double>(rows.size()) * kRowH + kOpRowH / 2; }
};

struct Scale {
  double px_per_ms = 1;
  double x(int64_t t) const { return kPad + static_cast<double>(t) * px_per_ms; }
};

// --- verdicts against the scenario's expectations

enum class Standing : uint8_t { Observed, Met, Missed };
// What the scenario expected of verdict i ("holds", "violated", "" for nothing).
std::string expected_of(const TimelineInput& in, size_t i);
Standing standing_of(const TimelineInput& in, size_t i);
// One line on verdict i: "1 violation of mutual_exclusion — expected (the scenario shows this bug)",
// "mutual_exclusion violated, expected to hold — an unexpected violation", "liveness holds (observed)", ...
std::string standing_text(const TimelineInput& in, size_t i);

// --- a FairLock's waiter queue, as the facts' queue states (model::KeyState::queue) show it

struct QueueStay {
  enum class End : uint8_t { Open, Granted, GaveUp, Pruned, Unknown };
  struct Score {
    int64_t event = -1;     // the acquire Exec that answered "wait told_ms"
    int64_t at_ms = 0;
    int64_t told_ms = 0;
    int64_t score_ms = -1;  // at_ms + told_ms + threadWaitTime: where its timeout lies; -1 when not known
  };
  std::string entry;       // the queue's entry (a holder id)
  std::string owner;       // "B:1"; the entry when no client is known for it
  int64_t from_ms = 0;
  int64_t to_ms = 0;       // the run's end while Open
  int64_t begin = -1;      // the event that queued it
  int64_t end = -1;        // the event that took it out (-1: Open)
  End how = End::Open;     // Pruned: another's script removed it, its timeout having passed
  std::vector<std::pair<int64_t, int64_t>> places;  // (from ms, 1-based place), at every change
  std::vector<Score> scores;
  std::vector<int64_t> wakeups;  // Message events to its client about the lock while it queued
};
std::string_view to_string(QueueStay::End how);

struct QueueTrack {
  std::string server;
  std::string lock;                  // the lock key whose queue it is
  std::vector<std::string> waiters;  // owners, in order of first enqueue: the lane's rows
  std::vector<QueueStay> stays;      // in order of enqueue
  std::vector<int64_t> changes;      // the events after which the queue read differently
};

// Every lock key's queue that ever had a waiter.
std::vector<QueueTrack> queue_tracks(const model::Facts& facts, int64_t thread_wait_ms);
// The queue as it read after event `index` (owners, head first).
std::vector<std::string> queue_after(const model::Facts& facts, const QueueTrack& q, int64_t index);

// A client's colour (grey for -1: servers and the world).
std::string color_of(int index);
// A rectangle over [t0, t1] the page's script re-lays out on zoom (data-t0/t1; data-minw).
El span_rect(const Scale& s, int64_t t0, int64_t t1, double y, double h, double min_w = 1);
// A group placed at (time t, y): markers are drawn around its origin.
El point(const Scale& s, int64_t t, double y);
El vline(const Scale& s, int64_t t, double y1, double y2);

// --- who is in the run

bool is_acquire(const std::string& f);
bool contains(const std::vector<std::string>& v, const std::string& name);

struct Cast {
  std::vector<std::string> clients;  // lane order
  std::vector<std::string> others;   // "world" and the like: events that are no one's
  std::vector<std::string> servers;
};

Cast find_cast(const TimelineInput& in, const model::Facts& facts);

// --- the layout

// The span where something happens: from the first to the last event that is not the run's End, with
// a margin; the whole run when that is most of it. An operation still waiting at the end happens
// until the end: with one, the span runs to the run's end, so that no open wait is out of view.
std::pair<int64_t, int64_t> action_span(const History& h, const model::PendingOps& pending = {});

struct Layout {
  const TimelineInput& in;
  const History& h;
  model::Facts facts;
  Cast cast;
  std::vector<QueueTrack> queues;
  model::PendingOps pending;  // the operations still waiting when the run ended
  std::vector<Lane> lanes;
  Scale scale;
  int64_t end_ms = 1;
  std::pair<int64_t, int64_t> view;  // the span the page opens on
  double height = 0;

  explicit Layout(const TimelineInput& input);

  double width() const { return scale.x(end_ms) + kPadRight; }
  // Where a bar that no event closed ends: its process's crash after `from_ms`, else the run's end.
  int64_t open_end(const std::string& process, int64_t from_ms) const;
  // The pending operation invoked by event `invoke`, or nullptr.
  const model::PendingOp* pending_of(int64_t invoke) const;
  const Lane* lane_of(const std::string& process, int64_t thread) const;
  const Lane* lane_of(const Event& e) const { return lane_of(e.process, e.thread); }
  // The vertical extent of all of a process's lanes.
  std::pair<double, double> block_of(const std::string& process) const;
  int client_color(const std::string& client) const;
};

// Where an event sits on the plot: its time and the y of its row.
struct Anchor {
  int64_t t = 0;
  double y = 0;
};

std::optional<Anchor> anchor_of(const Layout& L, const Event& e);

// Words of locksim's own that a page may use, each explained on the page where it does
// (docs/glossary.md has every term: a test checks). `pattern` (an ECMAScript regex) finds the word in
// the page's texts; in the explanation, "{}" is what it found, "{client}" and "{thread}" an owner's
// parts.
struct PageWord {
  std::string_view term;
  std::string_view pattern;
  std::string_view explanation;
};
const std::vector<PageWord>& page_words();

// "A:1" for a client thread's event, else its process.
std::string who(const Event& e);
// Every detail of one event, for hover texts.
std::string describe(const Event& e);
// What a watchdog renewal (a Renew event) was answered: "renewed", "refused" (0: not held), "no reply"
// (a timeout) or "error <reply>" (an error reply, a failed script).
std::string renewal_answer(const Event& e);

}  // namespace locksim::report::timeline
