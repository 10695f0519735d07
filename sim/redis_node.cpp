#include "sim/redis_node.hpp"

#include <algorithm>

#include "base/assert.hpp"
#include "engine/command_context.hpp"
#include "engine/numbers.hpp"
#include "client/command_words.hpp"
#include "model/events.hpp"
#include "model/rendered.hpp"
#include "sim/rendered_key.hpp"
#include "world/exec_event.hpp"

namespace locksim::sim {

RedisNode::RedisNode(world::Harness& world, std::string name, int index)
    : world_(world), name_(std::move(name)), index_(index), engine_(std::make_unique<engine::Engine>(*this)) {}

int64_t RedisNode::now_ms() { return world_.epoch_now(); }

// The simulated server never blocks the world; DEBUG SLEEP is not sent by lock clients.
void RedisNode::sleep_ms(int64_t) {}

void RedisNode::deliver(engine::SessionId subscriber, std::string_view channel, std::string_view,
                        std::string_view pattern) {
  LS_ASSERT(pattern.empty());  // a simulated client subscribes to channels only (pubsub())
  auto it = pubsub_owner_.find(subscriber);
  LS_ASSERT(it != pubsub_owner_.end());
  world_.carry_message(it->second, channel, index_);
}

void RedisNode::key_event(engine::KeyEvent event, std::string_view key, int64_t expire_at_ms) {
  if (quiet_) return;
  world_.record(model::key_event(name_, std::string(key), std::string(engine::key_event_name(event)),
                                 expire_at_ms == engine::kNoExpire ? 0 : expire_at_ms));
}

RedisNode::Connections& RedisNode::connections(const std::string& client) {
  auto it = connections_.find(client);
  if (it != connections_.end()) return it->second;
  Connections c;
  c.commands = engine_->open_session();
  c.pubsub = engine_->open_session();
  pubsub_owner_[c.pubsub] = client;
  return connections_.emplace(client, std::move(c)).first->second;
}

Atom RedisNode::render(const std::string& key) {
  render_key_to(rendering_, engine_->keyspace(), key, world_.epoch_now());
  return Atom(rendering_);
}

int64_t RedisNode::ttl(const std::string& key) { return key_ttl(engine_->keyspace(), key, world_.epoch_now()); }

Reply RedisNode::execute(const std::string& client, const client::Command& command, world::Sent sent, bool as_eval,
                         int64_t* due) {
  LS_ASSERT(up_);
  Connections& conn = connections(client);
  aof_stale_ = true;
  std::string numkeys;
  client::command_word_views(command, as_eval, numkeys, words_);
  world::AroundRequest around;
  if (!command.lock.empty()) around.before = render(command.lock);
  serving_ = Serving{&client, due};
  Reply reply = engine_->execute(conn.commands, std::span<const std::string_view>(words_));
  serving_ = Serving{};
  if (!command.lock.empty()) around.after = render(command.lock);
  around.ttl_ms = ttl(command.lock);
  // An absent queue is an empty one.
  if (!command.queue.empty()) {
    around.queue = render(command.queue);
    if (around.queue.empty()) around.queue = Atom(model::render_list({}));
  }
  world_.record(world::exec_event(index_, client, command, sent, reply, std::move(around)));
  if (has_replica_) remember_for_replica();
  conn.woff_ms = last_write_ms_;
  if (command.sync_replicas < 0) return reply;
  LS_ASSERT(due != nullptr);
  // The WAIT is recorded as it blocks, with the answer it will give (nothing runs in between on
  // this connection, and the replica's acknowledgements are known ahead: keep_replica).
  const engine::WaitAnswer waited = wait(client, command.sync_replicas, command.sync_timeout_ms);
  Reply counted = Reply::integer_of(waited.replicas);
  world_.record(world::exec_event(index_, client, client::wait_behind(command), sent, counted, {}));
  *due = waited.at_ms;
  return Reply::sequence({std::move(reply), std::move(counted)});
}

// INFO's replication section, which is what lock clients read of it (connected_slaves), and WAIT
// (replication.c), for the command execute() runs.
Reply RedisNode::server_command(engine::ServerCommand command, engine::CommandContext& ctx) {
  LS_ASSERT(serving_.client != nullptr);
  if (command == engine::ServerCommand::Info)
    return Reply::bulk("# Replication\r\nrole:master\r\nconnected_slaves:" + std::to_string(connected_replicas()) +
                       "\r\n");
  LS_ASSERT(command == engine::ServerCommand::Wait);
  // Only lock clients send here, with numbers they made: a malformed WAIT is a bug of theirs.
  const std::optional<int64_t> numreplicas = engine::parse_int64(ctx.arg(1)), timeout_ms = engine::parse_int64(ctx.arg(2));
  LS_ASSERT(numreplicas);
  LS_ASSERT(timeout_ms);
  LS_ASSERT(*timeout_ms >= 0);
  const engine::WaitAnswer waited = wait(*serving_.client, *numreplicas, *timeout_ms);
  LS_ASSERT(waited.at_ms <= world_.now() || serving_.due != nullptr);
  if (serving_.due) *serving_.due = waited.at_ms;
  return Reply::integer_of(waited.replicas);
}

void RedisNode::keep_replica(int64_t keep_ms, int64_t ack_lag_ms) {
  has_replica_ = true;
  replica_log_.keep_lag(keep_ms);
  ack_lag_ms_ = std::max(ack_lag_ms_, ack_lag_ms);
  replica_log_.sync(world_.now(), engine_->keyspace().entries());  // what it starts with: no write
}

engine::WaitAnswer RedisNode::wait(const std::string& client, int64_t numreplicas, int64_t timeout_ms) {
  return engine::answer_wait(world_.now(), connections(client).woff_ms, connected_replicas(), ack_lag_ms_, numreplicas,
                             timeout_ms);
}

const std::string* RedisNode::error_now() const { return world_.now() < errors_until_ ? &error_text_ : nullptr; }

// A request refused by an error window: the server answers with the error and runs nothing, so the
// keys read the same before and after. Recorded like an execution, so that the history shows whom it
// refused and when.
Reply RedisNode::refuse(const std::string& client, const client::Command& command, world::Sent sent) {
  const std::string* error = error_now();
  LS_ASSERT(error != nullptr);
  Reply reply = Reply::error(*error);
  world::AroundRequest around;
  if (!command.lock.empty()) around.before = around.after = render(command.lock);
  around.ttl_ms = ttl(command.lock);
  if (!command.queue.empty()) {
    around.queue = render(command.queue);
    if (around.queue.empty()) around.queue = Atom(model::render_list({}));
  }
  world_.record(world::exec_event(index_, client, command, sent, reply, std::move(around)));
  return reply;
}

Reply RedisNode::pubsub(const std::string& client, const std::vector<std::string>& argv) {
  Connections& conn = connections(client);
  aof_stale_ = true;
  Reply reply = engine_->execute(conn.pubsub, argv);
  if (argv.size() == 2 && argv[0] == "SUBSCRIBE") conn.channels.insert(argv[1]);
  if (argv.size() == 2 && argv[0] == "UNSUBSCRIBE") conn.channels.erase(argv[1]);
  return reply;
}

void RedisNode::disconnect(const std::string& client) {
  auto it = connections_.find(client);
  if (it == connections_.end()) return;
  engine_->close_session(it->second.commands);
  engine_->close_session(it->second.pubsub);
  pubsub_owner_.erase(it->second.pubsub);
  connections_.erase(it);
}

void RedisNode::replace_engine(const Snapshot& snapshot) {
  // Clients reconnect to the new process; Redisson resubscribes their channels.
  std::map<std::string, std::set<std::string>> subscriptions;
  for (const auto& [client, conn] : connections_) subscriptions[client] = conn.channels;
  connections_.clear();
  pubsub_owner_.clear();
  quiet_ = true;
  aof_stale_ = true;
  engine_ = std::make_unique<engine::Engine>(*this);
  engine::restore(engine_->keyspace(), snapshot);
  quiet_ = false;
  for (const auto& [client, channels] : subscriptions)
    for (const auto& channel : channels) pubsub(client, {"SUBSCRIBE", channel});
}

void RedisNode::restart(Persistence persistence) {
  up_ = true;
  ++incarnation_;
  const Snapshot empty;
  replace_engine(persistence == Persistence::AofEverySec ? aof_ : empty);
  if (persistence == Persistence::None) aof_.clear();
  replica_log_.clear();
  if (has_replica_) replica_log_.sync(world_.now(), engine_->keyspace().entries());  // no write
}

// The replica set keeps one replica lagging as before (the old master rejoins as the new one's, or
// another takes its place), so WAIT and INFO count what the next failover could promote.
void RedisNode::failover(int64_t lag_ms) {
  up_ = true;
  ++incarnation_;
  replace_engine(replica_log_.promoted(world_.now(), lag_ms));
  replica_log_.sync(world_.now(), engine_->keyspace().entries());  // the next replica follows the new master
  last_write_ms_ = -1;
}

void RedisNode::remember_for_replica() {
  if (replica_log_.remember(world_.now(), engine_->keyspace().entries())) last_write_ms_ = world_.now();
}

void RedisNode::active_expire() {
  if (up_ && engine_->active_expire() > 0) aof_stale_ = true;
}

void RedisNode::aof_fsync() {
  if (!up_ || !aof_stale_) return;  // not stale: aof_ already equals the keyspace
  aof_ = engine_->keyspace().entries();
  aof_stale_ = false;
}

// What housekeeping at run time t does here: nothing while paused (paused_until_ > t) or down;
// else active_expire removes every key whose expiry the server's clock has passed (epoch time of t
// > expire_at), and in the first every_ms of a second an fsync copies the keyspace (only new when
// aof_stale_). Pauses, restarts and writes come by events, so this holds until the next event.
int64_t RedisNode::housework_from(int64_t from, int64_t every_ms) const {
  if (!up_) return kNever;
  const int64_t start = std::max(from, paused_until_);
  const int64_t epoch_offset = world_.epoch_now() - world_.now();
  int64_t at = kNever;
  for (const auto& [key, entry] : engine_->keyspace().entries())
    if (entry.expire_at_ms != engine::kNoExpire)
      at = std::min(at, std::max(start, entry.expire_at_ms - epoch_offset + 1));
  if (aof_stale_) {
    const int64_t second = start - start % 1000;
    at = std::min(at, start % 1000 < every_ms ? start : second + 1000);
  }
  return at;
}

}  // namespace locksim::sim

namespace locksim::sim {

void RedisNode::describe(StateWriter& out) const {
  const int64_t now = world_.now();
  const auto until = [now](int64_t t) { return std::max<int64_t>(t - now, 0); };
  out.field("name", name_).flag("up", up_).field("incarnation", static_cast<int64_t>(incarnation_));
  out.field("paused_for", until(paused_until_)).field("errors_for", until(errors_until_));
  if (until(errors_until_) > 0) out.field("error", error_text_);
  engine_->describe(out, world_.epoch_now());
  // Subscribers by connection, in the order a PUBLISH reaches them.
  for (const auto& [channel, sessions] : engine_->subscribers()) {
    out.begin("channel").field("name", channel);
    for (const engine::SessionId s : sessions) {
      const auto owner = pubsub_owner_.find(s);
      out.field("subscriber", owner == pubsub_owner_.end() ? std::string_view("?") : std::string_view(owner->second));
    }
    out.end();
  }
  for (const auto& [client, c] : connections_) {
    out.begin("connection").field("client", client);
    out.field("last_write_ago", c.woff_ms < 0 ? -1 : now - c.woff_ms);
    out.begin("commands");
    engine_->describe_session(out, c.commands);
    out.end();
    out.flag("pubsub", c.pubsub != 0);
    for (const std::string& channel : c.channels) out.field("subscribed", channel);
    out.end();
  }
  // The AOF: what a restart would bring back, whether an fsync would change it, and when the next
  // fsyncs come (the first ms of each second: a write from now on is on disk at the next one).
  out.flag("aof_stale", aof_stale_).field("second_phase", now % 1000);
  out.begin("aof");
  engine::describe(out, aof_, world_.epoch_now());
  out.end();
  out.flag("has_replica", has_replica_).field("ack_lag", ack_lag_ms_);
  out.field("last_write_ago", last_write_ms_ < 0 ? -1 : now - last_write_ms_);
  if (has_replica_ || ack_lag_ms_ >= 0) {
    out.begin("replica");
    replica_log_.describe(out, now, world_.epoch_now());
    out.end();
  }
}

}  // namespace locksim::sim
