#include "model/watchdog.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string_view>
#include <vector>
#include <optional>
#include <tuple>

#include "model/anomaly.hpp"
#include "model/checker_support.hpp"
#include "model/fault_events.hpp"
#include "model/rendered.hpp"
#include "model/working_connection.hpp"

namespace locksim::model {
namespace {

bool excuses(const FaultSpan& f, const std::string& process, const std::string& server) {
  const FaultEventInfo* info = find_fault_event(f.kind);
  if (!info) return false;
  if (f.process == process && !f.server) return info->disturbs_client;
  if (f.process == server) return info->disturbs_server;
  return false;
}

// Each hold, renewal and explicit lease is judged once everything its judgement reads is taken;
// of all the violations found, the verdict is the one whose deciding event comes first (ties: holds
// before renewals before leases, each in its own order), as over a whole history.
class WatchdogJudge final : public Judge {
 public:
  WatchdogJudge(const Facts& facts, const WatchdogOptions& options) : facts_(facts), options_(options) {}

  void advance(const Settled& settled) override {
    // An open hold's evidence shows how it ended: it is drawn again once it has.
    if (found_ && found_->open_hold && (found_->open_hold->span.end >= 0 || settled.end())) {
      found_->evidence.front() = support::belief_evidence(facts_, "hold", *found_->open_hold);
      found_->open_hold = nullptr;
    }
    holds(settled);
    // The holds still to judge: the first still open, and those begun after it (ended or not), each
    // of which reads its key from its operation's Invoke, which may lie before the first's.
    pending_since_ = kForever;
    for (auto b = beliefs_from(facts_, next_hold_); b != facts_.beliefs().end(); ++b)
      pending_since_ = std::min(pending_since_, b->since);
    remember_releases(settled);
    renewals(settled);
    leases(settled);
    forget_releases(settled);
  }

  Verdict verdict() override {
    if (found_) return support::violated(property::kWatchdog, found_->anomaly, found_->evidence);
    if (unknown_) return support::unknown(property::kWatchdog, *unknown_);
    if (holds_ == 0) return support::nothing_to_judge(property::kWatchdog, "no owner held the lock");
    return support::holds(property::kWatchdog, {support::figure("holds", holds_), support::figure("renewals", renewals_)});
  }

  int64_t needs() const override {
    int64_t first = std::min({next_hold_, next_op_, pending_since_});
    for (const Late& l : late_) first = std::min(first, l.belief->since);
    if (found_ && found_->open_hold) first = std::min(first, found_->open_hold->since);
    // A renewal reads the key's state before it: the one in effect at its index.
    return std::min(first, next_renewal_);
  }

 private:
  // Of two violations, the one the verdict names: decided first, then in the order judged.
  struct Found {
    int64_t decided, rank, seq;
    std::string_view anomaly;
    std::vector<Evidence> evidence;
    const Belief* open_hold = nullptr;  // the first evidence's belief, while it is still open
  };
  void report(int64_t decided, int64_t rank, int64_t seq, std::string_view anomaly, std::vector<Evidence> ev,
              const Belief* hold = nullptr) {
    if (found_ && std::tie(found_->decided, found_->rank, found_->seq) <= std::tie(decided, rank, seq)) return;
    found_ = Found{decided, rank, seq, anomaly, std::move(ev), hold && hold->span.end < 0 ? hold : nullptr};
  }
  // Redisson renews every lockWatchdogTimeout / 3.
  int64_t renewal_period() const { return options_.watchdog_lease_ms / 3; }

  // What a stream dropped, that a whole history would have shown this judgement.
  void cannot_tell(const std::string& what) {
    if (!unknown_) unknown_ = "not judged exactly from a stream: " + what + " lies before what the stream kept";
  }

  // The history's first event at or after ms `t` (events are in time order).
  Chunks<Event>::const_iterator first_at(int64_t t) const {
    const auto& events = facts_.history().events();
    return std::lower_bound(events.begin(), events.end(), t, [](const Event& e, int64_t v) { return e.at_ms < v; });
  }
  // Whether every event at or after ms `t` is still there.
  bool kept_from(int64_t t) const {
    const auto& events = facts_.history().events();
    return events.first() == 0 || (events.begin() != events.end() && events.begin()->at_ms < t);
  }

  static bool in_belief(const Belief& b, int64_t index) {
    return b.span.begin < index && (b.span.end < 0 || index < b.span.end);
  }

  // a and b: a hold is judged once it has ended (a crashed one's expiry once it is decided).
  void holds(const Settled& settled) {
    for (auto it = beliefs_from(facts_, next_hold_); it != facts_.beliefs().end(); ++it) {
      const Belief& b = *it;
      if (b.span.end < 0 && !settled.end()) break;
      next_hold_ = b.span.begin + 1;
      ++holds_;
      for (const KeyTrack* key : facts_.parts(b.lock)) {
        lapses(b, *key, seq_++);
        const bool leased =
            std::any_of(b.holds.begin(), b.holds.end(), [&](int64_t h) { return facts_.at(h).lease_ms >= 0; });
        if (b.crashed || leased) late_.push_back(Late{&b, key, seq_++});
      }
    }
    std::erase_if(late_, [&](const Late& l) { return late_expiry(*l.belief, *l.key, l.seq, settled); });
  }

  void lapses(const Belief& b, const KeyTrack& key, int64_t seq) {
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
      // A stream retired the states before states[0]: the run goes on into them when the last had
      // this expiry (whose holds it did not keep).
      const bool retired = j == 0 && key.trimmed;
      if (retired && key.retired_present && key.retired_expire_at == prev.expire_at)
        return cannot_tell("where " + key.name() + "'s expired expiry was set");
      int64_t set_at = states[j].from_ms;
      // An expiry that showed up after a restart or failover may come from the restored copy.
      if (j > 0 && states[j - 1].by_fault) set_at = states[j - 1].from_ms;
      if (retired && key.retired_by_fault) set_at = key.retired_from_ms;
      if (cause.lock != key.key && !reader_lease_set(cause, cur.event, set_at)) return;
      if (!kept_from(set_at)) return cannot_tell("the renewals since " + support::ms(set_at));
      // A fault excuses the lapse only when it left the holder less than one renewal period of
      // working connection, in one stretch, between the expiry's setting and the expiry: a short
      // fault, or one long over before the expiry, explains nothing.
      const int64_t expiry = prev.expire_at >= 0 && prev.expire_at < cause.at_ms ? prev.expire_at : cause.at_ms;
      bool excused = false;
      for (const FaultSpan& f : facts_.faults()) {
        const int64_t to = std::max(f.span.to_ms, f.span.from_ms);
        if (excuses(f, b.process, key.server) && f.span.from_ms <= cause.at_ms && to >= set_at) excused = true;
      }
      const int64_t working = longest_working_stretch(facts_, b.process, key.server, set_at, expiry, options_.command_timeout_ms);
      if (excused && working < renewal_period()) continue;
      std::vector<Evidence> ev{support::belief_evidence(facts_, "hold", b),
                               support::key_evidence("expiry_set", key, states[j]),
                               support::event_evidence(facts_, "expired", cur.event)};
      ev.back().where = key.name();
      if (prev.expire_at >= 0 && prev.expire_at < cause.at_ms) ev.back().from_ms = prev.expire_at;
      if (excused) {
        // Faults were in effect, but not enough to explain it: say how long the connection worked.
        ev.push_back(support::figure("working_ms", working));
        ev.push_back(support::figure("renewal_period_ms", renewal_period()));
      }
      for (auto r = first_at(set_at); r != facts_.history().events().end() && r->index < cur.event; ++r)
        if (r->kind == EventKind::Renew && r->owner() == b.owner && r->value != 1)
          ev.push_back(support::event_evidence(facts_, "failed_renewal", r->index));
      report(cur.event, 0, seq, anomaly::kWatchdogLapse, std::move(ev));
      return;
    }
  }

  // A reader's own lease lives in its timeout key, whose expiry the hash does not show: the expiry
  // that ran out at the event `expired` (`cause`) was set when that key last got one. Moves `set_at`
  // there when the key shows it; false when a stream retired where.
  bool reader_lease_set(const Event& cause, int64_t expired, int64_t& set_at) {
    const KeyTrack* timeout = facts_.key(cause.process, cause.lock);
    if (!timeout) return true;
    const KeyState& last = timeout->after_event(expired - 1);
    if (!last.present) return true;
    // The run of states with that expiry that ends at `last` began where it was set.
    const std::vector<KeyState>& ts = timeout->states;
    size_t k = static_cast<size_t>(&last - ts.data());
    while (k > 0 && ts[k - 1].present && ts[k - 1].expire_at == last.expire_at) --k;
    if (k == 0 && timeout->trimmed && timeout->retired_present && timeout->retired_expire_at == last.expire_at) {
      cannot_tell("where " + timeout->name() + "'s expiry was set");
      return false;
    }
    set_at = ts[k].from_ms;
    return true;
  }

  // The lease the Hold of operation `op` in `b` asked for (-1: none, the watchdog), nullopt when the
  // belief has no Hold of it.
  std::optional<int64_t> lease_of(const Belief& b, int64_t op) const {
    for (int64_t h : b.holds)
      if (facts_.at(h).op == op) return facts_.at(h).lease_ms;
    return std::nullopt;
  }

  // b: whether `b`'s hold in `key` has been judged for a late expiry (true), or must wait for more
  // events. Its deadline is the owner's own, whatever else touched the key (another owner's renewal,
  // an unlock's or a refusal's PEXPIRE, a renewal that set a wrong expiry):
  //  - while its unmatched acquires all named a lease (explicit), the lease of the latest of them,
  //    from when it ran on the server, or from its owner's partial unlock that re-armed it since;
  //  - once its holder crashed with the watchdog, one watchdog lease from the last of its own
  //    acquires and renewals that ran on the server and set an expiry (one in flight at the crash
  //    included), or from the crash when none set one;
  //  - a mixed hold (a lease re-entry on top of lock()) asked for either: the later of the two.
  // A live watchdog hold has none (renewal keeps it), nor has a hold once its owner has unlocked.
  // The hold is late when it is still in the key after its deadline plus the slack; a history that
  // ends before then is not judged.
  bool late_expiry(const Belief& b, const KeyTrack& key, int64_t seq, const Settled& settled) {
    const auto& states = key.states;
    LateWalk w{b, key};
    if (b.crashed) {
      w.crash = b.span.end;
      w.crash_ms = facts_.at(w.crash).at_ms;
    }
    for (size_t i = static_cast<size_t>(&key.after_event(b.since) - states.data()); i < states.size(); ++i) {
      const KeyState& s = states[i];
      if (b.span.end >= 0 && !b.crashed && s.event >= b.span.end) return true;  // unlocked: no deadline after
      // Only what happened since the hold's operation began can be its own acquire (and only that is
      // still there in a stream).
      if (s.event >= b.since) note_own(w, i);
      if (!carries(b, s)) {
        if (b.crashed && s.event >= w.crash && s.known) return true;  // gone after the crash, by its deadline
        continue;
      }
      std::optional<Overdue> overdue;
      if (!overdue_in(w, i, settled, overdue)) return false;  // not decided yet
      if (!overdue) continue;
      // Late. Where it went, once known: a stream waits for it, so that both readings say the same.
      std::optional<Evidence> gone;
      if (!where_gone(w, i, settled, gone)) return false;
      const auto after = first_at(overdue->seen);
      const int64_t when =
          after == facts_.history().events().end() ? static_cast<int64_t>(facts_.history().size()) - 1 : after->index;
      report(when, 0, seq, anomaly::kLateExpiry, late_evidence(w, i, *overdue, std::move(gone)));
      return true;
    }
    return settled.end() || (b.span.end >= 0 && !b.crashed);
  }

  // One hold in one key as late_expiry walks the key's states, with what its owner's own requests
  // have set so far.
  struct LateWalk {
    const Belief& b;
    const KeyTrack& key;
    int64_t crash = -1;  // the Release at its owner's crash; -1 when it did not crash
    int64_t crash_ms = kForever;
    int64_t explicit_from = -1, explicit_lease = -1;  // the latest granted acquire that named a lease
    size_t explicit_state = 0;
    int64_t own_from = -1;  // the latest own acquire or renewal that set an expiry
    size_t own_state = 0;
  };
  // Where a hold outlived its deadline: from `seen` on, in a part of the state after the crash or not.
  struct Overdue {
    int64_t deadline = kForever, seen = -1;
    bool from_explicit = false, after_crash = false;
  };
  // A stretch of a state in which the hold stood one way: before or after the crash, in one mode.
  struct Stretch {
    int64_t from, to;
    bool after_crash;
    Belief::Mode mode;
  };

  // Whether the hold is in the key in state `st` (a reader whose timeout keys expired is not).
  static bool carries(const Belief& b, const KeyState& st) {
    const Claim* c = st.known && st.present ? st.claim_of(b.owner, b.lock) : nullptr;
    return c && !c->stale;
  }

  // States[i] is the owner's own doing: an acquire granted, a renewal, or a partial unlock that
  // re-armed the lease (Redisson's PEXPIRE of the stored lease), each sent before any crash.
  void note_own(LateWalk& w, size_t i) const {
    const KeyState& s = w.key.states[i];
    const Event& x = facts_.at(s.event);
    const bool sent_before_crash = !w.b.crashed || (x.sent_ms >= 0 ? x.sent_ms : x.at_ms) <= w.crash_ms;
    if (x.kind != EventKind::Exec || x.owner() != w.b.owner || !sent_before_crash || !carries(w.b, s)) return;
    const bool acquired = (x.f == "acquire" || x.f == "try_acquire") && is_grant_reply(x.reply);
    // The hold may run the lease a partial unlock re-armed from there, and no further.
    const bool rearmed = x.f == "unlock" && s.expire_at >= 0;
    if (!acquired && !rearmed && !(x.f == "renew" && x.reply == "1")) return;
    if (s.expire_at >= 0) {
      w.own_from = x.at_ms;
      w.own_state = i;
    }
    const auto lease = acquired ? lease_of(w.b, x.op) : std::nullopt;
    if (lease && *lease >= 0) {
      w.explicit_from = x.at_ms;
      w.explicit_lease = *lease;
      w.explicit_state = i;
    } else if (rearmed && w.explicit_lease >= 0) {
      w.explicit_from = x.at_ms;
      w.explicit_state = i;
    }
  }

  // The stretches of states[i] the hold stood in, up to `until`: the live time is cut where the
  // hold's mode changed (a Hold or Release within the state), and a crash splits the state it falls in.
  std::vector<Stretch> stretches(const LateWalk& w, const KeyState& s, int64_t until) const {
    const Belief& b = w.b;
    std::vector<Stretch> out;
    const int64_t live_to = std::min(until, w.crash_ms);
    int64_t from = s.from_ms;
    Belief::Mode mode = b.mode_at(std::max(s.event, b.span.begin));
    for (const auto& [index, m] : b.modes) {
      // The final Release clears the modes; after it the hold stands as it did before it.
      if (index <= s.event || index == b.span.end) continue;
      const int64_t at = facts_.at(index).at_ms;
      if (at >= live_to) break;
      if (at > from) out.push_back({from, at, false, mode});
      from = std::max(from, at);
      mode = m;
    }
    if (from < live_to) out.push_back({from, live_to, false, mode});
    // The Release at the crash clears the modes: the hold stood as it did just before it.
    if (b.crashed && until > std::max(s.from_ms, w.crash_ms))
      out.push_back({std::max(s.from_ms, w.crash_ms), until, true, b.mode_at(w.crash - 1)});
    return out;
  }

  // Whether it is decided if the hold outlived its deadline in states[i] (false: the history may
  // still run on past the deadline); `overdue` says where, when it did.
  bool overdue_in(const LateWalk& w, size_t i, const Settled& settled, std::optional<Overdue>& overdue) const {
    const auto& states = w.key.states;
    const KeyState& s = states[i];
    // How long the hold stays in this state: to the next state, its expiry, or the end.
    const bool last = i + 1 == states.size();
    int64_t until = last ? facts_.end_ms() + 1 : states[i + 1].from_ms;
    const bool runs_on = last && (s.expire_at < 0 || s.expire_at >= facts_.end_ms());  // past the end, maybe
    if (s.expire_at >= 0) until = std::min(until, s.expire_at + 1);
    for (const Stretch& st : stretches(w, s, until)) {
      int64_t d = kForever;
      // A live mixed hold asked for renewal too: only a crash gives it a deadline.
      if (w.explicit_lease >= 0 &&
          (st.mode == Belief::Mode::Explicit || (st.after_crash && st.mode == Belief::Mode::Mixed)))
        d = w.explicit_from + w.explicit_lease;
      const bool explicit_bar = d != kForever;
      if (st.after_crash && st.mode != Belief::Mode::Explicit) {
        const int64_t watchdog = (w.own_from >= 0 ? w.own_from : w.crash_ms) + options_.watchdog_lease_ms;
        if (d == kForever || watchdog > d) d = watchdog;
      }
      if (d == kForever) continue;
      const bool bar_is_explicit = explicit_bar && d == w.explicit_from + w.explicit_lease;
      d += options_.slack_ms;
      if (runs_on && st.to == until && !settled.end() && facts_.end_ms() <= d) return false;
      if (st.to - 1 <= d) continue;  // gone (from this part of the state) by the deadline
      overdue = Overdue{d, std::max(d + 1, st.from), bar_is_explicit, st.after_crash};
      return true;
    }
    return true;
  }

  // Whether it is known where the hold went from states[i] on (false: the state after the last
  // will say); `gone` is it, or none when it was still there at the end.
  bool where_gone(const LateWalk& w, size_t i, const Settled& settled, std::optional<Evidence>& gone) const {
    const auto& states = w.key.states;
    for (size_t j = i; j < states.size(); ++j) {
      const KeyState& g = states[j];
      const bool final_state = j + 1 == states.size();
      if (!carries(w.b, g) && g.known) {
        gone = support::event_evidence(facts_, "gone", g.event);
        gone->where = w.key.name();
        gone->from_ms = g.from_ms;
        return true;
      }
      if (g.expire_at >= 0 && g.expire_at < (final_state ? facts_.end_ms() : states[j + 1].from_ms)) {
        if (final_state && !settled.end()) return false;
        gone = Evidence{};
        gone->role = "gone";
        gone->event = final_state ? -1 : states[j + 1].event;
        gone->where = w.key.name();
        gone->from_ms = g.expire_at;
        return true;
      }
      if (final_state) return settled.end();  // still there
    }
    return true;
  }

  // The story of a late expiry: the hold, what set its deadline, who extended the expiry past it,
  // and where the hold went.
  std::vector<Evidence> late_evidence(const LateWalk& w, size_t i, const Overdue& o, std::optional<Evidence> gone) const {
    const Belief& b = w.b;
    const auto& states = w.key.states;
    const KeyState& s = states[i];
    std::vector<Evidence> ev{support::belief_evidence(facts_, "hold", b)};
    if (o.after_crash) ev.push_back(support::event_evidence(facts_, "crash", w.crash));
    if (o.from_explicit) {
      ev.push_back(support::event_evidence(facts_, "armed", states[w.explicit_state].event));
      ev.back().where = w.key.name();
      ev.back().state = facts_.at(states[w.explicit_state].event).f;  // acquire, or a partial unlock
      ev.push_back(support::figure("lease", w.explicit_lease));
    } else if (w.own_from >= 0) {
      ev.push_back(support::key_evidence("lease_set", w.key, states[w.own_state]));
      ev.back().from_ms = w.own_from;
      ev.push_back(support::figure("lease", options_.watchdog_lease_ms));
    }
    ev.push_back(support::figure("deadline", o.deadline));
    ev.push_back(support::figure("slack", options_.slack_ms));
    // The request that set the expiry it outlived its deadline by (the first state with it).
    if (s.expire_at > o.deadline) {
      size_t set = i;
      while (set > 0 && states[set - 1].event >= b.since && states[set - 1].expire_at == s.expire_at &&
             carries(b, states[set - 1]))
        --set;
      const int64_t by = states[set].event;
      if (by >= b.since && facts_.at(by).kind == EventKind::Exec) {
        Evidence e = support::event_evidence(facts_, "extended_by", by);
        e.who = facts_.at(by).owner();  // whose request, and which (the server is the key's)
        e.state = facts_.at(by).f;
        e.number = s.expire_at;
        ev.push_back(std::move(e));
      }
    }
    ev.push_back(gone ? std::move(*gone) : support::key_evidence("still_there", w.key, states.back()));
    return ev;
  }

  // c, d and e: a renewal is judged once every event of its millisecond is taken.
  void renewals(const Settled& settled) {
    const auto& events = facts_.history().events();
    auto x = events.begin() + std::max<int64_t>(next_renewal_ - static_cast<int64_t>(events.first()), 0);
    for (; x != events.end() && (settled.end() || x->at_ms <= settled.ms); ++x) {
      next_renewal_ = x->index + 1;
      if (x->kind == EventKind::Exec && x->f == "renew" && !x->client.empty()) renewal(*x);
    }
  }

  void renewal(const Event& x) {
    const KeyTrack* key = facts_.key(x.process, x.lock);
    if (!key) return;
    const KeyState& before = key->after_event(x.index - 1);
    const KeyState& after = key->after_event(x.index);
    const bool extended = after.present && before.present && before.known && before.expire_at >= 0 &&
                          after.expire_at >= 0 && after.expire_at - before.expire_at > kExpiryPrecisionMs;
    if (x.reply != "1" && !extended) return;
    ++renewals_;
    const int64_t seq = seq_renewal_++;
    const std::string owner = x.owner();
    std::vector<Evidence> ev{support::event_evidence(facts_, "renewal", x.index)};
    ev.back().where = key->name();
    ev.back().who = owner;
    if (!before.claim_of(owner, "")) {
      ev.push_back(support::key_evidence("key", *key, before));
      report(x.index, 1, seq, anomaly::kRenewedWithoutHold, std::move(ev));
      return;
    }
    const int64_t sent = x.sent_ms >= 0 ? x.sent_ms : x.at_ms;
    bool rightful = false;
    for (const std::string& lock : key->locks) rightful = rightful || facts_.sent_with_right(x, owner, lock);
    if (!rightful) {
      Evidence s = support::figure("sent", sent);
      ev.push_back(s);
      // The unlock that gave the lock up: the owner's latest release of it before the send.
      if (auto release = latest_release(owner, key->locks, sent)) ev.push_back(std::move(*release));
      report(x.index, 1, seq, anomaly::kRevivedAfterUnlock, std::move(ev));
      return;
    }
    const Belief* explicit_hold = nullptr;
    bool watchdog = false;
    for (const Belief& b : facts_.beliefs()) {
      if (b.owner != owner || !in_belief(b, x.index)) continue;
      if (std::find(key->locks.begin(), key->locks.end(), b.lock) == key->locks.end()) continue;
      if (b.mode_at(x.index) != Belief::Mode::Explicit) watchdog = true;
      else explicit_hold = &b;
    }
    if (explicit_hold && !watchdog) {
      ev.insert(ev.begin(), support::belief_evidence(facts_, "hold", *explicit_hold));
      report(x.index, 1, seq, anomaly::kRenewedExplicitLease, std::move(ev), explicit_hold);
      return;
    }
    // A renewal sets the watchdog's lease and nothing else: a shorter one lets a live hold lapse, a
    // longer one keeps a crashed holder's key past its lease.
    if (x.reply == "1" && after.present && after.expire_at >= 0 && before.known &&
        std::abs(after.expire_at - x.at_ms - options_.watchdog_lease_ms) > kTtlPrecisionMs) {
      ev.push_back(support::key_evidence("key", *key, after));
      ev.push_back(support::figure("lease", options_.watchdog_lease_ms));
      ev.push_back(support::figure("ttl", after.expire_at - x.at_ms));
      report(x.index, 1, seq, anomaly::kLeaseMismatch, std::move(ev));
    }
  }

  // Each belief's release, as it ends, for the revivals it may explain. A stream draws its evidence
  // now, while the event is there; a whole history when a revival needs it.
  void remember_releases(const Settled& settled) {
    for (const Belief& b : facts_.beliefs())
      if (b.span.end >= released_upto_ && b.span.end < settled.index)
        released_[b.owner + '\n' + b.lock].push_back(
            Release{b.span.to_ms, b.span.end,
                    settled.end() ? nullptr : std::make_unique<Evidence>(support::event_evidence(facts_, "release", b.span.end))});
    released_upto_ = settled.index;
  }

  // Of the releases no renewal still to come was sent before, only the latest is kept.
  void forget_releases(const Settled& settled) {
    if (settled.end()) return;
    const int64_t earliest_send = settled.ms + 1 - facts_.max_flight_ms();
    for (auto& [pair, list] : released_) {
      std::stable_sort(list.begin(), list.end(), [](const Release& a, const Release& b) { return a.to_ms < b.to_ms; });
      size_t gone = 0;
      while (gone + 1 < list.size() && list[gone + 1].to_ms <= earliest_send) ++gone;
      list.erase(list.begin(), list.begin() + static_cast<std::ptrdiff_t>(gone));
    }
  }

  // The release of `owner`'s latest belief in one of `locks` that ended by ms `sent`.
  std::optional<Evidence> latest_release(const std::string& owner, const std::vector<std::string>& locks, int64_t sent) const {
    const Release* latest = nullptr;
    for (const std::string& lock : locks) {
      const auto it = released_.find(owner + '\n' + lock);
      if (it == released_.end()) continue;
      for (const Release& r : it->second)
        if (r.to_ms <= sent && (!latest || r.to_ms >= latest->to_ms)) latest = &r;
    }
    if (!latest) return std::nullopt;
    return latest->evidence ? *latest->evidence : support::event_evidence(facts_, "release", latest->end);
  }

  // f: an acquire with a lease is judged once no event of its can come any more.
  void leases(const Settled& settled) {
    judge_settled_ops(facts_, settled, next_op_, [&](const Op& op) {
      lease(op);
      return false;
    });
  }

  void lease(const Op& op) {
    if (!support::is_acquire(op.f) || op.result != EventKind::Ok) return;
    const int64_t lease = facts_.at(op.invoke).lease_ms;
    if (lease < 0) return;
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
        report(last, 2, seq_lease_++, anomaly::kLeaseMismatch,
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
        report(last, 2, seq_lease_++, anomaly::kLeaseMismatch,
               {support::event_evidence(facts_, "acquire", op.invoke), support::key_evidence("key", *timeout, t),
                support::figure("lease", lease), support::figure("ttl", t.expire_at - at)});
      }
    }
  }

  // A crashed holder's hold in a key, waiting for its expiry to be decided.
  struct Late {
    const Belief* belief;
    const KeyTrack* key;
    int64_t seq;
  };

  const Facts& facts_;
  const WatchdogOptions options_;
  std::optional<Found> found_;
  std::optional<std::string> unknown_;
  int64_t next_hold_ = 0, next_op_ = 0, next_renewal_ = 0;  // where each kind's next item is, or before it
  int64_t pending_since_ = kForever;  // the earliest Invoke of a hold still to judge, as of the last advance
  int64_t seq_ = 0, seq_renewal_ = 0, seq_lease_ = 0;
  int64_t holds_ = 0, renewals_ = 0;
  std::vector<Late> late_;
  struct Release {
    int64_t to_ms;
    int64_t end;
    std::unique_ptr<Evidence> evidence;  // a stream's, drawn before it drops the event
  };
  // owner + '\n' + lock -> its ended beliefs' releases, as far back as a renewal's send can be
  std::map<std::string, std::vector<Release>> released_;
  int64_t released_upto_ = 0;
};

}  // namespace

std::unique_ptr<Judge> watchdog_judge(const Facts& facts, const WatchdogOptions& options) {
  return std::make_unique<WatchdogJudge>(facts, options);
}

Verdict check_watchdog(const Facts& facts, const WatchdogOptions& options) {
  return judge_whole(*watchdog_judge(facts, options), facts);
}

}  // namespace locksim::model
