#include "model/reentrancy.hpp"

#include <map>
#include <set>

#include "model/anomaly.hpp"
#include "model/checker_support.hpp"

namespace locksim::model {

std::optional<int64_t> reentrancy_step(int64_t count, std::string_view f, EventKind outcome) {
  if (outcome != EventKind::Ok) return count;
  if (support::is_acquire(f)) return count + 1;
  if (f == "unlock") return count == 0 ? std::nullopt : std::optional<int64_t>(count - 1);
  return count;
}

namespace {

using support::ms;
using Fields = std::map<std::string, int64_t>;

struct Count {
  int64_t n = 0;
  bool synced = true;  // false after an op we could not compare: take n from the next Exec
};

std::string_view expected_role(std::string_view f) { return support::is_acquire(f) ? "acquire" : "unlock"; }

bool is_lock_op(std::string_view f) { return support::is_acquire(f) || f == "unlock"; }

class Checker {
 public:
  explicit Checker(const History& history) : history_(history), ops_(support::index_ops(history)) {}

  Verdict run() {
    for (const Event& e : history_.events()) {
      std::optional<Verdict> v;
      if (e.kind == EventKind::Exec) v = on_exec(e);
      else if (e.kind == EventKind::Key && e.f == "expired") on_expired(e);
      else if (e.kind == EventKind::Ok || e.kind == EventKind::Info) v = on_outcome(e);
      if (v) return *v;
    }
    if (compared_ == 0 && uncompared_ > 0)
      return support::unknown(property::kReentrancy,
                              std::to_string(uncompared_) + " lock operations but no server execution to compare with");
    return support::holds(property::kReentrancy, std::to_string(compared_) + " lock operations agree with the server");
  }

 private:
  const Event& at(int64_t i) const { return history_[static_cast<size_t>(i)]; }

  // Key expiry: nobody holds the lock any more.
  void on_expired(const Event& e) {
    for (auto& [owner, count] : counts_[e.lock]) count = Count{};
  }

  std::optional<Verdict> on_exec(const Event& e) {
    if (e.f == "force_unlock") return resync_all(e);
    if (e.f != "acquire" && e.f != "unlock") return std::nullopt;
    const auto op = ops_.find(e.op);
    if (op == ops_.end() || op->second.invoke < 0) return std::nullopt;
    const Event& invoke = at(op->second.invoke);
    if (!is_lock_op(invoke.f) || e.f != expected_role(invoke.f)) return std::nullopt;
    if (support::find_exec(history_, ops_, e.op, e.f) != e.index) return std::nullopt;  // only the last
    const std::string& lock = e.lock.empty() ? invoke.lock : e.lock;
    if (not_hash_.contains(lock)) return std::nullopt;
    const auto before = support::parse_hash(e.before);
    const auto after = support::parse_hash(e.after);
    if (!before || !after) {
      not_hash_.insert(lock);
      return std::nullopt;
    }
    const std::string owner = invoke.owner();
    fields_.learn(owner, invoke.thread, *before, *after);
    auto& on_lock = counts_[lock];
    for (auto& [other, count] : on_lock)
      if (!count.synced || e.before.empty()) count = Count{field(*before, other), true};
    Count& count = on_lock[owner];
    const int64_t outcome_index = op->second.outcome;
    const std::vector<int64_t> witness{invoke.index, e.index, outcome_index};
    if (outcome_index < 0 || at(outcome_index).kind == EventKind::Info) {
      count.n = field(*after, owner);  // unknown outcome: believe the server
      return std::nullopt;
    }
    const Event& outcome = at(outcome_index);
    ++compared_;
    if (invoke.f == "unlock" && count.n == 0) return non_holder_unlock(invoke, e, outcome, witness);
    if (outcome.kind == EventKind::Fail) {
      count.n = field(*after, owner);  // the server refused: it knows better
      return std::nullopt;
    }
    count.n = *reentrancy_step(count.n, invoke.f, outcome.kind);
    if (invoke.f == "unlock" && count.n == 0 && !e.after.empty() && only_owner(*after, owner))
      return support::violated(property::kReentrancy, anomaly::kNotFreedAtZero, witness,
                               "Let " + owner + " unlock " + lock + " at " + ms(e.at_ms) +
                                   " with its last unmatched acquire. Then the key was not deleted: it holds " +
                                   e.after + ".");
    if (field(*after, owner) != count.n)
      return support::violated(property::kReentrancy, anomaly::kReentryCount, witness,
                               "Let " + owner + " have " + std::to_string(count.n) + " unmatched acquires of " +
                                   lock + " after its " + invoke.f + " at " + ms(e.at_ms) +
                                   ". Then the server's hash holds " + fields_.field_of(owner) + "=" +
                                   std::to_string(field(*after, owner)) + " (key: \"" + e.after + "\").");
    return std::nullopt;
  }

  // An unlock by an owner whose count is 0 must fail and change nothing.
  std::optional<Verdict> non_holder_unlock(const Event& invoke, const Event& exec, const Event& outcome,
                                           const std::vector<int64_t>& witness) {
    const std::string owner = invoke.owner();
    if (outcome.kind == EventKind::Ok)
      return support::violated(property::kReentrancy, anomaly::kUnlockByNonHolder, witness,
                               "Let " + owner + " hold no " + invoke.lock + " at " + ms(invoke.at_ms) +
                                   ". Then its unlock succeeded at " + ms(outcome.at_ms) + ".");
    if (exec.before != exec.after)
      return support::violated(property::kReentrancy, anomaly::kUnlockByNonHolder, witness,
                               "Let " + owner + " hold no " + invoke.lock + " at " + ms(invoke.at_ms) +
                                   ". Then its unlock at " + ms(exec.at_ms) + " changed the key from \"" +
                                   exec.before + "\" to \"" + exec.after + "\".");
    return std::nullopt;
  }

  std::optional<Verdict> resync_all(const Event& e) {
    const auto after = support::parse_hash(e.after);
    if (!after) return std::nullopt;
    for (auto& [owner, count] : counts_[e.lock]) count = Count{field(*after, owner), true};
    return std::nullopt;
  }

  // An op that succeeded or timed out without an Exec to compare with: resynchronise later, but a
  // successful unlock by a known non-holder is still wrong.
  std::optional<Verdict> on_outcome(const Event& e) {
    const auto op = ops_.find(e.op);
    if (op == ops_.end() || op->second.invoke < 0 || op->second.outcome != e.index) return std::nullopt;
    const Event& invoke = at(op->second.invoke);
    if (!is_lock_op(invoke.f) || not_hash_.contains(invoke.lock)) return std::nullopt;
    if (support::find_exec(history_, ops_, e.op, expected_role(invoke.f)) >= 0) return std::nullopt;
    Count& count = counts_[invoke.lock][invoke.owner()];
    if (e.kind == EventKind::Ok && invoke.f == "unlock" && count.synced && count.n == 0)
      return non_holder_unlock(invoke, invoke, e, {invoke.index, e.index});
    ++uncompared_;
    count.synced = false;
    return std::nullopt;
  }

  // The count of `owner`'s field in a rendered hash.
  int64_t field(const Fields& fields, const std::string& owner) const {
    const auto it = fields.find(fields_.field_of(owner));
    return it == fields.end() ? 0 : it->second;
  }

  bool only_owner(const Fields& fields, const std::string& owner) const {
    for (const auto& [name, n] : fields)
      if (name != fields_.field_of(owner)) return false;
    return true;
  }

  const History& history_;
  const support::OpIndex ops_;
  support::HolderFields fields_;
  std::map<std::string, std::map<std::string, Count>> counts_;  // lock -> owner -> count
  std::set<std::string> not_hash_;
  size_t compared_ = 0;
  size_t uncompared_ = 0;
};

}  // namespace

Verdict check_reentrancy(const History& history, const ReentrancyOptions&) { return Checker(history).run(); }

}  // namespace locksim::model
