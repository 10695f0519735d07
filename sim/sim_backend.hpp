#pragma once
// SimBackend: a lock client's Backend on simulated servers. Every request and reply crosses the
// client's link to a fake Redis node; replies, messages and timers wake the client's coroutines
// through the world, which holds them back while the client is paused and drops them once it has
// crashed.
#include <memory>
#include <optional>
#include <string>

#include "base/inline_function.hpp"
#include "sim/redis_node.hpp"
#include "world/client_backend.hpp"

namespace locksim::sim {

class SimBackend : public world::ClientBackend {
 public:
  // `nodes` are the fabric's servers, which outlive their clients.
  SimBackend(world::Harness& world, world::ClientProcess& client, const Nodes& nodes)
      : ClientBackend(world, client), nodes_(nodes) {}

  void disconnect() override;
  void reset() override;

 protected:
  void send(SharedCommand command, world::Sent sent, bool as_eval, uint64_t identity,
            std::shared_ptr<world::Waiter> waiter, SharedReply reply) override;
  void send_subscribe(const std::string& channel, int server, std::shared_ptr<world::Waiter> waiter) override;
  void send_unsubscribe(const std::string& channel, int server) override;

 private:
  // Sends `what` to `node`; `at_server` runs there when the request arrives (or, the node paused,
  // when it takes it up), and when it gives an answer, that travels back and completes `waiter` with
  // it (true: done; false: refused, as a SUBSCRIBE during an error window). `tag` is the request's
  // record (request_tag), whose identity is its chance and its reply's. A request still on the
  // link when the client's connection closes (reset) never arrives. `what` describes the request,
  // only when a message is lost.
  using Describe = InlineFunction<std::string(), 32>;  // a command or a channel name, kept in place
  // What the server answers, and when the answer leaves it (a blocked WAIT's later; at or before
  // now: at once).
  struct Answer {
    bool value = true;
    int64_t due = 0;
  };
  using AtServer = InlineFunction<std::optional<Answer>(), 64>;
  // One request on its way, shared by its arrival and (the node paused) its later taking up.
  struct Request {
    Describe what;
    AtServer at_server;
    world::EventTag tag;  // the request's record on the agenda
    SharedReply reply;    // where at_server puts a command's reply (null for SUBSCRIBE, UNSUBSCRIBE)
  };
  void round_trip(Describe what, RedisNode& node, const world::EventTag& tag, AtServer at_server,
                  std::shared_ptr<world::Waiter> waiter, SharedReply reply = nullptr);
  void arrive(const std::shared_ptr<Request>& request, RedisNode& node, std::shared_ptr<world::Waiter> waiter);
  // Sends the answer back, or, due later, holds it at the server until then. A paused server sends
  // nothing until it resumes; one that restarted, failed over or died since sends nothing at all.
  void answer(const std::shared_ptr<Request>& request, RedisNode& node, std::shared_ptr<world::Waiter> waiter,
              Answer answer, uint64_t incarnation);

  RedisNode& node(int server) const { return *nodes_.at(static_cast<size_t>(server)); }

  const Nodes& nodes_;
};

}  // namespace locksim::sim
