#pragma once
// ClientProcess: one client program in the world (a JVM running Redisson, say): its identity, clock,
// link, threads and coroutines, and whether it is alive, paused or gone.
#include <coroutine>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "client/lock_user.hpp"
#include "client/task.hpp"
#include "world/event_queue.hpp"
#include "world/network.hpp"
#include "world/ops.hpp"
#include "world/chance.hpp"

namespace locksim::world {

class ClientBackend;

struct ClientThread {
  std::deque<OpSpec> pending;
  bool busy = false;
  bool interrupted = false;  // Java's interrupt status (the interrupt fault)
  // Counts the operations an interrupt ended before their frames did: an operation's frame that
  // finds it moved on leaves the thread to the one that runs now.
  uint64_t left = 0;
};

struct ChannelState {
  int references = 0;
  bool confirmed = false;
  int64_t permits = 0;
  std::vector<std::shared_ptr<struct Waiter>> waiters;
  std::shared_ptr<struct Waiter> subscribing;  // the SUBSCRIBE awaiting its confirmation, if any
};

// A server's channel, as a client keeps it apart from another server's channel of the same name.
// Found by (server, name) without building a key (ChannelOrder is transparent).
struct ChannelKey {
  int server = 0;
  std::string channel;
};
struct ChannelOrder {
  using is_transparent = void;
  static std::pair<int, std::string_view> of(const ChannelKey& k) { return {k.server, k.channel}; }
  static std::pair<int, std::string_view> of(const std::pair<int, std::string_view>& k) { return k; }
  template <typename A, typename B>
  bool operator()(const A& a, const B& b) const {
    return of(a) < of(b);
  }
};

// A coroutine parked until something happens (a reply, a message, a timer), whichever first.
struct Waiter {
  std::coroutine_handle<> handle;
  int64_t task = 0;  // the client's task that waits (ClientProcess::task)
  uint64_t generation = 0;
  bool done = false;
  bool value = false;
  EventQueue::EventId timer{};  // the event that ends the wait if nothing else does first
};

struct ClientProcess {
  ClientProcess(std::string name, int index, std::string uuid, LinkOptions link, uint64_t chance_seed)
      : name(std::move(name)),
        index(index),
        uuid(std::move(uuid)),
        link(link),
        chance_seed(chance_seed),
        messages(Identity() << this->name << "message") {}

  std::string name;
  int index = 0;  // its place in the order the world's clients were added (its Actor)
  std::string uuid;
  ClientClock clock;
  Link link;
  uint64_t chance_seed;     // its tokens and jitter: drawn from this and what they are for (chance.hpp)
  Occurrences occurrences;  // what it has sent, by name, for the identities of the next
  Occurrences draws;        // what it has drawn (tokens, jitter): unlike messages, their values act
  Identity messages;        // the start of every name of a message it sends: hashed once
  bool crashed = false;
  int64_t paused_until = 0;
  uint64_t generation = 1;  // bumped on crash: parked coroutines of an old generation never run
  std::vector<client::Task<void>> tasks;          // top-level coroutines (thread ops, watchdogs)
  // Which task runs now, so that what it waits on says whose it is: a thread's operation is its
  // thread's number; any other task (a watchdog) the negative of its place among those spawned.
  int64_t task = 0;
  int64_t tasks_spawned = 0;
  struct Deferred {
    std::coroutine_handle<> handle;
    int64_t task;
    bool value;  // what its waiter was completed with, which the coroutine reads when it runs
  };
  std::deque<Deferred> deferred;  // woken while paused, run at resume
  std::map<int64_t, ClientThread> threads;
  std::map<ChannelKey, ChannelState, ChannelOrder> channels;  // by server, then channel
  ClientBackend* backend = nullptr;  // its connections; the world owns it and drops it after the process
  std::unique_ptr<client::LockUser> user;
};

}  // namespace locksim::world
