#include "report/timeline.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "report/markup.hpp"
#include "model/facts.hpp"
#include "model/lock_types.hpp"

namespace locksim::report {
namespace {

using model::Event;
using model::EventKind;
using model::History;
using model::Validity;
using model::Verdict;

// ============================================================================ escaping, numbers

std::string esc(std::string_view s) { return escape_markup(s); }

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  std::string s = buf;
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  return s == "-0" ? "0" : s;
}

std::string ms(int64_t t) { return std::to_string(t) + " ms"; }

// ============================================================================ SVG elements

// One element: attributes escaped, an optional <title> (the hover text) and children.
class El {
 public:
  explicit El(std::string tag) : tag_(std::move(tag)), open_("<" + tag_) {}
  El& a(std::string_view key, std::string_view value) {
    open_ += ' ';
    open_ += key;
    open_ += "=\"" + esc(value) + '"';
    return *this;
  }
  El& a(std::string_view key, const char* value) { return a(key, std::string_view(value)); }
  El& a(std::string_view key, const std::string& value) { return a(key, std::string_view(value)); }
  El& a(std::string_view key, double value) { return a(key, num(value)); }
  El& a(std::string_view key, int value) { return a(key, std::to_string(value)); }
  El& tip(std::string text) {
    tip_ = std::move(text);
    return *this;
  }
  El& text(std::string_view content) {
    inner_ += esc(content);
    return *this;
  }
  El& child(const std::string& markup) {
    inner_ += markup;
    return *this;
  }
  std::string str() const {
    std::string inner = tip_.empty() ? inner_ : "<title>" + esc(tip_) + "</title>" + inner_;
    if (inner.empty()) return open_ + "/>";
    return open_ + ">" + inner + "</" + tag_ + ">";
  }

 private:
  std::string tag_;
  std::string open_;
  std::string tip_;
  std::string inner_;
};

// ============================================================================ geometry

constexpr double kPad = 14;          // left and right margin of the plot
constexpr double kAxisH = 34;        // the time axis above the lanes
constexpr double kRowH = 18;         // a holding row (client) or key row (server)
constexpr double kOpRowH = 15;       // the operations row (client) or exec row (server)
constexpr double kTopPad = 13;       // above a lane's rows: room for fault labels
constexpr double kBottomPad = 5;
constexpr double kLabelW = 190;      // the fixed column of lane names
constexpr double kStaticWidth = 1200;  // the plot's width before the page's script fits it

const char* const kPalette[] = {"#3467c8", "#1f9a63", "#8e4cb8", "#c9771a", "#148fa5",
                                "#b8406f", "#6f7d1f", "#7a5536"};
constexpr const char* kRed = "#d62728";
constexpr const char* kGrey = "#8a939c";

struct Lane {
  std::string id;            // "A:1", "A" (a client without threads) or "redis0"
  std::string process;
  int64_t thread = 0;
  bool server = false;
  int color = -1;            // index into kPalette, -1 for servers and the world
  std::vector<std::string> rows;  // locks (client) or keys (server), a row each
  double top = 0;

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

std::string color_of(int index) { return index < 0 ? kGrey : kPalette[index % std::size(kPalette)]; }

// A rectangle over [t0, t1] the page's script re-lays out on zoom (data-t0/t1; data-minw).
El span_rect(const Scale& s, int64_t t0, int64_t t1, double y, double h, double min_w = 1) {
  El r("rect");
  r.a("x", s.x(t0)).a("y", y).a("width", std::max(min_w, s.x(t1) - s.x(t0))).a("height", h);
  r.a("data-t0", std::to_string(t0)).a("data-t1", std::to_string(t1)).a("data-minw", min_w);
  return r;
}

// A group placed at (time t, y): markers are drawn around its origin.
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

// ============================================================================ who is in the run

bool is_acquire(const std::string& f) { return f == "lock" || f == "try_lock"; }

struct Cast {
  std::vector<std::string> clients;  // lane order
  std::vector<std::string> others;   // "world" and the like: events that are no one's
  std::vector<std::string> servers;
};

void add_unique(std::vector<std::string>& to, const std::string& name) {
  if (std::find(to.begin(), to.end(), name) == to.end()) to.push_back(name);
}

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

std::vector<Lane> make_lanes(const TimelineInput& in, const Cast& cast, const model::Facts& facts) {
  const History& h = *in.history;
  std::vector<Lane> lanes;
  for (size_t c = 0; c < cast.clients.size(); ++c) {
    const std::string& name = cast.clients[c];
    std::set<int64_t> threads;
    for (const Event& e : h.events())
      if (e.process == name && e.thread > 0) threads.insert(e.thread);
    if (threads.empty()) {
      lanes.push_back({name, name, 0, false, static_cast<int>(c), rows_of(h, name, 0, in.lock)});
      continue;
    }
    for (int64_t t : threads)
      lanes.push_back({name + ":" + std::to_string(t), name, t, false, static_cast<int>(c), rows_of(h, name, t, in.lock)});
  }
  for (const auto& name : cast.others) lanes.push_back({name, name, 0, false, -1, {""}});
  for (const auto& name : cast.servers) lanes.push_back({name, name, 0, true, -1, key_rows_of(facts, name, in.lock)});
  double top = kAxisH;
  for (Lane& lane : lanes) {
    lane.top = top;
    top += lane.height();
  }
  return lanes;
}

// ============================================================================ the layout

struct Layout {
  const TimelineInput& in;
  const History& h;
  model::Facts facts;
  Cast cast;
  std::vector<Lane> lanes;
  Scale scale;
  int64_t end_ms = 1;
  double height = 0;

  explicit Layout(const TimelineInput& input)
      : in(input), h(*input.history), facts(*input.history, model::find_lock_type(input.lock_type)) {
    cast = find_cast(in, facts);
    lanes = make_lanes(in, cast, facts);
    end_ms = std::max<int64_t>(h.end_ms(), 1);
    scale.px_per_ms = (kStaticWidth - 2 * kPad) / static_cast<double>(end_ms);
    height = (lanes.empty() ? kAxisH : lanes.back().bottom()) + 8;
  }

  double width() const { return scale.x(end_ms) + kPad; }

  const Lane* lane_of(const std::string& process, int64_t thread) const {
    const Lane* first = nullptr;
    for (const Lane& lane : lanes) {
      if (lane.process != process) continue;
      if (lane.thread == thread) return &lane;
      if (!first) first = &lane;
    }
    return first;
  }
  const Lane* lane_of(const Event& e) const { return lane_of(e.process, e.thread); }

  // The vertical extent of all of a process's lanes.
  std::pair<double, double> block_of(const std::string& process) const {
    double top = -1, bottom = -1;
    for (const Lane& lane : lanes) {
      if (lane.process != process) continue;
      if (top < 0) top = lane.top;
      bottom = lane.bottom();
    }
    return {top, bottom};
  }

  int client_color(const std::string& client) const {
    const auto it = std::find(cast.clients.begin(), cast.clients.end(), client);
    return it == cast.clients.end() ? -1 : static_cast<int>(it - cast.clients.begin());
  }
};

// Where an event sits on the plot: its time and the y of its row.
struct Anchor {
  int64_t t = 0;
  double y = 0;
};

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

std::string who(const Event& e) { return e.thread > 0 ? e.owner() : e.process; }

// Every detail of one event, for hover texts.
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
  if (e.kind == EventKind::Exec) s += "\nbefore: " + (e.before.empty() ? "(no key)" : e.before) +
                                      "\nafter: " + (e.after.empty() ? "(no key)" : e.after);
  return s;
}

// ============================================================================ the plot's layers

std::string axis_and_grid(const Layout& L) {
  // Ticks every 1, 2 or 5 times a power of ten, at least ~90 px apart (the page's script redraws
  // them on zoom with the same rule).
  const double raw = 90 / L.scale.px_per_ms;
  const double mag = std::pow(10, std::floor(std::log10(std::max(raw, 1e-9))));
  double step = 10 * mag;
  for (double m : {1.0, 2.0, 5.0})
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  const int64_t istep = std::max<int64_t>(1, static_cast<int64_t>(std::llround(step)));
  std::string grid = "<g id=\"grid\">", axis = "<g id=\"axis\">";
  axis += El("rect").a("x", 0).a("y", 0).a("width", L.width()).a("height", kAxisH - 4).a("class", "axis-bg").str();
  for (int64_t t = 0; t <= L.end_ms; t += istep) {
    grid += vline(L.scale, t, kAxisH, L.height).a("class", "grid").str();
    axis += vline(L.scale, t, kAxisH - 10, kAxisH - 4).a("class", "tick").str();
    axis += El("text").a("x", L.scale.x(t)).a("y", kAxisH - 14).a("class", "tick-label").text(std::to_string(t)).str();
  }
  return grid + "</g>" + axis + "</g>";
}

std::string lane_backgrounds(const Layout& L) {
  std::string out = "<g class=\"backgrounds\">";
  for (size_t i = 0; i < L.lanes.size(); ++i) {
    const Lane& lane = L.lanes[i];
    std::string cls = lane.server ? "lane-bg server" : (lane.color % 2 ? "lane-bg odd" : "lane-bg");
    out += El("rect").a("x", 0).a("y", lane.top).a("width", "100%").a("height", lane.height()).a("class", cls).str();
    const bool last_of_process = i + 1 == L.lanes.size() || L.lanes[i + 1].process != lane.process;
    if (last_of_process) out += El("line").a("x1", 0).a("x2", "100%").a("y1", lane.bottom()).a("y2", lane.bottom()).a("class", "sep").str();
  }
  return out + "</g>";
}

// --- faults

bool is_span_fault(const model::FaultSpan& f) { return f.span.to_ms > f.span.from_ms; }

std::string client_fault(const Layout& L, const model::FaultSpan& f) {
  const auto [top, bottom] = L.block_of(f.process);
  if (top < 0) return {};
  const Event& e = L.h[static_cast<size_t>(f.span.begin)];
  if (!is_span_fault(f)) {  // clock jumps and the like: a marker on the lane's top edge
    El g = point(L.scale, e.at_ms, top + kTopPad / 2);
    g.a("class", "mark fault-point").a("data-ev", std::to_string(e.index)).tip(describe(e));
    g.child(El("path").a("d", "M-5,-4 L5,-4 L0,5 Z").str());
    return g.str();
  }
  const int64_t end = std::min(L.end_ms, f.span.to_ms);
  El r = span_rect(L.scale, f.span.from_ms, end, top, bottom - top, 2);
  r.a("class", "fault " + f.kind).a("data-ev", std::to_string(e.index));
  r.tip(describe(e) + "\nlasts until " + ms(end) + (f.span.to_ms > L.end_ms ? " (the run's end)" : ""));
  El label = El("text").a("x", L.scale.x(f.span.from_ms) + 3).a("y", top + 10).a("data-t0", std::to_string(f.span.from_ms)).a("data-dx", 3);
  std::string text = f.kind;
  if (f.kind == "delay") text += " +" + std::to_string(f.value) + " ms";
  if (f.kind == "loss") text += " " + std::to_string(f.value) + "/1000";
  if (f.kind != "crash") text += " " + std::to_string(f.span.to_ms - f.span.from_ms) + " ms";
  label.a("class", "fault-label").text(text);
  return r.str() + label.str();
}

std::string server_fault(const Layout& L, const Event& e) {
  const Lane* lane = L.lane_of(e);
  if (!lane) return {};
  El band = span_rect(L.scale, e.at_ms, e.at_ms, kAxisH, L.height - kAxisH, 4);
  band.a("class", "server-fault").a("data-ev", std::to_string(e.index)).tip(describe(e));
  // The label reads away from the run's end, so it is not cut off there.
  const bool late = e.at_ms * 3 > L.end_ms * 2;
  const double dx = late ? -6 : 6;
  El label = El("text").a("x", L.scale.x(e.at_ms) + dx).a("y", lane->top + 10).a("data-t0", std::to_string(e.at_ms)).a("data-dx", dx);
  label.a("class", std::string("server-fault-label") + (late ? " late" : "")).text(e.f + (e.text.empty() ? "" : ": " + e.text));
  return band.str() + label.str();
}

std::string faults_layer(const Layout& L) {
  std::string out = "<g class=\"faults\">";
  // A restart or failover is an instant that concerns every lane; the rest shade their own lanes.
  for (const model::FaultSpan& f : L.facts.faults())
    out += f.server && (f.kind == "restart" || f.kind == "failover") ? server_fault(L, L.h[static_cast<size_t>(f.span.begin)])
                                                                     : client_fault(L, f);
  return out + "</g>";
}

// --- client lanes: holding bars, operations, markers

std::string hold_bars(const Layout& L, const Lane& lane) {
  std::string out;
  for (const model::Belief& b : L.facts.beliefs()) {
    if (b.process != lane.process || b.thread != lane.thread) continue;
    const Event& hold = L.h[static_cast<size_t>(b.span.begin)];
    const Event* release = b.span.end >= 0 ? &L.h[static_cast<size_t>(b.span.end)] : nullptr;
    const int64_t end = release ? release->at_ms : L.end_ms;
    El bar = span_rect(L.scale, hold.at_ms, end, lane.row_y(b.lock) - 5, 10, 2);
    bar.a("class", std::string("hold") + (release ? "" : " open")).a("fill", color_of(lane.color));
    bar.a("data-ev", std::to_string(hold.index) + (release ? " " + std::to_string(release->index) : ""));
    std::string tip = lane.id + " believed it held " + b.lock + "\nfrom " + ms(hold.at_ms) + " (#" +
                      std::to_string(hold.index) + ", " + hold.f + ", " +
                      (hold.lease_ms >= 0 ? "lease " + ms(hold.lease_ms) : std::string("watchdog")) + ")\n";
    tip += release ? "until " + ms(release->at_ms) + " (#" + std::to_string(release->index) + ", " + release->f + ")"
                   : std::string("still at the run's end");
    tip += "\nfor " + ms(end - hold.at_ms);
    out += bar.tip(tip).str();
    // Re-entries and partial releases.
    std::vector<int64_t> notches(b.holds.begin() + 1, b.holds.end());
    for (int64_t r : b.releases)
      if (r != b.span.end) notches.push_back(r);
    for (int64_t i : notches) {
      const Event& n = L.h[static_cast<size_t>(i)];
      El g = point(L.scale, n.at_ms, lane.row_y(b.lock));
      g.a("class", "mark notch").a("data-ev", std::to_string(n.index)).tip(describe(n) + "\n(depth " + std::to_string(n.value) + ")");
      out += g.child(El("rect").a("x", -1).a("y", -7).a("width", 2).a("height", 14).str()).str();
    }
  }
  return out;
}

std::string outcome_marker(const Layout& L, const Event& e, double y) {
  El g = point(L.scale, e.at_ms, y);
  g.a("data-ev", std::to_string(e.index)).tip(describe(e));
  switch (e.kind) {
    case EventKind::Ok: g.a("class", "mark ok").child(El("circle").a("r", 3.5).str()); break;
    case EventKind::Fail: g.a("class", "mark fail").child(El("rect").a("x", -3.5).a("y", -3.5).a("width", 7).a("height", 7).str()); break;
    default: g.a("class", "mark info").child(El("path").a("d", "M0,-5 L5,0 L0,5 L-5,0 Z").str()); break;
  }
  return g.str();
}

std::string op_bars(const Layout& L, const Lane& lane) {
  std::string bars, markers;
  std::map<int64_t, const Event*> open;  // by op id
  const double y = lane.op_y();
  const auto draw = [&](const Event& invoke, const Event* outcome) {
    const int64_t end = outcome ? outcome->at_ms : L.end_ms;
    const bool acquire = is_acquire(invoke.f);
    El bar = span_rect(L.scale, invoke.at_ms, end, acquire ? y - 4.5 : y - 2, acquire ? 9 : 4, 2);
    bar.a("class", std::string(acquire ? "op wait" : "op") + (outcome ? "" : " open"));
    if (acquire) bar.a("stroke", color_of(lane.color));
    bar.a("data-ev", std::to_string(invoke.index) + (outcome ? " " + std::to_string(outcome->index) : ""));
    std::string tip = describe(invoke) + "\n";
    tip += outcome ? "-> " + std::string(to_string(outcome->kind)) + " at " + ms(outcome->at_ms) + " after " +
                         ms(outcome->at_ms - invoke.at_ms) + (outcome->text.empty() ? "" : ": " + outcome->text)
                   : std::string("-> no outcome by the run's end");
    bars += bar.tip(tip).str();
    if (outcome && !(outcome->kind == EventKind::Ok && invoke.f == "work")) markers += outcome_marker(L, *outcome, y);
  };
  for (const Event& e : L.h.events()) {
    if (e.process != lane.process || e.thread != lane.thread) continue;
    if (e.kind == EventKind::Invoke) open[e.op] = &e;
    if (e.kind != EventKind::Ok && e.kind != EventKind::Fail && e.kind != EventKind::Info) continue;
    const auto it = open.find(e.op);
    if (it == open.end()) {
      markers += outcome_marker(L, e, y);
      continue;
    }
    draw(*it->second, &e);
    open.erase(it);
  }
  for (const auto& [op, invoke] : open) draw(*invoke, nullptr);
  return bars + markers;
}

std::string renew_tick(const Layout& L, const Lane& lane, const Event& e) {
  El g = point(L.scale, e.at_ms, lane.row_y(e.lock));
  const char* cls = e.value == 1 ? "mark renew" : e.value == 0 ? "mark renew refused" : "mark renew noreply";
  const char* what = e.value == 1 ? "renewed" : e.value == 0 ? "refused" : "no reply";
  g.a("class", cls).a("data-ev", std::to_string(e.index)).tip(describe(e) + "\n(watchdog renewal: " + what + ")");
  return g.child(El("rect").a("x", -1).a("y", -8).a("width", 2).a("height", 16).str()).str();
}

std::string write_marker(const Layout& L, const Lane& lane, const Event& e) {
  El g = point(L.scale, e.at_ms, lane.op_y());
  g.a("class", "mark write " + e.f).a("data-ev", std::to_string(e.index));
  g.tip(describe(e) + "\n(write to " + e.lock + " " + e.f + ", token " + std::to_string(e.value) + ")");
  return g.child(El("path").a("d", "M0,-5 L4,0 L0,5 L-4,0 Z").str()).str();
}

std::string message_marker(const Layout& L, const Lane& lane, const Event& e) {
  El g = point(L.scale, e.at_ms, lane.op_y());
  g.a("data-ev", std::to_string(e.index)).tip(describe(e));
  if (e.f == "lost") return g.a("class", "mark lost").child(El("path").a("d", "M-3.5,-3.5 L3.5,3.5 M-3.5,3.5 L3.5,-3.5").str()).str();
  return g.a("class", "mark message").child(El("circle").a("r", 2).str()).str();
}

std::string client_lane(const Layout& L, const Lane& lane) {
  std::string out = hold_bars(L, lane) + op_bars(L, lane);
  for (const Event& e : L.h.events()) {
    if (L.lane_of(e) != &lane) continue;
    if (e.kind == EventKind::Renew) out += renew_tick(L, lane, e);
    else if (e.kind == EventKind::Write) out += write_marker(L, lane, e);
    else if (e.kind == EventKind::Message) out += message_marker(L, lane, e);
  }
  return out;
}

// --- server lanes: the key's life and the executions

// Each key's life on the server, from the facts: a bar per span it existed, coloured by the client
// whose hold it carried (a lock key) or that created it; grey where a restart or failover left it
// unknown until a later event showed it again.
std::string key_rows(const Layout& L, const Lane& lane) {
  std::string bars, ticks;
  for (const model::KeyTrack& k : L.facts.keys()) {
    if (k.server != lane.process) continue;
    const auto& states = k.states;
    for (size_t i = 0; i < states.size(); ++i) {
      const model::KeyState& s = states[i];
      if (s.known && !s.present) continue;
      const int64_t to = i + 1 < states.size() ? states[i + 1].from_ms : L.end_ms;
      if (to <= s.from_ms && i + 1 < states.size()) continue;
      std::string owner;
      if (!s.claims.empty()) owner = s.claims.front().owner;
      if (owner.empty() && s.event >= 0) owner = L.h[static_cast<size_t>(s.event)].client;
      const std::string client = owner.substr(0, owner.find(':'));
      El bar = span_rect(L.scale, s.from_ms, to, lane.row_y(k.key) - 5, 10, 2);
      bar.a("class", s.known ? "key" : "key unknown");
      if (s.known) bar.a("fill", color_of(L.client_color(client)));
      std::string tip = "key " + k.key + " on " + lane.id;
      if (!s.known) tip += ": unknown after a restart or failover";
      else if (!s.value.empty()) tip += ": " + s.value;
      for (const model::Claim& c : s.claims) tip += "\nhold of " + (c.owner.empty() ? c.field : c.owner) + (c.stale ? " (lease run out)" : "");
      if (s.expire_at >= 0) tip += "\nexpires at " + ms(s.expire_at);
      else if (s.expire_at == model::kNoExpiry && s.known) tip += "\nno expiry";
      tip += "\nfrom " + ms(s.from_ms) + " to " + ms(to);
      bars += bar.tip(tip).str();
    }
  }
  for (const Event& e : L.h.events()) {
    if (e.process != lane.process || e.kind != EventKind::Key) continue;
    El g = point(L.scale, e.at_ms, lane.row_y(e.lock));
    g.a("class", "mark keyev " + e.f).a("data-ev", std::to_string(e.index)).tip(describe(e));
    ticks += g.child(El("rect").a("x", -1).a("y", -7).a("width", 2).a("height", 14).str()).str();
  }
  return bars + ticks;
}

std::string exec_ticks(const Layout& L, const Lane& lane) {
  std::string out;
  for (const Event& e : L.h.events()) {
    if (e.process != lane.process || e.kind != EventKind::Exec) continue;
    const std::string& by = e.client;
    const bool error = !e.reply.empty() && e.reply[0] == '-';
    El g = point(L.scale, e.at_ms, lane.op_y());
    g.a("class", std::string("mark exec") + (error ? " error" : "")).a("data-ev", std::to_string(e.index));
    g.a("fill", color_of(L.client_color(by)));
    g.tip(describe(e) + "\n(sent by " + by + (e.thread ? ":" + std::to_string(e.thread) : "") + ")");
    out += g.child(El("rect").a("x", -1).a("y", -5).a("width", 2).a("height", 10).str()).str();
  }
  return out;
}

std::string lanes_layer(const Layout& L) {
  std::string out;
  for (const Lane& lane : L.lanes) {
    out += "<g class=\"lane" + std::string(lane.server ? " server" : "") + "\" data-lane=\"" + esc(lane.id) + "\">";
    out += lane.server ? key_rows(L, lane) + exec_ticks(L, lane) : client_lane(L, lane);
    out += "</g>";
  }
  return out;
}

// --- violations

std::vector<const Verdict*> violations(const TimelineInput& in) {
  std::vector<const Verdict*> out;
  for (const Verdict& v : in.verdicts)
    if (v.valid == Validity::No) out.push_back(&v);
  return out;
}

const Event* event_at(const History& h, int64_t index) {
  if (index >= 0 && static_cast<size_t>(index) < h.size() && h[static_cast<size_t>(index)].index == index)
    return &h[static_cast<size_t>(index)];
  for (const Event& e : h.events())
    if (e.index == index) return &e;
  return nullptr;
}

// Where the verdict's two holds overlap (mutual exclusion, read-write): that stretch, on both lanes.
std::string overlaps(const Layout& L, const Verdict& v, size_t k) {
  const model::Evidence* first = v.find("first_hold");
  const model::Evidence* second = v.find("second_hold");
  if (!first || !second) return {};
  const model::Belief* later = nullptr;
  for (const model::Belief& b : L.facts.beliefs())
    if (b.span.begin == second->event) later = &b;
  if (!later) return {};
  const int64_t from = second->from_ms;
  const int64_t to = std::min({first->to_ms == model::kForever ? L.end_ms : first->to_ms,
                               later->span.end >= 0 ? later->span.to_ms : L.end_ms, L.end_ms});
  if (from > to) return {};
  std::string out;
  for (const Event* h : {&L.h[static_cast<size_t>(first->event)], &L.h[static_cast<size_t>(second->event)]}) {
    const Lane* lane = L.lane_of(*h);
    if (!lane) continue;
    El r = span_rect(L.scale, from, to, lane->row_y(h->lock) - 7, 14, 2);
    r.a("class", "overlap").a("data-violation", std::to_string(k));
    out += r.tip(v.anomaly + ": " + first->who + " and " + second->who + " both believed they held the lock from " +
                 ms(from) + " to " + ms(to)).str();
  }
  return out;
}

std::string witness_layer(const Layout& L) {
  std::string out = "<g class=\"witnesses\">";
  const auto bad = violations(L.in);
  for (size_t k = 0; k < bad.size(); ++k) {
    const Verdict& v = *bad[k];
    out += overlaps(L, v, k);
    for (int64_t i : v.witness) {
      const Event* e = event_at(L.h, i);
      const std::optional<Anchor> at = e ? anchor_of(L, *e) : std::nullopt;
      if (!at) continue;
      out += vline(L.scale, at->t, kAxisH, L.height).a("class", "witness-line").a("data-violation", std::to_string(k)).str();
      El g = point(L.scale, at->t, at->y);
      g.a("class", "witness").a("data-violation", std::to_string(k)).a("data-ev", std::to_string(i));
      g.tip("witness of " + v.property + " (" + v.anomaly + ")\n" + describe(*e));
      out += g.child(El("circle").a("r", 7).str()).str();
    }
  }
  return out + "</g>";
}

// ============================================================================ the page

std::string defs() {
  return "<defs>"
         "<pattern id=\"wait-hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
         "<rect width=\"6\" height=\"6\" fill=\"#ffffff\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#9aa3ad\" stroke-width=\"3\"/></pattern>"
         "<pattern id=\"unknown-hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(-45)\">"
         "<rect width=\"6\" height=\"6\" fill=\"#eef0f2\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#b7bec6\" stroke-width=\"2\"/></pattern>"
         "<pattern id=\"crash-hatch\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
         "<rect width=\"8\" height=\"8\" fill=\"#5b6168\" fill-opacity=\"0.18\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"8\" stroke=\"#5b6168\" stroke-opacity=\"0.35\" stroke-width=\"2\"/></pattern>"
         "</defs>";
}

std::string labels_svg(const Layout& L) {
  std::string out = "<svg class=\"labels\" width=\"" + num(kLabelW) +
                    "\" height=\"" + num(L.height) + "\">";
  out += El("text").a("x", 8).a("y", kAxisH - 14).a("class", "axis-caption").text(L.in.real_time ? "real time (ms)" : "virtual time (ms)").str();
  for (const Lane& lane : L.lanes) {
    std::string g = "<g class=\"lane-label\" data-label=\"" + esc(lane.id) + "\">";
    g += El("rect").a("x", 0).a("y", lane.top).a("width", 5).a("height", lane.height()).a("fill", color_of(lane.color)).str();
    g += El("text").a("x", 12).a("y", lane.top + 15).a("class", "lane-name").text(lane.id).str();
    for (const auto& row : lane.rows)
      if (!row.empty() || lane.server)
        g += El("text").a("x", kLabelW - 6).a("y", lane.row_y(row) + 4).a("class", "row-name")
                 .text(lane.server ? "key " + row : row).str();
    g += El("text").a("x", kLabelW - 6).a("y", lane.op_y() + 4).a("class", "row-name")
             .text(lane.server ? "exec" : lane.color < 0 ? "events" : "ops").str();
    out += g + "</g>";
  }
  return out + "</svg>";
}

std::string plot_svg(const Layout& L) {
  std::string out = "<svg id=\"plot\" width=\"" + num(L.width()) + "\" height=\"" +
                    num(L.height) + "\" data-end=\"" + std::to_string(L.end_ms) + "\" data-pad=\"" + num(kPad) +
                    "\" data-axis=\"" + num(kAxisH) + "\">";
  out += defs() + lane_backgrounds(L) + axis_and_grid(L) + faults_layer(L) + lanes_layer(L) + witness_layer(L);
  return out + "</svg>";
}

std::string verdict_chips(const TimelineInput& in) {
  if (in.verdicts.empty()) return {};
  std::string out = "<div class=\"verdicts\">";
  for (const Verdict& v : in.verdicts) {
    const std::string valid(to_string(v.valid));
    El chip("span");
    chip.a("class", "chip " + valid).a("title", v.explanation.empty() ? v.anomaly : v.anomaly + ": " + v.explanation);
    out += chip.text(v.property + ": " + valid + (v.anomaly.empty() ? "" : " (" + v.anomaly + ")")).str();
  }
  return out + "</div>";
}

std::string violation_box(const TimelineInput& in) {
  const auto bad = violations(in);
  if (bad.empty()) return {};
  std::string out = "<section class=\"violations\" id=\"violations\"><h2>";
  out += std::to_string(bad.size()) + (bad.size() == 1 ? " violation" : " violations");
  out += " <a href=\"#\" id=\"jump-first\" data-jump=\"0\">jump to first violation</a></h2><ol>";
  for (size_t k = 0; k < bad.size(); ++k) {
    const Verdict& v = *bad[k];
    std::string witness;
    for (int64_t i : v.witness) witness += (witness.empty() ? "#" : " #") + std::to_string(i);
    out += "<li><b>" + esc(v.property) + "</b> <span class=\"anomaly\">" + esc(v.anomaly) + "</span> " +
           "<span class=\"explanation\">" + esc(v.explanation) + "</span> <span class=\"witness-list\">witness: " +
           esc(witness) + "</span> <a href=\"#\" data-jump=\"" + std::to_string(k) + "\">show</a></li>";
  }
  return out + "</ol></section>";
}

std::string swatch(const std::string& shape, const std::string& label) {
  return "<span class=\"key-item\"><svg width=\"26\" height=\"14\">" + shape + "</svg>" + esc(label) + "</span>";
}

std::string legend() {
  std::string out = "<div class=\"legend\">";
  out += swatch("<rect x=\"1\" y=\"2\" width=\"24\" height=\"10\" fill=\"#3467c8\"/>", "believes it holds");
  out += swatch("<rect x=\"1\" y=\"2.5\" width=\"24\" height=\"9\" fill=\"url(#wait-hatch)\" stroke=\"#3467c8\"/>", "waits to acquire");
  out += swatch("<rect x=\"1\" y=\"5\" width=\"24\" height=\"4\" fill=\"#c4cad1\"/>", "other op");
  out += swatch("<circle cx=\"7\" cy=\"7\" r=\"3.5\" class=\"ok-s\"/><rect x=\"15\" y=\"3.5\" width=\"7\" height=\"7\" class=\"fail-s\"/>", "ok / fail");
  out += swatch("<rect x=\"12\" y=\"0\" width=\"2\" height=\"14\" fill=\"#1d2126\"/>", "renewal");
  out += swatch("<rect x=\"1\" y=\"2\" width=\"24\" height=\"10\" fill=\"#3467c8\" opacity=\"0.55\"/>", "key exists (by creator)");
  out += swatch("<rect x=\"1\" y=\"0\" width=\"24\" height=\"14\" fill=\"#f0a13a\" opacity=\"0.3\"/>", "pause");
  out += swatch("<rect x=\"1\" y=\"0\" width=\"24\" height=\"14\" fill=\"#8e6cd0\" opacity=\"0.25\"/>", "partition");
  out += swatch("<rect x=\"1\" y=\"0\" width=\"24\" height=\"14\" fill=\"url(#crash-hatch)\"/>", "crashed");
  out += swatch("<rect x=\"11\" y=\"0\" width=\"4\" height=\"14\" fill=\"#e4572e\" opacity=\"0.6\"/>", "restart / failover");
  out += swatch("<path d=\"M9.5,3.5 L16.5,10.5 M9.5,10.5 L16.5,3.5\" stroke=\"#d62728\" stroke-width=\"2\"/>", "lost message");
  out += swatch("<circle cx=\"13\" cy=\"7\" r=\"5.5\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"2\"/>", "violation witness");
  return out + "</div>";
}

const char* const kStyle = R"CSS(
body{font:13px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d2126;background:#fafbfc}
header{padding:12px 18px 6px}
h1{font-size:19px;margin:0 0 4px}
.about{margin:0 0 4px;color:#39424b;max-width:110ch}
.facts{margin:0;color:#5c6670}
code{background:#eef0f3;padding:0 3px;border-radius:3px}
.verdicts{margin:6px 0 0}
.chip{display:inline-block;border-radius:10px;padding:1px 9px;margin:2px 6px 2px 0;font-size:12px;border:1px solid}
.chip.holds{background:#e7f6ec;border-color:#8fd1a5;color:#175c2e}
.chip.violated{background:#fde8e8;border-color:#e79a9a;color:#9b1c1c;font-weight:600}
.chip.unknown{background:#f1f2f4;border-color:#c3c8ce;color:#4a525a}
.violations{margin:8px 18px;padding:8px 14px;border:2px solid #d62728;background:#fff1f0;border-radius:6px;color:#7d1212}
.violations h2{font-size:15px;margin:0 0 4px;color:#b31b1b}
.violations ol{margin:0;padding-left:20px}
.violations li{margin:3px 0}
.violations a{color:#b31b1b;font-weight:600;margin-left:8px}
.anomaly{font-family:ui-monospace,monospace;background:#fbd5d5;padding:0 4px;border-radius:3px}
.witness-list{color:#a04848;font-size:12px}
.toolbar{display:flex;align-items:center;flex-wrap:wrap;gap:6px;padding:4px 18px}
.toolbar button{font:inherit;padding:1px 10px;border:1px solid #b9c0c8;background:#fff;border-radius:4px;cursor:pointer}
.hint{color:#6b747d;font-size:12px;margin-right:10px}
.legend{display:inline-flex;flex-wrap:wrap;gap:2px 12px;font-size:12px;color:#39424b}
.key-item{display:inline-flex;align-items:center;gap:3px}
.ok-s{fill:#1f9a4a}.fail-s{fill:#e07b00}
.chart{display:flex;margin:4px 18px 18px;border:1px solid #d5dae0;background:#fff}
.labels{flex:none;border-right:1px solid #d5dae0;background:#fff}
.scroll{overflow-x:auto;overflow-y:hidden;flex:1}
.lane-name{font-weight:650;font-size:14px}
.row-name{font-size:11px;fill:#6b747d;text-anchor:end}
.axis-caption{font-size:11px;fill:#6b747d}
.axis-bg{fill:#fff}
.tick{stroke:#8a939c}
.tick-label{font-size:11px;fill:#4a525a;text-anchor:middle}
.grid{stroke:#edf0f3}
.lane-bg{fill:#ffffff}.lane-bg.odd{fill:#f7f9fb}.lane-bg.server{fill:#f3f5f8}
.sep{stroke:#c9d0d7}
.hold{fill-opacity:.9}.hold.open{fill-opacity:.45}
.op{fill:#c4cad1}.op.wait{fill:url(#wait-hatch);stroke-width:1.2}.op.open{opacity:.55}
.mark.ok circle{fill:#1f9a4a;stroke:#fff;stroke-width:1}
.mark.fail rect{fill:#e07b00;stroke:#fff;stroke-width:1}
.mark.info path{fill:#8a939c;stroke:#fff;stroke-width:1}
.mark.renew rect{fill:#1d2126}.mark.renew.refused rect{fill:#e07b00}.mark.renew.noreply rect{fill:#a9b1b9}
.mark.notch rect{fill:#fff;opacity:.8}
.mark.write path{fill:#0f7c8c}.mark.write.rejected path{fill:#e07b00}
.mark.lost path{stroke:#d62728;stroke-width:2}
.mark.message circle{fill:none;stroke:#8a939c}
.key{fill-opacity:.55}.key.unknown{fill:url(#unknown-hatch);stroke:#b7bec6;stroke-dasharray:3 2}
.mark.keyev rect{fill:#39424b}.mark.keyev.created rect{fill:#1f9a4a}.mark.keyev.expired rect,.mark.keyev.deleted rect{fill:#1d2126}
.mark.exec.error rect{fill:#e07b00}
.fault{fill-opacity:.22}.fault.pause{fill:#f0a13a}.fault.partition{fill:#8e6cd0}.fault.delay{fill:#e8d23a}.fault.loss{fill:#e8d23a}
.fault.crash{fill:url(#crash-hatch);fill-opacity:1}
.fault-label{font-size:10px;fill:#5c4a1e}
.fault-point path{fill:#b06a00}
.server-fault{fill:#e4572e;fill-opacity:.45}
.server-fault-label{font-size:11px;fill:#a8361a;font-weight:600}.server-fault-label.late{text-anchor:end}
.witness circle{fill:none;stroke:#d62728;stroke-width:2.2}
.witness-line{stroke:#d62728;stroke-width:1;stroke-dasharray:4 3;opacity:.75}
.overlap{fill:#d62728;fill-opacity:.28;stroke:#d62728;stroke-width:1.5}
.flash circle{animation:flash 1.2s ease-out 2}
@keyframes flash{0%{stroke-width:7}100%{stroke-width:2.2}}
[data-tip]:hover,g.mark:hover{filter:brightness(1.25)}
#tip{position:fixed;display:none;pointer-events:none;max-width:560px;background:#1d2126;color:#f4f6f8;
  font:12px/1.35 ui-monospace,SFMono-Regular,Menlo,monospace;padding:6px 8px;border-radius:4px;white-space:pre-wrap;
  word-break:break-all;z-index:10;box-shadow:0 2px 8px rgba(0,0,0,.3)}
)CSS";

// Tooltips from the marks' <title>s, zoom (buttons, ctrl+wheel) that re-lays out every mark from
// its data-t0/data-t1, the axis redrawn per zoom, and the jumps to violations.
const char* const kScript = R"JS(
(function(){
  const plot=document.getElementById('plot'), scroll=document.getElementById('scroll'), tip=document.getElementById('tip');
  const END=+plot.dataset.end, PAD=+plot.dataset.pad, AXIS=+plot.dataset.axis, NS=plot.namespaceURI;
  let scale=1, fitted=true;  // fitted: the whole run fills the view (kept so on resizes)
  const X=t=>PAD+t*scale;
  for(const t of Array.from(document.querySelectorAll('svg title'))){
    t.parentNode.setAttribute('data-tip',t.textContent); t.remove();
  }
  const positioned=Array.from(plot.querySelectorAll('[data-t0]')).filter(e=>!e.closest('#axis,#grid'));
  function el(tag,attrs,text){const e=document.createElementNS(NS,tag);for(const k in attrs)e.setAttribute(k,attrs[k]);if(text!==undefined)e.textContent=text;return e;}
  function niceStep(){const raw=90/scale,mag=Math.pow(10,Math.floor(Math.log10(raw)));for(const m of [1,2,5])if(m*mag>=raw)return Math.max(1,Math.round(m*mag));return Math.max(1,Math.round(10*mag));}
  function drawAxis(){
    const axis=document.getElementById('axis'),grid=document.getElementById('grid'),H=+plot.getAttribute('height');
    axis.replaceChildren(el('rect',{x:0,y:0,width:X(END)+PAD,height:AXIS-4,'class':'axis-bg'}));grid.replaceChildren();
    const step=niceStep();
    for(let t=0;t<=END;t+=step){
      grid.appendChild(el('line',{x1:X(t),x2:X(t),y1:AXIS,y2:H,'class':'grid'}));
      axis.appendChild(el('line',{x1:X(t),x2:X(t),y1:AXIS-10,y2:AXIS-4,'class':'tick'}));
      axis.appendChild(el('text',{x:X(t),y:AXIS-14,'class':'tick-label'},String(t)));
    }
  }
  function layout(){
    for(const e of positioned){
      const x0=X(+e.dataset.t0),dx=+(e.dataset.dx||0);
      switch(e.tagName){
        case 'rect':{const w=Math.max(+(e.dataset.minw||1),X(+e.dataset.t1)-x0);e.setAttribute('x',x0);e.setAttribute('width',w);break;}
        case 'line':e.setAttribute('x1',x0);e.setAttribute('x2',x0);break;
        case 'text':e.setAttribute('x',x0+dx);break;
        case 'g':e.setAttribute('transform','translate('+x0+','+e.dataset.y+')');break;
      }
    }
    plot.setAttribute('width',X(END)+PAD);
    drawAxis();
  }
  const fitScale=()=>Math.max(1e-6,(scroll.clientWidth-2*PAD)/Math.max(END,1));
  function zoomTo(s,anchorPx){
    const old=scale;anchorPx=anchorPx===undefined?scroll.clientWidth/2:anchorPx;
    const t=(scroll.scrollLeft+anchorPx-PAD)/old;
    scale=Math.min(50,Math.max(fitScale(),s));fitted=scale===fitScale();layout();
    scroll.scrollLeft=PAD+t*scale-anchorPx;
  }
  document.getElementById('zoom-in').onclick=()=>zoomTo(scale*2);
  document.getElementById('zoom-out').onclick=()=>zoomTo(scale/2);
  function fit(){scale=fitScale();fitted=true;layout();scroll.scrollLeft=0;}
  document.getElementById('zoom-fit').onclick=fit;
  window.addEventListener('resize',()=>{if(fitted)fit();});
  scroll.addEventListener('wheel',ev=>{if(!ev.ctrlKey)return;ev.preventDefault();
    zoomTo(scale*(ev.deltaY<0?1.25:0.8),ev.clientX-scroll.getBoundingClientRect().left);},{passive:false});
  function jump(k){
    // Where two holds overlap, that stretch is the violation; otherwise the witnesses' span.
    let marks=Array.from(plot.querySelectorAll('.overlap[data-violation="'+k+'"]'));
    if(!marks.length)marks=Array.from(plot.querySelectorAll('[data-violation="'+k+'"][data-t0]'));
    if(!marks.length)return;
    const ts=marks.map(m=>+m.dataset.t0);
    for(const m of marks)if(m.dataset.t1!==undefined)ts.push(+m.dataset.t1);
    const lo=Math.min(...ts),hi=Math.max(...ts),span=Math.max(hi-lo,1);
    scale=Math.min(50,Math.max(fitScale(),(scroll.clientWidth-2*PAD)*0.8/span));fitted=false;layout();
    scroll.scrollLeft=X(lo)-(scroll.clientWidth-(X(hi)-X(lo)))/2;
    scroll.scrollIntoView({block:'nearest'});
    for(const m of plot.querySelectorAll('.witness[data-violation="'+k+'"]')){m.classList.remove('flash');void m.getBBox();m.classList.add('flash');}
  }
  for(const a of document.querySelectorAll('[data-jump]'))a.addEventListener('click',ev=>{ev.preventDefault();jump(+a.dataset.jump);});
  document.addEventListener('mousemove',ev=>{
    const t=ev.target.closest&&ev.target.closest('[data-tip]');
    if(!t){tip.style.display='none';return;}
    tip.textContent=t.getAttribute('data-tip');tip.style.display='block';
    const w=tip.offsetWidth,h=tip.offsetHeight;
    tip.style.left=Math.min(ev.clientX+14,window.innerWidth-w-8)+'px';
    tip.style.top=(ev.clientY+16+h>window.innerHeight?ev.clientY-h-10:ev.clientY+16)+'px';
  });
  fit();
  if(location.hash==='#first-violation')jump(0);
})();
)JS";

std::string header(const Layout& L) {
  const TimelineInput& in = L.in;
  std::string out = "<header><h1>" + esc(in.title.empty() ? "locksim run" : in.title) + "</h1>";
  if (!in.about.empty()) out += "<p class=\"about\">" + esc(in.about) + "</p>";
  std::string clients;
  for (const auto& c : L.cast.clients) clients += (clients.empty() ? "" : ", ") + esc(c);
  std::string servers;
  for (const auto& s : L.cast.servers) servers += (servers.empty() ? "" : ", ") + esc(s);
  out += "<p class=\"facts\">";
  if (!in.lock.empty()) out += "lock <code>" + esc(in.lock) + "</code> · ";
  out += "clients " + (clients.empty() ? std::string("none") : clients) + " · servers " +
         (servers.empty() ? std::string("none") : servers) + " · " + std::to_string(L.h.size()) + " events · 0 to " +
         std::to_string(L.h.end_ms()) + (in.real_time ? " ms of real time (live)</p>" : " ms of virtual time</p>");
  return out + verdict_chips(in) + "</header>";
}

std::string toolbar() {
  return "<div class=\"toolbar\"><button id=\"zoom-out\" title=\"zoom out\">&#8722;</button>"
         "<button id=\"zoom-in\" title=\"zoom in\">+</button><button id=\"zoom-fit\" title=\"fit the run\">fit</button>"
         "<span class=\"hint\">ctrl+wheel zooms, hover a mark for its event</span>" +
         legend() + "</div>";
}

// ============================================================================ the text timeline

std::string summary(const Event& e, bool threaded) {
  std::string s = threaded && e.thread > 0 ? "t" + std::to_string(e.thread) + " " : "";
  const std::string lock = e.lock.empty() ? "" : " " + e.lock;
  switch (e.kind) {
    case EventKind::Invoke:
      s += "> " + e.f + lock;
      if (e.wait_ms >= 0) s += " wait=" + std::to_string(e.wait_ms);
      if (is_acquire(e.f)) s += e.lease_ms >= 0 ? " lease=" + std::to_string(e.lease_ms) : " watchdog";
      if (e.f == "work") s += " " + std::to_string(e.value);
      return s;
    case EventKind::Ok: return s + "< ok " + e.f + (e.value ? " =" + std::to_string(e.value) : "");
    case EventKind::Fail: return s + "< FAIL " + e.f;
    case EventKind::Info: return s + "< info? " + e.f;
    case EventKind::Hold: return s + "HOLD" + lock + " x" + std::to_string(e.value);
    case EventKind::Release: return s + "release" + lock + " x" + std::to_string(e.value) + " (" + e.f + ")";
    case EventKind::Renew: return s + "renew" + lock + (e.value == 1 ? " ok" : e.value == 0 ? " refused" : " no reply");
    case EventKind::Exec: return s + e.f + " " + e.client + ":" + std::to_string(e.thread) + " -> " + e.reply;
    case EventKind::Key: return s + "key" + lock + " " + e.f;
    case EventKind::Fault: return s + "FAULT " + e.f + (e.value ? " " + std::to_string(e.value) : "");
    case EventKind::Message: return s + "msg " + e.f + lock;
    case EventKind::Write: return s + "write" + lock + " " + e.f + " token=" + std::to_string(e.value);
    case EventKind::End: return s + "END of the run";
  }
  return s;
}

std::string details(const Event& e) {
  switch (e.kind) {
    case EventKind::Exec:
      return e.text + "  < " + e.reply + (e.before.empty() && e.after.empty() ? "" : "  [" + e.before + " -> " + e.after + "]");
    case EventKind::Hold: return e.lease_ms >= 0 ? "lease " + ms(e.lease_ms) : "watchdog";
    case EventKind::Key: return e.value ? "expire_at " + std::to_string(e.value) : "";
    default: return e.text;
  }
}

std::string fit(std::string s, size_t width) {
  if (s.size() > width) s = s.substr(0, width - 1) + "~";
  return s + std::string(width - s.size(), ' ');
}

std::string pad_left(const std::string& s, size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

}  // namespace

std::string render_timeline_html(const TimelineInput& in) {
  if (!in.history) throw std::invalid_argument("render_timeline_html: no history");
  const Layout L(in);
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">";
  out += "<title>" + esc("locksim timeline: " + (in.title.empty() ? std::string("run") : in.title)) + "</title>";
  out += "<style>" + std::string(kStyle) + "</style></head>\n<body>";
  out += header(L) + violation_box(in) + toolbar();
  // The legend's swatches use the plot's patterns; an empty SVG carries a copy of them.
  out += "<svg width=\"0\" height=\"0\" style=\"position:absolute\">" + defs() + "</svg>";
  out += "<div class=\"chart\">" + labels_svg(L) + "<div class=\"scroll\" id=\"scroll\">" + plot_svg(L) + "</div></div>";
  out += "<div id=\"tip\"></div>\n<script>" + std::string(kScript) + "</script>\n</body></html>\n";
  return out;
}

std::string render_timeline_text(const TimelineInput& in) {
  if (!in.history) throw std::invalid_argument("render_timeline_text: no history");
  const History& h = *in.history;
  const model::Facts facts(*in.history, model::find_lock_type(in.lock_type));
  const Cast cast = find_cast(in, facts);
  std::vector<std::string> columns = cast.clients;
  columns.insert(columns.end(), cast.others.begin(), cast.others.end());
  columns.insert(columns.end(), cast.servers.begin(), cast.servers.end());
  std::map<std::string, bool> threaded;  // clients with several threads say which one
  for (const auto& c : cast.clients) {
    std::set<int64_t> threads;
    for (const Event& e : h.events())
      if (e.process == c && e.thread > 0) threads.insert(e.thread);
    threaded[c] = threads.size() > 1;
  }
  std::set<int64_t> witnesses;
  std::string out = "locksim timeline: " + (in.title.empty() ? std::string("run") : in.title) + "\n";
  if (!in.about.empty()) out += in.about + "\n";
  if (!in.lock.empty()) out += "lock: " + in.lock + "\n";
  out += std::to_string(h.size()) + " events, 0 to " + ms(h.end_ms()) + (in.real_time ? " of real time (live)\n" : " of virtual time\n");
  for (const Verdict& v : in.verdicts) {
    out += (v.valid == Validity::No ? "VIOLATION " : "verdict ") + v.property + ": " + std::string(to_string(v.valid));
    if (!v.anomaly.empty()) out += " (" + v.anomaly + ")";
    if (!v.explanation.empty()) out += " - " + v.explanation;
    if (v.valid == Validity::No && !v.witness.empty()) {
      out += " [witness:";
      for (int64_t i : v.witness) out += " #" + std::to_string(i), witnesses.insert(i);
      out += "]";
    }
    out += "\n";
  }
  constexpr size_t kClientW = 30, kServerW = 36;
  const auto width = [&](const std::string& col) { return contains(cast.servers, col) ? kServerW : kClientW; };
  std::string head = "\n" + pad_left("ms", 9) + " " + fit("#", 6);
  for (const auto& c : columns) head += "| " + fit(c, width(c));
  out += head + "| details\n";
  for (const Event& e : h.events()) {
    const std::string index = std::to_string(e.index) + (witnesses.count(e.index) ? "!" : "");
    std::string line = pad_left(std::to_string(e.at_ms), 9) + " " + fit(index, 6);
    for (const auto& c : columns)
      line += "| " + fit(c == e.process ? summary(e, threaded[c]) : "", width(c));
    line += "| " + details(e);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    std::replace(line.begin(), line.end(), '\n', ' ');
    out += line + "\n";
  }
  return out;
}

}  // namespace locksim::report
