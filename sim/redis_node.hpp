#pragma once
// RedisNode: a simulated Redis server. It owns a fake Redis engine and runs each command or script
// atomically at the moment it arrives, recording what it executed and what happened to keys. It can
// restart (empty, or from its last AOF fsync a second ago at most) and fail over to a replica that
// lags by some milliseconds.
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "base/atom.hpp"
#include "client/backend.hpp"
#include "engine/engine.hpp"
#include "engine/replica_acks.hpp"
#include "engine/snapshot.hpp"
#include "world/exec_event.hpp"
#include "world/fault.hpp"
#include "world/harness.hpp"

namespace locksim::sim {

using world::Persistence;

inline constexpr int64_t kNever = engine::kNeverMs;

class RedisNode : public engine::Host {
 public:
  RedisNode(world::Harness& world, std::string name, int index);
  int index() const { return index_; }

  const std::string& name() const { return name_; }
  bool up() const { return up_; }

  // Runs a client's request; the reply Redis would send. `client` names the connection. A synced
  // request (Command::sync_replicas) runs its WAIT next: the reply is then the sequence of both
  // answers, due at `*due` (when the WAIT answers; else now).
  Reply execute(const std::string& client, const client::Command& command, world::Sent sent, bool as_eval,
                int64_t* due = nullptr);
  // Answers a request during an error window (error_now() is set): the error, recorded, nothing run.
  Reply refuse(const std::string& client, const client::Command& command, world::Sent sent);
  // The pub/sub connection of `client`: SUBSCRIBE / UNSUBSCRIBE, replies as the engine gives them.
  Reply pubsub(const std::string& client, const std::vector<std::string>& argv);
  // A client's connections close (it crashed): its subscriptions go.
  void disconnect(const std::string& client);

  // Restart: the keyspace and script cache are lost, except what the AOF had written.
  void restart(Persistence persistence);
  // The replica, `lag_ms` behind, becomes the master (and the server is up again).
  void failover(int64_t lag_ms);
  // The process dies: nothing answers until a failover.
  void go_down() {
    up_ = false;
    ++incarnation_;
  }
  // Keeps the snapshots a replica lagging `keep_ms` behind needs (call before writes happen), for a
  // replica that applies and acknowledges each write `ack_lag_ms` after the master ran it.
  void keep_replica(int64_t keep_ms, int64_t ack_lag_ms);
  // The replicas connected now (INFO's connected_slaves): 1 from keep_replica on, else 0.
  int connected_replicas() const { return ack_lag_ms_ >= 0 ? 1 : 0; }

  // WAIT numreplicas timeout, run on `client`'s connection after its last command: its answer and
  // when it is sent (engine/replica_acks.hpp; kNever: blocked for good).
  engine::WaitAnswer wait(const std::string& client, int64_t numreplicas, int64_t timeout_ms);
  // Counts restarts, failovers and deaths: a blocked client's answer is not sent across one (its
  // connection closed with the process it was on).
  uint64_t incarnation() const { return incarnation_; }
  // Stopped (SIGSTOP) until `t`: it reads nothing, expires nothing, writes no AOF.
  void pause_until(int64_t t) { paused_until_ = std::max(paused_until_, t); }
  int64_t paused_until() const { return paused_until_; }
  // Until `t`, every request is answered at once with the error `text` and runs nothing (a script
  // running past busy-reply-threshold elsewhere, a replica loading its dataset). A later window
  // replaces an earlier one.
  void answer_errors_until(int64_t t, std::string text) {
    errors_until_ = t;
    error_text_ = std::move(text);
  }
  // The error every request gets now, or nullptr when requests run.
  const std::string* error_now() const;

  void active_expire();
  void aof_fsync();
  // The first run time from `from` on at which active_expire() or aof_fsync(), called by a
  // housekeeping that runs every `every_ms` and fsyncs in the first `every_ms` of each second,
  // could change anything (kNever: not before some event changes the node).
  int64_t housework_from(int64_t from, int64_t every_ms) const;
  // Direct access (tests): counted as a change the AOF has not seen.
  engine::Engine& engine() {
    aof_stale_ = true;
    return *engine_;
  }

  // The server's state as data (base/state_writer.hpp), times relative to now: up, paused or
  // answering errors, its keyspace and scripts, each client's connections, its AOF and replica.
  void describe(StateWriter& out) const;

  // engine::Host
  int64_t now_ms() override;
  void sleep_ms(int64_t ms) override;
  void deliver(engine::SessionId subscriber, std::string_view channel, std::string_view message,
               std::string_view pattern) override;
  void key_event(engine::KeyEvent event, std::string_view key, int64_t expire_at_ms) override;
  // WAIT and INFO, which lock clients send: rows of the engine's table that a server answers.
  bool serves(engine::ServerCommand command) const override {
    return command == engine::ServerCommand::Wait || command == engine::ServerCommand::Info;
  }
  Reply server_command(engine::ServerCommand command, engine::CommandContext& ctx) override;

 private:
  using Snapshot = engine::Snapshot;
  struct Connections {
    engine::SessionId commands = 0;
    // When the last write before this connection's last command ran (-1: none): what a replica must
    // have applied for WAIT to count it (the client's replication offset, c->woff).
    int64_t woff_ms = -1;
    engine::SessionId pubsub = 0;
    std::set<std::string> channels;  // what the pub/sub connection is subscribed to
  };

  Connections& connections(const std::string& client);
  // Whose command execute() runs, and where its WAIT's answer time goes: what server_command needs
  // beyond the engine's context.
  struct Serving {
    const std::string* client = nullptr;
    int64_t* due = nullptr;
  };
  Serving serving_;
  void replace_engine(const Snapshot& snapshot);
  void remember_for_replica();
  // The key rendered (rendered_key.hpp), interned: most renderings repeat one already stored.
  Atom render(const std::string& key);
  // PTTL of `key` now: -2 none, -1 no expiry, else ms left.
  int64_t ttl(const std::string& key);

  world::Harness& world_;
  std::string name_;
  int index_;
  std::unique_ptr<engine::Engine> engine_;
  bool up_ = true;
  bool quiet_ = false;  // no key events while a snapshot is restored
  std::map<std::string, Connections> connections_;
  std::map<engine::SessionId, std::string> pubsub_owner_;
  Snapshot aof_;
  // Whether the keyspace may differ from aof_: set by anything that may change either (commands,
  // expiry, a new engine), cleared by aof_fsync. While it is false an fsync would copy nothing new.
  bool aof_stale_ = false;
  bool has_replica_ = false;  // a failover is planned: writes are remembered (even with no lag)
  int64_t ack_lag_ms_ = -1;   // how long after a write the replica acknowledges it (-1: no replica)
  int64_t last_write_ms_ = -1;  // when the keyspace last changed by a command (-1: never)
  uint64_t incarnation_ = 0;
  int64_t paused_until_ = 0;
  int64_t errors_until_ = 0;
  std::string error_text_;
  engine::ReplicaLog replica_log_;
  std::string rendering_;  // render's buffer, reused
  std::vector<std::string_view> words_;  // execute's words, reused (a server runs one request at a time)
};

// A fabric's servers, redis0 first.
using Nodes = std::vector<std::unique_ptr<RedisNode>>;

}  // namespace locksim::sim
