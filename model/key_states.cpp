// How each key stood on each server over time: the second pass follows it an event at a time
// (Facts::track), reading whose holds a key carries from its rendering (Facts::claims_of).
#include "model/facts.hpp"

#include <algorithm>
#include <memory>

#include "model/facts_internal.hpp"
#include "model/fault_events.hpp"
#include "model/rendered.hpp"

namespace locksim::model {
namespace {

// The same holds in a key's next state keep what their owners' own requests set.
void carry_own_bounds(std::vector<Claim>& to, const std::vector<Claim>& from) {
  for (Claim& c : to)
    for (const Claim& p : from)
      if (p.field == c.field && p.owner == c.owner) c.own_bound = p.own_bound;
}

// "[a,b]" -> {a, b}.
std::vector<std::string> parse_list(std::string_view rendered) {
  std::vector<std::string> items;
  for_each_listed(rendered, [&](std::string_view item) { items.emplace_back(item); });
  return items;
}

}  // namespace

const std::vector<std::string>& KeyState::queue() const {
  static const std::vector<std::string> none;
  return waiters ? *waiters : none;
}

const Claim* KeyState::claim_of(const std::string& owner, const std::string& lock) const {
  for (const Claim& c : claims)
    if (c.owner == owner && (lock.empty() || c.lock.empty() || c.lock == lock)) return &c;
  return nullptr;
}

const KeyState& KeyTrack::at(int64_t t) const {
  auto it = std::upper_bound(states.begin(), states.end(), t, [](int64_t v, const KeyState& s) { return v < s.from_ms; });
  return it == states.begin() ? states.front() : *std::prev(it);
}

const KeyState& KeyTrack::after_event(int64_t index) const {
  auto it = std::upper_bound(states.begin(), states.end(), index, [](int64_t v, const KeyState& s) { return v < s.event; });
  return it == states.begin() ? states.front() : *std::prev(it);
}

std::vector<const KeyTrack*> Facts::parts(const std::string& lock) const {
  std::vector<const KeyTrack*> out;
  const auto it = parts_.find(lock);
  if (it == parts_.end()) return out;
  for (size_t i : it->second) out.push_back(&keys_[i]);
  return out;
}

int64_t Facts::unrevealed_from(const std::string& lock) const {
  int64_t from = kForever;
  const auto it = parts_.find(lock);
  if (it == parts_.end()) return from;
  for (size_t i : it->second) {
    const auto& states = keys_[i].states;
    if (!states.empty() && !states.back().known) from = std::min(from, states.back().from_ms);
  }
  return from;
}

const KeyTrack* Facts::key(const std::string& server, const std::string& key) const {
  for (const KeyTrack& t : keys_)
    if (t.server == server && t.key == key) return &t;
  return nullptr;
}

bool Facts::hash_keys(const std::string& rendered) const {
  if (type_) return type_->hash;
  return parse_hash(rendered).has_value();
}

std::vector<Claim> Facts::claims_of(const KeyTrack& track, const std::string& value, const std::string& creator) const {
  std::vector<Claim> claims;
  if (value.empty()) return claims;
  auto lock_for = [&](bool write) -> std::string {
    if (track.locks.size() == 1) return track.locks.front();
    for (const std::string& l : track.locks)
      if (l.ends_with(write ? ":write" : ":read")) return l;
    return "";
  };
  if (!hash_keys(value)) {
    claims.push_back(Claim{Atom(creator), Atom(lock_for(false)), Atom(), 1});
    return claims;
  }
  const auto fields = parse_hash(value);
  if (!fields) {
    claims.push_back(Claim{Atom(), Atom(), Atom(), 1});
    return claims;
  }
  const size_t k = static_cast<size_t>(&track - keys_.data());
  for (const auto& [field, n] : *fields) {
    const auto h = parse_holder(field);
    if (!h) continue;  // metadata, e.g. a ReadWriteLock's mode
    Claim c{Atom(owner_of_field(field)), Atom(lock_for(h->write)), Atom(field), n, false};
    if (type_ && type_->sides && !h->write) {
      const auto it = reader_timeouts_.find({k, field});
      c.stale = it != reader_timeouts_.end() && it->second.empty();
    }
    claims.push_back(std::move(c));
  }
  return claims;
}

bool Facts::sent_rightfully(const Event& exec, const KeyTrack& track) const {
  if (exec.client.empty() || exec.sent_ms < 0) return true;
  return std::any_of(track.locks.begin(), track.locks.end(),
                     [&](const std::string& lock) { return sent_with_right(exec, exec.owner(), lock); });
}

void Facts::Tracking::push(size_t k, KeyState s) {
  auto& states = facts.keys_[k].states;
  // Checkers find a span's states by binary search on both.
  LS_ASSERT(s.event >= states.back().event);
  LS_ASSERT(s.from_ms >= states.back().from_ms);
  if (states.back().event == s.event && s.event >= 0) states.back() = std::move(s);
  else states.push_back(std::move(s));
}

// An event shows an unknown key again: it was `present` (holding `value`, when known) all along
// since the fault.
void Facts::Tracking::reveal(size_t k, bool present, const std::optional<std::string>& value) {
  KeyState& s = facts.keys_[k].states.back();
  s.known = true;
  s.present = present;
  s.claims.clear();
  s.value = Atom();
  s.expire_at = present ? kUnknownExpiry : kNoExpiry;
  s.lease_bound = kNoExpiry;
  if (!present) {
    creator[k].clear();
    return;
  }
  const auto& old = before_fault[k];
  const bool same = old && old->first.present && (!value || *value == old->first.value);
  if (same) {
    s.value = old->first.value;
    s.expire_at = old->first.expire_at;
    s.lease_bound = old->first.lease_bound;
    creator[k] = old->second;
  } else {
    s.value = value.value_or("");
    creator[k].clear();
  }
  s.claims = facts.claims_of(facts.keys_[k], s.value, creator[k]);
  if (same) carry_own_bounds(s.claims, old->first.claims);
}

// The second pass's keys, an event at a time: the Exec that ran on a key says most; Key events say
// what the server did on its own (an expiry) and what the history records of other keys; a restart
// or failover leaves a server's keys unknown.
void Facts::track(Tracking& pass, const Event& e) {
  if (e.kind == EventKind::Key && type_ && type_->sides && e.lock.find(":rwlock_timeout:") != std::string::npos)
    track_reader_timeout(pass, e);
  if (e.kind == EventKind::Fault && find_fault_event(e.f) && find_fault_event(e.f)->loses_keys) {
    lose_keys(pass, e);
    return;
  }
  if (e.kind != EventKind::Key && e.kind != EventKind::Exec) return;
  const auto it = pass.index.find({e.process.view(), e.lock.view()});
  if (it == pass.index.end()) return;
  const size_t k = it->second;
  const bool known = keys_[k].states.back().known;  // before this event revealed anything
  if (e.kind == EventKind::Exec) track_exec(pass, k, e, known);
  else if (keys_[k].lock_key) track_lock_key_event(pass, k, e, known);
  else track_other_key(pass, k, e, known);
}

// A ReadWriteLock reader's timeout key, created or gone: once its reader's last one expires, the
// reader's hold in the hash is stale, though its field stays until the next read unlock.
void Facts::track_reader_timeout(Tracking& pass, const Event& e) {
  const size_t at = e.lock.find(":rwlock_timeout:");
  const auto n = parse_integer(std::string_view(e.lock).substr(at + 16));
  for (size_t k = 0; k < keys_.size() && n; ++k) {
    const std::string& key = keys_[k].key;
    const std::string braced = (key.find('{') != std::string::npos ? key : "{" + key + "}") + ":";
    if (keys_[k].server != e.process || e.lock.rfind(braced, 0) != 0) continue;
    const std::string field = e.lock.substr(braced.size(), at - braced.size());
    auto& live = reader_timeouts_[{k, field}];
    if (e.f == "created") live.insert(*n);
    if (e.f != "expired" && e.f != "deleted") continue;
    live.erase(*n);
    const KeyState& now = keys_[k].states.back();
    if (e.f != "expired" || !live.empty() || !now.known || !now.present) continue;
    KeyState s = now;
    s.from_ms = e.at_ms;
    s.event = e.index;
    s.claims = claims_of(keys_[k], s.value, pass.creator[k]);
    carry_own_bounds(s.claims, now.claims);
    pass.push(k, std::move(s));
  }
}

// A restart or failover: the server's keys are unknown until an event shows them again (what they
// were is kept, as a restored copy may still be it).
void Facts::lose_keys(Tracking& pass, const Event& e) {
  std::erase_if(reader_timeouts_, [&](const auto& entry) { return keys_[entry.first.first].server == e.process; });
  for (size_t k = 0; k < keys_.size(); ++k) {
    if (keys_[k].server != e.process) continue;
    const KeyState& last = keys_[k].states.back();
    if (last.known) pass.before_fault[k] = std::make_pair(last, pass.creator[k]);
    KeyState s;
    s.from_ms = e.at_ms;
    s.event = e.index;
    s.known = false;
    s.by_fault = true;
    pass.push(k, std::move(s));
  }
}

// A key whose content the history does not record: whether it exists, and when it expires
// (expire_set gives the server's clock; epoch_ms_ turns it into the run's).
void Facts::track_other_key(Tracking& pass, size_t k, const Event& e, bool known) {
  const bool present = e.f != "expired" && e.f != "deleted";
  if (!known) pass.reveal(k, e.f != "created", std::nullopt);
  const KeyState& now = keys_[k].states.back();
  const bool expiry = e.f == "expire_set" && epoch_ms_;
  if (now.present == present && !expiry && e.f != "persisted") return;
  KeyState s;
  s.from_ms = e.at_ms;
  s.event = e.index;
  s.present = present;
  s.expire_at = !present ? kNoExpiry : expiry ? e.value - *epoch_ms_ : e.f == "persisted" ? kNoExpiry
                                                                                           : now.present ? now.expire_at
                                                                                                         : kUnknownExpiry;
  pass.push(k, std::move(s));
}

// A Key event on a lock key. Creations and deletions come with the Exec that made them (which says
// more); an expiry is the server's own doing.
void Facts::track_lock_key_event(Tracking& pass, size_t k, const Event& e, bool known) {
  if (!known) {
    if (e.f == "created") pass.reveal(k, false, std::nullopt);
    else pass.reveal(k, true, std::nullopt);
  }
  if (e.f != "expired") return;
  const KeyState& now = keys_[k].states.back();
  if (!now.present) return;
  // A late notification (live) of an expiry the key has since outlived is no news. Live, an expiry
  // is computed from when the reply came, a little after the server ran it: hence the margin.
  if (now.expire_at != kUnknownExpiry && (now.expire_at == kNoExpiry || now.expire_at > e.at_ms + kExpiryPrecisionMs))
    return;
  KeyState s;
  s.from_ms = e.at_ms;
  s.event = e.index;
  s.waiters = now.waiters;
  s.queue_known = now.queue_known;
  pass.push(k, std::move(s));
  pass.creator[k].clear();
}

void Facts::track_exec(Tracking& pass, size_t k, const Event& e, bool known) {
  if (!known) pass.reveal(k, !e.before.empty(), e.before);
  const KeyState& prev = keys_[k].states.back();
  // A resend of an acquire refused by the key its own earlier attempt set: it will never learn.
  if (const Op* op = e.op != 0 ? this->op(e.op) : nullptr;
      op && is_acquire_op(op->f) && !e.before.empty() && e.before == e.after && prev.claim_of(op->owner, op->lock))
    waiting_[pair_key(op->owner, op->lock)].lockouts.push_back({k, e.at_ms, op->span.to_ms, op->id});
  KeyState s;
  s.from_ms = e.at_ms;
  s.event = e.index;
  s.present = !e.after.empty();
  s.value = e.after;
  s.waiters = prev.waiters;
  s.queue_known = prev.queue_known;
  if (!e.queue.empty()) {
    s.waiters = pass.queue(k, e.queue);
    s.queue_known = true;
  }
  if (s.present) read_holds(pass, k, e, prev, s);
  else pass.creator[k].clear();
  pass.push(k, std::move(s));
}

// What an Exec left in the key it found `prev`: who created it, its expiry, its holds, and the
// leases those were rightly given (a lease set without right must not count as one).
void Facts::read_holds(Tracking& pass, size_t k, const Event& e, const KeyState& prev, KeyState& s) {
  auto& creator = pass.creator;
  // The command found no key (a key whose end went unreported, live): it made a fresh one.
  const bool fresh = !prev.present || e.before.empty();
  if (fresh || prev.value != s.value) creator[k] = e.client.empty() ? "" : e.owner();
  s.expire_at = e.ttl_ms >= 0 ? e.at_ms + e.ttl_ms : e.ttl_ms == -1 ? kNoExpiry : kUnknownExpiry;
  s.lease_bound = fresh ? kNoExpiry : prev.lease_bound;
  const bool set_here = fresh || s.expire_at != prev.expire_at;
  s.claims = pass.claims_of(k, s.value, creator[k]);
  // Only a holder sets its key's lease: a request that leaves no hold of its sender in the key (a
  // refused acquire that still touched the expiry) keeps someone else's key alive without right.
  const bool own = e.client.empty() || [&] {
    for (const Claim& c : s.claims)
      if (c.owner == e.owner()) return true;
    return false;
  }();
  const bool rightly = set_here && s.expire_at >= 0 && own && sent_rightfully(e, keys_[k]);
  if (rightly) s.lease_bound = std::max(s.lease_bound, s.expire_at);
  // Each hold carries on what its owner's own requests set; this request sets its sender's.
  if (!fresh) carry_own_bounds(s.claims, prev.claims);
  for (Claim& c : s.claims)
    if (rightly && !e.client.empty() && c.owner == e.owner()) c.own_bound = std::max(c.own_bound, s.expire_at);
}

// The same rendering (one atom) is the same list: states it lasts through share one.
std::shared_ptr<const std::vector<std::string>> Facts::Tracking::queue(size_t k, const Atom& rendered) {
  auto& [text, list] = parsed_queue[k];
  if (rendered != text) {
    text = rendered;
    list = std::make_shared<const std::vector<std::string>>(parse_list(rendered));
  }
  return list;
}

std::vector<const KeyTrack*> Facts::reader_timeouts(const KeyTrack& hash, const std::string& field) const {
  const std::string braced = hash.key.find('{') != std::string::npos ? hash.key : "{" + hash.key + "}";
  const std::string prefix = braced + ":" + field + ":rwlock_timeout:";
  std::vector<const KeyTrack*> out;
  for (const KeyTrack& k : keys_)
    if (k.server == hash.server && k.key.rfind(prefix, 0) == 0) out.push_back(&k);
  return out;
}

}  // namespace locksim::model
