#include <algorithm>
#include <map>
#include <ostream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "model/lock_types.hpp"
#include "model/pending.hpp"
#include "report/timeline.hpp"
#include "report/timeline_layout.hpp"

namespace locksim::report {
namespace {

using model::Validity;
using model::Verdict;
using timeline::Event;
using timeline::EventKind;
using timeline::History;
using timeline::is_acquire;
using timeline::ms;

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
    case EventKind::Renew: return s + "renew" + lock + " " + (e.value == 1 ? std::string("ok") : timeline::renewal_answer(e));
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

void write_timeline_text(const TimelineInput& in, std::ostream& page) {
  if (!in.history) throw std::invalid_argument("write_timeline_text: no history");
  const History& h = *in.history;
  const model::Facts facts(*in.history, model::find_lock_type(in.lock_type));
  const timeline::Cast cast = timeline::find_cast(in, facts);
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
  if (!in.redisson.empty()) out += "Redisson " + in.redisson + "\n";
  out += std::to_string(h.size()) + " events, 0 to " + ms(h.end_ms()) + (in.real_time ? " of real time (live)\n" : " of virtual time\n");
  for (size_t k = 0; k < in.verdicts.size(); ++k) {
    const Verdict& v = in.verdicts[k];
    out += (v.valid == Validity::No ? "VIOLATION " : "verdict ") + v.property + ": " + std::string(to_string(v.valid));
    if (!v.anomaly.empty()) out += " (" + v.anomaly + ")";
    if (!v.explanation.empty()) out += " - " + v.explanation;
    if (v.valid == Validity::No && !v.witness.empty()) {
      out += " [witness:";
      for (int64_t i : v.witness) out += " #" + std::to_string(i), witnesses.insert(i);
      out += "]";
    }
    out += "\n";
    if (!timeline::expected_of(in, k).empty()) out += "  -> " + timeline::standing_text(in, k) + "\n";
  }
  if (const model::PendingOps pending = model::pending_operations(h); !pending.empty()) {
    out += "pending at the end: " + pending.describe() + " [invoked:";
    for (const model::PendingOp& p : pending.ops) out += " #" + std::to_string(p.invoke);
    out += "]\n";
  }
  constexpr size_t kClientW = 30, kServerW = 36;
  const auto width = [&](const std::string& col) { return timeline::contains(cast.servers, col) ? kServerW : kClientW; };
  std::string head = "\n" + pad_left("ms", 9) + " " + fit("#", 6);
  for (const auto& c : columns) head += "| " + fit(c, width(c));
  out += head + "| details\n";
  page << out;
  for (const Event& e : h.events()) {
    const std::string index = std::to_string(e.index) + (witnesses.count(e.index) ? "!" : "");
    std::string line = pad_left(std::to_string(e.at_ms), 9) + " " + fit(index, 6);
    for (const auto& c : columns)
      line += "| " + fit(c == e.process ? summary(e, threaded[c]) : "", width(c));
    line += "| " + details(e);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    std::replace(line.begin(), line.end(), '\n', ' ');
    page << line << '\n';
  }
}

std::string render_timeline_text(const TimelineInput& in) {
  std::ostringstream page;
  write_timeline_text(in, page);
  return std::move(page).str();
}

}  // namespace locksim::report
