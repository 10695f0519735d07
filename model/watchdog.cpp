#include "model/watchdog.hpp"

#include <map>
#include <optional>
#include <set>
#include <utility>

#include "model/anomaly.hpp"
#include "model/checker_support.hpp"

namespace locksim::model {
namespace {

using support::ms;
using Key = std::pair<std::string, std::string>;  // lock, owner

struct Holding {
  int64_t hold = -1;          // the depth-1 Hold
  int64_t lease_ms = -1;      // -1: watchdog mode
  int64_t acquire_exec = -1;  // the server's acquire for this hold, -1 when not seen
  int64_t last_renew = -1;    // the last successful renewal Exec during this hold
  int64_t thread = 0;
};

struct Unlocked {
  int64_t release = -1;
  int64_t from = -1;  // renewals after this index revive the lock
  int64_t thread = 0;
};

bool is_renewed(const Event& e) { return e.kind == EventKind::Exec && e.f == "renew" && e.reply == "1"; }

class Checker {
 public:
  Checker(const History& history, const WatchdogOptions& options)
      : history_(history), options_(options), ops_(support::index_ops(history)) {
    for (const Event& e : history.events())
      if (e.kind == EventKind::Exec || e.kind == EventKind::Key) servers_.insert(e.process);
  }

  Verdict run() {
    for (const Event& e : history_.events()) {
      std::optional<Verdict> v;
      switch (e.kind) {
        case EventKind::Invoke: on_invoke(e); break;
        case EventKind::Hold: on_hold(e); break;
        case EventKind::Release: v = on_release(e); break;
        case EventKind::Exec: v = on_exec(e); break;
        case EventKind::Key: v = on_key(e); break;
        default: break;
      }
      if (v) return *v;
    }
    return support::holds(property::kWatchdog, std::to_string(holds_) + " holds, " + std::to_string(renewals_) +
                                                   " successful renewals, no lapse, late expiry or stray renewal");
  }

 private:
  const Event& at(int64_t i) const { return history_[static_cast<size_t>(i)]; }

  void on_invoke(const Event& e) {
    if (e.f == "unlock") last_unlock_[{e.lock, e.owner()}] = e.index;
  }

  void on_hold(const Event& e) {
    const Key key{e.lock, e.owner()};
    if (holding_.contains(key)) return;  // a re-entry
    ++holds_;
    unlocked_.erase(key);
    Holding h{e.index, e.lease_ms, -1, -1, e.thread};
    if (const auto it = last_acquire_.find(key); it != last_acquire_.end()) h.acquire_exec = it->second;
    holding_.emplace(key, h);
  }

  std::optional<Verdict> on_release(const Event& e) {
    if (e.value != 0) return std::nullopt;
    const Key key{e.lock, e.owner()};
    const auto it = holding_.find(key);
    if (it == holding_.end()) return std::nullopt;
    const Holding h = it->second;
    holding_.erase(it);
    if (e.f == "crash") return h.lease_ms == -1 ? judge_crash(e, h) : std::nullopt;
    unlocked_[key] = Unlocked{e.index, unlock_effect(key, e.index), e.thread};
    return std::nullopt;
  }

  // Where the owner's unlock took effect: its Exec, else its outcome, else the Release itself.
  int64_t unlock_effect(const Key& key, int64_t release) const {
    int64_t unlock_invoke = -1;
    if (const auto op = ops_.find(at(release).op); at(release).op != 0 && op != ops_.end())
      unlock_invoke = op->second.invoke;
    else if (const auto it = last_unlock_.find(key); it != last_unlock_.end())
      unlock_invoke = it->second;
    if (unlock_invoke < 0) return release;
    const Event& invoke = at(unlock_invoke);
    const int64_t exec = support::find_exec(history_, ops_, invoke.op, "unlock");
    if (exec >= 0) return std::max(exec, release);
    const auto op = ops_.find(invoke.op);
    if (invoke.op != 0 && op != ops_.end() && op->second.outcome >= 0) return std::max(op->second.outcome, release);
    return release;
  }

  std::optional<Verdict> on_exec(const Event& e) {
    const std::string lock = exec_lock(e);
    if (e.f == "acquire" || e.f == "unlock") {
      const std::string owner = support::owner_of_op(history_, ops_, e.op);
      const auto before = support::parse_hash(e.before);
      const auto after = support::parse_hash(e.after);
      if (!owner.empty() && before && after) fields_.learn(owner, e.thread, *before, *after);
      if (!owner.empty() && e.f == "acquire") last_acquire_[{lock, owner}] = e.index;
      // Every acquire (re-entries too) and every partial unlock (reply 0) restarts the lease.
      if (!owner.empty() && (e.f == "acquire" || e.reply == "0")) last_lease_set_[{lock, owner}] = e.index;
    }
    if (!e.after.empty() || !e.before.empty()) present_[lock] = !e.after.empty();
    if (!is_renewed(e)) return std::nullopt;
    ++renewals_;
    const std::string owner = renew_owner(e, lock);
    if (owner.empty()) return std::nullopt;
    const Key key{lock, owner};
    if (const auto it = holding_.find(key); it != holding_.end()) {
      Holding& h = it->second;
      if (h.lease_ms >= 0)
        return support::violated(property::kWatchdog, anomaly::kRenewedExplicitLease, {h.hold, e.index},
                                 "Let " + owner + " hold " + lock + " from " + ms(at(h.hold).at_ms) +
                                     " with an explicit lease of " + ms(h.lease_ms) + ". Then " + e.process +
                                     " renewed it at " + ms(e.at_ms) + ".");
      h.last_renew = e.index;
      return std::nullopt;
    }
    if (const auto it = unlocked_.find(key); it != unlocked_.end() && e.index > it->second.from)
      return support::violated(property::kWatchdog, anomaly::kRevivedAfterUnlock, {it->second.release, e.index},
                               "Let " + owner + " unlock " + lock + " at " + ms(at(it->second.release).at_ms) +
                                   ". Then " + e.process + " renewed it for " + owner + " at " + ms(e.at_ms) +
                                   ", before " + owner + " acquired it again.");
    return std::nullopt;
  }

  std::optional<Verdict> on_key(const Event& e) {
    if (e.f == "created") present_[e.lock] = true;
    if (e.f != "expired" && e.f != "deleted") return std::nullopt;
    present_[e.lock] = false;
    if (e.f != "expired") return std::nullopt;
    for (const auto& [key, h] : holding_) {
      if (key.first != e.lock || h.lease_ms != -1) continue;
      const Event& hold = at(h.hold);
      if (excused(hold, e)) continue;
      return support::violated(property::kWatchdog, anomaly::kWatchdogLapse, {h.hold, e.index},
                               "Let " + key.second + " hold " + e.lock + " from " + ms(hold.at_ms) +
                                   " with the watchdog (no lease). Then the key expired on " + e.process + " at " +
                                   ms(e.at_ms) + " while " + key.second +
                                   " still believed it held it, with no fault on " + hold.process +
                                   " or the servers in between.");
    }
    return std::nullopt;
  }

  // A fault that may legitimately stop renewals between `hold` and `expiry`.
  bool excused(const Event& hold, const Event& expiry) const {
    bool open_at_hold = false;  // a pause or partition of the owner's process still open at the Hold
    for (size_t i = 0; i <= static_cast<size_t>(expiry.index); ++i) {
      const Event& f = history_[i];
      if (f.kind != EventKind::Fault) continue;
      const bool mine = f.process == hold.process;
      if (f.index < hold.index) {
        if (mine && (f.f == "pause" || f.f == "partition")) open_at_hold = true;
        if (mine && (f.f == "resume" || f.f == "heal")) open_at_hold = false;
        continue;
      }
      if (mine || servers_.contains(f.process) || f.f == "restart" || f.f == "failover") return true;
    }
    return open_at_hold;
  }

  std::optional<Verdict> judge_crash(const Event& crash, const Holding& h) {
    if (const auto it = present_.find(crash.lock); it != present_.end() && !it->second) return std::nullopt;
    int64_t base = h.last_renew >= 0 ? h.last_renew : h.acquire_exec >= 0 ? h.acquire_exec : h.hold;
    if (const auto it = last_lease_set_.find({crash.lock, crash.owner()}); it != last_lease_set_.end())
      base = std::max(base, it->second);
    // A renewal sent before the crash may still reach the server after it and extend the key.
    int64_t gone = -1;
    for (size_t i = static_cast<size_t>(crash.index) + 1; i < history_.size() && gone < 0; ++i) {
      const Event& e = history_[i];
      if (is_renewed(e) && exec_lock(e) == crash.lock && renewal_of(e, crash)) base = e.index;
      if (disappears(e, crash.lock)) gone = e.index;
    }
    const int64_t deadline = at(base).at_ms + options_.watchdog_lease_ms + options_.slack_ms;
    if (gone >= 0 && at(gone).at_ms <= deadline) return std::nullopt;
    if (gone < 0 && history_.end_ms() <= deadline) return std::nullopt;  // too short to judge
    const std::string since = at(base).f == "renew"    ? "its last renewal was at "
                              : at(base).f == "unlock" ? "its partial unlock restarted the lease at "
                                                       : "it acquired it at ";
    const std::string late = gone >= 0 ? "but it went only at " + ms(at(gone).at_ms)
                                       : "but it was still there when the history ended at " + ms(history_.end_ms());
    return support::violated(property::kWatchdog, anomaly::kLateExpiry, {base, crash.index, gone},
                             "Let " + crash.owner() + " hold " + crash.lock + " with the watchdog; " + since +
                                 ms(at(base).at_ms) + ". Then " + crash.process + " crashed at " + ms(crash.at_ms) +
                                 ", so the key should have gone by " + ms(deadline) + " (" +
                                 ms(options_.watchdog_lease_ms) + " lease + " + ms(options_.slack_ms) + " slack), " +
                                 late + ".");
  }

  // Whether a renewal Exec after the crash was sent by the crashed owner.
  bool renewal_of(const Event& renew, const Event& crash) const {
    const std::string owner = support::owner_of_op(history_, ops_, renew.op);
    return owner.empty() ? renew.thread == crash.thread : owner == crash.owner();
  }

  // Whether `e` shows `lock`'s key gone: a Key expired/deleted event or an Exec that removed it.
  bool disappears(const Event& e, const std::string& lock) const {
    if (e.kind == EventKind::Key) return e.lock == lock && (e.f == "expired" || e.f == "deleted");
    return e.kind == EventKind::Exec && !e.before.empty() && e.after.empty() && exec_lock(e) == lock;
  }

  std::string exec_lock(const Event& e) const {
    if (!e.lock.empty()) return e.lock;
    const auto op = ops_.find(e.op);
    return e.op != 0 && op != ops_.end() && op->second.invoke >= 0 ? at(op->second.invoke).lock : "";
  }

  // The owner a renewal Exec was for: its op's, else the owner of the field of that thread it found
  // in the key, else the only holder or unlocker of that thread.
  std::string renew_owner(const Event& e, const std::string& lock) const {
    if (std::string owner = support::owner_of_op(history_, ops_, e.op); !owner.empty()) return owner;
    const std::string suffix = ":" + std::to_string(e.thread);
    std::set<std::string> candidates;
    if (const auto before = support::parse_hash(e.before)) {
      for (const auto& [field, n] : *before)
        if (std::string owner = fields_.owner_of(field); owner.ends_with(suffix)) candidates.insert(owner);
      if (candidates.size() == 1) return *candidates.begin();
      candidates.clear();
    }
    for (const auto& [key, h] : holding_)
      if (key.first == lock && h.thread == e.thread) candidates.insert(key.second);
    for (const auto& [key, u] : unlocked_)
      if (key.first == lock && u.thread == e.thread) candidates.insert(key.second);
    return candidates.size() == 1 ? *candidates.begin() : "";
  }

  const History& history_;
  const WatchdogOptions& options_;
  const support::OpIndex ops_;
  std::set<std::string> servers_;
  support::HolderFields fields_;
  std::map<Key, Holding> holding_;
  std::map<Key, Unlocked> unlocked_;
  std::map<Key, int64_t> last_acquire_;  // the last acquire Exec for each owner on each lock
  std::map<Key, int64_t> last_lease_set_;  // the owner's last Exec that restarted the lease
  std::map<Key, int64_t> last_unlock_;   // the last unlock Invoke
  std::map<std::string, bool> present_;  // whether each lock's key exists, when known
  size_t holds_ = 0;
  size_t renewals_ = 0;
};

}  // namespace

Verdict check_watchdog(const History& history, const WatchdogOptions& options) {
  return Checker(history, options).run();
}

}  // namespace locksim::model
