#pragma once
// History: what happened in one run, in order, as both backends (simulated and live) record it and
// as every checker reads it. One vocabulary, Jepsen-style: client operations are invoke followed by
// ok, fail or info (outcome unknown); around them the run records what clients believed, what the
// servers executed, what happened to keys, faults and messages.
#include <algorithm>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/atom.hpp"
#include "model/chunks.hpp"

namespace locksim::model {

enum class EventKind : uint8_t {
  Invoke,   // a client operation starts (f: lock, try_lock, unlock, force_unlock, work, write, ...)
  Ok,       // it succeeded (value: its result, e.g. the fencing token, or 1)
  Fail,     // it failed for sure (text: why, e.g. "IllegalMonitorStateException", "not acquired")
  Info,     // its outcome is unknown (a timeout): it may or may not have taken effect
  Hold,     // the client now believes it holds `lock` (value: depth after; lease_ms: -1 = watchdog)
  Release,  // the client stops believing it holds `lock` (value: depth after; f: unlock or crash)
  Exec,     // a server executed a command or script (f: role; text: command; reply; before/after/ttl_ms: lock key)
  Key,      // a server-side key event (f: created, expire_set, persisted, deleted, expired; value: expire_at)
  Renew,    // a watchdog renewal finished on the client (value: 1 renewed, 0 refused, -1 no reply)
  Fault,    // a fault begins or ends (f: crash, pause, resume, partition, heal, clock_jump, restart, ...; for_ms)
  Message,  // a pub/sub message (f: delivered or lost)
  Write,    // a write reached the fenced resource (f: accepted or rejected; value: its token)
  End,      // the run stopped here (process "world"): what had not finished by now never did (f: the lock type a run's clients ran)
};

std::string_view to_string(EventKind kind);
// Ok, Fail or Info: an operation's outcome.
inline bool is_outcome(EventKind kind) {
  return kind == EventKind::Ok || kind == EventKind::Fail || kind == EventKind::Info;
}

struct Event {
  int64_t index = 0;      // position in the history (assigned by History::add)
  int64_t at_ms = 0;      // true simulation time (the live backend: ms since the run started)
  EventKind kind = EventKind::Info;
  Atom process;    // client ("A"), server ("redis0") or "world"
  int64_t thread = 0;     // the client thread, 0 when not about one
  int64_t op = 0;         // operation id linking Invoke/Ok/Fail/Info with the Exec events it caused
  Atom lock;       // the lock (or key) concerned, "" when none
  Atom f;          // what: operation, script role, key event or fault name
  int64_t value = 0;
  int64_t wait_ms = -1;   // Invoke of an acquire: how long it may wait (-1: forever)
  int64_t lease_ms = -1;  // Invoke of an acquire / Hold: the lease (-1: none, watchdog renews)
  Atom text;       // Exec: the command; Fail/Info: why; Fault: details
  Atom reply;      // Exec: the reply
  Atom before;     // Exec: the lock key before, rendered (see render_hash)
  Atom after;      // Exec: the lock key after
  Atom client;     // Exec: the client whose request it ran ("" for the server's own)
  int64_t sent_ms = -1;   // Exec: when that client sent the request (-1: not known)
  // Exec: the index the history's next event had when the request was sent, so every event before
  // it happened before the send, even within sent_ms (-1: not known)
  int64_t sent_index = -1;
  int64_t ttl_ms = -2;    // Exec: the lock key's PTTL after it ran (-2: no key, -1: no expiry)
  Atom queue;      // Exec of a FairLock command: its waiter queue after it ran, "[a,b]" ("" not recorded)
  int64_t for_ms = -1;    // Fault: how long it lasts (-1: an instant, or until a later event ends it)

  // Who the event is about: "client:thread" (for an Exec, the requesting client's thread).
  std::string owner() const { return (kind == EventKind::Exec ? client : process) + (":" + std::to_string(thread)); }
};

// One event as a line of write_jsonl (no newline): a stream writes its events one at a time.
void write_event_jsonl(std::ostream& out, const Event& e);

class History {
 public:
  // Appends `event`, assigning its index. Events must arrive in time order.
  const Event& add(Event event);
  const Chunks<Event>& events() const { return events_; }
  size_t size() const { return events_.size(); }
  const Event& operator[](size_t i) const { return events_[i]; }
  int64_t end_ms() const { return events_.empty() ? 0 : events_.back().at_ms; }

  // One JSON object per line, fields in a fixed order, defaults omitted: the same run gives the
  // same bytes. write_jsonl writes them one by one, so a long history is never held twice.
  std::string to_jsonl() const;
  void write_jsonl(std::ostream& out) const;
  // Reads what to_jsonl wrote; throws std::runtime_error naming the line on bad input.
  static History from_jsonl(std::string_view text);

  // Frees the events before `index` (in whole chunks): a stream keeps only what it still needs.
  // Indices stay; events() begins at the first event kept.
  void drop_before(int64_t index) { events_.drop_before(static_cast<size_t>(std::max<int64_t>(index, 0))); }

 private:
  Chunks<Event> events_;
};

// Reads a history file as write_jsonl wrote it, one event at a time, so that a history longer than
// memory can be judged pass by pass. Each event is checked against those before it (time order,
// where a send fell); throws std::runtime_error naming the line on bad input.
class HistoryReader {
 public:
  HistoryReader() = default;  // lines given to read()
  explicit HistoryReader(std::istream& in) : in_(&in) {}
  // The next event of the input, its index assigned; nullopt at its end.
  std::optional<Event> next();
  // The event one line holds; nullopt for an empty line.
  std::optional<Event> read(std::string_view line);

 private:
  std::istream* in_ = nullptr;
  std::string line_;
  size_t line_no_ = 0;
  int64_t count_ = 0;
  // The times of the latest events, by index modulo the size: where a send fell (sent_i) is
  // checked against them. A send further back than that is not checked.
  static constexpr size_t kRecent = size_t{1} << 16;
  std::vector<int64_t> recent_ = std::vector<int64_t>(kRecent);
};

}  // namespace locksim::model
