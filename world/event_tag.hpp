#pragma once
// EventTag: what an agenda entry is, as data beside its action. The closure does the work; the tag
// says what it is (a request on a client's link, a timer, a fault's end, ...), what it acts on, and
// for a message in flight which message (its identity, world/chance.hpp) and what it carries. So the
// messages in flight of a world can be listed from the agenda alone, and a digest of the world's
// state (world-as-data.md) reads records, not closures. Every entry has one: EventQueue::at takes no
// entry without it.
#include <cstdint>
#include <string_view>

#include "base/reply.hpp"

#include "world/scheduler.hpp"

namespace locksim::client {
struct Command;
}

namespace locksim::world {

struct Waiter;

enum class EventKind : uint8_t {
  TimelineOp,     // an operation handed to a client thread at its time in the scenario
  TimelineFault,  // a fault at its time in the scenario
  ThreadNext,     // a client thread takes up its next operation
  FaultEnd,       // a fault's end: a partition heals, a paused server resumes
  ClientResume,   // a paused client runs again
  Timer,          // a waiter's timeout, or a sleep's end
  Request,        // a request on a client's link, on its way to a server (or the fenced resource)
  RequestHeld,    // a request that reached a paused server, taken up when it resumes
  Reply,          // a reply on its way back to the client
  ReplyHeld,      // a reply the server holds back until it is due (a blocked WAIT's), then sent
  Delivery,       // a pub/sub message on its way to a client
  ServerChange,   // a server's own change of state: a replica promoted, a replica detached
  Retry,          // a live client's retry of a reconnection
  Interrupt,      // a client thread's interrupt status acts on the wait it has begun, or on one after a pause
  Test,           // put there by a test or a bench
};

std::string_view to_string(EventKind kind);

struct EventTag {
  EventKind kind = EventKind::Test;
  Actor actor{};     // what it acts on (scheduler.hpp)
  int client = -1;   // the client it concerns, by index (-1: none)
  int server = -1;   // the server it concerns (-1: none, or the fenced resource)
  uint64_t message = 0;  // a message's identity (0: not a message)
  // A request or its reply: the command it carries (kept alive by the entry's action), else null.
  const client::Command* command = nullptr;
  // A reply to a command: what it answers (kept alive by the entry's action), else null.
  const Reply* reply = nullptr;
  // A delivery: its channel (the atom its action holds), else "". A SUBSCRIBE's channel or a fenced
  // write's resource is part of its identity, not here.
  std::string_view what{};
  // What the action captured that decides what it does, so that a digest of the world (issue 38)
  // reads it from the record:
  // - a timer, request or reply: the waiter it completes (kept alive by the action), else null;
  const Waiter* waiter = nullptr;
  // - a timer or a held reply: what it completes its waiter with (a sleep's end: true);
  bool value = false;
  // - a request: whether a script goes as EVAL with its body;
  bool as_eval = false;
  // - a timeline entry: its place in the file's timeline; a thread's next operation: the thread;
  //   a Sentinel's promotion: the promoted replica's lag;
  int64_t item = -1;
  // - a request or reply: when the request was sent (-1: not a request);
  int64_t sent_ms = -1;
  // - a request or reply: the client's connection it went over; a held reply: the server's
  //   incarnation it answers from (one that restarted since drops it);
  uint64_t epoch = 0;
  // - a message without a command (a SUBSCRIBE's channel, a fenced write's resource and token),
  //   hashed: the same for the same message however many went before it (unlike `message`).
  uint64_t about = 0;

  bool is_message() const {
    return kind == EventKind::Request || kind == EventKind::RequestHeld || kind == EventKind::Reply ||
           kind == EventKind::ReplyHeld || kind == EventKind::Delivery;
  }

  static EventTag of(EventKind kind, Actor actor) { return {.kind = kind, .actor = actor}; }
  // An event of client `index`'s own (a timer, its next operation, its resume).
  static EventTag of_client(EventKind kind, int index) {
    return {.kind = kind, .actor = Actor::client(index), .client = index};
  }
  // An event of server `index`'s own (a fault's end, a promotion).
  static EventTag of_server(EventKind kind, int index) {
    return {.kind = kind, .actor = Actor::server(index), .server = index};
  }
  static EventTag test(Actor actor = Actor::world()) { return {.kind = EventKind::Test, .actor = actor}; }
};

}  // namespace locksim::world
