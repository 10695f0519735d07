#pragma once
// ClientBackend: the part of a client's Backend that is the same however requests travel: timers,
// channel permits and waiters, the EVALSHA-then-EVAL fallback, the history and ids. A subclass
// carries the requests (sim::SimBackend over the simulated link to fake nodes; live::LiveBackend
// over hiredis to a real redis-server) and completes the waiters it is handed when answers come.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "client/backend.hpp"
#include "world/chance.hpp"
#include "world/event_queue.hpp"
#include "world/exec_event.hpp"
#include "world/scheduler.hpp"

namespace locksim::world {

class Harness;
struct ClientProcess;
struct Waiter;

class ClientBackend : public client::Backend {
 public:
  ClientBackend(Harness& world, ClientProcess& client) : world_(world), client_(client) {}

  int64_t now_ms() override;
  int64_t task() const override;
  void keep(int64_t task, std::string_view what, int64_t value) override;
  void keep_command(int64_t task, std::string_view what, const client::Command* command) override;
  // Its calls awaiting replies and its connection, as state (base/state_writer.hpp).
  void describe(StateWriter& out) const;
  client::Task<void> sleep(int64_t ms) override;
  client::Task<client::CallResult> call(client::SharedCommand command, int64_t timeout_ms, client::ScriptForm form) override;
  client::Task<bool> subscribe(std::string channel, int64_t timeout_ms, int server) override;
  void unsubscribe(const std::string& channel, int server) override;
  client::Task<bool> wait_message(std::string channel, int64_t timeout_ms, int server) override;
  void forget_messages(const std::string& channel, int server) override;
  // The fenced resource is locksim's own stand-in for storage, behind the client's link.
  client::Task<int> write_fenced(std::string resource, int64_t token, int64_t thread, int64_t timeout_ms) override;
  void spawn(client::Task<void> task) override;
  void record(model::Event&& event) override;
  int64_t next_op() override;
  const std::string& client_id() const override;
  const std::string& name() const override;
  std::string random_token(std::string_view purpose) override;
  int64_t random_range(std::string_view purpose, int64_t lo, int64_t hi) override;
  bool interrupted(int64_t thread) const override;
  void clear_interrupt(int64_t thread) override;
  void interrupt_when_waiting(int64_t thread) override;
  bool end_wait(int64_t task) override;

  // A pub/sub message on `channel` from `server` reached this client.
  void on_message(const std::string& channel, int server);
  // The client crashed: its connections close (its subscriptions with them).
  virtual void disconnect() = 0;
  // The client's connections close and it goes on (the `reset` fault): every request in flight fails
  // at once (CallResult::connection_lost), requests and replies still on the link are dropped, and
  // the client subscribes its channels again over a new connection. A subclass closes its own
  // connections, then calls this.
  virtual void reset();

 protected:
  using SharedCommand = client::SharedCommand;
  using SharedReply = std::shared_ptr<Reply>;
  // Sends one request (EVAL with the script's body when `as_eval`), stamped `sent` and named
  // `identity` (its reply: reply_identity(identity)); when the reply comes it is stored in `*reply`
  // and `waiter` completed with true. A request or reply that is lost completes nothing.
  virtual void send(SharedCommand command, Sent sent, bool as_eval, uint64_t identity, std::shared_ptr<Waiter> waiter,
                    SharedReply reply) = 0;
  // Subscribes the pub/sub connection; completes `waiter` with true on the server's confirmation.
  virtual void send_subscribe(const std::string& channel, int server, std::shared_ptr<Waiter> waiter) = 0;
  virtual void send_unsubscribe(const std::string& channel, int server) = 0;

  // Crosses the client's link (latency, loss, partition, delay): `then` runs when the message
  // arrives, or never when it is lost (recorded with the text `what` gives).
  // `to` is what acts when it arrives: a server (or the world, for the fenced resource) on the way
  // there, this client on the way back: the tag says which (request_tag, reply_tag), and its
  // identity names the message, for its chance.
  void hop(const EventTag& tag, EventQueue::Action then, const std::function<std::string()>& what);
  // The record of a request to `server` (-1: the fenced resource) named `identity`, carrying
  // `command` (null for a SUBSCRIBE, a fenced write: then `about` says what it carries), over the
  // connection open now, its reply awaited by `waiter` (if any).
  EventTag request_tag(int server, uint64_t identity, const client::Command* command, const Waiter* waiter = nullptr,
                       uint64_t about = 0) const;
  // The record of the reply to `request`, on its way back to this client, carrying `payload` (null
  // for a SUBSCRIBE's confirmation or a fenced write's answer).
  EventTag reply_tag(const EventTag& request, const Reply* payload = nullptr) const;
  // The identity of the next message this client sends that is `what` (the n-th alike is another).
  uint64_t message_identity(Identity what);
  // The identity of the reply to the request named `request`.
  static uint64_t reply_identity(uint64_t request);
  void lost(std::string text);

  std::shared_ptr<Waiter> new_waiter() const;
  // Completes `waiter` with `value` unless something completed it first.
  void complete(const std::shared_ptr<Waiter>& waiter, bool value);
  void complete_at(int64_t at_ms, const std::shared_ptr<Waiter>& waiter, bool value);

  Harness& world_;
  ClientProcess& client_;
  // Which connection a request went over: reset() opens a new one, and what was sent over an older
  // one is dropped on the way.
  uint64_t connection_epoch_ = 0;

 private:
  struct InFlight {
    std::shared_ptr<Waiter> waiter;
    Reply reply;  // shared with the request by aliasing this call's own pointer: one allocation
    bool connection_lost = false;
    // Where call() is in its sends of one request (kept here, not in its frame, for describe()):
    int attempt = 0;       // a script sent again after NOSCRIPT is the second
    bool as_eval = false;  // sent with its body
    bool loading = false;  // the SCRIPT LOAD before it
    bool may_resend = false;  // a script that NOSCRIPT would send again, stamped sent_ms
    int64_t sent_ms = 0;   // the first send's stamp, which every send carries
  };
  struct KeptValue {
    int64_t task;
    std::string_view what;  // a literal (client::Kept)
    int64_t value;
    const client::Command* command;  // or this (the keeping frame holds it)
  };
  std::vector<KeptValue> kept_;  // keep()'s, in the order first kept (a few at most)
  // The subscription or message wait each task is parked in, for end_wait (a thread waits in one
  // at a time; an entry outlives its wait only until the next wait of its task replaces it).
  std::map<int64_t, std::weak_ptr<Waiter>> interruptible_;
  // Every call awaiting its reply, in the order they were sent (ids only grow: appended in order).
  std::vector<std::pair<uint64_t, std::shared_ptr<InFlight>>> in_flight_;
  uint64_t next_call_ = 0;
};

// Suspends a coroutine until its waiter completes. It holds a plain pointer (the coroutine's own
// shared_ptr keeps the waiter alive): GCC 12 may destroy a co_await operand's temporaries twice.
struct Park {
  Waiter* waiter;
  bool await_ready() const noexcept;
  void await_suspend(std::coroutine_handle<> h) noexcept;
  bool await_resume() const noexcept;
};

}  // namespace locksim::world
