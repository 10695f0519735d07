// Whether the server legitimately kept a waiter from a lock: part by part (Facts::part_state), at
// one event (free_at) or over a stretch of time (free_spans), with a FairLock queue's say in it.
#include "model/facts.hpp"

#include <algorithm>
#include <set>
#include <span>

#include "model/facts_internal.hpp"
#include "model/rendered.hpp"

namespace locksim::model {
namespace {

bool holds_at(const std::vector<Span>& spans, int64_t t) {
  auto it = std::upper_bound(spans.begin(), spans.end(), t, [](int64_t v, const Span& s) { return v < s.from_ms; });
  if (it == spans.begin()) return false;
  return std::prev(it)->contains(t);
}

int severity(FreeWhy why) { return why == FreeWhy::Forever ? 2 : why == FreeWhy::Stale ? 1 : 0; }

}  // namespace

std::string_view to_string(FreeWhy why) {
  switch (why) {
    case FreeWhy::Open: return "open";
    case FreeWhy::Stale: return "stale";
    case FreeWhy::Forever: return "forever";
  }
  return "?";
}

std::string Facts::side_of(const std::string& lock) const {
  if (!type_ || !type_->sides) return "";
  if (lock.ends_with(":write")) return "write";
  if (lock.ends_with(":read")) return "read";
  return "";
}

Facts::Part Facts::part_state(const KeyTrack& part, const Op& waiter, int64_t t, FreeWhy& why, int64_t& state_event,
                              int64_t as_of) const {
  if (holds_at(unavailable(part.server), t)) return Part::Kept;  // a stopped or dead server grants nothing
  const KeyState& s = as_of >= 0 ? part.after_event(as_of) : part.at(t);
  state_event = s.event;
  if (!s.known) return Part::Kept;
  why = FreeWhy::Open;
  // Past its expiry a key is gone for Redis, whether or not a sweep or a command has noticed yet.
  if (!s.present_at(t)) return Part::Free;
  const std::string side = side_of(waiter.lock);
  const bool reentrant = type_ ? type_->server_reentrant : hash_keys(s.value);
  std::vector<Claim> blocking;
  bool mine = false;
  for (const Claim& c : s.claims) {
    const bool own = !c.owner.empty() && c.owner == waiter.owner;
    const bool write_claim = c.lock.ends_with(":write");
    bool blocks = true;
    if (reentrant && !side.empty()) {
      // A writer re-enters its own write hold only; a reader is kept out by another's write hold only.
      blocks = side == "write" ? !(own && write_claim) : (write_claim && !own);
      mine = mine || (own && write_claim == (side == "write"));
    } else if (reentrant) {
      blocks = !own;
      mine = mine || own;
    }
    if (blocks) blocking.push_back(c);
  }
  // A key with no holder in it (a bare ReadWriteLock mode, a string nobody is known to have set)
  // still keeps everyone out.
  if (s.claims.empty()) blocking.push_back(Claim{});
  // The waiter's own hold: the lock is its, whatever its client knows yet.
  if (blocking.empty()) return mine ? Part::Mine : Part::Free;
  for (const Claim& c : blocking) {
    if (c.owner.empty()) continue;
    if (!c.lock.empty() && rightful(c.owner, c.lock, t, as_of) && !locked_out(c.owner, c.lock, part, t)) return Part::Kept;
    if (c.lock.empty())
      for (const std::string& lock : part.locks)
        if (rightful(c.owner, lock, t, as_of) && !locked_out(c.owner, lock, part, t)) return Part::Kept;
  }
  if (s.expire_at == kUnknownExpiry) return Part::Kept;
  if (s.expire_at == kNoExpiry) {
    why = FreeWhy::Forever;
    return Part::Free;
  }
  // The lease its holder set is running out. Live, an expiry is known only to within a few ms of
  // when the server set it (the reply's time, a notification's): an expiry that close to the bound
  // is that lease, not one kept alive beyond it.
  // Holders gone whose own leases have all run out keep nobody, whatever else keeps their key
  // alive (another holder's renewal of a shared hash, since gone too).
  int64_t own = kNoExpiry;
  bool owns = !blocking.empty();
  for (const Claim& c : blocking) {
    owns = owns && !c.owner.empty() && c.own_bound >= 0;
    own = std::max(own, c.own_bound);
  }
  if (owns && t > own + kExpiryPrecisionMs) {
    why = FreeWhy::Stale;
    return Part::Free;
  }
  if (s.expire_at <= s.lease_bound + kExpiryPrecisionMs) return Part::Kept;
  why = FreeWhy::Stale;
  return Part::Free;
}

std::vector<Span> Facts::silences(const Op& op) const {
  std::vector<Span> out = unavailable(op.process);
  if (const auto w = waiting_.find(pair_key(op.owner, op.lock)); w != waiting_.end())
    for (const Span& u : w->second.unheard) {
      const int64_t from = std::max(u.from_ms, op.span.from_ms), to = std::min(u.to_ms, op.span.to_ms);
      if (from < to) out.push_back(Span{from, to, u.begin, u.end});
    }
  return merge_spans(std::move(out));
}

bool Facts::locked_out(const std::string& owner, const std::string& lock, const KeyTrack& part, int64_t t) const {
  if (!type_ || type_->server_reentrant || believes(owner, lock, t)) return false;
  const auto w = waiting_.find(pair_key(owner, lock));
  if (w == waiting_.end()) return false;
  const size_t key = static_cast<size_t>(&part - keys_.data());
  // Its acquire under way at t (a thread runs one at a time) had a resend refused there by then.
  for (const Waiting::Lockout& l : w->second.lockouts)
    if (l.key == key && l.from_ms <= t && t < l.to_ms) return true;
  return false;
}

bool Facts::entry_keeps(const std::string& owner, const std::string& lock, int64_t t, const FreeOptions& options,
                        DeadEntry* why) const {
  const auto it = waiting_.find(pair_key(owner, lock));
  if (it == waiting_.end()) return true;
  const Waiting& w = it->second;
  const bool acquiring = w.acquiring.holds_at(t);
  // Silent to the server while every request it sends is lost, from the last one the server ran.
  std::optional<Span> unheard;
  const std::string process = owner.substr(0, owner.rfind(':'));
  const std::vector<Span>& away = unavailable(process);
  // The acquire it last began by t.
  const auto began = std::upper_bound(w.waits.begin(), w.waits.end(), t,
                                      [](int64_t v, const Waiting::Acquire& a) { return v < a.from_ms; });
  const Waiting::Acquire* latest = began != w.waits.begin() ? &*std::prev(began) : nullptr;
  if (acquiring && !holds_at(away, t))
    for (const Span& u : w.unheard)
      if (u.contains(t)) unheard = u;
  if (acquiring && !holds_at(away, t) && !unheard) return true;  // live: how often it polls is the lock's business
  const auto after = std::upper_bound(w.polls.begin(), w.polls.end(), t);
  if (after == w.polls.begin()) return true;  // never heard from (as far as the history kept): keeps
  int64_t heard = *std::prev(after);
  // Still waiting but stopped or cut off: silent from its last poll or from when it stopped, whichever
  // is later (a waiter sleeping its ttl was live until then).
  if (acquiring && !unheard)
    for (const Span& u : away)
      if (u.contains(t)) heard = std::max(heard, u.from_ms);
  // Its threadWaitTime: tryLock's wait where that replaces it, of the acquire it last began.
  int64_t wait = options.thread_wait_ms;
  if (options.try_wait_replaces_thread_wait && latest && latest->wait_ms > 0) wait = latest->wait_ms;
  if (t < heard + wait) return true;
  if (why) *why = DeadEntry{owner, heard, wait};
  return false;
}

bool Facts::parts_free(const std::vector<const KeyTrack*>& parts, const Op& waiter, int64_t t, FreeSpan& f,
                       int64_t as_of) const {
  size_t need = parts.size();
  if (type_ && type_->quorum == Quorum::Majority) need = parts.size() / 2 + 1;
  size_t open = 0, mine = 0;
  for (const KeyTrack* part : parts) {
    FreeWhy why = FreeWhy::Open;
    int64_t state = -1;
    const Part p = part_state(*part, waiter, t, why, state, as_of);
    if (p == Part::Kept) continue;
    if (p == Part::Mine) {
      ++mine;
      continue;
    }
    ++open;
    if (!f.key || severity(why) > severity(f.why)) {
      f.key = part;
      f.why = why;
      f.state_event = state;
    }
  }
  // Enough parts are not kept from it, and it does not have the lock already.
  return open > 0 && open + mine >= need && mine < need;
}

std::optional<FreeSpan> Facts::free_at(const Op& waiter, int64_t index) const {
  const Event& x = at(index);
  FreeSpan f;
  f.span = Span{x.at_ms, x.at_ms + 1, index, index};
  if (!parts_free(parts(waiter.lock), waiter, x.at_ms, f, index)) return std::nullopt;
  return f;
}

namespace {

// FairLock: its scripts answer "wait T ms" while waiters queue ahead: for those T ms, as long as
// the server's queue (when recorded) shows someone ahead of the waiter, the queue keeps it.
std::vector<Span> told_waits(const Facts& facts, const Op& waiter) {
  std::vector<Span> told;
  for (int64_t i : waiter.execs) {
    const Event& x = facts.at(i);
    const auto ttl = parse_integer(x.reply);
    if (x.f == "acquire" && ttl) told.push_back(Span{x.at_ms, x.at_ms + std::max<int64_t>(*ttl, 0) + 1, i, -1});
  }
  return merge_spans(std::move(told));
}

// RedLock takes its parts one by one, waiting on each a while: the part it tried last keeps it.
std::vector<std::pair<int64_t, const KeyTrack*>> redlock_tries(const Facts& facts, const Op& waiter) {
  std::vector<std::pair<int64_t, const KeyTrack*>> tried;
  for (int64_t i : waiter.execs) {
    const Event& x = facts.at(i);
    if (x.f == "acquire") tried.emplace_back(x.at_ms, facts.key(x.process, x.lock));
  }
  return tried;
}

// The states of `part` in effect at some time in [from, to): the one at `from` and those begun
// before `to`.
std::span<const KeyState> states_during(const KeyTrack& part, int64_t from, int64_t to) {
  const auto& states = part.states;
  auto first = std::upper_bound(states.begin(), states.end(), from, [](int64_t v, const KeyState& k) { return v < k.from_ms; });
  if (first != states.begin()) --first;
  const auto last = std::lower_bound(first, states.end(), to, [](const KeyState& k, int64_t v) { return k.from_ms < v; });
  return {first, last};
}

// A FairLock's queue, as it keeps one waiter out.
struct QueueAhead {
  const Facts& facts;
  const std::vector<const KeyTrack*>& parts;
  const Op& waiter;
  const FreeOptions& options;
  std::string me;  // the waiter's entry

  // Whether the queue keeps the waiter out at t: some entry is ahead of it (every entry, when it is
  // not queued at all) and each of those keeps it legitimately (entry_keeps).
  // `dead`: the entry ahead that no longer keeps it, when one is why.
  bool keeps(int64_t t, FreeSpan::Dead& dead) const {
    for (const KeyTrack* part : parts) {
      const KeyState& s = part->at(t);
      if (!s.queue_known) return true;
      bool ahead = false;
      for (const std::string& entry : s.queue()) {
        if (entry == me) break;
        ahead = true;
        const std::string owner = facts.owner_of_field(entry);
        Facts::DeadEntry why;
        if (!owner.empty() && !facts.entry_keeps(owner, waiter.lock, t, options, &why)) {
          dead = FreeSpan::Dead{why.owner, why.heard_ms, why.wait_ms};
          return false;
        }
      }
      return ahead;
    }
    return true;
  }
};

// Adds the free span `f`, joining it to the one before when it continues it.
void add_free(std::vector<FreeSpan>& out, const FreeSpan& f) {
  if (!out.empty() && out.back().span.to_ms == f.span.from_ms && out.back().why == f.why && out.back().key == f.key &&
      out.back().dead_entry == f.dead_entry)
    out.back().span.to_ms = f.span.to_ms;
  else
    out.push_back(f);
}

}  // namespace

std::vector<int64_t> Facts::free_cuts(const std::vector<const KeyTrack*>& parts, const Op& waiter,
                                      const std::vector<Span>& told, int64_t from, int64_t to,
                                      const FreeOptions& options) const {
  std::vector<int64_t> cuts;
  const auto& events = history_->events();
  for (auto e = std::lower_bound(events.begin(), events.end(), from, [](const Event& x, int64_t v) { return x.at_ms < v; });
       e != events.end() && e->at_ms < to; ++e)
    cuts.push_back(e->at_ms);
  for (const Span& s : told) cuts.push_back(s.to_ms);
  if (!told.empty()) entry_timeouts(parts, waiter, from, to, options, cuts);
  for (const KeyTrack* part : parts) {
    // Another state's expiry is never read in [from, to), so cutting at it changes nothing.
    for (const KeyState& s : states_during(*part, from, to))
      if (s.expire_at >= 0) cuts.push_back(s.expire_at + 1);
    for (const Span& u : unavailable(part->server)) cuts.push_back(u.to_ms);
  }
  std::erase_if(cuts, [&](int64_t c) { return c <= from || c >= to; });
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  return cuts;
}

void Facts::entry_timeouts(const std::vector<const KeyTrack*>& parts, const Op& waiter, int64_t from, int64_t to,
                           const FreeOptions& options, std::vector<int64_t>& cuts) const {
  for (const KeyTrack* part : parts) {
    std::set<std::string> entries;
    for (const KeyState& s : states_during(*part, from, to))
      if (s.queue_known) entries.insert(s.queue().begin(), s.queue().end());
    for (const std::string& entry : entries) {
      const std::string owner = owner_of_field(entry);
      const auto w = waiting_.find(pair_key(owner, waiter.lock));
      if (w == waiting_.end()) continue;
      // Every wait it may have had: which one depends on the acquire it last began.
      std::set<int64_t> waits{options.thread_wait_ms};
      for (const Waiting::Acquire& a : w->second.waits)
        if (a.wait_ms > 0) waits.insert(a.wait_ms);
      for (const int64_t wait : waits) {
        // Only the polls whose wait runs out within [from, to).
        const auto& polls = w->second.polls;
        for (auto p = std::lower_bound(polls.begin(), polls.end(), from - wait); p != polls.end() && *p + wait < to; ++p)
          cuts.push_back(*p + wait);
        for (const Span& u : unavailable(owner.substr(0, owner.rfind(':')))) cuts.push_back(u.from_ms + wait);
      }
    }
  }
}

std::vector<FreeSpan> Facts::free_spans(const Op& waiter, int64_t from, int64_t to, const FreeOptions& options) const {
  std::vector<FreeSpan> out;
  if (to <= from) return out;
  const auto parts = this->parts(waiter.lock);
  const std::vector<Span> told = options.queue_replies ? told_waits(*this, waiter) : std::vector<Span>{};
  const QueueAhead queue{*this, parts, waiter, options, field_of(waiter.owner)};
  std::vector<std::pair<int64_t, const KeyTrack*>> tried;
  if (type_ && type_->quorum == Quorum::Majority) tried = redlock_tries(*this, waiter);
  size_t tried_next = 0;
  const KeyTrack* trying = nullptr;
  const std::vector<int64_t> cuts = free_cuts(parts, waiter, told, from, to, options);
  auto cut = cuts.begin();
  for (int64_t t = from; t < to;) {
    while (cut != cuts.end() && *cut <= t) ++cut;
    const int64_t next = cut == cuts.end() ? to : *cut;
    while (tried_next < tried.size() && tried[tried_next].first <= t) trying = tried[tried_next++].second;
    FreeSpan f;
    f.span = Span{t, next, -1, -1};
    bool free = !(holds_at(told, t) && queue.keeps(t, f.dead_entry));
    if (free && trying) {
      FreeWhy why = FreeWhy::Open;
      int64_t state = -1;
      free = part_state(*trying, waiter, t, why, state) != Part::Kept;
    }
    if (free && !parts.empty()) free = parts_free(parts, waiter, t, f);
    if (free) add_free(out, f);
    t = next;
  }
  return out;
}

}  // namespace locksim::model
