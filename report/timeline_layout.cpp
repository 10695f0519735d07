#include "report/timeline_layout.hpp"

#include <iterator>
#include <set>

#include "model/fault_events.hpp"
#include "model/lock_types.hpp"

namespace locksim::report::timeline {
namespace {

const char* const kPalette[] = {"#3467c8", "#1f9a63", "#8e4cb8", "#c9771a", "#148fa5",
                                "#b8406f", "#6f7d1f", "#7a5536"};
constexpr const char* kGrey = "#8a939c";

void add_unique(std::vector<std::string>& to, const std::string& name) {
  if (std::find(to.begin(), to.end(), name) == to.end()) to.push_back(name);
}

// The locks a client thread held or asked for (the run's lock first), or a server's keys.
std::vector<std::string> rows_of(const History& h, const std::string& process, int64_t thread,
                                 const std::string& main_lock) {
  std::vector<std::string> rows;
  for (const Event& e : h.events()) {
    if (e.process != process || e.lock.empty()) continue;
    const bool wanted = e.thread == thread && (e.kind == EventKind::Hold || e.kind == EventKind::Release ||
                                               e.kind == EventKind::Renew ||
                                               (e.kind == EventKind::Invoke && (is_acquire(e.f) || e.f == "unlock")));
    if (wanted) add_unique(rows, e.lock);
  }
  if (contains(rows, main_lock)) {
    rows.erase(std::find(rows.begin(), rows.end(), main_lock));
    rows.insert(rows.begin(), main_lock);
  }
  if (rows.empty()) rows.push_back("");
  return rows;
}

// A server's keys (the run's lock first, then the other lock keys, then the rest).
std::vector<std::string> key_rows_of(const model::Facts& facts, const std::string& server, const std::string& main_lock) {
  std::vector<std::string> rows;
  for (const model::KeyTrack& k : facts.keys())
    if (k.server == server) add_unique(rows, k.key);
  if (contains(rows, main_lock)) {
    rows.erase(std::find(rows.begin(), rows.end(), main_lock));
    rows.insert(rows.begin(), main_lock);
  }
  if (rows.empty()) rows.push_back("");
  return rows;
}

// Whether the world has events of its own to draw (its End is drawn as the run's end, across the plot).
bool world_has_events(const History& h, const std::string& name) {
  for (const Event& e : h.events())
    if (e.process == name && e.kind != EventKind::End) return true;
  return false;
}

std::vector<Lane> make_lanes(const TimelineInput& in, const Cast& cast, const model::Facts& facts,
                             const std::vector<QueueTrack>& queues) {
  const History& h = *in.history;
  std::vector<Lane> lanes;
  const auto add = [&](std::string id, const std::string& process, int64_t thread, Lane::Kind kind, int color,
                       std::vector<std::string> rows) {
    Lane lane;
    lane.id = std::move(id);
    lane.process = process;
    lane.thread = thread;
    lane.kind = kind;
    lane.color = color;
    lane.rows = std::move(rows);
    lanes.push_back(std::move(lane));
  };
  for (size_t c = 0; c < cast.clients.size(); ++c) {
    const std::string& name = cast.clients[c];
    std::set<int64_t> threads;
    bool own = false;  // an event of the client's own, not only commands run for it
    for (const Event& e : h.events()) {
      own = own || e.process == name;
      if (e.process == name && e.thread > 0) threads.insert(e.thread);
    }
    if (threads.empty()) {
      add(name, name, 0, Lane::Kind::Client, static_cast<int>(c), rows_of(h, name, 0, in.lock));
      lanes.back().commands = !own;
      continue;
    }
    for (int64_t t : threads)
      add(name + ":" + std::to_string(t), name, t, Lane::Kind::Client, static_cast<int>(c), rows_of(h, name, t, in.lock));
  }
  for (const auto& name : cast.others)
    if (world_has_events(h, name)) add(name, name, 0, Lane::Kind::World, -1, {""});
  for (const auto& name : cast.servers) add(name, name, 0, Lane::Kind::Server, -1, key_rows_of(facts, name, in.lock));
  for (size_t q = 0; q < queues.size(); ++q) {
    const QueueTrack& track = queues[q];
    const bool several_servers = cast.servers.size() > 1;
    add("queue " + track.lock + (several_servers ? " @" + track.server : ""), track.server, 0, Lane::Kind::Queue, -1,
        track.waiters);
    lanes.back().queue = q;
  }
  double top = kAxisH;
  for (Lane& lane : lanes) {
    lane.top = top;
    top += lane.height();
  }
  return lanes;
}

}  // namespace

std::string color_of(int index) { return index < 0 ? kGrey : kPalette[index % std::size(kPalette)]; }

El span_rect(const Scale& s, int64_t t0, int64_t t1, double y, double h, double min_w) {
  El r("rect");
  r.a("x", s.x(t0)).a("y", y).a("width", std::max(min_w, s.x(t1) - s.x(t0))).a("height", h);
  r.a("data-t0", std::to_string(t0)).a("data-t1", std::to_string(t1)).a("data-minw", min_w);
  return r;
}

El point(const Scale& s, int64_t t, double y) {
  El g("g");
  g.a("transform", "translate(" + num(s.x(t)) + "," + num(y) + ")");
  g.a("data-t0", std::to_string(t)).a("data-y", y);
  return g;
}

El vline(const Scale& s, int64_t t, double y1, double y2) {
  El l("line");
  l.a("x1", s.x(t)).a("x2", s.x(t)).a("y1", y1).a("y2", y2).a("data-t0", std::to_string(t));
  return l;
}

bool is_acquire(const std::string& f) { return f == "lock" || f == "try_lock"; }

bool contains(const std::vector<std::string>& v, const std::string& name) {
  return std::find(v.begin(), v.end(), name) != v.end();
}

Cast find_cast(const TimelineInput& in, const model::Facts& facts) {
  Cast cast;
  cast.clients = in.clients;
  for (const std::string& server : facts.servers())
    if (!contains(cast.clients, server)) add_unique(cast.servers, server);
  for (const Event& e : in.history->events()) {
    if (e.process.empty() || contains(cast.clients, e.process) || contains(cast.servers, e.process)) continue;
    add_unique(e.process == "world" ? cast.others : cast.clients, e.process);
  }
  return cast;
}

std::pair<int64_t, int64_t> action_span(const History& h, const model::PendingOps& pending) {
  const int64_t end = std::max<int64_t>(h.end_ms(), 1);
  int64_t first = -1, last = -1;
  for (const Event& e : h.events()) {
    if (e.kind == EventKind::End) continue;
    if (first < 0) first = e.at_ms;
    last = std::max(last, e.at_ms);
  }
  for (const model::PendingOp& p : pending.ops) {
    first = first < 0 ? p.since_ms : std::min(first, p.since_ms);
    last = end;
  }
  if (first < 0) return {0, end};
  // A little margin, so the first and last marks are not on the edge.
  const int64_t margin = std::max<int64_t>(1, (last - first) / 25);
  const int64_t from = std::max<int64_t>(0, first - margin), to = std::min(end, last + margin);
  if ((to - from) * 10 >= end * 9) return {0, end};  // most of the run: just the run
  return {from, std::max(to, from + 1)};
}

Layout::Layout(const TimelineInput& input)
    : in(input), h(*input.history), facts(*input.history, model::find_lock_type(input.lock_type)) {
  cast = find_cast(in, facts);
  queues = queue_tracks(facts, in.thread_wait_ms);
  pending = model::pending_operations(h);
  lanes = make_lanes(in, cast, facts, queues);
  end_ms = std::max<int64_t>(h.end_ms(), 1);
  view = action_span(h, pending);
  scale.px_per_ms = (kStaticWidth - kPad - kPadRight) / static_cast<double>(end_ms);
  height = (lanes.empty() ? kAxisH : lanes.back().bottom()) + 8;
}

int64_t Layout::open_end(const std::string& process, int64_t from_ms) const {
  for (const model::FaultSpan& f : facts.faults())
    if (f.process == process && f.kind == model::fault_name::kCrash && f.span.from_ms >= from_ms)
      return std::min(end_ms, f.span.from_ms);
  return end_ms;
}

const model::PendingOp* Layout::pending_of(int64_t invoke) const {
  for (const model::PendingOp& p : pending.ops)
    if (p.invoke == invoke) return &p;
  return nullptr;
}

const Lane* Layout::lane_of(const std::string& process, int64_t thread) const {
  const Lane* first = nullptr;
  for (const Lane& lane : lanes) {
    if (lane.process != process) continue;
    if (lane.thread == thread) return &lane;
    if (!first) first = &lane;
  }
  return first;
}

std::pair<double, double> Layout::block_of(const std::string& process) const {
  double top = -1, bottom = -1;
  for (const Lane& lane : lanes) {
    if (lane.process != process) continue;
    if (top < 0) top = lane.top;
    bottom = lane.bottom();
  }
  return {top, bottom};
}

int Layout::client_color(const std::string& client) const {
  const auto it = std::find(cast.clients.begin(), cast.clients.end(), client);
  return it == cast.clients.end() ? -1 : static_cast<int>(it - cast.clients.begin());
}

std::optional<Anchor> anchor_of(const Layout& L, const Event& e) {
  const Lane* lane = L.lane_of(e);
  if (!lane) return std::nullopt;
  switch (e.kind) {
    case EventKind::Hold:
    case EventKind::Release:
    case EventKind::Renew:
    case EventKind::Key: return Anchor{e.at_ms, lane->row_y(e.lock)};
    case EventKind::Fault: return Anchor{e.at_ms, lane->top + kTopPad / 2};
    default: return Anchor{e.at_ms, lane->op_y()};
  }
}

const std::vector<PageWord>& page_words() {
  static const std::vector<PageWord> words = {
      {"article", R"(\barticles? 00[0-4]\b)",
       "{}: one of the five seed articles locksim was made from (Redisson's RLock and FairLock scripts, the SETNX locks, "
       "the watchdog), not a run's seed"},
      {"the ideal", R"(\bthe ideal\b)",
       "{}: the fair queue as the fair_queue property defines it (first come, first served among live waiters; a silent "
       "one evicted after threadWaitTime), which Redisson's scripts only approach"},
      {"owner", R"(\b[A-Z][A-Za-z0-9_-]*:[0-9]+\b)", "{}: an owner, client {client}'s thread {thread} (Redisson's uuid:threadId)"},
      {"redis0", R"(\bredis[0-9]+\b)", "{}: a Redis server of the run, numbered from 0"},
      {"watchdog", R"(\bwatchdog\b)",
       "{}: Redisson's renewal of a hold taken without a lease: every lockWatchdogTimeout/3 it sets the key's expiry "
       "back to lockWatchdogTimeout (30 s unless set)"},
      {"threadWaitTime", R"(\bthreadWaitTime\b)",
       "{}: how long a FairLock waiter may go silent before the queue gives it up (5 s up to 3.13.2, 300 s after)"},
      {"witness", R"(\bwitness\b)", "{}: an event a violation rests on, ringed on the plot"},
  };
  return words;
}

std::string who(const Event& e) { return e.thread > 0 ? e.owner() : e.process; }

std::string renewal_answer(const Event& e) {
  if (e.value == 1) return "renewed";
  if (e.value == 0) return "refused";
  if (e.text.empty() || e.text == "timeout") return "no reply";
  return "error " + e.text.str();
}

std::string describe(const Event& e) {
  std::string s = "#" + std::to_string(e.index) + " at " + ms(e.at_ms) + ": " + std::string(to_string(e.kind));
  if (!e.f.empty()) s += " " + e.f;
  s += "\nprocess " + who(e);
  if (e.op) s += ", op " + std::to_string(e.op);
  if (!e.lock.empty()) s += ", lock " + e.lock;
  if (e.value) s += "\nvalue " + std::to_string(e.value);
  if (e.wait_ms >= 0) s += "\nwait " + ms(e.wait_ms);
  if (e.kind == EventKind::Hold || (e.kind == EventKind::Invoke && is_acquire(e.f)))
    s += e.lease_ms >= 0 ? "\nlease " + ms(e.lease_ms) : std::string("\nlease: none (watchdog renews)");
  if (!e.text.empty()) s += (e.kind == EventKind::Exec ? "\n> " : "\n") + e.text;
  if (!e.reply.empty()) s += "\n< " + e.reply;
  if (e.kind == EventKind::Exec) s += "\nbefore: " + (e.before.empty() ? "(no key)" : e.before.str()) +
                                      "\nafter: " + (e.after.empty() ? "(no key)" : e.after.str());
  return s;
}

}  // namespace locksim::report::timeline
