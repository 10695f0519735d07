#include "model/fair_queue.hpp"

#include <algorithm>
#include <map>
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
  int64_t ghost_to = kForever;   // Evicted: its next attempt or its leaving
  int64_t silenced_by = -1;      // Evicted: the fault that began the silence
  const std::vector<Span>* away = nullptr;
  const Op* waiter = nullptr;
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

int64_t window_end(const Entry& v, int64_t history_end) {
  if (v.end == Entry::End::Open) return history_end;
  return v.end_at;
}

}  // namespace

Verdict check_fair_queue(const Facts& facts, const FairQueueOptions& options) {
  const History& history = facts.history();
  std::vector<Entry> entries;
  std::vector<Grant> grants;

  for (const Op& op : facts.ops()) {
    if (!support::is_acquire(op.f)) continue;
    const std::vector<Span>& away = facts.unavailable(op.process);
    const Event& invoke = facts.at(op.invoke);
    const int64_t wait_ms = options.try_wait_replaces_thread_wait && invoke.wait_ms > 0 ? invoke.wait_ms
                                                                                      : options.thread_wait_ms;
    // Where the waiter stops waiting of its own accord: acquireFailed or its outcome.
    int64_t left = -1;
    for (int64_t i : op.execs)
      if (facts.at(i).f == "acquire_failed") {
        left = i;
        break;
      }
    if (op.outcome >= 0 && op.result != EventKind::Ok && (left < 0 || op.outcome < left)) left = op.outcome;
    const int64_t left_at = left >= 0 ? facts.at(left).at_ms : kForever;

    std::optional<Entry> current;
    auto evict_before = [&](int64_t limit) {
      if (!current) return;
      const auto due = eviction(away, current->enqueue_at, limit, wait_ms);
      if (!due) return;
      current->end = Entry::End::Evicted;
      current->end_at = due->first;
      current->silenced_by = due->second;
      current->ghost_to = limit;
      entries.push_back(*current);
      current.reset();
    };
    bool done = false;
    for (int64_t i : op.execs) {
      const Event& x = facts.at(i);
      if (x.f != "acquire" && x.f != "try_acquire") continue;
      if (left >= 0 && i > left) break;
      evict_before(x.at_ms);
      if (x.reply == "nil") {
        // A grant is what the server did: the owner's hold entered the lock hash. A re-entry the
        // server counted on a hold it still had is no grant.
        const KeyTrack* key = facts.key(x.process, x.lock);
        const bool granted = key && !key->after_event(i - 1).claim_of(op.owner, op.lock) &&
                             key->after_event(i).claim_of(op.owner, op.lock);
        Grant g{op.id, op.owner, op.lock, i, x.at_ms, i, false};
        if (current) {
          g.position = current->enqueue;
          g.queued = true;
          current->end = Entry::End::Granted;
          current->end_index = i;
          current->end_at = x.at_ms;
          entries.push_back(*current);
          current.reset();
        }
        if (granted) grants.push_back(g);
        done = true;
        break;
      }
      if (x.f == "acquire" && parse_integer(x.reply) && !current) {
        current = Entry{op.id, op.owner, op.lock, wait_ms, i, x.at_ms};
        current->away = &away;
        current->waiter = &op;
      }
    }
    if (done || !current) continue;
    evict_before(std::min(left_at, history.end_ms()));
    if (!current) {
      if (left >= 0) entries.back().ghost_to = left_at;
      continue;
    }
    if (left >= 0) {
      current->end = Entry::End::Left;
      current->end_index = left;
      current->end_at = left_at;
    }
    entries.push_back(*current);
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.enqueue < b.enqueue; });
  std::sort(grants.begin(), grants.end(), [](const Grant& a, const Grant& b) { return a.index < b.index; });

  // fifo-inversion: a grant while an earlier, live waiter still waits. Grants come in history
  // order, so a stay that has stopped waiting at one grant has for every later one: only the stays
  // still waiting are kept (in enqueue order), and each grant costs the queue's length, not the history's.
  std::vector<const Entry*> waiting;
  for (const Entry& w : entries) waiting.push_back(&w);
  for (const Grant& g : grants) {
    std::erase_if(waiting, [&](const Entry* w) { return !still_waiting_at(*w, g); });
    for (const Entry* wp : waiting) {
      const Entry& w = *wp;
      if (w.enqueue >= g.position) break;
      if (w.lock != g.lock || w.owner == g.owner) continue;
      std::vector<Evidence> ev{support::event_evidence(facts, "earlier_enqueue", w.enqueue),
                               support::event_evidence(facts, "grant", g.index), support::figure("thread_wait_ms", w.wait_ms)};
      ev[0].who = w.owner;
      ev[1].who = g.owner;
      if (g.queued) {
        ev.push_back(support::event_evidence(facts, "later_enqueue", g.position));
        ev.back().who = g.owner;
      }
      return support::violated(property::kFairQueue, anomaly::kFifoInversion, std::move(ev));
    }
  }

  // blocked-by-evicted / starved: a live waiter kept waiting while the lock is free. An earlier stay
  // counts for a later one only by its silences and its ghost, which end by its end (an evicted
  // one's: its ghost's end); one over before the waiter enqueued counts for no later waiter either.
  std::vector<const Entry*> earlier;
  for (size_t k = 0; k < entries.size(); ++k) {
    const Entry& v = entries[k];
    if (k > 0) earlier.push_back(&entries[k - 1]);
    std::erase_if(earlier, [&](const Entry* u) {
      if (u->end == Entry::End::Open) return false;
      return std::max(u->end_at, u->end == Entry::End::Evicted ? u->ghost_to : u->end_at) <= v.enqueue_at;
    });
    const int64_t end = window_end(v, history.end_ms());
    if (end <= v.enqueue_at) continue;
    std::vector<Span> away = *v.away;
    std::vector<const Entry*> ghosts;
    for (const Entry* up : earlier) {
      const Entry& u = *up;
      if (u.lock != v.lock || u.owner == v.owner) continue;
      const int64_t u_end = u.end == Entry::End::Open ? kForever : u.end_at;
      for (const Span& a : *u.away) {
        const int64_t from = std::max(a.from_ms, u.enqueue_at);
        const int64_t to = std::min({a.to_ms, from + u.wait_ms, u_end});
        if (from < to) away.push_back(Span{from, to, a.begin, -1});
      }
      if (u.end == Entry::End::Evicted) ghosts.push_back(&u);
    }
    const std::vector<FreeSpan> free = facts.free_spans(*v.waiter, v.enqueue_at, end);
    std::vector<Span> spans;
    for (const FreeSpan& f : free) spans.push_back(f.span);
    const int64_t total = usable_ms(spans, v.enqueue_at, end, away);
    if (total < options.grace_ms || total == 0) continue;
    const int64_t closing = v.end == Entry::End::Granted || v.end == Entry::End::Left ? v.end_index : -1;
    std::vector<Evidence> ev{support::event_evidence(facts, "enqueue", v.enqueue)};
    ev.back().who = v.owner;
    ev.back().to_ms = end;
    ev.back().state = v.end == Entry::End::Granted ? "granted" : v.end == Entry::End::Left ? "left"
                      : v.end == Entry::End::Open  ? "open" : "evicted";
    if (closing >= 0) ev.push_back(support::event_evidence(facts, "closing", closing));
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
    ev.push_back(support::figure("grace_ms", options.grace_ms));
    for (const Entry* u : ghosts) {
      int64_t blocked = usable_ms(spans, std::max(v.enqueue_at, u->end_at), std::min(end, u->ghost_to), away);
      if (blocked <= 0) continue;
      Evidence ghost = support::event_evidence(facts, "ghost_enqueue", u->enqueue);
      ghost.who = u->owner;
      ghost.to_ms = u->end_at;
      ghost.number = u->wait_ms;
      ev.push_back(ghost);
      if (u->silenced_by >= 0) ev.push_back(support::event_evidence(facts, "silenced", u->silenced_by));
      ev.push_back(support::figure("blocked_ms", blocked));
      return support::violated(property::kFairQueue, anomaly::kBlockedByEvicted, std::move(ev));
    }
    return support::violated(property::kFairQueue, anomaly::kStarved, std::move(ev));
  }
  return support::holds(property::kFairQueue, {support::figure("queue_stays", static_cast<int64_t>(entries.size())),
                                               support::figure("grants", static_cast<int64_t>(grants.size()))});
}

}  // namespace locksim::model
