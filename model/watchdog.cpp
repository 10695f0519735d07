#include "model/watchdog.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string_view>
#include <vector>
#include <optional>

#include "model/anomaly.hpp"
#include "model/checker_support.hpp"
#include "model/fault_events.hpp"

namespace locksim::model {
namespace {

bool excuses(const FaultSpan& f, const std::string& process, const std::string& server) {
  const FaultEventInfo* info = find_fault_event(f.kind);
  if (!info) return false;
  if (f.process == process && !f.server) return info->disturbs_client;
  if (f.process == server) return info->disturbs_server;
  return false;
}

class Checker {
 public:
  Checker(const Facts& facts, const WatchdogOptions& options) : facts_(facts), options_(options) {}

  Verdict run() {
    for (const Belief& b : facts_.beliefs()) {
      for (const KeyTrack* key : facts_.parts(b.lock)) {
        lapses(b, *key);
        if (b.crashed) late_expiry(b, *key);
      }
    }
    renewals();
    leases();
    if (found_) return *found_;
    return support::holds(property::kWatchdog, {support::figure("holds", static_cast<int64_t>(facts_.beliefs().size())),
                                                support::figure("renewals", renewals_)});
  }

 private:
  // Keeps the violation whose deciding event comes first.
  void report(int64_t decided, std::string_view anomaly, std::vector<Evidence> ev) {
    if (found_ && decided >= decided_) return;
    decided_ = decided;
    found_ = support::violated(property::kWatchdog, anomaly, std::move(ev));
  }

  // The history's first event at or after ms `t` (events are in time order).
  Chunks<Event>::const_iterator first_at(int64_t t) const {
    const auto& events = facts_.history().events();
    return std::lower_bound(events.begin(), events.end(), t, [](const Event& e, int64_t v) { return e.at_ms < v; });
  }

  bool in_belief(const Belief& b, int64_t index) const {
    return b.span.begin < index && (b.span.end < 0 || index < b.span.end);
  }

  void lapses(const Belief& b, const KeyTrack& key) {
    const auto& states = key.states;
    // Only a state begun inside the belief can be its lapse: start at the first one after its Hold
    // (states are in event order), so that each belief costs its own span, not the whole history.
    const size_t first = static_cast<size_t>(
        std::upper_bound(states.begin(), states.end(), b.span.begin,
                         [](int64_t v, const KeyState& s) { return v < s.event; }) -
        states.begin());
    for (size_t i = std::max<size_t>(first, 1); i < states.size(); ++i) {
      if (b.span.end >= 0 && states[i].event >= b.span.end) break;
      const KeyState& prev = states[i - 1];
      const KeyState& cur = states[i];
      const Claim* before = prev.claim_of(b.owner, b.lock);
      const Claim* after = cur.claim_of(b.owner, b.lock);
      if (!before || before->stale || (after && !after->stale) || cur.event < 0) continue;
      const Event& cause = facts_.at(cur.event);
      if (cause.kind != EventKind::Key || cause.f != "expired") continue;
      if (!in_belief(b, cur.event) || b.mode_at(cur.event) != Belief::Mode::Watchdog) continue;
      size_t j = i - 1;
      while (j > 0 && states[j - 1].expire_at == prev.expire_at && states[j - 1].claim_of(b.owner, b.lock)) --j;
      int64_t set_at = states[j].from_ms;
      // An expiry that showed up after a restart or failover may come from the restored copy.
      if (j > 0 && states[j - 1].event >= 0 && facts_.at(states[j - 1].event).kind == EventKind::Fault)
        set_at = states[j - 1].from_ms;
      // A reader's own lease lives in its timeout key, whose expiry the hash does not show: the
      // expiry that ran out was set when that key last got one.
      if (cause.lock != key.key)
        if (const KeyTrack* timeout = facts_.key(cause.process, cause.lock)) {
          const KeyState& last = timeout->after_event(cur.event - 1);
          for (const KeyState& t : timeout->states)
            if (t.event <= last.event && t.expire_at == last.expire_at && t.present) {
              set_at = t.from_ms;
              break;
            }
        }
      bool excused = false;
      for (const FaultSpan& f : facts_.faults()) {
        const int64_t to = std::max(f.span.to_ms, f.span.from_ms);
        if (excuses(f, b.process, key.server) && f.span.from_ms <= cause.at_ms && to >= set_at) excused = true;
      }
      if (excused) continue;
      std::vector<Evidence> ev{support::belief_evidence(facts_, "hold", b),
                               support::key_evidence("expiry_set", key, states[j]),
                               support::event_evidence(facts_, "expired", cur.event)};
      ev.back().where = key.name();
      if (prev.expire_at >= 0 && prev.expire_at < cause.at_ms) ev.back().from_ms = prev.expire_at;
      for (auto r = first_at(set_at); r != facts_.history().events().end() && r->index < cur.event; ++r)
        if (r->kind == EventKind::Renew && r->owner() == b.owner && r->value != 1)
          ev.push_back(support::event_evidence(facts_, "failed_renewal", r->index));
      report(cur.event, anomaly::kWatchdogLapse, std::move(ev));
      return;
    }
  }

  void late_expiry(const Belief& b, const KeyTrack& key) {
    const Event& crash = facts_.at(b.span.end);
    const auto& states = key.states;
    size_t i = static_cast<size_t>(&key.after_event(b.span.end) - states.data());
    if (!states[i].claim_of(b.owner, b.lock)) return;
    int64_t deadline = kNoExpiry, gone = -1, gone_at = kForever;
    size_t last_set = i;
    for (; i < states.size(); ++i) {
      const KeyState& s = states[i];
      if (!s.known || !s.claim_of(b.owner, b.lock)) {
        gone = s.event;
        gone_at = facts_.at(gone).at_ms;
        break;
      }
      if (s.expire_at == kUnknownExpiry) return;  // cannot be judged
      if (s.lease_bound > deadline) {
        deadline = s.lease_bound;
        last_set = i;
      }
      // Past its expiry the hold is gone for Redis, though no sweep has run yet (a stopped server).
      const int64_t next = i + 1 < states.size() ? states[i + 1].from_ms : facts_.end_ms() + 1;
      if (s.expire_at >= 0 && s.expire_at < next) {
        gone = i + 1 < states.size() ? states[i + 1].event : -1;
        gone_at = s.expire_at;
        break;
      }
    }
    const bool no_lease = deadline == kNoExpiry;
    if (no_lease) deadline = crash.at_ms + options_.watchdog_lease_ms;
    deadline += options_.slack_ms;
    if (gone_at <= deadline) return;
    if (gone_at == kForever && facts_.end_ms() <= deadline) return;  // too short to judge
    std::vector<Evidence> ev{support::belief_evidence(facts_, "hold", b),
                             support::event_evidence(facts_, "crash", b.span.end)};
    if (!no_lease) ev.push_back(support::key_evidence("lease_set", key, states[last_set]));
    Evidence d = support::figure("deadline", deadline);
    ev.push_back(d);
    ev.push_back(support::figure("slack", options_.slack_ms));
    if (gone_at != kForever) {
      Evidence g = support::event_evidence(facts_, "gone", gone);
      g.where = key.name();
      g.from_ms = gone_at;
      ev.push_back(g);
    } else {
      Evidence still = support::key_evidence("still_there", key, states.back());
      ev.push_back(still);
    }
    // Decided when the deadline passed: the first event after it.
    const auto after = first_at(deadline + 1);
    const int64_t decided =
        after == facts_.history().events().end() ? static_cast<int64_t>(facts_.history().size()) - 1 : after->index;
    report(decided, anomaly::kLateExpiry, std::move(ev));
  }

  void renewals() {
    // Each owner's beliefs in facts order (the order they began), and those begun and not ended as
    // of the renewal at hand: renewals come in history order, so a belief joins and leaves once.
    struct OwnBeliefs {
      std::vector<const Belief*> all;
      size_t next = 0;
      std::vector<const Belief*> open;
    };
    std::map<std::string_view, OwnBeliefs> beliefs_of;
    for (const Belief& b : facts_.beliefs()) beliefs_of[b.owner].all.push_back(&b);
    OwnBeliefs none;
    for (const Event& x : facts_.history().events()) {
      if (x.kind != EventKind::Exec || x.f != "renew" || x.client.empty()) continue;
      const KeyTrack* key = facts_.key(x.process, x.lock);
      if (!key) continue;
      const KeyState& before = key->after_event(x.index - 1);
      const KeyState& after = key->after_event(x.index);
      const bool extended = after.present && before.present && before.known && before.expire_at >= 0 &&
                            after.expire_at >= 0 && after.expire_at - before.expire_at > kExpiryPrecisionMs;
      if (x.reply != "1" && !extended) continue;
      ++renewals_;
      const std::string owner = x.owner();
      const auto mine = beliefs_of.find(owner);
      OwnBeliefs& own = mine == beliefs_of.end() ? none : mine->second;
      while (own.next < own.all.size() && own.all[own.next]->span.begin < x.index) own.open.push_back(own.all[own.next++]);
      std::erase_if(own.open, [&](const Belief* b) { return b->span.end >= 0 && b->span.end <= x.index; });
      std::vector<Evidence> ev{support::event_evidence(facts_, "renewal", x.index)};
      ev.back().where = key->name();
      ev.back().who = owner;
      if (!before.claim_of(owner, "")) {
        ev.push_back(support::key_evidence("key", *key, before));
        report(x.index, anomaly::kRenewedWithoutHold, std::move(ev));
        continue;
      }
      const int64_t sent = x.sent_ms >= 0 ? x.sent_ms : x.at_ms;
      bool rightful = false;
      for (const std::string& lock : key->locks) rightful = rightful || facts_.sent_with_right(x, owner, lock);
      if (!rightful) {
        Evidence s = support::figure("sent", sent);
        ev.push_back(s);
        for (const Belief* b : own.all)
          if (std::find(key->locks.begin(), key->locks.end(), b->lock) != key->locks.end() && b->span.end >= 0 &&
              b->span.to_ms <= sent)
            ev.push_back(support::event_evidence(facts_, "release", b->span.end));
        report(x.index, anomaly::kRevivedAfterUnlock, std::move(ev));
        continue;
      }
      const Belief* explicit_hold = nullptr;
      bool watchdog = false;
      for (const Belief* b : own.open) {
        if (!in_belief(*b, x.index)) continue;
        if (std::find(key->locks.begin(), key->locks.end(), b->lock) == key->locks.end()) continue;
        if (b->mode_at(x.index) != Belief::Mode::Explicit) watchdog = true;
        else explicit_hold = b;
      }
      if (explicit_hold && !watchdog) {
        ev.insert(ev.begin(), support::belief_evidence(facts_, "hold", *explicit_hold));
        report(x.index, anomaly::kRenewedExplicitLease, std::move(ev));
      }
    }
  }

  void leases() {
    for (const Op& op : facts_.ops()) {
      if (!support::is_acquire(op.f) || op.result != EventKind::Ok) continue;
      const int64_t lease = facts_.at(op.invoke).lease_ms;
      if (lease < 0) continue;
      for (const KeyTrack* key : facts_.parts(op.lock)) {
        int64_t last = -1;
        for (int64_t i : op.execs)
          if (facts_.at(i).process == key->server && facts_.at(i).lock == key->key) last = i;
        if (last < 0) continue;
        const KeyState& s = key->after_event(last);
        if (!s.claim_of(op.owner, op.lock) || s.expire_at == kUnknownExpiry) continue;
        const int64_t at = facts_.at(last).at_ms;
        const int64_t ttl = s.expire_at == kNoExpiry ? -1 : s.expire_at - at;
        const bool shared = facts_.lock_type() && facts_.lock_type()->sides;
        const bool as_asked = std::abs(ttl - lease) <= kTtlPrecisionMs || (shared && ttl > lease);
        if (!as_asked) {
          report(last, anomaly::kLeaseMismatch,
                 {support::event_evidence(facts_, "acquire", op.invoke), support::key_evidence("key", *key, s),
                  support::figure("lease", lease), support::figure("ttl", ttl)});
          continue;
        }
        // A reader's own hold expires with the timeout key its acquire set (when the history shows
        // its expiry).
        if (!shared || !op.lock.ends_with(":read")) continue;
        for (const KeyTrack* timeout : facts_.reader_timeouts(*key, facts_.field_of(op.owner))) {
          const KeyState& t = timeout->after_event(last);
          if (t.event < 0 || t.from_ms != at || t.event > last || t.expire_at < 0) continue;
          if (std::abs(t.expire_at - at - lease) <= kTtlPrecisionMs) continue;
          report(last, anomaly::kLeaseMismatch,
                 {support::event_evidence(facts_, "acquire", op.invoke), support::key_evidence("key", *timeout, t),
                  support::figure("lease", lease), support::figure("ttl", t.expire_at - at)});
        }
      }
    }
  }

  const Facts& facts_;
  const WatchdogOptions& options_;
  std::optional<Verdict> found_;
  int64_t decided_ = 0;
  int64_t renewals_ = 0;
};

}  // namespace

Verdict check_watchdog(const Facts& facts, const WatchdogOptions& options) { return Checker(facts, options).run(); }

}  // namespace locksim::model
