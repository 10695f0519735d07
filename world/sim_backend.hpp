#pragma once
// SimBackend: the lock clients' Backend in the simulated world. Every request and reply crosses the
// client's link; replies, messages and timers wake the client's coroutines through the world, which
// holds them back while the client is paused and drops them once it has crashed.
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "client/backend.hpp"

namespace locksim::world {

class World;
struct ClientProcess;
struct Waiter;

class SimBackend : public client::Backend {
 public:
  SimBackend(World& world, ClientProcess& client) : world_(world), client_(client) {}

  int64_t now_ms() override;
  client::Task<void> sleep(int64_t ms) override;
  client::Task<client::CallResult> call(client::Command command, int64_t timeout_ms) override;
  client::Task<bool> subscribe(std::string channel, int64_t timeout_ms, int server) override;
  void unsubscribe(const std::string& channel, int server) override;
  client::Task<bool> wait_message(std::string channel, int64_t timeout_ms, int server) override;
  client::Task<int> write_fenced(std::string resource, int64_t token, int64_t thread, int64_t timeout_ms) override;
  void spawn(client::Task<void> task) override;
  void record(model::Event event) override;
  int64_t next_op() override;
  const std::string& client_id() const override;
  const std::string& name() const override;
  std::string random_token() override;

  // A pub/sub message from `server` reached this client.
  void on_message(const std::string& channel, int server);
  // How the client keeps a server's channel apart from another server's channel of the same name.
  static std::string channel_key(const std::string& channel, int server) {
    return std::to_string(server) + "/" + channel;
  }

 private:
  std::shared_ptr<Waiter> new_waiter() const;
  // Completes `waiter` with `value` unless something completed it first.
  void complete(const std::shared_ptr<Waiter>& waiter, bool value);
  void complete_at(int64_t at_ms, const std::shared_ptr<Waiter>& waiter, bool value);
  // Sends `what` to the server side; `deliver` runs there at arrival, and its answer (if it gives
  // one) travels back and completes `waiter`.
  // `what` describes the message, only when one is lost.
  using Describe = std::function<std::string()>;
  void round_trip(Describe what, std::function<std::optional<std::string>()> at_server,
                  std::shared_ptr<Waiter> waiter, std::shared_ptr<std::string> answer);

  World& world_;
  ClientProcess& client_;
};

}  // namespace locksim::world
