#pragma once
// World: the simulated world. Virtual time in ms, one seeded RNG split per purpose, Redis nodes,
// clients on network links, faults injected at exact times, and a history of everything. A run is a
// pure function of its inputs and seed: the same seed gives the same history, byte for byte.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "client/script_catalog.hpp"
#include "model/history.hpp"
#include "world/client_process.hpp"
#include "world/event_queue.hpp"
#include "world/fabric.hpp"
#include "world/fenced_resource.hpp"
#include "world/network.hpp"
#include "world/ops.hpp"
#include "world/redis_node.hpp"
#include "world/rng.hpp"

namespace locksim::world {

struct WorldOptions {
  uint64_t seed = 1;
  LinkOptions link;                       // every client's link, unless changed per client
  int64_t epoch_ms = 1700000000000;       // what the servers' and clients' clocks read at time 0
  int64_t active_expire_every_ms = 100;   // Redis's active expiry cycle
  std::string scripts_dir;                // where the lock scripts are (default: the checkout's)
  int64_t max_events = 50'000'000;        // a run that needs more is a bug (or an unbounded scenario)
  int servers = 1;                        // independent Redis servers, redis0 .. redis<N-1> (RedLock)
};

class World {
 public:
  // Without a fabric the servers are simulated nodes on virtual time; with one (live/), the world's
  // clock follows real time and requests go where the fabric carries them. The fabric outlives it.
  explicit World(WorldOptions options, Fabric* fabric = nullptr);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  // --- set-up
  ClientProcess& add_client(const std::string& name);
  // Gives every client (present and future) its own instance of the lock.
  void add_lock(const LockSpec& spec);
  ClientProcess& client(const std::string& name);
  // A simulated server (a world on a fabric has none: it throws).
  RedisNode& node(int server = 0);
  int servers() const { return fabric_ ? fabric_->servers() : static_cast<int>(nodes_.size()); }
  bool live() const { return fabric_ != nullptr; }
  client::ScriptCatalog& scripts() { return scripts_; }

  // --- what happens, at exact times
  void at(int64_t t, std::function<void()> action);
  // Queues an operation on a client thread; a thread does one thing at a time, in order.
  void op(int64_t t, const std::string& client, int64_t thread, OpSpec spec);
  void crash(int64_t t, const std::string& client);
  void pause(int64_t t, const std::string& client, int64_t duration_ms);
  void partition(int64_t t, const std::string& client, int64_t duration_ms);
  void delay(int64_t t, const std::string& client, int64_t extra_ms, int64_t duration_ms);
  void loss(int64_t t, const std::string& client, uint64_t per_thousand, int64_t duration_ms);
  void clock_jump(int64_t t, const std::string& client, int64_t jump_ms);
  void redis_restart(int64_t t, Persistence persistence, int server = 0);
  void failover(int64_t t, int64_t lag_ms, int server = 0);
  // The master dies and Sentinel promotes its replica (which follows it: no lag) `down_ms` later;
  // live, Sentinel decides when (down-after-milliseconds = down_ms, plus its election).
  void sentinel_failover(int64_t t, int64_t down_ms, int server = 0);
  // The server stops (SIGSTOP) for `duration_ms`: it reads nothing meanwhile, then catches up.
  void redis_pause(int64_t t, int64_t duration_ms, int server = 0);

  // --- running
  // Runs every event up to and including time t; the clock ends at t.
  void run_until(int64_t t);
  // Records that the run stops now: checkers judge what never finished against this end.
  void finish();
  int64_t now() const { return queue_.now(); }
  int64_t epoch_now() const { return options_.epoch_ms + queue_.now(); }
  uint64_t events_executed() const { return queue_.executed(); }

  // --- what the parts use
  model::History& history() { return history_; }
  void record(model::Event event);
  EventQueue& queue() { return queue_; }
  Rng& network_rng() { return network_rng_; }
  FencedResource& resource(const std::string& lock) { return resources_[lock]; }
  // A write with `token` reaches the fenced resource; recorded, and whether it was accepted.
  bool fenced_write(const std::string& client, int64_t thread, const std::string& resource, int64_t token);
  // Resumes a client's parked coroutine now, later (paused) or never (crashed since).
  void wake(ClientProcess& client, const std::shared_ptr<Waiter>& waiter);
  void spawn(ClientProcess& client, client::Task<void> task);
  // A message the node published, on its way to `client` over its link.
  void carry_message(const std::string& client, const std::string& channel, int server);
  const WorldOptions& options() const { return options_; }
  int64_t next_op_id() { return ++last_op_id_; }

 private:
  std::vector<std::unique_ptr<client::Lock>> make_locks(ClientProcess& client, const LockSpec& spec);
  void start_next_op(ClientProcess& client, int64_t thread);
  client::Task<void> run_op(ClientProcess& client, int64_t thread, OpSpec spec);
  void fault(const std::string& process, const std::string& f, int64_t value, int64_t for_ms, std::string text = {});
  void sweep_finished_tasks();
  void housekeeping();
  void run_paced_until(int64_t t);
  void check_server(int server) const;

  WorldOptions options_;
  Fabric* fabric_ = nullptr;
  EventQueue queue_;
  Rng root_rng_;
  Rng network_rng_;
  model::History history_;
  client::ScriptCatalog scripts_;
  std::vector<std::unique_ptr<RedisNode>> nodes_;
  std::map<std::string, std::unique_ptr<ClientProcess>> clients_;
  std::vector<LockSpec> locks_;
  std::map<std::string, FencedResource> resources_;
  int64_t last_op_id_ = 0;
};

}  // namespace locksim::world
