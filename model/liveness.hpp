#pragma once
// Liveness: no waiter waits while the lock is free, judged against what the server held
// (Facts::free_spans), not against what clients believed. Every acquire (lock or try_lock) is
// judged, whatever its outcome (ok, fail, unknown, none by the end), over [its Invoke, its outcome,
// its client's crash or the end of the history):
//  - starved: the server did not legitimately keep it from the lock for grace_ms or more in total,
//    not counting time its own process could not act (paused, partitioned, crashed). A wait that
//    ends with the lock is judged too (a wake-up lost on the way, a sleep through a free lock).
//    Waiting while a crashed holder's lease runs out, or while a holder's acquire has run but its
//    reply is still on the way, is not free time: the server legitimately holds the lock then.
//  - starved, refused while free: an attempt the server refused because of a key nobody could
//    release (its holders gone and its expiry never coming, or lying beyond the lease they set), so
//    that many short attempts on a dead lock are caught although each alone is short.
// Time its own requests spend on their way to the server (from when it sent one to when the server
// ran it) is not counted: the waiter was trying. Otherwise faults on the waiter's link (delay, loss)
// do not excuse it: a wake-up they lose or hold up is free time; they are reported beside the verdict.
// Evidence: the waiter, its outcome, the free spans with the key state that shows each, the faults
// in effect. Applies to every lock type.
#include <cstdint>
#include <memory>

#include "model/facts.hpp"
#include "model/judge.hpp"
#include "model/verdict.hpp"

namespace locksim::model {

struct LivenessOptions {
  int64_t grace_ms = 500;
  // FairLock: how long a queue entry that is no longer live keeps the waiters behind it
  // (FreeOptions), as the fair queue reads it (checkers.cpp gives its FairQueueOptions').
  int64_t thread_wait_ms = 5000;
  bool try_wait_replaces_thread_wait = false;
};

Verdict check_liveness(const Facts& facts, const LivenessOptions& options = {});
std::unique_ptr<Judge> liveness_judge(const Facts& facts, const LivenessOptions& options = {});

}  // namespace locksim::model
