#include "model/fair_queue.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/anomaly.hpp"
#include "model/checker_support.hpp"

namespace locksim::model {
namespace {

using support::kForever;
using support::ms;
using support::Span;

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

std::optional<int64_t> integer_reply(const std::string& reply) {
  int64_t n = 0;
  const auto [end, ec] = std::from_chars(reply.data(), reply.data() + reply.size(), n);
  if (ec != std::errc() || end != reply.data() + reply.size() || reply.empty()) return std::nullopt;
  return n;
}

// The earliest time in [from, limit] at which a silence of `away` beginning at or after `from` (or
// running across it) has lasted `wait_ms`; nullopt when none.
std::optional<std::pair<int64_t, int64_t>> eviction(const std::vector<Span>& away, int64_t from, int64_t limit,
                                                    int64_t wait_ms) {
  std::optional<std::pair<int64_t, int64_t>> best;
  for (const Span& a : away) {
    const int64_t start = std::max(a.from, from);
    if (start >= a.to || start >= limit) continue;
    const int64_t due = start + wait_ms;
    if (due <= std::min(a.to, limit) && (!best || due < best->first)) best = std::make_pair(due, a.cause);
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

Verdict check_fair_queue(const History& history, const FairQueueOptions& options) {
  const auto ops = support::index_ops(history);
  std::map<int64_t, int64_t> hold_depth;  // op -> depth its Hold reported
  for (const Event& e : history.events())
    if (e.kind == EventKind::Hold && e.op != 0 && !hold_depth.contains(e.op)) hold_depth[e.op] = e.value;
  std::map<std::string, std::vector<Span>> away_of;
  std::vector<Entry> entries;
  std::vector<Grant> grants;

  for (const Event& invoke : history.events()) {
    if (invoke.kind != EventKind::Invoke || !support::is_acquire(invoke.f) || invoke.op == 0) continue;
    const auto op = ops.find(invoke.op);
    if (op == ops.end()) continue;
    if (!away_of.contains(invoke.process)) away_of[invoke.process] = support::unavailable(history, invoke.process);
    const std::vector<Span>& away = away_of[invoke.process];
    const int64_t wait_ms = options.try_wait_replaces_thread_wait && invoke.wait_ms > 0 ? invoke.wait_ms
                                                                                         : options.thread_wait_ms;
    // Where the waiter stops waiting of its own accord: acquireFailed or its outcome.
    int64_t left = -1;
    for (int64_t i : op->second.execs)
      if (history[static_cast<size_t>(i)].f == "acquire_failed") {
        left = i;
        break;
      }
    if (op->second.outcome >= 0 && history[static_cast<size_t>(op->second.outcome)].kind != EventKind::Ok &&
        (left < 0 || op->second.outcome < left))
      left = op->second.outcome;
    const int64_t left_at = left >= 0 ? history[static_cast<size_t>(left)].at_ms : kForever;

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
    bool granted = false;
    for (int64_t i : op->second.execs) {
      const Event& x = history[static_cast<size_t>(i)];
      if (x.f != "acquire" && x.f != "try_acquire") continue;
      if (left >= 0 && i > left) break;
      evict_before(x.at_ms);
      if (x.reply == "nil") {
        Grant g{invoke.op, invoke.owner(), invoke.lock, i, x.at_ms, i, false};
        if (current) {
          g.position = current->enqueue;
          g.queued = true;
          current->end = Entry::End::Granted;
          current->end_index = i;
          current->end_at = x.at_ms;
          entries.push_back(*current);
          current.reset();
        }
        const auto depth = hold_depth.find(invoke.op);
        if (depth == hold_depth.end() || depth->second <= 1) grants.push_back(g);
        granted = true;
        break;
      }
      if (x.f == "acquire" && integer_reply(x.reply) && !current) {
        current = Entry{invoke.op, invoke.owner(), invoke.lock, wait_ms, i, x.at_ms};
        current->away = &away;
      }
    }
    if (granted || !current) continue;
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

  // fifo-inversion: a grant while an earlier, live waiter still waits.
  for (const Grant& g : grants) {
    for (const Entry& w : entries) {
      if (w.enqueue >= g.position) break;
      if (w.lock != g.lock || w.owner == g.owner || !still_waiting_at(w, g)) continue;
      const std::string how = g.queued ? "which had enqueued at " + ms(history[static_cast<size_t>(g.position)].at_ms)
                                       : "which had never queued";
      return support::violated(
          property::kFairQueue, anomaly::kFifoInversion, {w.enqueue, g.queued ? g.position : -1, g.index},
          "Let " + w.owner + " enqueue for " + w.lock + " at " + ms(w.enqueue_at) + ". Then " + g.owner + ", " + how +
              ", was granted " + g.lock + " at " + ms(g.at) + " while " + w.owner +
              " was still waiting and live (never silent for the thread wait of " + ms(w.wait_ms) + ").");
    }
  }

  // blocked-by-evicted / starved: a live waiter kept waiting while the lock is free.
  const auto free = support::free_spans(history);
  for (const Entry& v : entries) {
    const auto spans = free.find(v.lock);
    if (spans == free.end()) continue;
    const int64_t end = window_end(v, history.end_ms());
    if (end <= v.enqueue_at) continue;
    std::vector<Span> away = *v.away;
    std::vector<const Entry*> ghosts;
    for (const Entry& u : entries) {
      if (u.enqueue >= v.enqueue) break;
      if (u.lock != v.lock || u.owner == v.owner) continue;
      const int64_t u_end = u.end == Entry::End::Open ? kForever : u.end_at;
      for (const Span& a : *u.away) {
        const int64_t from = std::max(a.from, u.enqueue_at);
        const int64_t to = std::min({a.to, from + u.wait_ms, u_end});
        if (from < to) away.push_back(Span{from, to, a.cause});
      }
      if (u.end == Entry::End::Evicted) ghosts.push_back(&u);
    }
    int64_t total = 0, freed_by = -1;
    bool first = true;
    for (const Span& span : spans->second) {
      const int64_t part = support::usable(v.enqueue_at, end, span, away);
      if (part <= 0) continue;
      total += part;
      if (first) freed_by = span.cause;
      first = false;
    }
    if (total < options.grace_ms || total == 0) continue;
    const int64_t closing = v.end == Entry::End::Granted || v.end == Entry::End::Left ? v.end_index : -1;
    const std::string until = v.end == Entry::End::Granted ? "until it was granted at " + ms(end)
                              : v.end == Entry::End::Left  ? "until it gave up at " + ms(end)
                              : v.end == Entry::End::Open  ? "until the history ended at " + ms(end)
                                                           : "until it was itself evicted at " + ms(end);
    const std::string waited = v.owner + " enqueued for " + v.lock + " at " + ms(v.enqueue_at) + " and waited " +
                               until + ", while the lock was free for " + ms(total) + " of it (grace " +
                               ms(options.grace_ms) + ")";
    for (const Entry* u : ghosts) {
      int64_t blocked = 0;
      for (const Span& span : spans->second)
        blocked += support::usable(std::max(v.enqueue_at, u->end_at), std::min(end, u->ghost_to), span, away);
      if (blocked <= 0) continue;
      return support::violated(
          property::kFairQueue, anomaly::kBlockedByEvicted, {v.enqueue, u->enqueue, u->silenced_by, freed_by, closing},
          "Let " + u->owner + ", enqueued for " + v.lock + " at " + ms(u->enqueue_at) + ", fall silent so that it was due for eviction at " +
              ms(u->end_at) + " (thread wait " + ms(u->wait_ms) + "). Then " + waited + "; " + ms(blocked) +
              " of that came after " + u->owner + " was due for eviction.");
    }
    return support::violated(property::kFairQueue, anomaly::kStarved, {v.enqueue, freed_by, closing},
                             "Let " + v.owner + " be a live waiter. Then " + waited + ".");
  }
  return support::holds(property::kFairQueue, std::to_string(entries.size()) + " queue stays and " +
                                                  std::to_string(grants.size()) +
                                                  " grants, in FIFO order, none kept waiting while the lock was free");
}

}  // namespace locksim::model
