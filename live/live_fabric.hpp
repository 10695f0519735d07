#pragma once
// LiveFabric: a world's clients on real redis-servers and the real clock. The servers are ones
// locksim starts (127.0.0.1, free ports, no persistence unless a restart asks for AOF, a real replica
// where a failover needs one) or ones the user names (--redis). One poll loop carries every
// client's connections; each server's keyspace notifications become the history's Key events.
// Server faults act on the processes: kill and start again, SIGSTOP / SIGCONT, REPLICAOF NO ONE.
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <memory>
#include <string>
#include <vector>

#include "live/connection.hpp"
#include "live/endpoints.hpp"
#include "live/redis_process.hpp"
#include "live/server_needs.hpp"
#include "world/fabric.hpp"
#include "world/harness.hpp"

namespace locksim::live {

struct LiveOptions {
  std::vector<Address> servers;  // --redis: use these; empty: start our own
  std::string password;
  bool flush = false;            // FLUSHALL a named server before the run (else it must be empty)
};

class LiveFabric final : public world::Fabric, public Endpoints {
 public:
  // Starts (or checks) the servers; throws std::runtime_error with what is wrong.
  LiveFabric(LiveOptions options, std::vector<ServerNeeds> needs);
  ~LiveFabric() override;

  // Milliseconds since the run started (since attach).
  int64_t elapsed_ms();

  // world::Fabric: the world's history gets the servers' key events; its clock starts at attach.
  void attach(world::Harness& world) override;
  int servers() const override { return static_cast<int>(servers_.size()); }
  int64_t least_latency_ms() const override { return 0; }
  std::unique_ptr<world::ClientBackend> connect(world::ClientProcess& client) override;
  int64_t reachable(int64_t now, int64_t until) override;
  int64_t run_at(int64_t, int64_t reached) const override { return reached; }
  void wait(int64_t until_ms) override;
  void pump() override;
  void plan(const world::Fault& fault, int64_t at) override;
  void restart(int server, world::Persistence persistence) override;
  void pause(int server, int64_t for_ms) override;
  void resume(int server) override;
  void failover(int server, int64_t lag_ms) override;
  void crash_master(int server, int64_t down_ms) override;
  void error_reply(int server, int64_t for_ms, const std::string& text) override;

  // Endpoints: what the backends use.
  const Address& address(int server) const override { return servers_.at(static_cast<size_t>(server)).address; }
  const std::string& password() const override { return options_.password; }
  std::string describe(int server) const override;
  void watch(Connection* connection) override;
  void unwatch(Connection* connection) override;
  void listen(MoveListener* listener) override { listeners_.push_back(listener); }
  void forget(MoveListener* listener) override { std::erase(listeners_, listener); }

 private:
  struct Server {
    std::string name;
    Address address;
    std::unique_ptr<RedisProcess> process;  // null when the user named the server
    std::unique_ptr<RedisProcess> replica;
    std::unique_ptr<Connection> monitor;    // keyspace notifications
    std::string saved_notify_config;        // a named server's setting, restored at the end
    bool paused = false;
    std::unique_ptr<RedisProcess> sentinel;       // watches the master when a failover goes via Sentinel
    std::unique_ptr<Connection> sentinel_events;  // its +switch-master announcements
    std::optional<std::chrono::steady_clock::time_point> master_died;  // awaiting Sentinel's switch
    bool named = false;                 // the user's (--redis), not started by locksim
    std::set<std::string> created;      // a named server: keys the run created, deleted at the end
  };

  void start_own(Server& server, const ServerNeeds& needs);
  void prepare_named(Server& server, const ServerNeeds& needs);
  void restore_named();
  std::string hint(const Address& address, const std::string& message) const;
  void wait_for_replica(Server& server);
  void open_monitor(int server);
  // A connection with something to read, as the poll saw it (its generation tells a socket that was
  // closed and reopened since).
  struct Ready {
    uint64_t order;
    Connection* connection;
    uint64_t generation;
    bool operator<(const Ready& other) const { return order < other.order; }
  };
  std::vector<Ready> poll_watched(int timeout_ms);
  void check_servers();
  void move_clients(int server);
  void start_sentinel(Server& server, int64_t down_after_ms);
  void watch_sentinel(int server);
  void switched(int server, int port);
  void make_master(int server);
  // The replica stops following its master: from now on it lags.
  void detach_replica(int server);

  LiveOptions options_;
  std::vector<Server> servers_;
  world::Harness* world_ = nullptr;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_check_;
  std::map<Connection*, uint64_t> watched_;  // every open-able connection, with its registration order
  uint64_t next_watch_ = 0;
  std::vector<MoveListener*> listeners_;  // in the order they started listening
};

}  // namespace locksim::live
