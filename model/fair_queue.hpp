#pragma once
// Fair queue: the FIFO promise of a fair lock (Redisson's FairLock), judged from the history alone.
//
// Words. A *waiter* is an acquire (Invoke lock/try_lock) whose script told it to wait: its
// *enqueue* is the server's Exec (role "acquire") of its first attempt that answered a ttl (an
// integer, not nil); waiters are ordered by the history index of that Exec. It is *granted* at
// the Exec (role "acquire" or "try_acquire") that put its hold into the lock hash (a re-entry the
// server counted on a hold it still had is no grant, whatever the client believed). It *leaves* at its first acquire_failed Exec or its Fail/Info outcome, whichever
// comes first. W is threadWaitTime (FairQueueOptions::thread_wait_ms; tryLock's wait instead when
// try_wait_replaces_thread_wait and wait > 0). A waiter is *silent* while its process can not act
// (paused, partitioned, crashed: the liveness checker's notion); it is *evicted* W after a silence
// begins (not before its enqueue) if the silence lasts that long, and from then to its next
// attempt it is a *ghost*. An attempt after an eviction that answers a ttl enqueues it afresh, at
// the back. A waiter that is neither silent for W nor gone is *live*: how often the client library
// retries is the lock's business, not the waiter's (Redisson's lock() sleeps for whatever ttl the
// script told it, often longer than W).
//
// The bound (the ideal; Redisson's scripts only approximate it, see docs/checkers.md):
// - fifo-inversion: when any owner is granted the lock (a newcomer that never queued included),
//   no waiter that enqueued before it (before its own enqueue, or before the grant for a
//   newcomer) is still waiting and live. Witness: the earlier waiter's enqueue, the grantee's
//   enqueue (if it queued) and the grant.
// - blocked-by-evicted / starved: a live waiter is never kept waiting while the lock is free
//   (Facts::free_spans: the server did not legitimately hold the lock hash) for grace_ms or more in total within
//   [enqueue, grant or leave or end], not counting its own silences nor the first W of the
//   silences of waiters ahead of it (they keep their place that long). When some of the counted
//   time falls while a waiter ahead of it was a ghost, the anomaly is blocked-by-evicted (witness:
//   the waiter's enqueue, the ghost's enqueue, the fault that silenced the ghost, the execution that
//   freed the lock, the waiter's grant or outcome); otherwise starved.
// Redisson misses the second bound by the time a silent waiter had ahead of it at its last
// attempt: its eviction time in the timeout set is that attempt + the lock's remaining lease (+ W
// per waiter ahead) + W, not the attempt + W.
#include <cstdint>
#include <memory>

#include "model/facts.hpp"
#include "model/judge.hpp"
#include "model/verdict.hpp"

namespace locksim::model {

struct FairQueueOptions {
  int64_t thread_wait_ms = 5000;
  bool try_wait_replaces_thread_wait = false;
  int64_t grace_ms = 500;
};

Verdict check_fair_queue(const Facts& facts, const FairQueueOptions& options = {});
// The same as a judge (judge.hpp): a grant is judged once every acquire begun before it is settled,
// a stay once every stay enqueued before it is known; a fifo-inversion anywhere beats a starvation.
std::unique_ptr<Judge> fair_queue_judge(const Facts& facts, const FairQueueOptions& options = {});

}  // namespace locksim::model
