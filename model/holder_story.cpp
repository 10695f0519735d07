#include "model/holder_story.hpp"

#include <algorithm>

#include "model/checker_support.hpp"

namespace locksim::model {

std::vector<Evidence> grant_evidence(const Facts& facts, const std::string& role, int64_t hold) {
  if (hold < 0) return {};
  const Event& h = facts.at(hold);
  const Op* op = facts.op(h.op);
  if (!op) return {};
  std::vector<Evidence> out;
  for (auto it = op->execs.rbegin(); it != op->execs.rend(); ++it) {
    if (*it > hold) continue;
    const Event& x = facts.at(*it);
    const KeyTrack* key = facts.key(x.process, x.lock);
    if (!key) continue;
    bool seen = false;
    for (const Evidence& e : out) seen = seen || e.where == key->name();
    if (seen) continue;
    const KeyState& before = key->after_event(*it - 1);
    const KeyState& after = key->after_event(*it);
    const bool took = after.claim_of(h.owner(), "") && (!before.claim_of(h.owner(), "") || before.value != after.value);
    if (!took) continue;
    Evidence e;
    e.role = role;
    e.event = *it;
    e.from_ms = x.at_ms;
    e.who = x.process;
    e.where = key->name();
    e.state = x.reply;
    e.number = h.at_ms - x.at_ms;
    out.push_back(std::move(e));
  }
  std::reverse(out.begin(), out.end());
  return out;
}

std::vector<Evidence> claim_fate(const Facts& facts, const std::string& role, const std::string& owner,
                                 const std::string& lock, int64_t granted, int64_t by) {
  if (granted < 0) return {};
  const Event& g = facts.at(granted);
  const KeyTrack* key = facts.key(g.process, g.lock);
  if (!key) return {};
  Evidence e;
  e.role = role;
  e.who = owner;
  e.where = key->name();
  const KeyState* prev = &key->after_event(granted);
  for (const KeyState& s : key->states) {
    if (s.event <= granted) continue;
    if (s.event > by) break;
    if (s.known && s.claim_of(owner, lock)) {
      prev = &s;
      continue;
    }
    const Event& cause = facts.at(s.event);
    e.event = s.event;
    e.from_ms = cause.at_ms;
    // Redis treats a key past its expiry as gone, whatever command or sweep notices it first.
    const bool lapsed = prev->expire_at >= 0 && prev->expire_at < cause.at_ms;
    if (cause.kind == EventKind::Fault) {
      e.state = "lost";
      e.who = cause.process + " " + cause.f;
    } else if (cause.kind == EventKind::Key || lapsed) {
      e.state = "expired";
      if (prev->expire_at >= 0) e.from_ms = prev->expire_at;
    } else {
      e.state = "removed";
      e.who = cause.owner() + " " + cause.f;
    }
    return {e};
  }
  e.event = by;
  e.from_ms = facts.at(by).at_ms;
  e.state = "held";
  return {e};
}

Verdict overlap_story(const Facts& facts, const Belief& first, const Belief& second, std::string_view property,
                      std::string_view anomaly) {
  std::vector<Evidence> ev{support::belief_evidence(facts, "first_hold", first),
                           support::event_evidence(facts, "second_hold", second.span.begin)};
  const auto first_grants = grant_evidence(facts, "first_grant", first.span.begin);
  const auto second_grants = grant_evidence(facts, "second_grant", second.span.begin);
  ev.insert(ev.end(), first_grants.begin(), first_grants.end());
  ev.insert(ev.end(), second_grants.begin(), second_grants.end());
  // Key by key, what the server had done with the other's hold when it let the next one in.
  for (const Evidence& g2 : second_grants)
    for (const Evidence& g1 : first_grants) {
      if (g1.where != g2.where) continue;
      const auto fate = g1.event < g2.event
                            ? claim_fate(facts, "first_claim", first.owner, first.lock, g1.event, g2.event)
                            : claim_fate(facts, "second_claim", second.owner, second.lock, g2.event, g1.event);
      ev.insert(ev.end(), fate.begin(), fate.end());
    }
  std::vector<std::string> processes{first.process, second.process};
  for (const KeyTrack* k : facts.parts(second.lock)) processes.push_back(k->server);
  for (Evidence& f : support::faults_beside(facts, first.span.from_ms, second.span.from_ms, processes))
    ev.push_back(std::move(f));
  return support::violated(property, anomaly, std::move(ev));
}

}  // namespace locksim::model
