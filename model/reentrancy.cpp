#include "model/reentrancy.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "model/anomaly.hpp"
#include "model/checker_support.hpp"
#include "model/fault_events.hpp"
#include "model/rendered.hpp"

namespace locksim::model {

std::optional<int64_t> reentrancy_step(int64_t count, std::string_view role, bool granted) {
  if (role == "acquire" || role == "try_acquire") return granted ? count + 1 : count;
  if (role == "unlock") return count == 0 ? std::nullopt : std::optional<int64_t>(count - 1);
  return count;
}

namespace {

using Fields = std::map<std::string, int64_t>;

bool counts(std::string_view role) { return role == "acquire" || role == "try_acquire" || role == "unlock"; }

int64_t count(const Fields& fields, const std::string& field) {
  const auto it = fields.find(field);
  return field.empty() || it == fields.end() ? 0 : it->second;
}

std::set<std::string> field_names(const Fields& a, const Fields& b) {
  std::set<std::string> names;
  for (const auto& [f, n] : a) names.insert(f);
  for (const auto& [f, n] : b) names.insert(f);
  return names;
}

// Whether two expiries (run ms, kNoExpiry, kUnknownExpiry) differ by more than a history can tell.
bool expiry_moved(int64_t from, int64_t to) {
  if (from == kUnknownExpiry || to == kUnknownExpiry) return false;
  if (from == kNoExpiry || to == kNoExpiry) return from != to;
  return from - to > kExpiryPrecisionMs || to - from > kExpiryPrecisionMs;
}

// What one key's counts must be: for each hash field, the acquires that ran there (one operation
// counted once) less the unlocks that ran, as the executions on the key made them, in history order.
struct Expected {
  bool known = false;  // false until an execution anchors it (none yet, or one whose key is no hash)
  int64_t last = -1;   // the execution that last set it
  Fields counts;
  // Each field's unmatched acquires (the last one in is matched first), as evidence: a stream may have
  // dropped their events by the time the count goes wrong.
  std::map<std::string, std::vector<Evidence>> made_by;
  // The key's expiry after each recent execution on it (event, ms, expiry), as far back as a request
  // can have been on its way.
  std::deque<std::tuple<int64_t, int64_t, int64_t>> expiries;
};

// An operation's executions, as far as they have been read.
struct Seen {
  int64_t invoke = -1;
  bool effect = false;  // one took 1 off or added 1
  bool held = false;    // one found its owner's count
  size_t judged = 0;    // ones read as counts
  std::map<std::string, int> last_effect;  // key -> +1 / -1, what it last counted there
};

// A violation found at an execution. Its operation's outcome may come later: it joins the evidence
// (at `outcome_at`) once the operation is over.
struct Found {
  std::string_view anomaly;
  int64_t op = 0;  // 0: the evidence is complete
  int64_t invoke = -1;
  std::vector<Evidence> evidence;
  size_t outcome_at = 0;
};

// Lock hashes, execution by execution in history order. Each execution is held to its own before and
// after (the reference model's step for an acquire or an unlock; no change for any other role), and
// what it found to what the executions before it on that key left, when a restart or failover came in
// between.
class HashCounts {
 public:
  explicit HashCounts(const Facts& facts)
      : facts_(facts), refuses_reentry_(facts.lock_type() && facts.lock_type()->refuses_reentry) {}

  void advance(const Settled& settled) {
    if (verdict_) return;
    if (!found_) {
      const auto& events = facts_.history().events();
      auto e = events.begin() + std::max<int64_t>(next_ - static_cast<int64_t>(events.first()), 0);
      // A millisecond's key states are known once it is over.
      for (; !found_ && e != events.end() && e->index < settled.index && (settled.end() || e->at_ms <= settled.ms); ++e) {
        next_ = e->index + 1;
        take(*e);
      }
      // What an operation counted is about it alone: once it is over, no later execution reads it.
      std::erase_if(seen_, [&](const auto& entry) {
        const Op* op = facts_.op(entry.first);
        return !op || settled.end() || facts_.settles_ms(*op) <= settled.ms;
      });
    }
    if (!found_) return;
    if (found_->op != 0) {
      const Op* op = facts_.op(found_->op);
      if (op && !settled.end() && facts_.settles_ms(*op) > settled.ms) return;  // its outcome may still come
      if (op && op->outcome >= 0)
        found_->evidence.insert(found_->evidence.begin() + static_cast<std::ptrdiff_t>(found_->outcome_at),
                                support::event_evidence(facts_, "outcome", op->outcome));
    }
    verdict_ = support::violated(property::kReentrancy, found_->anomaly, std::move(found_->evidence));
  }

  const std::optional<Verdict>& verdict() const { return verdict_; }
  size_t judged() const { return judged_; }

  int64_t needs() const {
    if (verdict_) return kForever;
    if (found_) return found_->op != 0 ? found_->invoke : kForever;
    int64_t first = next_;
    for (const auto& [id, seen] : seen_) first = std::min(first, seen.invoke);
    return first;
  }

 private:
  void take(const Event& e) {
    if (e.kind == EventKind::Exec) execution(e);
    else if (e.kind == EventKind::Ok) told_ok(e);
  }

  // An unlock that held nothing and changed nothing must not be told it succeeded (judged where its
  // executions could be read as counts). Judged at its success, on the executions before it: the
  // reply that made it one came from those.
  void told_ok(const Event& e) {
    const Op* op = facts_.op(e.op);
    if (!op || op->f != "unlock") return;
    const auto it = seen_.find(op->id);
    if (it == seen_.end() || it->second.judged == 0 || it->second.effect || it->second.held) return;
    std::vector<Evidence> ev{support::event_evidence(facts_, "operation", op->invoke),
                             support::event_evidence(facts_, "outcome", e.index)};
    for (int64_t i : op->execs)
      if (i < e.index) ev.push_back(support::event_evidence(facts_, "execution", i));
    found_ = Found{.anomaly = anomaly::kUnlockByNonHolder, .evidence = std::move(ev)};
  }

  std::string field_of(const std::string& owner, bool write, const Fields& before, const Fields& after) const {
    for (const Fields* fields : {&before, &after})
      for (const auto& [field, n] : *fields)
        if (facts_.owner_of_field(field) == owner && field.ends_with(":write") == write) return field;
    return "";
  }

  // The evidence every execution-level finding begins with: the operation (or, for a request of none,
  // such as a renewal, its sender) and the execution.
  std::vector<Evidence> opening(const Op* op, const Event& x) const {
    std::vector<Evidence> ev;
    if (op) {
      ev.push_back(support::event_evidence(facts_, "operation", op->invoke));
    } else {
      Evidence sender;
      sender.role = "sender";
      sender.who = x.owner();
      sender.state = x.f;
      ev.push_back(std::move(sender));
    }
    Evidence exec = support::event_evidence(facts_, "execution", x.index);
    exec.where = x.process + "/" + x.lock;
    ev.push_back(std::move(exec));
    return ev;
  }

  Evidence count_evidence(const std::string& field, std::string expected) const {
    Evidence change;
    change.role = "count";
    change.who = facts_.owner_of_field(field).empty() ? field : facts_.owner_of_field(field);
    change.where = field;
    change.state = std::move(expected);
    return change;
  }

  static Evidence key_evidence(const Event& x) {
    Evidence key;
    key.role = "key";
    key.where = x.process + "/" + x.lock;
    key.state = x.before + " -> " + x.after;
    key.event = x.index;
    return key;
  }

  // A count its execution moved otherwise than the reference model says.
  void bad(std::string_view anomaly, const Op* op, const Event& x, const std::string& field, int64_t from, int64_t to,
           std::string expected) {
    std::vector<Evidence> ev = opening(op, x);
    ev.push_back(count_evidence(field, std::move(expected)));
    ev.push_back(support::figure("count_before", from));
    ev.push_back(support::figure("count_after", to));
    const size_t outcome_at = ev.size();
    ev.push_back(key_evidence(x));
    found_ = Found{.anomaly = anomaly,
                   .op = op ? op->id : 0,
                   .invoke = op ? op->invoke : -1,
                   .evidence = std::move(ev),
                   .outcome_at = outcome_at};
  }

  void execution(const Event& x) {
    const auto before = parse_hash(x.before);
    const auto after = parse_hash(x.after);
    Expected& expected = expected_[x.process + "/" + x.lock];
    if (!before || !after) {
      // Not a hash (a token lock's string, a WRONGTYPE): there are no counts to follow until one is again.
      expected = Expected{};
      return;
    }
    const Op* op = x.op != 0 ? facts_.op(x.op) : nullptr;
    const bool counting = counts(x.f) && !x.client.empty() && op && (support::is_acquire(op->f) || op->f == "unlock");
    if (!counting && (x.client.empty() || x.f.empty() || counts(x.f))) {
      // A command whose role locksim does not know (a serve history's): what it did is not judged, and
      // the key's counts are what it left.
      expected.known = true;
      expected.last = x.index;
      expected.counts = *after;
      expected.made_by.clear();
      return;
    }
    const KeyTrack* track = facts_.key(x.process, x.lock);
    found_ = compare(x, *before, expected, track, op);
    if (found_) return;
    if (counting) step(*op, x, *before, *after, expected, track);
    else unchanged(op, x, *before, *after);
    if (found_) return;
    for (auto it = expected.made_by.begin(); it != expected.made_by.end();)
      it = count(*after, it->first) > 0 ? std::next(it) : expected.made_by.erase(it);
    expected.counts = *after;
    expected.known = true;
    expected.last = x.index;
    if (track) {
      auto& expiries = expected.expiries;
      expiries.emplace_back(x.index, x.at_ms, track->after_event(x.index).expire_at);
      // One at least older than any request still to come was sent stays: the one in effect then.
      while (expiries.size() > 1 && std::get<1>(expiries[1]) < x.at_ms - facts_.max_flight_ms()) expiries.pop_front();
    }
  }

  // What the execution found against what the executions before it left. Between two executions only
  // a restart or a failover of the key's server changes a key (an expiry takes it whole): the restored
  // copy's counts show at the next execution, and a live hold's count they rolled back or forward is a
  // violation there. With no such fault in between, a count that moved is no change to judge: in a
  // simulated world every write to a lock key is an execution, and live, two clients' executions are
  // recorded as their replies come, which need not be the order they ran in.
  std::optional<Found> compare(const Event& x, const Fields& before, Expected& expected, const KeyTrack* track,
                               const Op* op) {
    if (x.before.empty()) {
      // The key expired or was lost whole: its holds took their counts with them.
      expected.counts.clear();
      expected.made_by.clear();
      return std::nullopt;
    }
    if (!expected.known || !restored_since(x, expected.last)) {
      for (const std::string& f : field_names(expected.counts, before))
        if (count(expected.counts, f) != count(before, f)) expected.made_by.erase(f);
      expected.counts = before;
      return std::nullopt;
    }
    // The plainest change first: a hold still in the key with another count, then a count that came
    // back (a hold its owner had released, or an unlock undone), then a hold gone from the key.
    std::vector<std::pair<int, std::string>> changed;
    for (const std::string& f : field_names(expected.counts, before)) {
      const int64_t want = count(expected.counts, f), found = count(before, f);
      if (want != found) changed.emplace_back(want > 0 && found > 0 ? 0 : found > want ? 1 : 2, f);
    }
    std::stable_sort(changed.begin(), changed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& entry : changed) {
      const std::string& f = entry.second;
      const int64_t want = count(expected.counts, f), found = count(before, f);
      // A reader whose lease ran out holds nothing: its field is left over, whatever it says.
      bool stale = false;
      if (track)
        for (const Claim& c : track->after_event(x.index - 1).claims) stale = stale || (c.field == f && c.stale);
      if (stale) {
        expected.made_by.erase(f);
        continue;
      }
      std::vector<Evidence> ev = opening(op, x);
      ev.push_back(count_evidence(f, "changed between executions"));
      ev.push_back(support::figure("count_expected", want));
      ev.push_back(support::figure("count_found", found));
      if (const auto made = expected.made_by.find(f); made != expected.made_by.end())
        ev.insert(ev.end(), made->second.begin(), made->second.end());
      for (const FaultSpan& fault : facts_.faults())
        if (fault.process == x.process && fault.span.begin > expected.last && fault.span.begin < x.index)
          ev.push_back(support::fault_evidence("fault", fault));
      const size_t outcome_at = ev.size();
      ev.push_back(key_evidence(x));
      return Found{.anomaly = anomaly::kReentryCount,
                   .op = op ? op->id : 0,
                   .invoke = op ? op->invoke : -1,
                   .evidence = std::move(ev),
                   .outcome_at = outcome_at};
    }
    expected.counts = before;
    return std::nullopt;
  }

  // Whether a restart or failover of the execution's server came after event `since`.
  bool restored_since(const Event& x, int64_t since) const {
    for (const FaultSpan& f : facts_.faults()) {
      if (f.span.begin >= x.index) break;
      const FaultEventInfo* info = find_fault_event(f.kind);
      if (info && info->loses_keys && f.process == x.process && f.span.begin > since) return true;
    }
    return false;
  }

  // A command that is neither an acquire nor an unlock (a renewal, a refused waiter's cleanup, a
  // query) changes no count; a force unlock may delete the whole key, which takes every count with it.
  void unchanged(const Op* op, const Event& x, const Fields& before, const Fields& after) {
    if (x.f == "force_unlock" && x.after.empty()) return;
    for (const std::string& f : field_names(before, after))
      if (count(before, f) != count(after, f)) {
        bad(anomaly::kReentryCount, op, x, f, count(before, f), count(after, f), "unchanged by " + x.owner() + "'s " + x.f.str());
        return;
      }
  }

  // An acquire's or unlock's own step.
  void step(const Op& op, const Event& x, const Fields& before, const Fields& after, Expected& expected,
            const KeyTrack* track) {
    ++judged_;
    Seen& seen = seen_[op.id];
    seen.invoke = op.invoke;
    ++seen.judged;
    const std::string owner = x.owner();
    const bool write = facts_.lock_type() && facts_.lock_type()->sides && op.lock.ends_with(":write");
    const std::string field = field_of(owner, write, before, after);
    const int64_t c0 = count(before, field), c1 = count(after, field);
    // Another owner's count changed.
    for (const std::string& other : field_names(before, after)) {
      if (other == field || count(before, other) == count(after, other)) continue;
      // A reader whose lease ran out (its timeout keys expired) is dropped by the next read unlock.
      if (track && x.f == "unlock" && count(after, other) == 0) {
        bool stale = false;
        for (const Claim& c : track->after_event(x.index - 1).claims) stale = stale || (c.field == other && c.stale);
        if (stale) continue;
      }
      const bool non_holder = x.f == "unlock" && c0 == 0;
      return bad(non_holder ? anomaly::kUnlockByNonHolder : anomaly::kReentryCount, &op, x, other, count(before, other),
                 count(after, other), "unchanged by " + owner + "'s " + x.f.str());
    }
    const std::string key = x.process + "/" + x.lock;
    if (x.f != "unlock") {
      const bool granted = is_grant_reply(x.reply);
      // A non-reentrant lock refuses its holder's second acquire at once: an error, not a grant nor a ttl.
      if (refuses_reentry_ && c0 > 0 && !is_error_reply(x.reply))
        return bad(anomaly::kReentryNotRefused, &op, x, field, c0, c1,
                   granted ? "refused at once, not granted" : "refused at once, not told to wait");
      const int64_t want = *reentrancy_step(c0, x.f, granted);
      if (c1 != want)
        return bad(anomaly::kReentryCount, &op, x, field.empty() ? owner : field, c0, c1,
                   std::string(granted ? "granted: " : "refused: ") + std::to_string(want));
      if (c1 == c0 + 1) {
        int& last = seen.last_effect[key];
        if (last == +1)
          return bad(anomaly::kReentryCount, &op, x, field, c0, c1,
                     "counted once per operation: this " + op.f.str() + " was already counted on " + key);
        last = +1;
        seen.effect = true;
        Evidence counted = support::event_evidence(facts_, "counted", x.index);
        counted.where = key;
        expected.made_by[field].push_back(std::move(counted));
      }
      return;
    }
    if (c0 == 0) {
      if (x.before != x.after)
        return bad(anomaly::kUnlockByNonHolder, &op, x, field.empty() ? owner : field, 0, c1, "no change to the key");
      return non_holder_expiry(op, x, expected, track);
    }
    seen.held = true;
    if (c1 != c0 && c1 != c0 - 1) return bad(anomaly::kReentryCount, &op, x, field, c0, c1, std::to_string(c0 - 1));
    int& last = seen.last_effect[key];
    if (c1 == c0) {
      // Nothing taken off is right only for a script that did not run (an error reply, e.g. NOSCRIPT)
      // or a resend that Redisson's latch answered after this unlock already took its 1 off.
      if (is_error_reply(x.reply) || last == -1) return;
      return bad(anomaly::kReentryCount, &op, x, field, c0, c1, std::to_string(c0 - 1));
    }
    if (last == -1)
      return bad(anomaly::kReentryCount, &op, x, field, c0, c1, "taken off once per unlock: this unlock already was");
    last = -1;
    seen.effect = true;
    if (auto made = expected.made_by.find(field); made != expected.made_by.end() && !made->second.empty())
      made->second.pop_back();
    if (c1 != 0) return;
    bool holders_left = false;
    for (const auto& [f, n] : after) holders_left = holders_left || (f != field && n > 0);
    if (after.contains(field) || (!x.after.empty() && !holders_left))
      return bad(anomaly::kNotFreedAtZero, &op, x, field, c0, c1, "the key gone");
  }

  // An unlock by an owner with no count leaves the key's expiry alone, too.
  void non_holder_expiry(const Op& op, const Event& x, const Expected& expected, const KeyTrack* track) {
    // A restored copy's expiry is not in the history (only its content shows, at this execution).
    if (!track || x.after.empty() || !expected.known || restored_since(x, expected.last)) return;
    const KeyState& was = track->after_event(x.index - 1);
    const int64_t now = track->after_event(x.index).expire_at;
    if (!was.known || !was.present || !expiry_moved(was.expire_at, now)) return;
    // The execution recorded last before it may have run after it, when it was recorded after this
    // request was sent (live, executions are recorded as their replies come): the expiry in effect
    // when it was sent is then what it may have found.
    if (x.sent_index >= 0 && was.event >= x.sent_index) {
      const auto& e = expected.expiries;
      for (auto it = e.rbegin(); it != e.rend(); ++it)
        if (std::get<0>(*it) < x.sent_index) {
          if (!expiry_moved(std::get<2>(*it), now)) return;
          break;
        }
    }
    std::vector<Evidence> ev = opening(&op, x);
    ev.push_back(support::figure("expiry_before", was.expire_at));
    ev.push_back(support::figure("expiry_after", now));
    const size_t outcome_at = ev.size();
    ev.push_back(key_evidence(x));
    found_ = Found{.anomaly = anomaly::kUnlockByNonHolder,
                   .op = op.id,
                   .invoke = op.invoke,
                   .evidence = std::move(ev),
                   .outcome_at = outcome_at};
  }

  const Facts& facts_;
  const bool refuses_reentry_;  // a non-reentrant lock: a holder's second acquire must be refused at once
  int64_t next_ = 0;  // the next event to read
  std::map<std::string, Expected> expected_;  // "<server>/<key>" -> its counts
  std::map<int64_t, Seen> seen_;              // op id -> what its executions did so far
  std::optional<Found> found_;
  std::optional<Verdict> verdict_;
  size_t judged_ = 0;
};

// The client-reentrant lock: the client counts, the key holds a token.
std::optional<Verdict> judge_client_counted(const Facts& facts, const Op& op, size_t& judged) {
  if (!support::is_acquire(op.f) && op.f != "unlock") return std::nullopt;
  // The depth its Hold or Release reported: the first of its events that says.
  std::optional<int64_t> depth;
  const auto& events = facts.history().events();
  for (auto e = events.begin() + (op.invoke - static_cast<int64_t>(events.first())); e != events.end(); ++e) {
    if (e->at_ms > facts.settles_ms(op)) break;
    if ((e->kind == EventKind::Hold || e->kind == EventKind::Release) && e->op == op.id) {
      depth = e->value;
      break;
    }
  }
  // Every rule below reads its executions or its depth, or an unlock's success: without any of
  // them the operation was not judged (an acquire whose client crashed before anything ran).
  if (!op.execs.empty() || depth || (op.f == "unlock" && op.result == EventKind::Ok)) ++judged;
  std::vector<Evidence> ev{support::event_evidence(facts, "operation", op.invoke)};
  if (op.outcome >= 0) ev.push_back(support::event_evidence(facts, "outcome", op.outcome));
  bool removed = false, touched = false;
  int removals = 0;
  for (int64_t i : op.execs) {
    const Event& x = facts.at(i);
    touched = touched || x.before != x.after;
    if (x.before.empty() || !x.after.empty()) continue;
    removed = true;
    ++removals;
    // An unlock takes its own hold away, never another holder's.
    const KeyTrack* key = facts.key(x.process, x.lock);
    if (!key) continue;
    for (const Claim& c : key->after_event(i - 1).claims)
      if (!c.owner.empty() && c.owner != op.owner) {
        ev.push_back(support::event_evidence(facts, "execution", i));
        Evidence holder;
        holder.role = "count";
        holder.who = c.owner;
        holder.where = key->name();
        holder.state = "its hold left alone";
        ev.push_back(holder);
        return support::violated(property::kReentrancy, anomaly::kUnlockByNonHolder, std::move(ev));
      }
  }
  if (removals > 1) {
    for (int64_t i : op.execs) ev.push_back(support::event_evidence(facts, "execution", i));
    ev.push_back(support::figure("removals", removals));
    return support::violated(property::kReentrancy, anomaly::kReentryCount, std::move(ev));
  }
  if (op.f == "unlock" && !depth) {
    if (op.result == EventKind::Ok || touched)
      return support::violated(property::kReentrancy, anomaly::kUnlockByNonHolder, std::move(ev));
    return std::nullopt;
  }
  if (op.f == "unlock" && *depth > 0 && removed) {
    Evidence d = support::figure("depth_after", *depth);
    ev.push_back(d);
    for (int64_t i : op.execs) ev.push_back(support::event_evidence(facts, "execution", i));
    return support::violated(property::kReentrancy, anomaly::kReentryCount, std::move(ev));
  }
  if (op.f == "unlock" && *depth == 0 && op.result == EventKind::Ok && !removed) {
    ev.push_back(support::figure("depth_after", 0));
    return support::violated(property::kReentrancy, anomaly::kNotFreedAtZero, std::move(ev));
  }
  if (op.f != "unlock" && depth && *depth > 1 && touched) {
    ev.push_back(support::figure("depth_after", *depth));
    for (int64_t i : op.execs) ev.push_back(support::event_evidence(facts, "execution", i));
    return support::violated(property::kReentrancy, anomaly::kReentryCount, std::move(ev));
  }
  return std::nullopt;
}

// The client-reentrant lock's operations are judged in the order they began, each once no event of
// its can come any more; lock hashes execution by execution, in history order.
class ReentrancyJudge final : public Judge {
 public:
  explicit ReentrancyJudge(const Facts& facts)
      : facts_(facts), client_counted_(facts.lock_type() && facts.lock_type()->client_reentrant), hash_(facts) {}

  void advance(const Settled& settled) override {
    if (!client_counted_) return hash_.advance(settled);
    if (verdict_) return;
    judge_settled_ops(facts_, settled, next_, [&](const Op& op) {
      verdict_ = judge_client_counted(facts_, op, client_judged_);
      return verdict_.has_value();
    });
  }

  Verdict verdict() override {
    if (const auto& v = client_counted_ ? verdict_ : hash_.verdict()) return *v;
    const size_t judged = client_counted_ ? client_judged_ : hash_.judged();
    if (judged == 0) return support::nothing_to_judge(property::kReentrancy, "no acquire or unlock ran on the lock's hash");
    return support::holds(property::kReentrancy, {support::figure("executions", static_cast<int64_t>(judged))});
  }

  int64_t needs() const override {
    if (!client_counted_) return hash_.needs();
    return verdict_ ? kForever : next_;
  }

 private:
  const Facts& facts_;
  const bool client_counted_;
  HashCounts hash_;
  size_t client_judged_ = 0;
  int64_t next_ = 0;  // the Invoke of the next operation to judge, or before it
  std::optional<Verdict> verdict_;
};

}  // namespace

std::unique_ptr<Judge> reentrancy_judge(const Facts& facts, const ReentrancyOptions&) {
  return std::make_unique<ReentrancyJudge>(facts);
}

Verdict check_reentrancy(const Facts& facts, const ReentrancyOptions& options) {
  return judge_whole(*reentrancy_judge(facts, options), facts);
}

}  // namespace locksim::model
