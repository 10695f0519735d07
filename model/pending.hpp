#pragma once
// Operations still under way when a run ended: invoked, never answered (no ok, fail or info), and
// not cut short by their client's crash (a crash ends what its client was doing). DESIGN.md: "An
// operation still waiting when the run ends is reported as pending; a claim that depends on how it
// ends is not 'holds'." Read in one pass over the events, holding only the operations open at
// once, so a streamed history is read the same way as one held whole.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/history.hpp"

namespace locksim::model {

struct PendingOp {
  int64_t op = 0;        // the operation id
  std::string owner;     // "A:1"
  std::string f;         // lock, try_lock, unlock, work, ...
  std::string lock;      // "" when the operation names none
  int64_t invoke = -1;   // the Invoke's event index
  int64_t since_ms = 0;  // when it was invoked
  int64_t wait_ms = -1;  // an acquire's wait (-1: forever)
};

struct PendingOps {
  std::vector<PendingOp> ops;  // in the order they were invoked
  int64_t end_ms = 0;          // when the run ended (its last event)
  bool empty() const { return ops.empty(); }
  // How many are acquires (lock, try_lock): the ones a verdict about the lock depends on.
  int64_t acquires() const;
  // "2 lock() calls and 1 try_lock() call still waiting at the end (since 200 ms, 300 ms and 400 ms)".
  std::string describe() const;
};

// The pending operations of the events `next` yields, in order (nullopt ends them).
PendingOps pending_operations(const std::function<std::optional<Event>()>& next);
PendingOps pending_operations(const History& history);

}  // namespace locksim::model
