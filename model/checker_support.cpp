#include "model/checker_support.hpp"

#include <algorithm>

#include "model/anomaly.hpp"
#include "model/explain.hpp"
#include "model/fault_events.hpp"

namespace locksim::model::support {

std::string ms(int64_t t) { return std::to_string(t) + " ms"; }

bool is_acquire(std::string_view f) { return f == "lock" || f == "try_lock"; }

namespace {

Verdict finish(Verdict v) {
  for (const Evidence& e : v.evidence)
    for (int64_t i : {e.event, e.end_event})
      if (i >= 0) v.witness.push_back(i);
  std::sort(v.witness.begin(), v.witness.end());
  v.witness.erase(std::unique(v.witness.begin(), v.witness.end()), v.witness.end());
  v.explanation = explain(v);
  return v;
}

}  // namespace

Verdict holds(std::string_view property, std::vector<Evidence> figures) {
  Verdict v;
  v.property = std::string(property);
  v.valid = Validity::Yes;
  v.evidence = std::move(figures);
  v.explanation = explain(v);
  return v;
}

Verdict violated(std::string_view property, std::string_view anomaly, std::vector<Evidence> evidence) {
  Verdict v;
  v.property = std::string(property);
  v.valid = Validity::No;
  v.anomaly = std::string(anomaly);
  v.evidence = std::move(evidence);
  return finish(std::move(v));
}

Verdict unknown(std::string_view property, std::string why) {
  Verdict v;
  v.property = std::string(property);
  v.valid = Validity::Unknown;
  v.explanation = std::move(why);
  return v;
}

Verdict nothing_to_judge(std::string_view property, std::string_view what_none) {
  Verdict v = unknown(property, std::string(what_none) + ": nothing to judge");
  v.anomaly = std::string(anomaly::kNothingToJudge);
  return v;
}

Evidence figure(std::string name, int64_t n) {
  Evidence e;
  e.role = "figure";
  e.where = std::move(name);
  e.number = n;
  return e;
}

Evidence event_evidence(const Facts& facts, std::string role, int64_t index) {
  Evidence e;
  e.role = std::move(role);
  if (index < 0) return e;
  const Event& x = facts.at(index);
  e.event = index;
  e.from_ms = x.at_ms;
  e.who = x.kind == EventKind::Exec ? x.process : x.owner();
  if (x.kind == EventKind::Fault || x.kind == EventKind::Key) e.who = x.process;
  e.where = x.lock;
  e.state = x.kind == EventKind::Exec ? x.reply : is_outcome(x.kind) ? std::string(to_string(x.kind)) : x.f;
  e.number = x.value;
  return e;
}

Evidence belief_evidence(const Facts& facts, std::string role, const Belief& belief) {
  Evidence e;
  e.role = std::move(role);
  e.event = belief.span.begin;
  e.end_event = belief.span.end;
  e.from_ms = belief.span.from_ms;
  e.to_ms = belief.span.end >= 0 ? belief.span.to_ms : kForever;
  e.who = belief.owner;
  e.where = belief.lock;
  e.state = belief.crashed ? "crashed" : belief.span.end >= 0 ? "unlocked" : "open";
  e.number = facts.at(belief.span.begin).lease_ms;
  return e;
}

Evidence fault_evidence(std::string role, const FaultSpan& fault) {
  Evidence e;
  e.role = std::move(role);
  e.event = fault.span.begin;
  e.end_event = fault.span.end;
  e.from_ms = fault.span.from_ms;
  e.to_ms = fault.span.to_ms == fault.span.from_ms ? -1 : fault.span.to_ms;
  e.who = fault.process;
  e.state = fault.kind;
  e.number = fault.value;
  if (const FaultEventInfo* info = find_fault_event(fault.kind); info && info->shows_text) e.where = fault.text;
  return e;
}

Evidence key_evidence(std::string role, const KeyTrack& key, const KeyState& state) {
  Evidence e;
  e.role = std::move(role);
  e.event = state.event;
  e.from_ms = state.from_ms;
  e.who = key.server;
  e.where = key.name();
  e.state = !state.known ? "unknown" : state.present ? state.value.str() : "";
  e.number = state.expire_at;
  return e;
}

std::vector<Evidence> faults_beside(const Facts& facts, int64_t from, int64_t to,
                                    const std::vector<std::string>& processes) {
  std::vector<Evidence> out;
  for (const FaultSpan& f : facts.faults()) {
    if (std::find(processes.begin(), processes.end(), f.process) == processes.end()) continue;
    const int64_t end = std::max(f.span.to_ms, f.span.from_ms);
    if (f.span.from_ms > to || end < from) continue;
    out.push_back(fault_evidence("fault", f));
  }
  return out;
}

}  // namespace locksim::model::support
