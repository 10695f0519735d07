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
    int64_t first = std::min(next_hold_, next_op_);
    if (const auto b = beliefs_from(facts_, next_hold_); b != facts_.beliefs().end()) first = std::min(first, b->since);
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
        if (b.crashed) late_.push_back(Late{&b, key, seq_++});
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
      if (j == 0 && key.trimmed) return cannot_tell("where " + key.name() + "'s expired expiry was set");
      int64_t set_at = states[j].from_ms;
      // An expiry that showed up after a restart or failover may come from the restored copy.
      if (j > 0 && states[j - 1].event >= 0 && facts_.at(states[j - 1].event).kind == EventKind::Fault)
        set_at = states[j - 1].from_ms;
      // A reader's own lease lives in its timeout key, whose expiry the hash does not show: the
      // expiry that ran out was set when that key last got one.
      if (cause.lock != key.key)
        if (const KeyTrack* timeout = facts_.key(cause.process, cause.lock)) {
          if (timeout->trimmed) return cannot_tell("where " + timeout->name() + "'s expiry was set");
          const KeyState& last = timeout->after_event(cur.event - 1);
          for (const KeyState& t : timeout->states)
            if (t.event <= last.event && t.expire_at == last.expire_at && t.present) {
              set_at = t.from_ms;
              break;
            }
        }
      if (!kept_from(set_at)) return cannot_tell("the renewals since " + support::ms(set_at));
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
      report(cur.event, 0, seq, anomaly::kWatchdogLapse, std::move(ev));
      return;
    }
  }

  // Whether a crashed holder's hold in `key` has been judged (true), or must wait for more events.
  bool late_expiry(const Belief& b, const KeyTrack& key, int64_t seq, const Settled& settled) {
    const Event& crash = facts_.at(b.span.end);
    const auto& states = key.states;
    size_t i = static_cast<size_t>(&key.after_event(b.span.end) - states.data());
    if (!states[i].claim_of(b.owner, b.lock)) return true;
    int64_t deadline = kNoExpiry, gone = -1, gone_at = kForever;
    size_t last_set = i;
    bool decided = false;
    for (; i < states.size(); ++i) {
      const KeyState& s = states[i];
      if (!s.known || !s.claim_of(b.owner, b.lock)) {
        gone = s.event;
        gone_at = facts_.at(gone).at_ms;
        decided = true;
        break;
      }
      if (s.expire_at == kUnknownExpiry) return true;  // cannot be judged
      if (s.lease_bound > deadline) {
        deadline = s.lease_bound;
        last_set = i;
      }
      // Past its expiry the hold is gone for Redis, though no sweep has run yet (a stopped server).
      // The state that follows it says when; a stream waits for it.
      if (i + 1 == states.size() && !settled.end()) return false;
      const int64_t next = i + 1 < states.size() ? states[i + 1].from_ms : facts_.end_ms() + 1;
      if (s.expire_at >= 0 && s.expire_at < next) {
        gone = i + 1 < states.size() ? states[i + 1].event : -1;
        gone_at = s.expire_at;
        decided = true;
        break;
      }
    }
    if (!decided && !settled.end()) return false;
    const bool no_lease = deadline == kNoExpiry;
    if (no_lease) deadline = crash.at_ms + options_.watchdog_lease_ms;
    deadline += options_.slack_ms;
    if (gone_at <= deadline) return true;
    if (gone_at == kForever && facts_.end_ms() <= deadline) return true;  // too short to judge
    // Decided when the deadline passed: the first event after it.
    if (!settled.end() && facts_.end_ms() <= deadline) return false;
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
    const auto after = first_at(deadline + 1);
    const int64_t when =
        after == facts_.history().events().end() ? static_cast<int64_t>(facts_.history().size()) - 1 : after->index;
    report(when, 0, seq, anomaly::kLateExpiry, std::move(ev));
    return true;
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
