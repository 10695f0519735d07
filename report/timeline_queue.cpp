// A FairLock's waiter queue for the timeline, read off the facts' queue states (the same states the
// fair-queue checker and free_spans read), not off the history's text a second time.
#include <algorithm>
#include <map>

#include "model/rendered.hpp"
#include "report/timeline_layout.hpp"

namespace locksim::report::timeline {
namespace {

using model::Facts;
using model::KeyState;
using model::KeyTrack;

std::string owner_of(const Facts& facts, const std::string& entry) {
  const std::string owner = facts.owner_of_field(entry);
  return owner.empty() ? entry : owner;
}

// Whose entry came into the queue at `event`: Redisson's scripts only ever queue their caller
// (ARGV[2]), so the Exec's own client, even one that never held the lock (whose holder id the facts
// then do not know).
std::string owner_queued_by(const Facts& facts, const std::string& entry, int64_t event) {
  const std::string known = facts.owner_of_field(entry);
  if (!known.empty() || event < 0) return known.empty() ? entry : known;
  const Event& e = facts.at(event);
  return e.kind == EventKind::Exec && !e.client.empty() ? e.owner() : entry;
}

// Why an entry left the queue at `event`: its own grant or acquireFailed, or someone else's script
// pruning it (Redisson's scripts take another's entry out only once its timeout score has passed).
QueueStay::End why_left(const Facts& facts, const QueueStay& stay, int64_t event) {
  if (event < 0) return QueueStay::End::Unknown;
  const Event& e = facts.at(event);
  if (e.kind != EventKind::Exec) return QueueStay::End::Unknown;
  if (e.owner() != stay.owner) return QueueStay::End::Pruned;
  return e.f == "acquire_failed" ? QueueStay::End::GaveUp : QueueStay::End::Granted;
}

// Walks one lock key's states and opens and closes a stay wherever an entry comes or goes.
QueueTrack track_of(const Facts& facts, const KeyTrack& key) {
  QueueTrack q{key.server, key.key, {}, {}, {}};
  std::map<std::string, size_t> open;  // entry -> index into q.stays
  const auto close = [&](std::string entry, const KeyState& s, QueueStay::End how) {
    QueueStay& stay = q.stays[open.at(entry)];
    stay.to_ms = s.from_ms;
    stay.end = s.event;
    stay.how = how;
    open.erase(entry);
  };
  std::vector<std::string> before;
  bool known = false;
  for (const KeyState& s : key.states) {
    if (!s.queue_known) {
      // A restart or failover: whoever was queued is no longer known to be.
      while (!open.empty()) close(open.begin()->first, s, QueueStay::End::Unknown);
      if (known && !before.empty()) q.changes.push_back(s.event);
      known = false;
      before.clear();
      continue;
    }
    if (known && s.queue() == before) continue;
    std::vector<std::string> gone;
    for (const auto& [entry, i] : open)
      if (std::find(s.queue().begin(), s.queue().end(), entry) == s.queue().end()) gone.push_back(entry);
    for (const std::string& entry : gone) close(entry, s, why_left(facts, q.stays[open.at(entry)], s.event));
    for (size_t place = 0; place < s.queue().size(); ++place) {
      const std::string& entry = s.queue()[place];
      if (!open.count(entry)) {
        QueueStay stay;
        stay.entry = entry;
        stay.owner = owner_queued_by(facts, entry, s.event);
        stay.from_ms = s.from_ms;
        stay.to_ms = facts.end_ms();
        stay.begin = s.event;
        open[entry] = q.stays.size();
        q.stays.push_back(std::move(stay));
        if (std::find(q.waiters.begin(), q.waiters.end(), q.stays.back().owner) == q.waiters.end())
          q.waiters.push_back(q.stays.back().owner);
      }
      QueueStay& stay = q.stays[open.at(entry)];
      const int64_t at = static_cast<int64_t>(place) + 1;
      if (stay.places.empty() || stay.places.back().second != at) stay.places.emplace_back(s.from_ms, at);
    }
    if (known || !s.queue().empty()) q.changes.push_back(s.event);
    known = true;
    before = s.queue();
  }
  return q;
}

// The stay of `owner` that event `index` falls in (queued by it, or after it and before its end).
QueueStay* stay_at(QueueTrack& q, const std::string& owner, int64_t index) {
  for (QueueStay& stay : q.stays)
    if (stay.owner == owner && stay.begin <= index && (stay.end < 0 || index < stay.end)) return &stay;
  return nullptr;
}

// Each acquire a queued waiter made was answered "wait T ms": T is when the lock's lease, or the
// timeout of the waiter ahead, runs out; the script's score for the waiter is that + threadWaitTime.
void add_scores(const Facts& facts, QueueTrack& q, int64_t thread_wait_ms) {
  for (const model::Op& op : facts.ops()) {
    if (!is_acquire(op.f)) continue;
    for (int64_t i : op.execs) {
      const Event& x = facts.at(i);
      if (x.f != "acquire" || x.process != q.server || x.lock != q.lock) continue;
      const std::optional<int64_t> told = model::parse_integer(x.reply);
      QueueStay* stay = told ? stay_at(q, op.owner, i) : nullptr;
      if (!stay) continue;
      const int64_t score = thread_wait_ms >= 0 ? x.at_ms + *told + thread_wait_ms : -1;
      stay->scores.push_back({i, x.at_ms, *told, score});
    }
  }
  for (QueueStay& stay : q.stays)
    std::sort(stay.scores.begin(), stay.scores.end(), [](const auto& a, const auto& b) { return a.event < b.event; });
}

// Pub/sub messages to a waiter's client on the lock's channel while it queued: its wake-ups.
void add_wakeups(const Facts& facts, QueueTrack& q) {
  for (const Event& e : facts.history().events()) {
    if (e.kind != EventKind::Message || e.lock.find(q.lock) == std::string::npos) continue;
    for (QueueStay& stay : q.stays) {
      const bool same_client = stay.owner.substr(0, stay.owner.find(':')) == e.process;
      const bool during = e.index > stay.begin && (stay.end < 0 || e.index < stay.end);
      if (same_client && during) stay.wakeups.push_back(e.index);
    }
  }
}

}  // namespace

std::string_view to_string(QueueStay::End how) {
  switch (how) {
    case QueueStay::End::Open: return "still queued at the run's end";
    case QueueStay::End::Granted: return "granted the lock";
    case QueueStay::End::GaveUp: return "gave up (acquireFailed)";
    case QueueStay::End::Pruned: return "pruned: its timeout had passed";
    case QueueStay::End::Unknown: return "unknown after a restart or failover";
  }
  return "?";
}

std::vector<QueueTrack> queue_tracks(const Facts& facts, int64_t thread_wait_ms) {
  std::vector<QueueTrack> out;
  for (const KeyTrack& key : facts.keys()) {
    if (!key.lock_key) continue;
    QueueTrack q = track_of(facts, key);
    if (q.stays.empty()) continue;
    add_scores(facts, q, thread_wait_ms);
    add_wakeups(facts, q);
    out.push_back(std::move(q));
  }
  return out;
}

std::vector<std::string> queue_after(const Facts& facts, const QueueTrack& q, int64_t index) {
  const KeyTrack* key = facts.key(q.server, q.lock);
  if (!key) return {};
  std::vector<std::string> out;
  for (const std::string& entry : key->after_event(index).queue()) {
    std::string owner = owner_of(facts, entry);
    for (const QueueStay& stay : q.stays)
      if (stay.entry == entry) owner = stay.owner;
    out.push_back(owner);
  }
  return out;
}

}  // namespace locksim::report::timeline
