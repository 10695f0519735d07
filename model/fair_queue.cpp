#include "model/fair_queue.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/anomaly.hpp"
#include "model/checker_support.hpp"
#include "model/rendered.hpp"

namespace locksim::model {
namespace {

// One stay in the queue: from an enqueueing Exec to a grant, a leave, an eviction or the end.
struct Entry {
  enum class End { Open, Granted, Left, Evicted };
  int64_t op = 0;
  std::string owner;
  std::string lock;
  int64_t wait_ms = 0;           // W for this waiter
  int64_t enqueue = -1;          // index of the enqueueing Exec
  int64_t enqueue_at = 0;
  End end = End::Open;
  int64_t end_index = -1;        // the grant Exec, or the acquire_failed Exec / outcome that left
  int64_t end_at = kForever;     // Evicted: when the eviction fell due
  int64_t ghost_to = kForever;   // Evicted: its next attempt or its leaving (kForever: the end)
  int64_t silenced_by = -1;      // Evicted: the fault that began the silence
  std::shared_ptr<const std::vector<Span>> away{};  // its silences (Facts::silences)
  std::shared_ptr<const Op> waiter{};  // a copy: a stream may retire the operation before the stay is judged
};

struct Grant {
  int64_t op = 0;
  std::string owner;
  std::string lock;
  int64_t index = 0;
  int64_t at = 0;
  int64_t position = 0;  // the grantee's enqueue index, or the grant's own index when it never queued
  bool queued = false;
};

// The earliest time in [from, limit] at which a silence of `away` beginning at or after `from` (or
// running across it) has lasted `wait_ms`; nullopt when none.
std::optional<std::pair<int64_t, int64_t>> eviction(const std::vector<Span>& away, int64_t from, int64_t limit,
                                                    int64_t wait_ms) {
  std::optional<std::pair<int64_t, int64_t>> best;
  for (const Span& a : away) {
    const int64_t start = std::max(a.from_ms, from);
    if (start >= a.to_ms || start >= limit) continue;
    const int64_t due = start + wait_ms;
    if (due <= std::min(a.to_ms, limit) && (!best || due < best->first)) best = std::make_pair(due, a.begin);
  }
  return best;
}

bool still_waiting_at(const Entry& w, const Grant& g) {
  switch (w.end) {
    case Entry::End::Open: return true;
    case Entry::End::Granted:
    case Entry::End::Left: return w.end_index > g.index;
    case Entry::End::Evicted: return w.end_at > g.at;
  }
  return false;
}

// Where a stay stops counting for the waiters behind it: its end (an evicted one's: its ghost's).
int64_t counts_until(const Entry& u) {
  if (u.end == Entry::End::Open) return kForever;
  return std::max(u.end_at, u.end == Entry::End::Evicted ? u.ghost_to : u.end_at);
}

// An acquire's stays and its grant, in the order it made them.
struct Acquire {
  std::vector<Entry> entries;
  std::optional<Grant> grant;
  bool needs_end = false;  // a stay that may be open at the end: only the end decides it
};

// Judged in the order the property's two bounds are defined: every grant (in history order) for a
// fifo-inversion, then every stay (in enqueue order) for a blocked-by-evicted or starved waiter; the
// first found of each is kept, and a fifo-inversion anywhere is the verdict before any starvation.
// An acquire is taken once it is settled (no event of its can come any more); a grant is judged once
// every acquire begun before it is taken (only those can have queued ahead of it), and so is a stay
// (every stay enqueued before it is known, with its end).
class FairQueueJudge final : public Judge {
 public:
  FairQueueJudge(const Facts& facts, const FairQueueOptions& options) : facts_(facts), options_(options) {}

  void advance(const Settled& settled) override {
    if (fifo_) return;
    // A silence that evicts a waiter may have begun before the waiter asked, in events a stream
    // drops before the waiter is judged: each fault is kept as evidence as it is taken.
    judge_taken_events(facts_, settled, faults_next_, [&](const Event& e) {
      const bool lost_request = e.kind == EventKind::Message && e.f == "lost" && e.text.starts_with("request ");
      if (e.kind == EventKind::Fault || lost_request)
        faults_.emplace(e.index, support::event_evidence(facts_, "silenced", e.index));
      return false;
    });
    const auto& ops = facts_.ops();
    auto it = std::lower_bound(ops.begin(), ops.end(), next_, [](const Op& op, int64_t v) { return op.invoke < v; });
    for (; it != ops.end(); ++it) {
      if (!settled.end() && facts_.settles_ms(*it) > settled.ms) break;
      if (support::is_acquire(it->f)) {
        Acquire a = take(*it, settled);
        if (a.needs_end) break;
        for (Entry& e : a.entries) {
          ++stays_;
          waiting_.insert(std::lower_bound(waiting_.begin(), waiting_.end(), e.enqueue,
                                           [](const Entry& w, int64_t v) { return w.enqueue < v; }),
                          e);
          if (!starved_) pending_.emplace(e.enqueue, std::move(e));
        }
        if (a.grant) {
          ++grants_;
          grants_pending_.emplace(a.grant->index, std::move(*a.grant));
        }
      }
      next_ = it->invoke + 1;
    }
    // Nothing taken later enqueues or is granted before the first acquire not taken yet.
    const int64_t frontier = it != ops.end() ? it->invoke : settled.end() ? kForever : settled.index;
    while (!grants_pending_.empty() && grants_pending_.begin()->first < frontier) {
      fifo_ = judge_grant(grants_pending_.begin()->second);
      grants_pending_.erase(grants_pending_.begin());
      if (fifo_) {
        waiting_.clear();
        pending_.clear();
        earlier_.clear();
        return;
      }
    }
    while (!starved_ && !pending_.empty() && pending_.begin()->first < frontier) {
      Entry v = std::move(pending_.begin()->second);
      pending_.erase(pending_.begin());
      starved_ = judge_stay(v);
      if (starved_) {
        pending_.clear();
        earlier_.clear();
      } else {
        earlier_.push_back(std::move(v));  // it may count for the stays after it
      }
    }
  }

  Verdict verdict() override {
    if (fifo_) return *fifo_;
    if (starved_) return *starved_;
    if (stays_ == 0) return support::nothing_to_judge(property::kFairQueue, "no waiter stayed in the lock's queue");
    return support::holds(property::kFairQueue, {support::figure("queue_stays", stays_), support::figure("grants", grants_)});
  }

  int64_t needs() const override {
    if (fifo_) return kForever;
    int64_t first = next_;
    for (const Entry& w : waiting_) first = std::min(first, w.enqueue);
    for (const auto& [index, g] : grants_pending_) first = std::min(first, g.position);
    for (const auto& [enqueue, v] : pending_) first = std::min({first, enqueue, v.waiter->invoke});
    for (const Entry& u : earlier_) first = std::min(first, u.enqueue);
    return first;
  }

 private:
  Acquire take(const Op& op, const Settled& settled) const {
    Acquire out;
    // Silent while it cannot act, or while every request it sends is lost (to the server, the same).
    const auto silences = std::make_shared<const std::vector<Span>>(facts_.silences(op));
    const std::vector<Span>& away = *silences;
    const Event& invoke = facts_.at(op.invoke);
    const int64_t wait_ms = options_.try_wait_replaces_thread_wait && invoke.wait_ms > 0 ? invoke.wait_ms
                                                                                       : options_.thread_wait_ms;
    // Where the waiter stops waiting of its own accord: acquireFailed or its outcome.
    int64_t left = -1;
    for (int64_t i : op.execs)
      if (facts_.at(i).f == "acquire_failed") {
        left = i;
        break;
      }
    if (op.outcome >= 0 && op.result != EventKind::Ok && (left < 0 || op.outcome < left)) left = op.outcome;
    const int64_t left_at = left >= 0 ? facts_.at(left).at_ms : kForever;

    const auto waiter = std::make_shared<const Op>(op);
    std::optional<Entry> current;
    auto evict_before = [&](int64_t limit) {
      if (!current) return;
      const auto due = eviction(away, current->enqueue_at, limit, wait_ms);
      if (!due) return;
      current->end = Entry::End::Evicted;
      current->end_at = due->first;
      current->silenced_by = due->second;
      current->ghost_to = limit;
      out.entries.push_back(*current);
      current.reset();
    };
    for (int64_t i : op.execs) {
      const Event& x = facts_.at(i);
      if (x.f != "acquire" && x.f != "try_acquire") continue;
      if (left >= 0 && i > left) break;
      evict_before(x.at_ms);
      if (is_grant_reply(x.reply)) {
        // A grant is what the server did: the owner's hold entered the lock hash. A re-entry the
        // server counted on a hold it still had is no grant.
        const KeyTrack* key = facts_.key(x.process, x.lock);
        const bool granted = key && !key->after_event(i - 1).claim_of(op.owner, op.lock) &&
                             key->after_event(i).claim_of(op.owner, op.lock);
        Grant g{op.id, op.owner, op.lock, i, x.at_ms, i, false};
        if (!current && key) {
          // Granted at its first attempt, but its thread was already in the server's queue (an
          // earlier acquire of it queued and gave up, or its reply was lost): the server's queue is
          // per thread, so that is where it stood.
          if (const auto since = in_queue_since(*key, i, op.owner)) {
            g.position = *since;
            g.queued = true;
          }
        }
        if (current) {
          g.position = current->enqueue;
          g.queued = true;
          current->end = Entry::End::Granted;
          current->end_index = i;
          current->end_at = x.at_ms;
          out.entries.push_back(*current);
          current.reset();
        }
        if (granted) out.grant = g;
        return out;
      }
      if (x.f == "acquire" && parse_integer(x.reply) && !current) {
        current = Entry{op.id, op.owner, op.lock, wait_ms, i, x.at_ms};
        current->away = silences;
        current->waiter = waiter;
      }
    }
    if (!current) return out;
    if (left >= 0) {
      evict_before(left_at);
      if (!current) {
        out.entries.back().ghost_to = left_at;
        return out;
      }
      current->end = Entry::End::Left;
      current->end_index = left;
      current->end_at = left_at;
      out.entries.push_back(*current);
      return out;
    }
    // Still queued when its operation ended (a crash cut it short, say): open to the end, unless a
    // silence evicts it first. An eviction due by the latest settled ms is the one the end would
    // find (any other falls due later), and its ghost lasts to the end; none yet: it waits.
    evict_before(settled.end() ? facts_.end_ms() : settled.ms);
    if (!current) {
      out.entries.back().ghost_to = kForever;
      return out;
    }
    out.needs_end = !settled.end();
    out.entries.push_back(*current);
    return out;
  }

  // The event from which `owner`'s thread has stood in `key`'s recorded queue without a break up to
  // just before event `index`; nothing when the queue was not recorded or did not have it. A
  // stream may have retired the states where it entered: then the earliest kept, which is no later.
  std::optional<int64_t> in_queue_since(const KeyTrack& key, int64_t index, const std::string& owner) const {
    const std::string id = facts_.field_of(owner);
    const auto has = [&](const KeyState& s) {
      return s.queue_known && std::find(s.queue().begin(), s.queue().end(), id) != s.queue().end();
    };
    const KeyState* s = &key.after_event(index - 1);
    if (!has(*s)) return std::nullopt;
    while (s != key.states.data() && has(*(s - 1))) --s;
    return std::max<int64_t>(s->event, facts_.history().events().first());
  }

  // fifo-inversion: a grant while an earlier, live waiter still waits. Grants come in history
  // order, so a stay that has stopped waiting at one grant has for every later one: only the stays
  // still waiting are kept (in enqueue order), and each grant costs the queue's length.
  std::optional<Verdict> judge_grant(const Grant& g) {
    std::erase_if(waiting_, [&](const Entry& w) { return !still_waiting_at(w, g); });
    for (const Entry& w : waiting_) {
      if (w.enqueue >= g.position) break;
      if (w.lock != g.lock || w.owner == g.owner) continue;
      std::vector<Evidence> ev{support::event_evidence(facts_, "earlier_enqueue", w.enqueue),
                               support::event_evidence(facts_, "grant", g.index),
                               support::figure("thread_wait_ms", w.wait_ms)};
      ev[0].who = w.owner;
      ev[1].who = g.owner;
      if (g.queued) {
        ev.push_back(support::event_evidence(facts_, "later_enqueue", g.position));
        ev.back().who = g.owner;
      }
      return support::violated(property::kFairQueue, anomaly::kFifoInversion, std::move(ev));
    }
    return std::nullopt;
  }

  // blocked-by-evicted / starved: a live waiter kept waiting while the lock is free. An earlier stay
  // counts for a later one only by its silences and its ghost, which end by its end (an evicted
  // one's: its ghost's end); one over before the waiter enqueued counts for no later waiter either.
  std::optional<Verdict> judge_stay(const Entry& v) {
    std::erase_if(earlier_, [&](const Entry& u) { return counts_until(u) <= v.enqueue_at; });
    const int64_t end = v.end == Entry::End::Open ? facts_.end_ms() : v.end_at;
    if (end <= v.enqueue_at) return std::nullopt;
    std::vector<Span> away = *v.away;
    std::vector<const Entry*> ghosts;
    for (const Entry& u : earlier_) {
      if (u.lock != v.lock || u.owner == v.owner) continue;
      const int64_t u_end = u.end == Entry::End::Open ? kForever : u.end_at;
      for (const Span& a : *u.away) {
        const int64_t from = std::max(a.from_ms, u.enqueue_at);
        const int64_t to = std::min({a.to_ms, from + u.wait_ms, u_end});
        if (from < to) away.push_back(Span{from, to, a.begin, -1});
      }
      if (u.end == Entry::End::Evicted) ghosts.push_back(&u);
    }
    const std::vector<FreeSpan> free = facts_.free_spans(*v.waiter, v.enqueue_at, end);
    std::vector<Span> spans;
    for (const FreeSpan& f : free) spans.push_back(f.span);
    const int64_t total = usable_ms(spans, v.enqueue_at, end, away);
    if (total < options_.grace_ms || total == 0) return std::nullopt;
    const int64_t closing = v.end == Entry::End::Granted || v.end == Entry::End::Left ? v.end_index : -1;
    std::vector<Evidence> ev{support::event_evidence(facts_, "enqueue", v.enqueue)};
    ev.back().who = v.owner;
    ev.back().to_ms = end;
    ev.back().state = v.end == Entry::End::Granted ? "granted" : v.end == Entry::End::Left ? "left"
                      : v.end == Entry::End::Open  ? "open" : "evicted";
    if (closing >= 0) ev.push_back(support::event_evidence(facts_, "closing", closing));
    for (size_t i = 0; i < free.size() && i < 4; ++i) {
      Evidence f;
      f.role = "free";
      f.event = free[i].state_event;
      f.from_ms = free[i].span.from_ms;
      f.to_ms = free[i].span.to_ms;
      f.where = free[i].key ? free[i].key->name() : "";
      f.state = std::string(to_string(free[i].why));
      ev.push_back(f);
    }
    ev.push_back(support::figure("free_ms", total));
    ev.push_back(support::figure("grace_ms", options_.grace_ms));
    for (const Entry* u : ghosts) {
      int64_t blocked = usable_ms(spans, std::max(v.enqueue_at, u->end_at), std::min(end, u->ghost_to), away);
      if (blocked <= 0) continue;
      Evidence ghost = support::event_evidence(facts_, "ghost_enqueue", u->enqueue);
      ghost.who = u->owner;
      ghost.to_ms = u->end_at;
      ghost.number = u->wait_ms;
      ev.push_back(ghost);
      if (u->silenced_by >= 0) {
        const auto fault = faults_.find(u->silenced_by);
        ev.push_back(fault != faults_.end() ? fault->second : support::event_evidence(facts_, "silenced", u->silenced_by));
      }
      ev.push_back(support::figure("blocked_ms", blocked));
      return support::violated(property::kFairQueue, anomaly::kBlockedByEvicted, std::move(ev));
    }
    return support::violated(property::kFairQueue, anomaly::kStarved, std::move(ev));
  }

  const Facts& facts_;
  const FairQueueOptions options_;
  int64_t next_ = 0;  // the Invoke of the next acquire to take, or before it
  int64_t faults_next_ = 0;  // the next event to look at for a fault
  std::map<int64_t, Evidence> faults_;  // every fault event so far, by index, as "silenced" evidence
  int64_t stays_ = 0;
  int64_t grants_ = 0;
  std::vector<Entry> waiting_;                // stays still waiting at the latest judged grant, by enqueue
  std::map<int64_t, Grant> grants_pending_;  // by the grant's index
  std::map<int64_t, Entry> pending_;         // stays not judged yet, by enqueue
  std::vector<Entry> earlier_;               // judged stays that may still count for a later one
  std::optional<Verdict> fifo_;
  std::optional<Verdict> starved_;
};

}  // namespace

std::unique_ptr<Judge> fair_queue_judge(const Facts& facts, const FairQueueOptions& options) {
  return std::make_unique<FairQueueJudge>(facts, options);
}

Verdict check_fair_queue(const Facts& facts, const FairQueueOptions& options) {
  return judge_whole(*fair_queue_judge(facts, options), facts);
}

}  // namespace locksim::model
