#pragma once
// Facts: what one history says happened, worked out once and read by every checker and by the
// timeline: each client operation with every execution it caused, each owner's believed-holding
// intervals, the spans during which a fault was in effect (who could not act, and when), and each
// lock key's state on each server over time: present or not, whose holds it carries, when it
// expires. On top of those, the one notion the liveness and fair-queue checkers share: whether the
// server legitimately kept an owner from the lock at a given moment (see free_spans).
//
// Times are the history's ms; spans are [from_ms, to_ms). Several events at one ms count in recorded
// order, and a state "at t" is the state after every event of ms t.
#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "model/history.hpp"
#include "model/lock_types.hpp"
#include "model/right_spans.hpp"
#include "model/span.hpp"

namespace locksim::model {

inline constexpr int64_t kNoExpiry = -1;                                      // the key never expires
inline constexpr int64_t kUnknownExpiry = std::numeric_limits<int64_t>::min();  // it may, but the history does not say when
// How closely a history knows when a key expires: live, an Exec's time is when its reply came back,
// a little after the server ran it and read the PTTL, and expiry notifications come a little late.
inline constexpr int64_t kExpiryPrecisionMs = 250;
// How closely an Exec's PTTL shows the TTL the command set: live, it is read by the next command of
// the same transaction, a millisecond or two later.
inline constexpr int64_t kTtlPrecisionMs = 5;

// One client operation: its Invoke, its outcome (Ok, Fail or Info; -1 when none came) and every
// execution of its requests on every server (resends, RedLock's and MultiLock's parts).
struct Op {
  int64_t id = 0;
  Atom owner;    // "A:1"
  Atom process;  // "A"
  int64_t thread = 0;
  Atom lock;
  Atom f;
  int64_t invoke = -1;
  int64_t outcome = -1;
  EventKind result = EventKind::Invoke;  // the outcome's kind; Invoke when there was none
  std::vector<int64_t> execs;
  Span span;  // from the Invoke to the outcome, or to its owner's crash, or to the end of the history
  int64_t last_ms = 0;  // the ms of its latest event so far (an execution may come after its outcome)
};

// An owner's believed-holding interval on a lock: from the Hold that took it from depth 0 to the
// Release that brought it back to 0 (an unlock begun, or a crash).
struct Belief {
  Atom lock;
  Atom owner;
  Atom process;
  int64_t thread = 0;
  Span span;                      // end: the Release at depth 0, -1 when still believed at the end
  int64_t since = -1;             // the Invoke of the operation whose Hold began it (its begin when none)
  bool crashed = false;           // ended by its owner's crash
  std::vector<int64_t> holds;     // every Hold of the interval, re-entries included
  std::vector<int64_t> releases;  // every Release, partial ones included
  // After each Hold and Release (event index), how the owner's unmatched acquires (matched last in,
  // first out) stand on leases: all had one (Explicit), the latest had none (Watchdog: it asks for
  // renewal, so the hold must not expire), or only an earlier one had none (Mixed: the latest asked
  // for its lease, an earlier one for renewal; either is what was asked).
  enum class Mode : uint8_t { Explicit, Mixed, Watchdog };
  std::vector<std::pair<int64_t, Mode>> modes;
  Mode mode_at(int64_t index) const;
};

// A fault in effect: crash (to the end), pause, partition, delay, loss (for their duration),
// clock_jump, restart, failover (an instant), down (a master dead until its failover).
struct FaultSpan {
  std::string process;
  std::string kind;
  Span span;
  int64_t value = 0;  // delay: extra ms; loss: per thousand; clock_jump: ms; failover: lag ms
  bool server = false;
  std::string text{};  // the event's text (error_reply: the error it answers)
};

// A hold as a lock key carries it: a field of the hash ("<client id>:<thread>[:write]" and its
// count), or a string key's value and whoever set it.
struct Claim {
  Atom owner;  // "A:1"; "" when no client's (a field locksim cannot attribute)
  Atom lock;   // the lock it is a hold on ("orders", "orders:write"); "" when not known
  Atom field;  // the hash field ("" for a string key)
  int64_t count = 1;
  // A ReadWriteLock reader whose every hold's timeout key ("{<name>}:<field>:rwlock_timeout:<n>")
  // has expired: its lease ran out, though its field is still in the hash (Redisson keeps a reader's
  // expiry in those keys, and the next read unlock drops the field).
  bool stale = false;
  // The latest expiry its owner's own requests set on the key while it rightfully had the lock
  // (kNoExpiry: none known). Once its owner is gone, its hold is kept this long and no longer,
  // whatever else keeps the key alive (DESIGN: another reader's renewal must not keep a crashed
  // reader's hold alive).
  int64_t own_bound = kNoExpiry;
};

struct KeyState {
  int64_t from_ms = 0;
  int64_t event = -1;          // the event from which on the key was so (-1: from the start)
  bool known = true;           // false: after a restart or failover, until an event showed the key again
  bool by_fault = false;       // begun by a restart or failover (which may have restored an older copy)
  bool present = false;
  Atom value;                  // rendered as Exec events render it (the history's own atom)
  int64_t expire_at = kNoExpiry;  // run ms at which it expires
  // The latest expiry set by a request its sender sent while it legitimately had the lock (it
  // believed it held it, or was acquiring or unlocking it) and that left its sender's hold in the
  // key, since the key was last created. A key whose expiry lies beyond this was kept alive by a
  // request without that right (a watchdog outliving its unlock, a refused acquire touching the TTL).
  int64_t lease_bound = kNoExpiry;
  std::vector<Claim> claims;
  // A FairLock's waiter queue (holder ids, head first), as its last command left it; not known
  // before any command recorded it, or after a restart or failover until one does again. The
  // states a queue lasts through share one list: with many waiters, a copy per state would cost
  // more than the rest of the facts together.
  std::shared_ptr<const std::vector<std::string>> waiters;
  bool queue_known = false;
  const std::vector<std::string>& queue() const;
  // Whether the key is there at run ms `t`: present, and its expiry (if known) not passed, though the
  // history may record the expiry later (active expiry runs every 100 ms, or a read finds it).
  bool present_at(int64_t t) const { return present && !(expire_at >= 0 && t > expire_at); }
  const Claim* claim_of(const std::string& owner, const std::string& lock) const;
};

// One lock key on one server, state by state.
struct KeyTrack {
  std::string server;
  std::string key;
  // A lock key, whose content Exec events record (before/after), or another key (a FairLock's queue,
  // a fence counter, a latch) of which Key events tell only whether it exists.
  bool lock_key = false;
  std::vector<std::string> locks;  // the locks it holds holds of (a ReadWriteLock's key: both sides)
  std::vector<KeyState> states;    // in history order; states[0] from the start
  bool trimmed = false;            // a stream retired its first states: states[0] is the one in effect then
  // The last state retired, as far as a run of equal expiries needs it (whether it continues into
  // states[0], or a fault began it just before).
  bool retired_present = false;
  int64_t retired_expire_at = -1;
  bool retired_by_fault = false;
  int64_t retired_from_ms = 0;
  // The state after every event up to and including ms `t`.
  const KeyState& at(int64_t t) const;
  // The state right after event `index` (the last state begun at or before it).
  const KeyState& after_event(int64_t index) const;
  std::string name() const { return server + "/" + key; }
};

// Why the server did not legitimately keep a waiter from a lock for a span of time (free_spans).
enum class FreeWhy : uint8_t {
  Open,     // no key (on enough of its servers), or only the waiter's own hold that it may re-enter
  Stale,    // the key's holders were gone (crashed, or done) and its expiry lies beyond what they set while holding
  Forever,  // the key's holders were gone and it has no expiry: nobody will release it, nor will it expire
};
std::string_view to_string(FreeWhy why);

struct FreeSpan {
  Span span;
  FreeWhy why = FreeWhy::Open;
  const KeyTrack* key = nullptr;  // the key (a part) that shows it, with its state at span.from_ms
  int64_t state_event = -1;
  // FairLock: a queue entry ahead that had told the waiter to wait, but no longer kept it out
  // (Facts::entry_keeps); its owner is "" when the queue played no part.
  struct Dead {
    std::string owner;
    int64_t heard_ms = -1;  // when the server last heard from it
    int64_t wait_ms = 0;    // its threadWaitTime
    bool operator==(const Dead&) const = default;
  } dead_entry{};
};

struct FreeOptions {
  // FairLock: an acquire answered "wait T ms" keeps the waiter those T ms only as long as the
  // server's queue (Exec.queue, when the history records it; else always) has entries ahead of it
  // and each of them keeps it out legitimately (Facts::entry_keeps): DESIGN's "a FairLock queue keeps
  // a waiter out legitimately only while the lock is held or every entry ahead of it is live".
  bool queue_replies = false;
  int64_t thread_wait_ms = 5000;                // threadWaitTime
  bool try_wait_replaces_thread_wait = false;  // an entry's tryLock wait (> 0) is its threadWaitTime
};

class Facts {
 public:
  // `type` says how lock keys store holds and how many of its keys a holder needs; nullptr when
  // not known (a hash is then recognised by its rendering, and one key is enough).
  Facts(const History& history, const LockType* type);
  ~Facts();

  // A stream: a history too long to hold at once, given twice, in order. Every event goes to
  // learn(), then settle() is called once, then every event goes to take(); between takes,
  // retire() drops what its caller has judged. Queries answer as of the events taken so far, and
  // only about what has not been retired.
  explicit Facts(const LockType* type);
  void learn(const Event& e);
  void settle();
  void take(Event e);
  // Every event up to and including ms `ms` has been taken: the keys follow them (they follow a
  // millisecond's events once it is over).
  void complete(int64_t ms);
  // Drops the events before `index`, the operations and beliefs begun before it that have ended, the
  // key states another replaced before it, and the rights that ended before ms `ms`.
  void retire(int64_t index, int64_t ms);
  // The first event an operation or belief still under way may read (its Invoke; a belief's since),
  // counting as under way an operation that ended in the latest ms taken:
  // kForever when none is.
  int64_t open_since() const;

  // The events: the whole history, or a stream's events taken and not retired.
  const History& history() const { return *history_; }
  const Event& at(int64_t index) const { return (*history_)[static_cast<size_t>(index)]; }
  const LockType* lock_type() const { return type_; }
  int64_t end_ms() const { return history_->end_ms(); }

  // In the order they began (a stream's: those not retired).
  const std::deque<Op>& ops() const { return ops_; }
  const Op* op(int64_t id) const;
  // The longest any request the history shows was on its way (an Exec's run time less its sent):
  // a request still to come was sent no earlier than that before it runs.
  int64_t max_flight_ms() const { return max_flight_ms_; }
  // The ms after which no event of `op` comes (kForever while it may still have one): its end, or
  // the latest of its executions that came later (a delayed request).
  int64_t settles_ms(const Op& op) const;
  const std::deque<Belief>& beliefs() const { return beliefs_; }
  const std::vector<FaultSpan>& faults() const { return faults_; }
  // The spans during which `process` could not act: client: paused, partitioned, crashed; server:
  // paused or down. Disjoint and sorted.
  const std::vector<Span>& unavailable(const std::string& process) const;
  bool is_server(const std::string& process) const { return servers_.count(process) > 0; }
  const std::vector<std::string>& servers() const { return server_list_; }

  // The lock names the history's operations name, sorted.
  std::vector<std::string> locks() const;
  // The keys (on their servers) a lock's holds live in: its key; MultiLock's parts; RedLock's servers.
  std::vector<const KeyTrack*> parts(const std::string& lock) const;
  // The ms from which the states of `lock`'s parts may still change (kForever when none may): a part
  // a restart or failover left unknown is told by the next event that shows it, back to the fault.
  int64_t unrevealed_from(const std::string& lock) const;
  // Every key the history shows, lock keys first, each in order of first appearance.
  const std::vector<KeyTrack>& keys() const { return keys_; }
  const KeyTrack* key(const std::string& server, const std::string& key) const;
  // The owner ("A:1") of a hash field, "" when not known; and back, the field of an owner.
  std::string owner_of_field(const std::string& field) const;
  std::string field_of(const std::string& owner) const;
  // A ReadWriteLock reader's timeout keys on a server: "{<key>}:<field>:rwlock_timeout:<n>".
  std::vector<const KeyTrack*> reader_timeouts(const KeyTrack& hash, const std::string& field) const;

  // Whether `owner` believed it held `lock` at t, or had an acquire or unlock of it under way.
  // `as_of`: an event at ms t; a span ending at t by an event recorded after it still counts.
  bool rightful(const std::string& owner, const std::string& lock, int64_t t, int64_t as_of = -1) const;
  bool believes(const std::string& owner, const std::string& lock, int64_t t) const;
  // Whether `owner` had that right on `lock` when it sent the request `exec` ran: at its `sent`
  // (its run time when not known), and within that millisecond in the history's order when the
  // Exec says where the send fell among the events (`sent_index`).
  bool sent_with_right(const Event& exec, const std::string& owner, const std::string& lock) const;

  // The spans within [from, to) during which the server(s) did not legitimately keep `waiter` (its
  // owner, on its lock) from the lock, and the waiter did not have it already: no key, or one held
  // only by holders that are gone and whose expiry lies beyond the lease they set or never comes. A
  // key held by an owner that believes it holds the lock, or is acquiring or unlocking it, keeps the
  // lock; so does a key whose owner is gone (crashed, or done without the unlock taking effect)
  // while the lease it set runs out: the designed price of a lease. A server that is paused or down
  // keeps it too (it grants nothing), as does a key whose state a restart or failover left unknown.
  // A key past its expiry keeps nobody, whether or not the server has reported it expired. Once the
  // server has put the waiter's own hold in the key, the lock is the waiter's (its reply may still
  // be on the way): not free for it.
  std::vector<FreeSpan> free_spans(const Op& waiter, int64_t from, int64_t to, const FreeOptions& options = {}) const;
  // Whether the queue entry of `owner` (a FairLock waiter's thread) legitimately keeps the waiters
  // behind it out of `lock` at t: while it is live (its acquire under way, its process able to act),
  // and for threadWaitTime after the server last heard from it once it is not (crashed, gave up,
  // paused, cut off). An entry the history cannot attribute, or whose polls a stream dropped, keeps.
  // `why`, when it does not: the entry's owner, when the server last heard from it and the thread wait.
  struct DeadEntry {
    std::string owner;
    int64_t heard_ms = -1;
    int64_t wait_ms = 0;
  };
  bool entry_keeps(const std::string& owner, const std::string& lock, int64_t t, const FreeOptions& options,
                   DeadEntry* why = nullptr) const;
  // When the server did not hear from the waiter of `op`: its process could not act (unavailable),
  // or every request it sent was lost, from the last of its attempts the server ran to the next (or
  // its end). DESIGN: a waiter "whose every message is lost is silent from the last message of it the
  // server received". Disjoint and sorted.
  std::vector<Span> silences(const Op& op) const;
  // Whether the lock was free for `waiter` as of event `index` (e.g. an acquire the server refused
  // there), judged on the state right after that event, in recorded order within its ms.
  std::optional<FreeSpan> free_at(const Op& waiter, int64_t index) const;

 private:
  // Facts are worked out in two passes over the events, each taking them one at a time in order.
  // The first learns what the second needs ahead of the events (faults, which operations a crash
  // cuts short or an event follows after their end, client ids, the keys and whose parts they are,
  // the servers' clock); the second follows operations, beliefs, the rights they give and each
  // key's states. Their working state lives in these (facts_internal.hpp), only while they run.
  struct Learning;
  struct Tracking;
  void learn(Learning& pass, const Event& e);
  void settle(Learning& pass);
  void learn_fault(Learning& pass, const Event& e);
  void learn_op_seen(Learning& pass, const Event& e);
  void learn_op(Tracking& pass, const Event& e);
  void learn_lost_request(const Event& e);
  void begin_op(Tracking& pass, const Event& e);
  void end_op(Tracking& pass, Op& op, const Event& e);
  void learn_belief(Tracking& pass, const Event& e);
  void taken(Tracking& pass, const Event& e);
  void follow_keys(Tracking& pass, int64_t upto);
  void learn_key_name(Learning& pass, const Event& e);
  void learn_client_id(const Event& e);
  void learn_epoch(Learning& pass, const Event& e);
  void track(Tracking& pass, const Event& e);
  void track_reader_timeout(Tracking& pass, const Event& e);
  void lose_keys(Tracking& pass, const Event& e);
  void track_other_key(Tracking& pass, size_t k, const Event& e, bool known);
  void track_lock_key_event(Tracking& pass, size_t k, const Event& e, bool known);
  void track_exec(Tracking& pass, size_t k, const Event& e, bool known);
  void read_holds(Tracking& pass, size_t k, const Event& e, const KeyState& prev, KeyState& s);
  bool hash_keys(const std::string& rendered) const;
  std::vector<Claim> claims_of(const KeyTrack& track, const std::string& value, const std::string& creator) const;
  bool sent_rightfully(const Event& exec, const KeyTrack& track) const;
  // Whether `owner`, acquiring `lock` at t without believing it holds it, is locked out by its own
  // hold in `part`: an attempt of its acquire under way was refused by the key an earlier attempt of
  // the same operation set (its reply lost), so it will never learn it holds the lock. A lock that
  // lets its holder back in (Redisson's hashes) never locks one out.
  bool locked_out(const std::string& owner, const std::string& lock, const KeyTrack& part, int64_t t) const;
  // Whether the part keeps `waiter` from the lock at t (Kept), holds the waiter's own hold (Mine),
  // or neither (Free, and why).
  enum class Part : uint8_t { Kept, Mine, Free };
  Part part_state(const KeyTrack& part, const Op& waiter, int64_t t, FreeWhy& why, int64_t& state_event,
                  int64_t as_of = -1) const;
  std::string side_of(const std::string& lock) const;
  // Whether enough of `parts` leave `waiter` free at t (as of event `as_of`, when >= 0), and not
  // enough hold its own hold already; `f` gets the part that shows it, the gravest reason first.
  bool parts_free(const std::vector<const KeyTrack*>& parts, const Op& waiter, int64_t t, FreeSpan& f,
                  int64_t as_of = -1) const;
  // The moments within (from, to) at which free_spans's answer may change: events, and what changes
  // without one (a told wait running out, a key passing its expiry, a server coming back), sorted.
  std::vector<int64_t> free_cuts(const std::vector<const KeyTrack*>& parts, const Op& waiter,
                                 const std::vector<Span>& told, int64_t from, int64_t to,
                                 const FreeOptions& options) const;
  // A queue entry stops keeping the waiter threadWaitTime after the server last heard from it, with
  // no event then: those moments, added to `cuts`.
  void entry_timeouts(const std::vector<const KeyTrack*>& parts, const Op& waiter, int64_t from, int64_t to,
                      const FreeOptions& options, std::vector<int64_t>& cuts) const;

  const History* history_;
  History own_;  // a stream's events
  const LockType* type_;
  std::unique_ptr<Learning> learning_;  // a stream's first pass, then the second's open beliefs
  std::unique_ptr<Tracking> tracking_;  // a stream's second pass
  std::deque<Op> ops_;
  size_t ops_retired_ = 0;
  std::map<int64_t, size_t> op_index_;  // op id -> its position among all ops (retired ones included)
  // The operations their client's crash cut short (no outcome came): op id -> the crash.
  std::map<int64_t, Span> crash_cut_;
  // The operations with an event after their end: op id -> the ms of the latest.
  std::map<int64_t, int64_t> late_ms_;
  int64_t max_flight_ms_ = 0;
  std::deque<Belief> beliefs_;
  size_t beliefs_retired_ = 0;
  std::vector<FaultSpan> faults_;
  std::map<std::string, std::vector<Span>> unavailable_;
  std::map<std::string, int> servers_;
  std::vector<std::string> server_list_;
  std::map<std::string, std::string, std::less<>> client_of_prefix_;  // "<uuid>" -> "A"
  std::optional<int64_t> epoch_ms_;  // the servers' clock (absolute ms) at run time 0, when it shows
  // (key index, reader field) -> the n of its live timeout keys; absent: not known (none seen, or a
  // restart or failover since)
  std::map<std::pair<size_t, std::string>, std::set<int64_t>> reader_timeouts_;
  std::vector<KeyTrack> keys_;
  std::map<std::string, std::vector<size_t>> parts_;  // lock -> indexes into keys_
  // owner + '\n' + lock -> its spans of believing or operating, and of believing
  std::map<std::string, RightSpans> rights_;
  std::map<std::string, RightSpans> believed_;
  // owner + '\n' + lock -> its acquires under way, the ms its attempts ran on the server (a
  // stream's: from the latest before what it retired) and its latest acquire's wait
  struct Waiting {
    RightSpans acquiring;
    std::vector<int64_t> polls;
    struct Acquire {
      int64_t from_ms, wait_ms, op;
    };
    std::vector<Acquire> waits;  // each acquire's Invoke ms, wait and operation, in order
    // While acquiring, the spans in which every request it sent was lost: from the last attempt the
    // server ran to the next (or the acquire's end); the latest may still be open (to kForever).
    std::vector<Span> unheard;
    // The keys that refused a resend of an acquire because an earlier attempt of the same acquire had
    // set them (its reply lost): from that refusal to the acquire's end (kForever while under way).
    // Kept here, not read from the operation's executions, so that a stream that retired them still
    // knows (locked_out).
    struct Lockout {
      size_t key;
      int64_t from_ms, to_ms, op;
    };
    std::vector<Lockout> lockouts;
  };
  std::map<std::string, Waiting> waiting_;
};

}  // namespace locksim::model
