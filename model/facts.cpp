#include "model/facts.hpp"

#include <algorithm>
#include <charconv>
#include <memory>
#include <set>
#include <tuple>

#include "model/fault_events.hpp"
#include "model/rendered.hpp"

namespace locksim::model {
namespace {

std::string pair_key(const std::string& owner, const std::string& lock) { return owner + '\n' + lock; }

// "<prefix>:<thread>" or "<prefix>:<thread>:write": a holder's field. Its prefix is a view of the
// field parsed.
struct HolderField {
  std::string_view prefix;
  int64_t thread = 0;
  bool write = false;
};

std::optional<HolderField> parse_holder(std::string_view field) {
  HolderField h;
  if (field.ends_with(":write")) {
    h.write = true;
    field.remove_suffix(6);
  }
  const size_t colon = field.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == field.size()) return std::nullopt;
  const std::string_view digits = field.substr(colon + 1);
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), h.thread);
  if (ec != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  h.prefix = field.substr(0, colon);
  return h;
}

// Calls `each` with every item of a rendered list "[a,b]", as views of it.
template <typename Each>
void for_each_listed(std::string_view rendered, Each each) {
  if (rendered.size() < 2) return;
  rendered = rendered.substr(1, rendered.size() - 2);
  while (!rendered.empty()) {
    const size_t comma = rendered.find(',');
    each(rendered.substr(0, comma));
    if (comma == std::string_view::npos) break;
    rendered.remove_prefix(comma + 1);
  }
}

bool holds_at(const std::vector<Span>& spans, int64_t t) {
  auto it = std::upper_bound(spans.begin(), spans.end(), t, [](int64_t v, const Span& s) { return v < s.from_ms; });
  if (it == spans.begin()) return false;
  return std::prev(it)->contains(t);
}

bool is_lock_op(std::string_view f) { return f == "lock" || f == "try_lock" || f == "unlock"; }
bool is_acquire_op(std::string_view f) { return f == "lock" || f == "try_lock"; }

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

Belief::Mode Belief::mode_at(int64_t index) const {
  Mode mode = Mode::Explicit;
  for (const auto& [i, m] : modes) {
    if (i > index) break;
    mode = m;
  }
  return mode;
}

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

std::vector<Span> merge_spans(std::vector<Span> spans) {
  std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.from_ms < b.from_ms; });
  std::vector<Span> out;
  for (const Span& s : spans) {
    if (s.to_ms <= s.from_ms) continue;
    if (!out.empty() && s.from_ms <= out.back().to_ms) {
      if (s.to_ms > out.back().to_ms) {
        out.back().to_ms = s.to_ms;
        out.back().end = s.end;
      }
      continue;
    }
    out.push_back(s);
  }
  return out;
}

int64_t usable_ms(const std::vector<Span>& spans, int64_t from, int64_t to, const std::vector<Span>& away) {
  const std::vector<Span> cut = merge_spans(away);
  int64_t total = 0;
  for (const Span& s : spans) {
    const int64_t lo = std::max(from, s.from_ms), hi = std::min(to, s.to_ms);
    if (hi <= lo) continue;
    int64_t covered = 0;
    for (const Span& a : cut) covered += std::max<int64_t>(0, std::min(hi, a.to_ms) - std::max(lo, a.from_ms));
    total += hi - lo - covered;
  }
  return total;
}

// What the first pass carries from one event to the next.
struct Facts::Learning {
  // Faults that end at a later event (histories without for_ms, a master down until its failover):
  // (process, kind) -> index into faults_.
  std::map<std::pair<std::string, std::string>, size_t> open_faults;
  // The operations that may still have events: not ended, or ended within the latest ms, or cut short
  // by their client's crash (an outcome may yet undo the cut).
  struct Seen {
    Atom process;
    int64_t invoke = 0;
    int64_t from_ms = 0;
    int64_t to_ms = kForever;  // its outcome's ms, or the crash's
    bool outcome = false;
    bool cut = false;
  };
  std::map<int64_t, Seen> ops;
  int64_t ms = -1;
  // Each operation's lock, by its id: dense for the ids a world hands out (1, 2, ...).
  std::vector<Atom> lock_of_op;
  std::map<int64_t, Atom> lock_of_sparse_op;
  std::vector<bool> invoked;  // the dense ids seen invoked
  const Atom* lock_of(int64_t id) const {
    if (id > 0 && static_cast<size_t>(id) < invoked.size())
      return invoked[static_cast<size_t>(id)] ? &lock_of_op[static_cast<size_t>(id)] : nullptr;
    const auto it = lock_of_sparse_op.find(id);
    return it == lock_of_sparse_op.end() ? nullptr : &it->second;
  }
  bool known(int64_t id) const {
    if (id > 0 && static_cast<size_t>(id) < invoked.size()) return invoked[static_cast<size_t>(id)];
    return lock_of_sparse_op.contains(id);
  }
  void remember(int64_t id, const Atom& lock) {
    if (id > 0 && id < (int64_t{1} << 26)) {
      if (static_cast<size_t>(id) >= lock_of_op.size()) {
        lock_of_op.resize(static_cast<size_t>(id) + 1);
        invoked.resize(static_cast<size_t>(id) + 1);
      }
      lock_of_op[static_cast<size_t>(id)] = lock;
      invoked[static_cast<size_t>(id)] = true;
    } else {
      lock_of_sparse_op[id] = lock;
    }
  }
  // The keys, named by their first Exec (lock keys) and by their first Key event, each in order of
  // first appearance; keyed by views of the atoms they hold.
  using Name = std::pair<std::string_view, std::string_view>;
  std::vector<std::pair<Atom, Atom>> exec_keys, key_keys;
  std::set<Name> exec_seen, key_seen;
  // A lock's parts and a key's locks, by name, as its operations' executions show them.
  std::map<std::string, std::vector<std::pair<Atom, Atom>>> parts;
  std::map<Name, std::vector<Atom>> locks;
  // The Key events of the latest millisecond, in order (the servers' clock shows in them).
  int64_t key_ms = -1;
  std::vector<Event> key_events;
};

// What the second pass carries from one event to the next.
struct Facts::Tracking {
  explicit Tracking(Facts& facts) : facts(facts), creator(facts.keys_.size()), parsed_queue(facts.keys_.size()),
                                    before_fault(facts.keys_.size()) {
    for (size_t i = 0; i < facts.keys_.size(); ++i) {
      index[{facts.keys_[i].server, facts.keys_[i].key}] = i;
      facts.keys_[i].states.push_back(KeyState{});
    }
  }
  void push(size_t k, KeyState s);
  void reveal(size_t k, bool present, const std::optional<std::string>& value);

  Facts& facts;
  // Beliefs under way, by owner + lock: the belief, its unmatched acquires (whether each had no
  // lease, innermost last), and its spans of right.
  struct OpenBelief {
    size_t belief;  // its position among all beliefs, retired ones included
    std::vector<bool> leaseless;
    int64_t right = -1, believed = -1;
  };
  std::map<std::string, OpenBelief> open_beliefs;
  std::map<int64_t, int64_t> op_rights;  // an acquire or unlock under way -> its span of right
  std::map<int64_t, int64_t> op_acquiring;  // an acquire under way -> its span in Waiting::acquiring
  // Keys follow the events of a millisecond once it is over, when every right that began or ended
  // in it is known: the events from `untracked` on are still to follow.
  int64_t ms = -1;
  int64_t untracked = 0;
  // Views of keys_'s names: keys_ does not change size in this pass.
  std::map<std::pair<std::string_view, std::string_view>, size_t> index;
  std::vector<std::string> creator;
  // Each key's latest queue rendering, parsed.
  std::vector<std::pair<Atom, std::shared_ptr<const std::vector<std::string>>>> parsed_queue;
  // What each key was before the restart or failover that left it unknown (a restored copy may
  // still be it), with its creator.
  std::vector<std::optional<std::pair<KeyState, std::string>>> before_fault;
  // Each key's latest claims_of, by value and creator: most executions leave a key's value as it
  // was (a renewal, a refused acquire), and parsing it again is most of what following keys costs.
  struct ClaimsMemo {
    Atom value;
    std::string creator;
    std::vector<Claim> claims;
    bool valid = false;
  };
  std::vector<ClaimsMemo> claims_memo = std::vector<ClaimsMemo>(facts.keys_.size());
  // claims_of(keys_[k], value, creator), from the memo where nothing it reads has changed. A
  // ReadWriteLock's reader claims also read the reader timeouts, which change apart from the value:
  // those are never remembered.
  std::vector<Claim> claims_of(size_t k, const Atom& value, const std::string& creator) {
    if (facts.type_ && facts.type_->sides) return facts.claims_of(facts.keys_[k], value, creator);
    ClaimsMemo& memo = claims_memo[k];
    if (!memo.valid || memo.value != value || memo.creator != creator) {
      memo.claims = facts.claims_of(facts.keys_[k], value, creator);
      memo.value = value;
      memo.creator = creator;
      memo.valid = true;
    }
    return memo.claims;
  }
};

void Facts::learn(Learning& pass, const Event& e) {
  if (e.kind == EventKind::Exec && e.sent_ms >= 0) max_flight_ms_ = std::max(max_flight_ms_, e.at_ms - e.sent_ms);
  learn_fault(pass, e);
  learn_op_seen(pass, e);
  learn_key_name(pass, e);
  learn_client_id(e);
  learn_epoch(pass, e);
}

void Facts::learn_fault(Learning& pass, const Event& e) {
  if (e.kind == EventKind::Exec || e.kind == EventKind::Key) servers_.try_emplace(e.process, 0);
  if (e.kind != EventKind::Fault) return;
  static const FaultEventInfo kUnknown{};
  const FaultEventInfo* found = find_fault_event(e.f);
  const FaultEventInfo& info = found ? *found : kUnknown;
  if (info.marks_server) servers_.try_emplace(e.process, 0);
  // Whether the process is a server is settled once every event has named the servers.
  FaultSpan f{e.process, e.f, Span{e.at_ms, e.at_ms, e.index, -1}, e.value, false, e.text};
  for (auto it = pass.open_faults.begin(); it != pass.open_faults.end(); ++it) {
    if (it->first.first != e.process || find_fault_event(it->first.second)->ended_by != e.f) continue;
    faults_[it->second].span.to_ms = e.at_ms;
    faults_[it->second].span.end = e.index;
    pass.open_faults.erase(it);
    break;
  }
  if (info.ends) return;
  if (info.forever) f.span.to_ms = kForever;
  if (info.timed && e.for_ms >= 0) {
    f.span.to_ms = e.at_ms + e.for_ms;
  } else if ((info.timed && !info.ended_by.empty()) || info.open) {
    f.span.to_ms = kForever;
    pass.open_faults[{e.process, e.f}] = faults_.size();
  }
  faults_.push_back(std::move(f));
}

// What the second pass needs to know ahead of each operation: whether its client's crash cuts it
// short (no outcome ever comes), and whether an event of it comes after its end.
void Facts::learn_op_seen(Learning& pass, const Event& e) {
  if (e.at_ms > pass.ms) {
    pass.ms = e.at_ms;
    std::erase_if(pass.ops, [&](const auto& entry) { return entry.second.outcome && entry.second.to_ms < e.at_ms; });
  }
  if (e.kind == EventKind::Fault && e.f == "crash")
    for (auto& [id, seen] : pass.ops)
      if (!seen.outcome && !seen.cut && seen.process == e.process && seen.invoke < e.index) {
        seen.cut = true;
        seen.to_ms = e.at_ms;
        crash_cut_[id] = Span{seen.from_ms, e.at_ms, seen.invoke, e.index};
      }
  if (e.op == 0) return;
  if (e.kind == EventKind::Invoke) {
    if (pass.known(e.op)) return;
    pass.remember(e.op, e.lock);
    pass.ops[e.op] = Learning::Seen{e.process, e.index, e.at_ms};
    return;
  }
  if (!pass.known(e.op)) return;
  const auto it = pass.ops.find(e.op);
  if (it == pass.ops.end()) {  // ended before this ms
    late_ms_[e.op] = e.at_ms;
    return;
  }
  Learning::Seen& seen = it->second;
  if (is_outcome(e.kind) && !seen.outcome) {
    // An outcome after the crash: the operation ends there, not at the crash.
    if (seen.cut) crash_cut_.erase(e.op);
    seen.outcome = true;
    seen.cut = false;
    seen.to_ms = e.at_ms;
  } else if (e.at_ms > seen.to_ms) {
    late_ms_[e.op] = e.at_ms;
  }
}

void Facts::learn_op(Tracking& pass, const Event& e) {
  // A request lost on its way to the server (the world records it; the live backend cannot): the
  // waiter whose holder id it names goes unheard from its last attempt the server ran.
  if (e.kind == EventKind::Message && e.f == "lost" && e.text.starts_with("request ")) {
    const std::string prefix = e.process.str() + ":";
    for (auto it = waiting_.lower_bound(prefix); it != waiting_.end() && it->first.starts_with(prefix); ++it) {
      Waiting& w = it->second;
      const std::string owner = it->first.substr(0, it->first.find('\n'));
      const std::string field = field_of(owner);
      if (field.empty() || w.polls.empty() || e.text.find(" " + field + " ") == std::string::npos) continue;
      if (!w.acquiring.holds_at(e.at_ms) || (!w.unheard.empty() && w.unheard.back().to_ms == kForever)) continue;
      w.unheard.push_back(Span{w.polls.back(), kForever, e.index, -1});
    }
  }
  if (e.op == 0) return;
  if (e.kind == EventKind::Invoke) {
    if (op_index_.contains(e.op)) return;
    Op op;
    op.id = e.op;
    op.owner = e.owner();
    op.process = e.process;
    op.thread = e.thread;
    op.lock = e.lock;
    op.f = e.f;
    op.invoke = e.index;
    op.span = Span{e.at_ms, kForever, e.index, -1};
    op.last_ms = e.at_ms;
    // The first pass knows already whether its client's crash will cut it short.
    if (const auto cut = crash_cut_.find(e.op); cut != crash_cut_.end()) op.span = cut->second;
    // An acquire or unlock under way is a right on its lock.
    if (is_lock_op(op.f)) {
      const int64_t right = rights_[pair_key(op.owner, op.lock)].begin(op.span);
      if (op.span.to_ms == kForever) pass.op_rights[op.id] = right;
    }
    if (is_acquire_op(op.f)) {
      Waiting& w = waiting_[pair_key(op.owner, op.lock)];
      const int64_t handle = w.acquiring.begin(op.span);
      if (op.span.to_ms == kForever) pass.op_acquiring[op.id] = handle;
      w.waits.push_back(Waiting::Acquire{e.at_ms, e.wait_ms, op.id});
    }
    op_index_[e.op] = ops_retired_ + ops_.size();
    ops_.push_back(std::move(op));
    return;
  }
  const auto it = op_index_.find(e.op);
  if (it == op_index_.end() || it->second < ops_retired_) return;
  Op& op = ops_[it->second - ops_retired_];
  op.last_ms = e.at_ms;
  if (is_outcome(e.kind) && op.outcome < 0) {
    op.outcome = e.index;
    op.result = e.kind;
    op.span.to_ms = e.at_ms;
    op.span.end = e.index;
    if (const auto right = pass.op_rights.find(op.id); right != pass.op_rights.end()) {
      rights_[pair_key(op.owner, op.lock)].end(right->second, e.at_ms, e.index);
      pass.op_rights.erase(right);
    }
    if (const auto a = pass.op_acquiring.find(op.id); a != pass.op_acquiring.end()) {
      Waiting& w = waiting_[pair_key(op.owner, op.lock)];
      w.acquiring.end(a->second, e.at_ms, e.index);
      for (Waiting::Lockout& l : w.lockouts)
        if (l.op == op.id) l.to_ms = e.at_ms;
      if (!w.unheard.empty() && w.unheard.back().to_ms == kForever) w.unheard.back().to_ms = e.at_ms;
      pass.op_acquiring.erase(a);
    }
  } else if (e.kind == EventKind::Exec) {
    op.execs.push_back(e.index);
    // The server heard from a waiter: an attempt of its acquire ran there.
    if (is_acquire_op(op.f) && (e.f == "acquire" || e.f == "try_acquire")) {
      Waiting& w = waiting_[pair_key(op.owner, op.lock)];
      w.polls.push_back(e.at_ms);
      if (!w.unheard.empty() && w.unheard.back().to_ms == kForever) {
        w.unheard.back().to_ms = e.at_ms;
        w.unheard.back().end = e.index;
      }
    }
  }
}

void Facts::learn_belief(Tracking& pass, const Event& e) {
  if (e.kind != EventKind::Hold && e.kind != EventKind::Release) return;
  auto mode = [](const Tracking::OpenBelief& o) {
    if (!o.leaseless.empty() && o.leaseless.back()) return Belief::Mode::Watchdog;
    const bool any = std::find(o.leaseless.begin(), o.leaseless.end(), true) != o.leaseless.end();
    return any ? Belief::Mode::Mixed : Belief::Mode::Explicit;
  };
  const std::string key = pair_key(e.owner(), e.lock);
  auto it = pass.open_beliefs.find(key);
  if (e.kind == EventKind::Hold) {
    if (it == pass.open_beliefs.end()) {
      Belief b;
      b.lock = e.lock;
      b.owner = e.owner();
      b.process = e.process;
      b.thread = e.thread;
      b.span = Span{e.at_ms, kForever, e.index, -1};
      const Op* granted_by = e.op != 0 ? op(e.op) : nullptr;
      b.since = granted_by ? granted_by->invoke : e.index;
      Tracking::OpenBelief open{beliefs_retired_ + beliefs_.size(), {}, rights_[key].begin(b.span),
                                believed_[key].begin(b.span)};
      beliefs_.push_back(std::move(b));
      it = pass.open_beliefs.emplace(key, std::move(open)).first;
    }
    Belief& b = beliefs_[it->second.belief - beliefs_retired_];
    b.holds.push_back(e.index);
    it->second.leaseless.push_back(e.lease_ms < 0);
    b.modes.emplace_back(e.index, mode(it->second));
    return;
  }
  if (it == pass.open_beliefs.end()) return;
  Belief& b = beliefs_[it->second.belief - beliefs_retired_];
  b.releases.push_back(e.index);
  if (!it->second.leaseless.empty()) it->second.leaseless.pop_back();
  if (e.value == 0) it->second.leaseless.clear();
  b.modes.emplace_back(e.index, mode(it->second));
  if (e.value != 0) return;
  b.span.to_ms = e.at_ms;
  b.span.end = e.index;
  b.crashed = e.f == "crash";
  rights_[key].end(it->second.right, e.at_ms, e.index);
  believed_[key].end(it->second.believed, e.at_ms, e.index);
  pass.open_beliefs.erase(it);
}

void Facts::learn_key_name(Learning& pass, const Event& e) {
  if (e.lock.empty()) return;
  const Learning::Name name{e.process.view(), e.lock.view()};
  if (e.kind == EventKind::Key && pass.key_seen.insert(name).second) pass.key_keys.emplace_back(e.process, e.lock);
  if (e.kind != EventKind::Exec) return;
  if (pass.exec_seen.insert(name).second) pass.exec_keys.emplace_back(e.process, e.lock);
  // The execution's operation (begun before it) makes the key a part of its lock.
  const Atom* lock = e.op != 0 ? pass.lock_of(e.op) : nullptr;
  if (!lock || lock->empty()) return;
  auto& parts = pass.parts[*lock];
  if (std::find_if(parts.begin(), parts.end(), [&](const auto& p) { return p.first == e.process && p.second == e.lock; }) ==
      parts.end())
    parts.emplace_back(e.process, e.lock);
  auto& locks = pass.locks[name];
  if (std::find(locks.begin(), locks.end(), *lock) == locks.end()) locks.push_back(*lock);
}

// A client's id (Redisson's per-client UUID) is the prefix of the fields its own requests change:
// the one holder field of the requesting thread an Exec changed names its client.
void Facts::learn_client_id(const Event& e) {
  if (e.kind != EventKind::Exec || e.client.empty() || e.thread == 0) return;
  // A FairLock waiter that never held is known by its queue entry: the one the command names as its
  // holder id argument.
  // (A prefix already known keeps its client: try_emplace would not change it, so it is not searched.)
  for_each_listed(e.queue, [&](std::string_view entry) {
    const auto h = parse_holder(entry);
    if (h && h->thread == e.thread && !client_of_prefix_.contains(h->prefix) &&
        e.text.find(" " + std::string(entry) + " ") != std::string::npos)
      client_of_prefix_.try_emplace(std::string(h->prefix), e.client);
  });
  if (e.before == e.after) return;  // the same rendering: no field changed
  const auto before = parse_hash(e.before);
  const auto after = parse_hash(e.after);
  if (!before || !after) return;
  std::set<std::string> prefixes;
  auto consider = [&](const std::string& field) {
    const auto b = before->find(field), a = after->find(field);
    const bool changed = (b == before->end()) != (a == after->end()) ||
                         (b != before->end() && a != after->end() && b->second != a->second);
    if (!changed) return;
    const auto h = parse_holder(field);
    if (h && h->thread == e.thread) prefixes.insert(std::string(h->prefix));
  };
  for (const auto& [field, n] : *before) consider(field);
  for (const auto& [field, n] : *after) consider(field);
  // Several changed (a script that also touched another client's field of the same thread
  // number): the one the command names, as its holder id argument, is the client's.
  if (prefixes.size() > 1)
    std::erase_if(prefixes, [&](const std::string& p) { return e.text.find(" " + p + ":") == std::string::npos; });
  if (prefixes.size() != 1) return;
  client_of_prefix_.try_emplace(*prefixes.begin(), e.client);
}

// The servers' clock at run time 0: an Exec's expiry (its run time + PTTL) against the expire_set
// Key event the same command recorded just before it (absolute ms).
void Facts::learn_epoch(Learning& pass, const Event& x) {
  if (x.at_ms != pass.key_ms) {
    pass.key_ms = x.at_ms;
    pass.key_events.clear();
  }
  if (x.kind == EventKind::Key && !epoch_ms_) pass.key_events.push_back(x);
  if (epoch_ms_ || x.kind != EventKind::Exec || x.ttl_ms < 0 || x.lock.empty()) return;
  for (auto k = pass.key_events.rbegin(); k != pass.key_events.rend(); ++k) {
    if (k->process != x.process || k->lock != x.lock) continue;
    if (k->f == "expire_set") epoch_ms_ = k->value - (x.at_ms + x.ttl_ms);
    break;
  }
}

void Facts::settle(Learning& pass) {
  for (auto& [name, i] : servers_) {
    i = static_cast<int>(server_list_.size());
    server_list_.push_back(name);
  }
  for (FaultSpan& f : faults_) f.server = is_server(f.process);
  std::map<std::string, std::vector<Span>> away;
  for (const FaultSpan& f : faults_) {
    const FaultEventInfo* info = find_fault_event(f.kind);
    if (info && info->away) away[f.process].push_back(f.span);
  }
  for (auto& [process, spans] : away) unavailable_[process] = merge_spans(std::move(spans));

  // Lock keys first, then the keys only Key events name.
  auto add_key = [&](const Atom& server, const Atom& key, bool lock_key) {
    KeyTrack t;
    t.server = server;
    t.key = key;
    t.lock_key = lock_key;
    const auto locks = pass.locks.find({server.view(), key.view()});
    if (locks != pass.locks.end()) t.locks.assign(locks->second.begin(), locks->second.end());
    std::sort(t.locks.begin(), t.locks.end());
    keys_.push_back(std::move(t));
  };
  for (const auto& [server, key] : pass.exec_keys) add_key(server, key, true);
  for (const auto& [server, key] : pass.key_keys)
    if (!pass.exec_seen.contains({server.view(), key.view()})) add_key(server, key, false);
  for (const auto& [lock, names] : pass.parts) {
    auto& parts = parts_[lock];
    for (const auto& [server, key] : names)
      for (size_t i = 0; i < keys_.size(); ++i)
        if (keys_[i].server == server.str() && keys_[i].key == key.str()) parts.push_back(i);
    std::sort(parts.begin(), parts.end(), [&](size_t a, size_t b) {
      return std::tie(keys_[a].server, keys_[a].key) < std::tie(keys_[b].server, keys_[b].key);
    });
  }
}

const std::vector<Span>& Facts::unavailable(const std::string& process) const {
  static const std::vector<Span> none;
  const auto it = unavailable_.find(process);
  return it == unavailable_.end() ? none : it->second;
}

int64_t Facts::settles_ms(const Op& op) const {
  if (op.span.to_ms == kForever) return kForever;
  const auto late = late_ms_.find(op.id);
  return late == late_ms_.end() ? op.span.to_ms : std::max(op.span.to_ms, late->second);
}

const Op* Facts::op(int64_t id) const {
  const auto it = op_index_.find(id);
  return it == op_index_.end() || it->second < ops_retired_ ? nullptr : &ops_[it->second - ops_retired_];
}

bool Facts::rightful(const std::string& owner, const std::string& lock, int64_t t, int64_t as_of) const {
  const auto it = rights_.find(pair_key(owner, lock));
  if (it == rights_.end()) return false;
  if (it->second.holds_at(t)) return true;
  // As of an event at ms t: a span that ends at t by an event recorded after it still runs then.
  if (as_of < 0) return false;
  for (int64_t end : it->second.ends_at(t))
    if (end > as_of) return true;
  return false;
}

bool Facts::believes(const std::string& owner, const std::string& lock, int64_t t) const {
  const auto it = believed_.find(pair_key(owner, lock));
  return it != believed_.end() && it->second.holds_at(t);
}

std::vector<std::string> Facts::locks() const {
  std::set<std::string> names;
  for (const Op& op : ops_)
    if (!op.lock.empty() && op.f != "work") names.insert(op.lock);
  return {names.begin(), names.end()};
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

std::string Facts::owner_of_field(const std::string& field) const {
  const auto h = parse_holder(field);
  if (!h) return "";
  const auto it = client_of_prefix_.find(h->prefix);
  return it == client_of_prefix_.end() ? "" : it->second + ":" + std::to_string(h->thread);
}

std::string Facts::side_of(const std::string& lock) const {
  if (!type_ || !type_->sides) return "";
  if (lock.ends_with(":write")) return "write";
  if (lock.ends_with(":read")) return "read";
  return "";
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

bool Facts::sent_with_right(const Event& exec, const std::string& owner, const std::string& lock) const {
  const int64_t t = exec.sent_ms >= 0 ? exec.sent_ms : exec.at_ms;
  // The history says what came before the send: a right begun by an event before it and not yet
  // ended by one was held when the request left, whatever else happened in that millisecond.
  if (exec.sent_index >= 0) {
    const auto it = rights_.find(pair_key(owner, lock));
    if (it == rights_.end()) return false;
    for (const Span& s : it->second.spans()) {
      const bool begun = s.from_ms < t || (s.from_ms == t && s.begin < exec.sent_index);
      // A span with no ending event runs to kForever: only an event ends one at t.
      const bool running = t < s.to_ms || (s.to_ms == t && s.end >= exec.sent_index);
      if (begun && running) return true;
    }
    return false;
  }
  // An older history, without the send's place: judged by its millisecond.
  if (rightful(owner, lock, t)) return true;
  // Sent in the millisecond its sender's crash ended its right: a crashed client sends nothing,
  // so the request left before the crash (an acquire sent just before it, run after it, holds
  // the lock for the lease it asked for). Not so for a right its operation's end closed: the
  // watchdog may still send in that millisecond, after the unlock, without the right.
  const auto it = rights_.find(pair_key(owner, lock));
  if (it != rights_.end())
    for (int64_t e : it->second.ends_at(t)) {
      if (e < 0) continue;
      const Event& end = at(e);
      if (end.f == "crash" && (end.kind == EventKind::Fault || end.kind == EventKind::Release)) return true;
    }
  return false;
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

Facts::Facts(const History& history, const LockType* type) : history_(&history), type_(type) {
  {
    Learning pass;
    for (const Event& e : history.events()) learn(pass, e);
    settle(pass);
  }
  Tracking pass(*this);
  for (const Event& e : history.events()) taken(pass, e);
  follow_keys(pass, static_cast<int64_t>(history.size()));
}

Facts::Facts(const LockType* type) : history_(&own_), type_(type), learning_(std::make_unique<Learning>()) {}

Facts::~Facts() = default;

void Facts::learn(const Event& e) {
  LS_ASSERT(learning_);
  LS_ASSERT(!tracking_);
  learn(*learning_, e);
}

void Facts::settle() {
  LS_ASSERT(learning_);
  LS_ASSERT(!tracking_);
  settle(*learning_);
  learning_.reset();
  tracking_ = std::make_unique<Tracking>(*this);
}

void Facts::take(Event e) {
  LS_ASSERT(tracking_);
  taken(*tracking_, own_.add(std::move(e)));
}

void Facts::complete(int64_t ms) {
  LS_ASSERT(tracking_);
  if (tracking_->ms <= ms) follow_keys(*tracking_, static_cast<int64_t>(own_.size()));
}

// The second pass, an event at a time: operations, beliefs and rights at once, keys once the
// millisecond is over.
void Facts::taken(Tracking& pass, const Event& e) {
  if (e.at_ms > pass.ms) {
    follow_keys(pass, e.index);
    pass.ms = e.at_ms;
  }
  learn_op(pass, e);
  learn_belief(pass, e);
}

void Facts::follow_keys(Tracking& pass, int64_t upto) {
  for (; pass.untracked < upto; ++pass.untracked) track(pass, at(pass.untracked));
}

int64_t Facts::open_since() const {
  int64_t first = kForever;
  const int64_t now = end_ms();
  for (const Op& op : ops_)
    if (settles_ms(op) >= now) first = std::min(first, op.invoke);  // its ms may bring more of it
  for (const Belief& b : beliefs_)
    if (b.span.end < 0) first = std::min(first, b.since);
  return first;
}

void Facts::retire(int64_t index, int64_t ms) {
  LS_ASSERT(tracking_);
  own_.drop_before(index);
  // Operations and beliefs still under way stay, and those after them: events may still change them.
  while (!ops_.empty() && ops_.front().invoke < index && settles_ms(ops_.front()) != kForever) {
    op_index_.erase(ops_.front().id);
    ops_.pop_front();
    ++ops_retired_;
  }
  while (!beliefs_.empty() && beliefs_.front().span.begin < index && beliefs_.front().span.end >= 0) {
    beliefs_.pop_front();
    ++beliefs_retired_;
  }
  for (KeyTrack& k : keys_) {
    // The last state begun before `index` is the one in effect there: it stays.
    auto& states = k.states;
    const auto in_effect = std::upper_bound(states.begin(), states.end(), index - 1,
                                            [](int64_t v, const KeyState& s) { return v < s.event; });
    const auto gone = in_effect == states.begin() ? 0 : std::prev(in_effect) - states.begin();
    // Erased in bulk, once they are half of what is kept: each state is moved a bounded number of times.
    if (gone > 0 && static_cast<size_t>(gone) * 2 >= states.size()) {
      k.retired_present = states[gone - 1].present;
      k.retired_expire_at = states[gone - 1].expire_at;
      k.retired_by_fault = states[gone - 1].by_fault;
      k.retired_from_ms = states[gone - 1].from_ms;
      states.erase(states.begin(), states.begin() + gone);
      k.trimmed = true;
    }
  }
  for (auto* rights : {&rights_, &believed_})
    for (auto& [pair, spans] : *rights) spans.retire(ms);
  for (auto& [pair, w] : waiting_) {
    w.acquiring.retire(ms);
    // The latest poll before `ms` stays: a dead entry keeps others out for W from it.
    const auto kept = std::lower_bound(w.polls.begin(), w.polls.end(), ms);
    if (kept - w.polls.begin() > 1) w.polls.erase(w.polls.begin(), kept - 1);
    const auto wait = std::lower_bound(w.waits.begin(), w.waits.end(), ms,
                                       [](const Waiting::Acquire& a, int64_t v) { return a.from_ms < v; });
    if (wait - w.waits.begin() > 1) w.waits.erase(w.waits.begin(), wait - 1);
    std::erase_if(w.unheard, [&](const Span& u) { return u.to_ms < ms; });
    std::erase_if(w.lockouts, [&](const Waiting::Lockout& l) { return l.to_ms < ms; });
  }
}

void Facts::track(Tracking& pass, const Event& e) {
  auto& creator = pass.creator;
  if (e.kind == EventKind::Key && type_ && type_->sides && e.lock.find(":rwlock_timeout:") != std::string::npos) {
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
      s.claims = claims_of(keys_[k], s.value, creator[k]);
      carry_own_bounds(s.claims, now.claims);
      pass.push(k, std::move(s));
    }
  }
  if (e.kind == EventKind::Fault && find_fault_event(e.f) && find_fault_event(e.f)->loses_keys) {
    std::erase_if(reader_timeouts_, [&](const auto& entry) { return keys_[entry.first.first].server == e.process; });
    for (size_t k = 0; k < keys_.size(); ++k) {
      if (keys_[k].server != e.process) continue;
      const KeyState& last = keys_[k].states.back();
      if (last.known) pass.before_fault[k] = std::make_pair(last, creator[k]);
      KeyState s;
      s.from_ms = e.at_ms;
      s.event = e.index;
      s.known = false;
      s.by_fault = true;
      pass.push(k, std::move(s));
    }
    return;
  }
  if (e.kind != EventKind::Key && e.kind != EventKind::Exec) return;
  const auto it = pass.index.find({e.process.view(), e.lock.view()});
  if (it == pass.index.end()) return;
  const size_t k = it->second;
  const bool known = keys_[k].states.back().known;  // before this event revealed anything
  if (e.kind == EventKind::Key && !keys_[k].lock_key) {
    // A key whose content the history does not record: whether it exists, and when it expires
    // (expire_set gives the server's clock; epoch_ms_ turns it into the run's).
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
    return;
  }
  if (e.kind == EventKind::Key) {
    // Creations and deletions come with the Exec that made them (which says more); an expiry is
    // the server's own doing.
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
    creator[k].clear();
    return;
  }
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
    // The same rendering (one atom) is the same list.
    auto& [text, list] = pass.parsed_queue[k];
    if (e.queue != text) {
      text = e.queue;
      list = std::make_shared<const std::vector<std::string>>(parse_list(e.queue));
    }
    s.waiters = list;
    s.queue_known = true;
  }
  if (s.present) {
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
  } else {
    creator[k].clear();
  }
  pass.push(k, std::move(s));
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

std::vector<const KeyTrack*> Facts::reader_timeouts(const KeyTrack& hash, const std::string& field) const {
  const std::string braced = hash.key.find('{') != std::string::npos ? hash.key : "{" + hash.key + "}";
  const std::string prefix = braced + ":" + field + ":rwlock_timeout:";
  std::vector<const KeyTrack*> out;
  for (const KeyTrack& k : keys_)
    if (k.server == hash.server && k.key.rfind(prefix, 0) == 0) out.push_back(&k);
  return out;
}

std::string Facts::field_of(const std::string& owner) const {
  const size_t colon = owner.rfind(':');
  if (colon == std::string::npos) return "";
  const std::string client = owner.substr(0, colon);
  for (const auto& [prefix, c] : client_of_prefix_)
    if (c == client) return prefix + owner.substr(colon);
  return "";
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

std::optional<FreeSpan> Facts::free_at(const Op& waiter, int64_t index) const {
  const Event& x = at(index);
  const auto parts = this->parts(waiter.lock);
  size_t need = parts.size();
  if (type_ && type_->quorum == Quorum::Majority) need = parts.size() / 2 + 1;
  FreeSpan f;
  f.span = Span{x.at_ms, x.at_ms + 1, index, index};
  size_t open = 0, mine = 0;
  for (const KeyTrack* part : parts) {
    FreeWhy why = FreeWhy::Open;
    int64_t state = -1;
    const Part p = part_state(*part, waiter, x.at_ms, why, state, index);
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
  if (parts.empty() || open == 0 || open + mine < need || mine >= need) return std::nullopt;
  return f;
}

std::vector<FreeSpan> Facts::free_spans(const Op& waiter, int64_t from, int64_t to, const FreeOptions& options) const {
  std::vector<FreeSpan> out;
  if (to <= from) return out;
  const auto parts = this->parts(waiter.lock);
  size_t need = parts.size();
  if (type_ && type_->quorum == Quorum::Majority) need = parts.size() / 2 + 1;
  // FairLock: its scripts answer "wait T ms" while waiters queue ahead: for those T ms, as long as
  // the server's queue (when recorded) shows someone ahead of the waiter, the queue keeps it.
  std::vector<Span> told;
  if (options.queue_replies) {
    for (int64_t i : waiter.execs) {
      const Event& x = at(i);
      const auto ttl = parse_integer(x.reply);
      if (x.f == "acquire" && ttl) told.push_back(Span{x.at_ms, x.at_ms + std::max<int64_t>(*ttl, 0) + 1, i, -1});
    }
    told = merge_spans(std::move(told));
  }
  const std::string me = field_of(waiter.owner);
  // Whether the queue keeps the waiter out at t: some entry is ahead of it (every entry, when it is
  // not queued at all) and each of those keeps it legitimately (entry_keeps).
  // `dead`: the entry ahead that no longer keeps it, when one is why.
  auto queue_keeps = [&](int64_t t, FreeSpan::Dead& dead) {
    for (const KeyTrack* part : parts) {
      const KeyState& s = part->at(t);
      if (!s.queue_known) return true;
      bool ahead = false;
      for (const std::string& entry : s.queue()) {
        if (entry == me) break;
        ahead = true;
        const std::string owner = owner_of_field(entry);
        DeadEntry why;
        if (!owner.empty() && !entry_keeps(owner, waiter.lock, t, options, &why)) {
          dead = FreeSpan::Dead{why.owner, why.heard_ms, why.wait_ms};
          return false;
        }
      }
      return ahead;
    }
    return true;
  };
  // RedLock takes its parts one by one, waiting on each a while: the part it tried last keeps it.
  std::vector<std::pair<int64_t, const KeyTrack*>> tried;
  if (type_ && type_->quorum == Quorum::Majority)
    for (int64_t i : waiter.execs) {
      const Event& x = at(i);
      if (x.f == "acquire") tried.emplace_back(x.at_ms, key(x.process, x.lock));
    }
  size_t tried_next = 0;
  const KeyTrack* trying = nullptr;
  // The moments things change: events, and what changes without one (a told wait running out, a key
  // passing its expiry, a server coming back).
  std::vector<int64_t> cuts;
  const auto& events = history_->events();
  for (auto e = std::lower_bound(events.begin(), events.end(), from, [](const Event& x, int64_t v) { return x.at_ms < v; });
       e != events.end() && e->at_ms < to; ++e)
    cuts.push_back(e->at_ms);
  for (const Span& s : told) cuts.push_back(s.to_ms);
  // A queue entry stops keeping the waiter threadWaitTime after the server last heard from it, with
  // no event then.
  if (!told.empty())
    for (const KeyTrack* part : parts) {
      std::set<std::string> entries;
      const auto& states = part->states;
      auto s = std::upper_bound(states.begin(), states.end(), from, [](int64_t v, const KeyState& k) { return v < k.from_ms; });
      if (s != states.begin()) --s;
      for (; s != states.end() && s->from_ms < to; ++s)
        if (s->queue_known) entries.insert(s->queue().begin(), s->queue().end());
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
          for (auto p = std::lower_bound(polls.begin(), polls.end(), from - wait);
               p != polls.end() && *p + wait < to; ++p)
            cuts.push_back(*p + wait);
          for (const Span& u : unavailable(owner.substr(0, owner.rfind(':')))) cuts.push_back(u.from_ms + wait);
        }
      }
    }
  for (const KeyTrack* part : parts) {
    // Only the states in effect at some time in [from, to): the one at `from` and those begun
    // before `to`. Another's expiry is never read there, so cutting at it changes nothing.
    const auto& states = part->states;
    auto s = std::upper_bound(states.begin(), states.end(), from, [](int64_t v, const KeyState& k) { return v < k.from_ms; });
    if (s != states.begin()) --s;
    for (; s != states.end() && s->from_ms < to; ++s)
      if (s->expire_at >= 0) cuts.push_back(s->expire_at + 1);
    for (const Span& u : unavailable(part->server)) cuts.push_back(u.to_ms);
  }
  std::erase_if(cuts, [&](int64_t c) { return c <= from || c >= to; });
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  auto cut = cuts.begin();
  int64_t t = from;
  while (t < to) {
    while (cut != cuts.end() && *cut <= t) ++cut;
    const int64_t next = cut == cuts.end() ? to : *cut;
    while (tried_next < tried.size() && tried[tried_next].first <= t) trying = tried[tried_next++].second;
    FreeSpan f;
    f.span = Span{t, next, -1, -1};
    FreeSpan::Dead dead;
    bool free = !(holds_at(told, t) && queue_keeps(t, dead));
    if (free && trying) {
      FreeWhy why = FreeWhy::Open;
      int64_t state = -1;
      free = part_state(*trying, waiter, t, why, state) != Part::Kept;
    }
    if (free) {
      size_t open = 0, mine = 0;
      for (const KeyTrack* part : parts) {
        FreeWhy why = FreeWhy::Open;
        int64_t state = -1;
        const Part p = part_state(*part, waiter, t, why, state);
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
      // Free when enough parts are not kept from it, and it does not have the lock already.
      free = open + mine >= need && mine < need && !(need > 0 && open == 0);
      if (parts.empty()) free = true;
    }
    if (free) {
      f.dead_entry = dead;
      if (!out.empty() && out.back().span.to_ms == t && out.back().why == f.why && out.back().key == f.key &&
          out.back().dead_entry == f.dead_entry)
        out.back().span.to_ms = next;
      else
        out.push_back(f);
    }
    t = next;
  }
  return out;
}

}  // namespace locksim::model
