#pragma once
// Waiting: what a thread's acquire carries from one suspension to the next (how much of tryLock's
// wait is left, when it was last charged, the ttl it waits on, which step of the loop it is at),
// kept by its lock instead of in coroutine frames. A world's waiting clients can then be listed,
// compared and digested as data.
#include <cstdint>
#include <map>
#include <string_view>
#include <utility>

#include "base/assert.hpp"

namespace locksim::client {

struct Waiting {
  enum class Phase {
    Acquiring,    // an acquire attempt is on its way (the first, or one after a wake-up)
    Subscribing,  // awaiting the server's confirmation of its wake-up channel
    Listening,    // subscribed, waiting for an unlock message or its ttl
    Relistening,  // lock() interrupted while listening: it waits its ttl again (the status cleared)
    Sleeping,     // a polling lock between attempts
    Leaving,      // tryLock gave up and is cleaning up (a FairLock leaves its queue)
    Finishing,    // acquired: the after-acquire steps (its lease, its watchdog)
  };
  int64_t op = 0;
  Phase phase = Phase::Acquiring;
  int64_t attempts = 0;  // acquire attempts sent so far
  int64_t left_ms = -1;  // tryLock: what is left of its wait; lock(): -1, it waits as long as it takes
  int64_t since_ms = 0;  // the client clock when left_ms was last charged
  int64_t ttl_ms = -1;   // what the last refused attempt answered (-1: none, or no expiry)
  // The call's own arguments, which its frame keeps too: written down so that a thread's state is
  // whole without its frame (World::describe).
  int64_t wait_ms = -1;   // tryLock's wait (-1: lock())
  int64_t lease_ms = -1;  // the lease asked for (-1: none, the watchdog's)
  // Thread.interrupt() (Lock::interrupt): the wait under way was ended by it, which the frame reads
  // when it resumes; or the thread has left the operation (an interrupted get()), and the frame
  // only finishes what Redisson's inner stages do with the answer on its way.
  bool interrupted = false;
  bool detached = false;
};

std::string_view to_string(Waiting::Phase phase);

// A lock's per-thread state of one kind (Waiting, or a MultiLock's round), by thread id. An entry
// lives as long as the coroutine that made it: the Entry that `begin` returns ends it when the frame
// ends, however it ends (a crash destroys frames mid-wait).
template <typename State>
class PerThread {
 public:
  class Entry {
   public:
    Entry(PerThread& owner, int64_t thread, State& state) : owner_(&owner), thread_(thread), state_(&state) {}
    Entry(const Entry&) = delete;
    Entry& operator=(const Entry&) = delete;
    ~Entry() { owner_->end(thread_, state_); }
    State& operator*() const { return *state_; }
    State* operator->() const { return state_; }

   private:
    PerThread* owner_;
    int64_t thread_;
    State* state_;  // a map's node stays put while others come and go: no lookup per use
  };

  // `thread` starts what `initial` describes; one thread does one such thing at a time.
  [[nodiscard]] Entry begin(int64_t thread, State initial) {
    const auto [at, fresh] = threads_.emplace(thread, std::move(initial));
    LS_ASSERT(fresh);
    return Entry(*this, thread, at->second);
  }
  const std::map<int64_t, State>& threads() const { return threads_; }
  State* find(int64_t thread) {
    const auto it = threads_.find(thread);
    return it == threads_.end() ? nullptr : &it->second;
  }
  // The thread leaves what its entry describes while the entry's frame goes on: the entry moves to
  // a key no thread has (negative), so that the thread may begin another.
  void detach(int64_t thread) {
    auto node = threads_.extract(thread);
    LS_ASSERT(!node.empty());
    node.key() = -++detached_;
    threads_.insert(std::move(node));
  }

 private:
  // Ends the entry of `state`, which began under `thread` and may have been detached since.
  void end(int64_t thread, const State* state) {
    const auto it = threads_.find(thread);
    if (it != threads_.end() && &it->second == state) {
      threads_.erase(it);
      return;
    }
    for (auto at = threads_.begin(); at != threads_.end(); ++at)
      if (&at->second == state) {
        threads_.erase(at);
        return;
      }
    LS_ASSERT(false);
  }

  std::map<int64_t, State> threads_;
  int64_t detached_ = 0;
};

// One lock's waiting threads.
using WaitingThreads = PerThread<Waiting>;

}  // namespace locksim::client
