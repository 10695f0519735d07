#include "model/reentrancy.hpp"

#include <map>
#include <set>

#include "model/anomaly.hpp"
#include "model/checker_support.hpp"
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

// Lock hashes: each execution's change to its holder's count, and every other holder's.
class HashCounts {
 public:
  explicit HashCounts(const Facts& facts) : facts_(facts) {}

  std::optional<Verdict> judge(const Op& op) {
    if (!support::is_acquire(op.f) && op.f != "unlock") return std::nullopt;
    bool effect = false, held = false;
    const size_t judged_before = judged_;
    const auto v = [&]() -> std::optional<Verdict> {
      for (int64_t i : op.execs) {
        const Event& x = facts_.at(i);
        if (!counts(x.f) || x.client.empty()) continue;
        if (auto v = judge(op, x, effect, held)) return v;
      }
      return std::nullopt;
    }();
    // What it counted is about it alone: no later operation reads it.
    last_effect_.erase(last_effect_.lower_bound({op.id, ""}), last_effect_.lower_bound({op.id + 1, ""}));
    if (v) return v;
    // An unlock that held nothing and changed nothing must not be told it succeeded (judged where
    // its executions could be read as counts).
    if (op.f == "unlock" && op.result == EventKind::Ok && !effect && !held && judged_ > judged_before) {
      std::vector<Evidence> ev{support::event_evidence(facts_, "operation", op.invoke),
                               support::event_evidence(facts_, "outcome", op.outcome)};
      for (int64_t i : op.execs) ev.push_back(support::event_evidence(facts_, "execution", i));
      return support::violated(property::kReentrancy, anomaly::kUnlockByNonHolder, std::move(ev));
    }
    return std::nullopt;
  }
  size_t judged() const { return judged_; }

 private:
  std::string field_of(const std::string& owner, bool write, const Fields& before, const Fields& after) const {
    for (const Fields* fields : {&before, &after})
      for (const auto& [field, n] : *fields)
        if (facts_.owner_of_field(field) == owner && field.ends_with(":write") == write) return field;
    return "";
  }

  static int64_t count(const Fields& fields, const std::string& field) {
    const auto it = fields.find(field);
    return field.empty() || it == fields.end() ? 0 : it->second;
  }

  Verdict bad(std::string_view anomaly, const Op& op, const Event& x, std::string field, int64_t from, int64_t to,
              std::string expected) {
    Evidence exec = support::event_evidence(facts_, "execution", x.index);
    exec.where = x.process + "/" + x.lock;
    Evidence change;
    change.role = "count";
    change.who = facts_.owner_of_field(field).empty() ? field : facts_.owner_of_field(field);
    change.where = field;
    change.state = std::move(expected);
    std::vector<Evidence> ev{support::event_evidence(facts_, "operation", op.invoke), exec, change,
                             support::figure("count_before", from), support::figure("count_after", to)};
    if (op.outcome >= 0) ev.push_back(support::event_evidence(facts_, "outcome", op.outcome));
    Evidence key;
    key.role = "key";
    key.where = x.process + "/" + x.lock;
    key.state = x.before + " -> " + x.after;
    key.event = x.index;
    ev.push_back(key);
    return support::violated(property::kReentrancy, anomaly, std::move(ev));
  }

  std::optional<Verdict> judge(const Op& op, const Event& x, bool& effect, bool& held) {
    const auto before = parse_hash(x.before);
    const auto after = parse_hash(x.after);
    if (!before || !after) return std::nullopt;
    ++judged_;
    const std::string owner = x.owner();
    const bool write = facts_.lock_type() && facts_.lock_type()->sides && op.lock.ends_with(":write");
    const std::string field = field_of(owner, write, *before, *after);
    const int64_t c0 = count(*before, field), c1 = count(*after, field);
    // Another owner's count changed.
    std::set<std::string> names;
    for (const auto& [f, n] : *before) names.insert(f);
    for (const auto& [f, n] : *after) names.insert(f);
    const KeyTrack* key_track = facts_.key(x.process, x.lock);
    for (const std::string& other : names) {
      if (other == field || count(*before, other) == count(*after, other)) continue;
      // A reader whose lease ran out (its timeout keys expired) is dropped by the next read unlock.
      if (key_track && x.f == "unlock" && count(*after, other) == 0) {
        bool stale = false;
        for (const Claim& c : key_track->after_event(x.index - 1).claims) stale = stale || (c.field == other && c.stale);
        if (stale) continue;
      }
      const bool non_holder = x.f == "unlock" && c0 == 0;
      return bad(non_holder ? anomaly::kUnlockByNonHolder : anomaly::kReentryCount, op, x, other,
                 count(*before, other), count(*after, other), "unchanged by " + owner + "'s " + x.f);
    }
    const std::string key = x.process + "/" + x.lock;
    if (x.f != "unlock") {
      const bool granted = x.reply == "nil";
      const int64_t expected = *reentrancy_step(c0, x.f, granted);
      if (c1 != expected)
        return bad(anomaly::kReentryCount, op, x, field.empty() ? owner : field, c0, c1,
                   std::string(granted ? "granted: " : "refused: ") + std::to_string(expected));
      if (c1 == c0 + 1) {
        int& last = last_effect_[{op.id, key}];
        if (last == +1)
          return bad(anomaly::kReentryCount, op, x, field, c0, c1,
                     "counted once per operation: this " + op.f + " was already counted on " + key);
        last = +1;
        effect = true;
      }
      return std::nullopt;
    }
    if (c0 == 0) {
      if (x.before != x.after)
        return bad(anomaly::kUnlockByNonHolder, op, x, field.empty() ? owner : field, 0, c1, "no change to the key");
      return std::nullopt;
    }
    held = true;
    if (c1 != c0 && c1 != c0 - 1)
      return bad(anomaly::kReentryCount, op, x, field, c0, c1, std::to_string(c0 - 1));
    int& last = last_effect_[{op.id, key}];
    if (c1 == c0) {
      // Nothing taken off is right only for a script that did not run (an error reply, e.g. NOSCRIPT)
      // or a resend that Redisson's latch answered after this unlock already took its 1 off.
      if (is_error_reply(x.reply)) return std::nullopt;
      if (last == -1) return std::nullopt;
      return bad(anomaly::kReentryCount, op, x, field, c0, c1, std::to_string(c0 - 1));
    }
    if (last == -1)
      return bad(anomaly::kReentryCount, op, x, field, c0, c1, "taken off once per unlock: this unlock already was");
    last = -1;
    effect = true;
    if (c1 != 0) return std::nullopt;
    bool holders_left = false;
    for (const auto& [f, n] : *after) holders_left = holders_left || (f != field && n > 0);
    if ((after->contains(field) || (!x.after.empty() && !holders_left)))
      return bad(anomaly::kNotFreedAtZero, op, x, field, c0, c1, "the key gone");
    return std::nullopt;
  }

  const Facts& facts_;
  std::map<std::pair<int64_t, std::string>, int> last_effect_;  // (op, key) -> +1 / -1
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

// Operations are judged in the order they began, each once no event of its can come any more.
class ReentrancyJudge final : public Judge {
 public:
  explicit ReentrancyJudge(const Facts& facts)
      : facts_(facts), client_counted_(facts.lock_type() && facts.lock_type()->client_reentrant), hash_(facts) {}

  void advance(const Settled& settled) override {
    if (verdict_) return;
    judge_settled_ops(facts_, settled, next_, [&](const Op& op) {
      verdict_ = client_counted_ ? judge_client_counted(facts_, op, client_judged_) : hash_.judge(op);
      return verdict_.has_value();
    });
  }

  Verdict verdict() override {
    if (verdict_) return *verdict_;
    const size_t judged = client_counted_ ? client_judged_ : hash_.judged();
    if (judged == 0) return support::nothing_to_judge(property::kReentrancy, "no acquire or unlock ran on the lock's hash");
    return support::holds(property::kReentrancy, {support::figure("executions", static_cast<int64_t>(judged))});
  }

  int64_t needs() const override { return verdict_ ? kForever : next_; }

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
