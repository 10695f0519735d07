#include "report/timeline_plot.hpp"

#include <cmath>
#include <iomanip>
#include <sstream>
#include <ostream>

#include "model/fault_events.hpp"
#include "report/markup.hpp"

namespace locksim::report::timeline {

using model::Validity;
using model::Verdict;

std::vector<const Verdict*> violations(const TimelineInput& in) {
  std::vector<const Verdict*> out;
  for (const Verdict& v : in.verdicts)
    if (v.valid == Validity::No) out.push_back(&v);
  return out;
}

namespace {

// "12 s", "12.5 s", "12.345 s": seconds with the decimals a tick step of `step` ms needs (the
// page's script writes the same).
std::string seconds(int64_t t, int64_t step) {
  const int decimals = step >= 1000 ? 0 : step >= 100 ? 1 : step >= 10 ? 2 : 3;
  std::ostringstream out;
  out << std::fixed << std::setprecision(decimals) << static_cast<double>(t) / 1000.0 << " s";
  return out.str();
}

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
    axis += El("text").a("x", L.scale.x(t)).a("y", kAxisH - 14).a("class", "tick-label").a("data-tip", ms(t))
                .text(seconds(t, istep)).str();
  }
  return grid + "</g>" + axis + "</g>";
}

std::string lane_backgrounds(const Layout& L) {
  std::string out = "<g class=\"backgrounds\">";
  for (size_t i = 0; i < L.lanes.size(); ++i) {
    const Lane& lane = L.lanes[i];
    const bool shaded = lane.kind == Lane::Kind::Server || lane.kind == Lane::Kind::World;
    std::string cls = lane.kind == Lane::Kind::Queue ? "lane-bg queue" : shaded ? "lane-bg server" : (lane.color % 2 ? "lane-bg odd" : "lane-bg");
    out += El("rect").a("x", 0).a("y", lane.top).a("width", "100%").a("height", lane.height()).a("class", cls).str();
    const bool last_of_process = i + 1 == L.lanes.size() || L.lanes[i + 1].process != lane.process;
    if (last_of_process) out += El("line").a("x1", 0).a("x2", "100%").a("y1", lane.bottom()).a("y2", lane.bottom()).a("class", "sep").str();
  }
  return out + "</g>";
}

// --- faults

bool is_span_fault(const model::FaultSpan& f) { return f.span.to_ms > f.span.from_ms; }

// A restart or failover: an instant that concerns every lane.
bool loses_keys(const model::FaultSpan& f) {
  const model::FaultEventInfo* info = model::find_fault_event(f.kind);
  return info && info->loses_keys;
}

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
  if (f.kind == model::fault_name::kDelay) text += " +" + std::to_string(f.value) + " ms";
  if (f.kind == model::fault_name::kLoss) text += " " + std::to_string(f.value) + "/1000";
  // An error_reply names its error by its code (BUSY, LOADING); the tip has the whole line.
  if (const model::FaultEventInfo* info = model::find_fault_event(f.kind); info && info->shows_text && !f.text.empty())
    text += " " + f.text.substr(0, f.text.find(' '));
  if (f.span.to_ms != model::kForever) text += " " + std::to_string(f.span.to_ms - f.span.from_ms) + " ms";
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
    out += f.server && loses_keys(f) ? server_fault(L, L.h[static_cast<size_t>(f.span.begin)]) : client_fault(L, f);
  return out + "</g>";
}

// --- client lanes: holding bars, operations, markers

std::string hold_bars(const Layout& L, const Lane& lane) {
  std::string out;
  for (const model::Belief& b : L.facts.beliefs()) {
    if (b.process != lane.process || b.thread != lane.thread) continue;
    const Event& hold = L.h[static_cast<size_t>(b.span.begin)];
    const Event* release = b.span.end >= 0 ? &L.h[static_cast<size_t>(b.span.end)] : nullptr;
    const int64_t end = release ? release->at_ms : L.open_end(lane.process, hold.at_ms);
    El bar = span_rect(L.scale, hold.at_ms, end, lane.row_y(b.lock) - 5, 10, 2);
    bar.a("class", std::string("hold") + (release ? "" : " open")).a("fill", color_of(lane.color));
    bar.a("data-ev", std::to_string(hold.index) + (release ? " " + std::to_string(release->index) : ""));
    std::string tip = lane.id + " believed it held " + b.lock + "\nfrom " + ms(hold.at_ms) + " (#" +
                      std::to_string(hold.index) + ", " + hold.f + ", " +
                      (hold.lease_ms >= 0 ? "lease " + ms(hold.lease_ms) : std::string("watchdog")) + ")\n";
    tip += release ? "until " + ms(release->at_ms) + " (#" + std::to_string(release->index) + ", " + release->f + ")"
                   : end < L.end_ms ? "until its client crashed at " + ms(end) : std::string("still at the run's end");
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

// The head of an operation still waiting at the end: an arrow against the run's end line, so that the
// wait reads as going on past what was recorded.
std::string pending_marker(const Layout& L, const Event& invoke, double y, const std::string& tip) {
  El g = point(L.scale, L.end_ms, y);
  g.a("class", "mark pending-end").a("data-ev", std::to_string(invoke.index)).tip(tip);
  return g.child(El("path").a("d", "M-9,-6 L0,0 L-9,6 Z").str()).str();
}

std::string op_bars(const Layout& L, const Lane& lane) {
  std::string bars, markers;
  std::map<int64_t, const Event*> open;  // by op id
  const double y = lane.op_y();
  const auto draw = [&](const Event& invoke, const Event* outcome) {
    const int64_t end = outcome ? outcome->at_ms : L.open_end(lane.process, invoke.at_ms);
    const bool acquire = is_acquire(invoke.f);
    const bool pending = !outcome && L.pending_of(invoke.index);
    El bar = span_rect(L.scale, invoke.at_ms, end, acquire ? y - 4.5 : y - 2, acquire ? 9 : 4, 2);
    bar.a("class", std::string(acquire ? "op wait" : "op") + (outcome ? "" : pending ? " open pending" : " open"));
    if (acquire) bar.a("stroke", color_of(lane.color));
    bar.a("data-ev", std::to_string(invoke.index) + (outcome ? " " + std::to_string(outcome->index) : ""));
    std::string tip = describe(invoke) + "\n";
    tip += outcome ? "-> " + std::string(to_string(outcome->kind)) + " at " + ms(outcome->at_ms) + " after " +
                         ms(outcome->at_ms - invoke.at_ms) + (outcome->text.empty() ? "" : ": " + outcome->text)
                   : pending    ? "-> pending: still waiting when the run ended, after " + ms(end - invoke.at_ms)
                   : end < L.end_ms ? "-> no outcome: its client crashed at " + ms(end)
                                    : std::string("-> no outcome by the run's end");
    bars += bar.tip(tip).str();
    if (outcome && !(outcome->kind == EventKind::Ok && invoke.f == "work")) markers += outcome_marker(L, *outcome, y);
    if (pending) markers += pending_marker(L, invoke, y, tip);
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
  g.a("class", cls).a("data-ev", std::to_string(e.index)).tip(describe(e) + "\n(watchdog renewal: " + renewal_answer(e) + ")");
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

// The commands a server ran for a client that recorded nothing of its own: a tick each, where the
// server ran it, an error reply in amber.
std::string sent_commands(const Layout& L, const Lane& lane) {
  std::string out;
  for (const Event& e : L.h.events()) {
    if (e.kind != EventKind::Exec || e.client != lane.process) continue;
    const bool error = !e.reply.empty() && e.reply[0] == '-';
    El g = point(L.scale, e.at_ms, lane.op_y());
    g.a("class", std::string("mark sent") + (error ? " error" : "")).a("data-ev", std::to_string(e.index));
    g.a("fill", color_of(lane.color)).tip(describe(e) + "\n(a command " + lane.id + " sent, run by " + e.process + ")");
    out += g.child(El("rect").a("x", -1).a("y", -6).a("width", 2).a("height", 12).str()).str();
  }
  return out;
}

std::string client_lane(const Layout& L, const Lane& lane) {
  std::string out = hold_bars(L, lane) + op_bars(L, lane) + (lane.commands ? sent_commands(L, lane) : std::string());
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

// --- a FairLock's queue: a row per waiter

std::string ordinal(int64_t n) {
  const int64_t tens = n % 100;
  const char* suffix = tens >= 11 && tens <= 13 ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
  return std::to_string(n) + suffix;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out = "[";
  for (const auto& n : names) out += (out.size() > 1 ? ", " : "") + n;
  return out + "]";
}

// Its place in the queue over time: a bar per stretch at one place, labelled 1st, 2nd, ...
std::string queue_places(const Layout& L, const QueueTrack& q, const QueueStay& stay, double y, int color) {
  std::string bars, labels;
  for (size_t k = 0; k < stay.places.size(); ++k) {
    const auto [from, place] = stay.places[k];
    const int64_t to = k + 1 < stay.places.size() ? stay.places[k + 1].first : stay.to_ms;
    El bar = span_rect(L.scale, from, to, y - 6, 12, 2);
    bar.a("class", std::string("qplace") + (place == 1 ? " head" : "")).a("fill", color_of(color));
    bar.a("data-ev", std::to_string(stay.begin) + (stay.end >= 0 ? " " + std::to_string(stay.end) : ""));
    std::string tip = stay.owner + " " + ordinal(place) + " in the queue of " + q.lock + " from " + ms(from) + " to " + ms(to);
    tip += "\nqueued at " + ms(stay.from_ms) + " (#" + std::to_string(stay.begin) + ") as " + stay.entry;
    tip += "\n" + std::string(to_string(stay.how)) + (stay.end >= 0 ? " at " + ms(stay.to_ms) + " (#" + std::to_string(stay.end) + ")" : "");
    bars += bar.tip(tip).str();
    El label("text");
    label.a("x", L.scale.x(from) + 3).a("y", y + 3.5).a("data-t0", std::to_string(from)).a("data-t1", std::to_string(to));
    label.a("data-dx", 3).a("data-minw", 24).a("class", "qplace-label");
    labels += label.text(ordinal(place)).str();
  }
  return bars + labels;
}

// Each reply's timeout score (or, without threadWaitTime, the wait it was told), the latest bold.
std::string queue_scores(const Layout& L, const QueueStay& stay, double y) {
  std::string out;
  for (size_t k = 0; k < stay.scores.size(); ++k) {
    const QueueStay::Score& sc = stay.scores[k];
    const bool known = sc.score_ms >= 0;
    const int64_t at = known ? sc.score_ms : sc.at_ms + sc.told_ms;
    const bool latest = k + 1 == stay.scores.size();
    El g = point(L.scale, at, y);
    g.a("class", std::string("mark score") + (known ? "" : " told") + (latest ? "" : " old")).a("data-ev", std::to_string(sc.event));
    std::string tip = known ? stay.owner + "'s timeout score: " + ms(sc.score_ms) : stay.owner + " told to wait until " + ms(at);
    tip += "\nfrom its acquire at " + ms(sc.at_ms) + " (#" + std::to_string(sc.event) + "), answered wait " + ms(sc.told_ms);
    tip += known ? " + threadWaitTime " + ms(L.in.thread_wait_ms)
                 : "\n(its score in the timeout set is this + threadWaitTime, not known to this page)";
    tip += "\nonce the clock passes its score, the next script prunes it from the queue"
           "\n(from Redisson 3.11.1 every grant also lowers each waiter's score by threadWaitTime)";
    if (!latest) tip += "\n(superseded by a later reply)";
    out += g.tip(tip).child(El("path").a("d", "M0,-9 L0,9 M0,-9 L6,-6 L0,-3").str()).str();
  }
  return out;
}

std::string queue_end(const Layout& L, const QueueStay& stay, double y) {
  if (stay.how == QueueStay::End::Open) return {};
  El g = point(L.scale, stay.to_ms, y);
  const std::string tip = (stay.end >= 0 ? describe(L.h[static_cast<size_t>(stay.end)]) + "\n" : std::string()) + "(" +
                          stay.owner + " left the queue: " + std::string(to_string(stay.how)) + ")";
  g.a("data-ev", std::to_string(stay.end)).tip(tip);
  switch (stay.how) {
    case QueueStay::End::Granted: return g.a("class", "mark qgranted").child(El("circle").a("r", 4).str()).str();
    case QueueStay::End::Pruned:
      return g.a("class", "mark qpruned").child(El("path").a("d", "M-5,-5 L5,5 M-5,5 L5,-5").str()).str();
    case QueueStay::End::GaveUp:
      return g.a("class", "mark qgaveup").child(El("rect").a("x", -3.5).a("y", -3.5).a("width", 7).a("height", 7).str()).str();
    default: return g.a("class", "mark qunknown").child(El("path").a("d", "M0,-5 L5,0 L0,5 L-5,0 Z").str()).str();
  }
}

std::string queue_wakeups(const Layout& L, const QueueStay& stay, double y) {
  std::string out;
  for (int64_t i : stay.wakeups) {
    const Event& e = L.h[static_cast<size_t>(i)];
    El g = point(L.scale, e.at_ms, y - 9);
    const bool lost = e.f == "lost";
    g.a("class", std::string("mark wake") + (lost ? " lost" : "")).a("data-ev", std::to_string(i));
    g.tip(describe(e) + "\n(" + (lost ? "a wake-up lost on its way to " : "a wake-up for ") + stay.owner + ")");
    out += g.child(El("path").a("d", "M-4,-3 L4,-3 L0,3 Z").str()).str();
  }
  return out;
}

std::string queue_lane(const Layout& L, const Lane& lane) {
  const QueueTrack& q = L.queues[lane.queue];
  std::string bars, marks;
  for (const QueueStay& stay : q.stays) {
    const double y = lane.row_y(stay.owner);
    const int color = L.client_color(stay.owner.substr(0, stay.owner.find(':')));
    bars += queue_places(L, q, stay, y, color);
    // A score is drawn over the mark of how the waiter left: a prune falls right after it.
    marks += queue_end(L, stay, y) + queue_scores(L, stay, y) + queue_wakeups(L, stay, y);
  }
  for (int64_t i : q.changes) {
    const Event& e = L.h[static_cast<size_t>(i)];
    El g = point(L.scale, e.at_ms, lane.op_y());
    g.a("class", "mark qchange").a("data-ev", std::to_string(i));
    g.tip(describe(e) + "\n(the queue after it: " + joined(queue_after(L.facts, q, i)) + ")");
    marks += g.child(El("rect").a("x", -1).a("y", -5).a("width", 2).a("height", 10).str()).str();
  }
  return bars + marks;
}

// The world's own events (not its End: the run's end is a line across the plot).
std::string world_lane(const Layout& L, const Lane& lane) {
  std::string out;
  for (const Event& e : L.h.events()) {
    if (e.process != lane.process || e.kind == EventKind::End) continue;
    El g = point(L.scale, e.at_ms, lane.op_y());
    g.a("class", "mark world-event").a("data-ev", std::to_string(e.index)).tip(describe(e));
    out += g.child(El("path").a("d", "M0,-5 L5,0 L0,5 L-5,0 Z").str()).str();
  }
  return out;
}

std::string run_end(const Layout& L) {
  for (const Event& e : L.h.events())
    if (e.kind == EventKind::End) {
      El line = vline(L.scale, e.at_ms, kAxisH, L.height);
      return line.a("class", "run-end").a("data-ev", std::to_string(e.index)).tip(describe(e) + "\n(the run stops here)").str();
    }
  return {};
}

const char* const kLaneClass[] = {"lane", "lane world", "lane server", "lane queue"};

void write_lanes_layer(const Layout& L, std::ostream& out) {
  for (const Lane& lane : L.lanes) {
    out << "<g class=\"" << kLaneClass[static_cast<int>(lane.kind)] << "\" data-lane=\"" << escape_markup(lane.id) << "\">";
    switch (lane.kind) {
      case Lane::Kind::Client: out << client_lane(L, lane); break;
      case Lane::Kind::World: out << world_lane(L, lane); break;
      case Lane::Kind::Server: out << key_rows(L, lane) << exec_ticks(L, lane); break;
      case Lane::Kind::Queue: out << queue_lane(L, lane); break;
    }
    out << "</g>";
  }
  out << run_end(L);
}

// --- violations


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

}  // namespace

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
  out += El("text").a("x", 8).a("y", kAxisH - 14).a("class", "axis-caption").text(L.in.real_time ? "real time (s)" : "virtual time (s)").str();
  static const char* const kOpRow[] = {"ops", "events", "exec", "changes"};
  static const char* const kCommandsRow = "commands";
  for (const Lane& lane : L.lanes) {
    std::string g = "<g class=\"lane-label\" data-label=\"" + escape_markup(lane.id) + "\">";
    g += El("rect").a("x", 0).a("y", lane.top).a("width", 5).a("height", lane.height()).a("fill", color_of(lane.color)).str();
    g += El("text").a("x", 12).a("y", lane.top + 15).a("class", "lane-name").text(lane.id).str();
    // Server rows are keys; a key's name can be long: the page's script shortens what does not fit.
    for (const auto& row : lane.rows)
      if (!row.empty() || lane.server())
        g += El("text").a("x", kLabelW - 6).a("y", lane.row_y(row) + 4).a("class", "row-name").text(row).str();
    g += El("text").a("x", kLabelW - 6).a("y", lane.op_y() + 4).a("class", "row-name")
             .text(lane.commands ? kCommandsRow : kOpRow[static_cast<int>(lane.kind)]).str();
    out += g + "</g>";
  }
  return out + "</svg>";
}

void write_plot_svg(const Layout& L, std::ostream& out) {
  out << "<svg id=\"plot\" width=\"" << num(L.width()) << "\" height=\"" << num(L.height) << "\" data-end=\""
      << L.end_ms << "\" data-pad=\"" << num(kPad) << "\" data-pad-right=\"" << num(kPadRight) << "\" data-axis=\""
      << num(kAxisH) << "\" data-view0=\"" << L.view.first << "\" data-view1=\"" << L.view.second << "\">";
  out << defs() << lane_backgrounds(L) << axis_and_grid(L) << faults_layer(L);
  write_lanes_layer(L, out);
  out << witness_layer(L) << "<g id=\"rings\"></g></svg>";
}

}  // namespace locksim::report::timeline
