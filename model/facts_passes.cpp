// Facts' two passes over the events: the first learns what the second needs ahead of them (faults,
// client ids, which keys there are), the second follows operations, beliefs and the rights they give;
// and a stream's taking and dropping of events. Keys' states are key_states.cpp's. (Not facts.cpp:
// facts_internal.hpp includes facts.hpp, and one unit may not include another that includes it.)
#include "model/facts.hpp"

#include <algorithm>
#include <memory>
#include <set>
#include <tuple>

#include "model/facts_internal.hpp"
#include "model/fault_events.hpp"
#include "model/rendered.hpp"

namespace locksim::model {
namespace {

bool is_lock_op(std::string_view f) { return f == "lock" || f == "try_lock" || f == "unlock"; }

}  // namespace

Belief::Mode Belief::mode_at(int64_t index) const {
  Mode mode = Mode::Explicit;
  for (const auto& [i, m] : modes) {
    if (i > index) break;
    mode = m;
  }
  return mode;
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
  if (e.kind == EventKind::Message && e.f == "lost" && e.text.starts_with("request ")) learn_lost_request(e);
  if (e.op == 0) return;
  if (e.kind == EventKind::Invoke) {
    if (!op_index_.contains(e.op)) begin_op(pass, e);
    return;
  }
  const auto it = op_index_.find(e.op);
  if (it == op_index_.end() || it->second < ops_retired_) return;
  Op& op = ops_[it->second - ops_retired_];
  op.last_ms = e.at_ms;
  if (is_outcome(e.kind) && op.outcome < 0) {
    end_op(pass, op, e);
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

// A request lost on its way to the server (the world records it; the live backend cannot): the
// waiter whose holder id it names goes unheard from its last attempt the server ran.
void Facts::learn_lost_request(const Event& e) {
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

void Facts::begin_op(Tracking& pass, const Event& e) {
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
}

// The operation's outcome `e` ends it, and the rights and the acquiring it gave.
void Facts::end_op(Tracking& pass, Op& op, const Event& e) {
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

std::string Facts::owner_of_field(const std::string& field) const {
  const auto h = parse_holder(field);
  if (!h) return "";
  const auto it = client_of_prefix_.find(h->prefix);
  return it == client_of_prefix_.end() ? "" : it->second + ":" + std::to_string(h->thread);
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

std::string Facts::field_of(const std::string& owner) const {
  const size_t colon = owner.rfind(':');
  if (colon == std::string::npos) return "";
  const std::string client = owner.substr(0, colon);
  for (const auto& [prefix, c] : client_of_prefix_)
    if (c == client) return prefix + owner.substr(colon);
  return "";
}

}  // namespace locksim::model
