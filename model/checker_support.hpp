#pragma once
// What the checkers share and nothing else: building verdicts, rendering times, indexing client
// operations (the Invoke, its outcome and the Exec events it caused, by op id), and reading a lock
// key rendered as "field=value,field=value".
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/history.hpp"
#include "model/verdict.hpp"

namespace locksim::model::support {

// "1500 ms".
std::string ms(int64_t t);

Verdict holds(std::string_view property, std::string explanation);
Verdict unknown(std::string_view property, std::string explanation);
// The witness is sorted and deduplicated; negative indexes (events not found) are dropped.
Verdict violated(std::string_view property, std::string_view anomaly, std::vector<int64_t> witness,
                 std::string explanation);

// lock or try_lock.
bool is_acquire(std::string_view f);
// Ok, Fail or Info.
bool is_outcome(EventKind kind);

// One client operation: indexes of its Invoke, its first Ok/Fail/Info and its Exec events (-1 or
// empty when absent). Op ids are assumed unique across the whole history.
struct OpEvents {
  int64_t invoke = -1;
  int64_t outcome = -1;
  std::vector<int64_t> execs;
};
using OpIndex = std::unordered_map<int64_t, OpEvents>;
OpIndex index_ops(const History& history);

// The last Exec of `op` whose role is `role`, -1 when none.
int64_t find_exec(const History& history, const OpIndex& ops, int64_t op, std::string_view role);

// The owner (process:thread) of the client op `op`, "" when the op has no Invoke.
std::string owner_of_op(const History& history, const OpIndex& ops, int64_t op);

// A lock key as Exec events render it: "" (no key) gives an empty map; "f=1,g=2" gives {f:1, g:2};
// anything else (a string key, a non-integer value) gives nullopt.
std::optional<std::map<std::string, int64_t>> parse_hash(std::string_view rendered);

// Which hash field of a lock key belongs to which owner. Lock hashes name their holder by a client
// id the history does not record (Redisson: "<uuid>:<thread>"), so it is learned: the one field an
// owner's own acquire or unlock changed, ending in ":<thread>" and not yet anyone else's, is that
// owner's. Until learned, an owner's field is taken to be its own name (process:thread).
class HolderFields {
 public:
  void learn(const std::string& owner, int64_t thread, const std::map<std::string, int64_t>& before,
             const std::map<std::string, int64_t>& after);
  std::string field_of(const std::string& owner) const;
  // The owner of `field`; `field` itself when unknown.
  std::string owner_of(const std::string& field) const;

 private:
  std::map<std::string, std::string> field_of_;  // owner -> field
  std::map<std::string, std::string> owner_of_;  // field -> owner
};

// Time spans, and the notion of "free" the liveness and fair-queue checkers share.
constexpr int64_t kForever = std::numeric_limits<int64_t>::max();
struct Span {
  int64_t from = 0;
  int64_t to = kForever;
  // The event that began it: the Release that freed the lock (free spans; -1 when free from the
  // start) or the Fault that took the process away (unavailable spans).
  int64_t cause = -1;
};

// Per lock, the spans during which no live owner believed it held the lock: from the Release
// (depth 0, f unlock or crash) that left no believer to the next Hold by anyone.
std::map<std::string, std::vector<Span>> free_spans(const History& history);

// The spans during which `process` could not act: paused, partitioned, crashed (to the end).
std::vector<Span> unavailable(const History& history, const std::string& process);

// How long [from, to) overlaps `span` minus the parts covered by `away` (which may overlap).
int64_t usable(int64_t from, int64_t to, const Span& span, const std::vector<Span>& away);

}  // namespace locksim::model::support
