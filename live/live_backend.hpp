#pragma once
// LiveBackend: a lock client's Backend on a real redis-server, over hiredis. Scripts go as EVALSHA
// (EVAL on NOSCRIPT, in ClientBackend); pub/sub has its own connection per server; a broken
// connection reopens on the next request and the pub/sub one resubscribes, as Redisson does. The
// client's link (latency, loss, partition, delay) is emulated in front of the real connection, so a
// scenario's network faults act here as in the simulation. Each script on a lock key runs inside
// MULTI with a read of the key before and after, which gives the history the same Exec records the
// simulated server writes.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "live/connection.hpp"
#include "live/endpoints.hpp"
#include "world/client_backend.hpp"

namespace locksim::live {

class LiveBackend final : public world::ClientBackend, public MoveListener {
 public:
  // Listens for moves from construction to destruction.
  LiveBackend(world::Harness& world, world::ClientProcess& client, Endpoints& endpoints);
  ~LiveBackend() override;

  void disconnect() override;
  // The client closes its connections (a reset): the server runs what it had read and sees them go.
  void reset() override;
  // The server moved (a failover): connections reopen at its new address.
  void moved(int server) override;

 protected:
  void send(SharedCommand command, world::Sent sent, bool as_eval, uint64_t identity, std::shared_ptr<world::Waiter> waiter,
            SharedReply reply) override;
  void send_subscribe(const std::string& channel, int server, std::shared_ptr<world::Waiter> waiter) override;
  void send_unsubscribe(const std::string& channel, int server) override;

 private:
  struct Links {
    std::unique_ptr<Connection> commands;
    std::unique_ptr<Connection> pubsub;
  };
  Links& links(int server);
  void execute(const SharedCommand& command, world::Sent sent, bool as_eval, uint64_t identity,
               std::shared_ptr<world::Waiter> waiter, SharedReply reply);
  // The answer on its way back over the client's link.
  void send_back(const SharedCommand& command, bool as_eval, uint64_t identity,
                 const std::shared_ptr<world::Waiter>& waiter, const SharedReply& reply, Reply answer);
  void resubscribe(int server);

  Endpoints& endpoints_;
  std::vector<Links> links_;
  uint64_t generation_;  // the client's generation when this backend's connections were made
};

}  // namespace locksim::live
