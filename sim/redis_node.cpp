#include "sim/redis_node.hpp"

#include <algorithm>

#include "base/assert.hpp"
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

void RedisNode::deliver(engine::SessionId subscriber, std::string_view channel, std::string_view) {
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

Reply RedisNode::execute(const std::string& client, const client::Command& command, world::Sent sent, bool as_eval) {
  LS_ASSERT(up_);
  Connections& conn = connections(client);
  aof_stale_ = true;
  std::string numkeys;
  client::command_word_views(command, as_eval, numkeys, words_);
  world::AroundRequest around;
  if (!command.lock.empty()) around.before = render(command.lock);
  Reply reply = engine_->execute(conn.commands, std::span<const std::string_view>(words_));
  if (!command.lock.empty()) around.after = render(command.lock);
  around.ttl_ms = ttl(command.lock);
  // An absent queue is an empty one.
  if (!command.queue.empty()) {
    around.queue = render(command.queue);
    if (around.queue.empty()) around.queue = Atom(model::render_list({}));
  }
  world_.record(world::exec_event(index_, client, command, sent, reply, std::move(around)));
  if (has_replica_) remember_for_replica();
  return reply;
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
  const Snapshot empty;
  replace_engine(persistence == Persistence::AofEverySec ? aof_ : empty);
  if (persistence == Persistence::None) aof_.clear();
  replica_log_.clear();
}

void RedisNode::failover(int64_t lag_ms) {
  up_ = true;
  replace_engine(replica_log_.promoted(world_.now(), lag_ms));
  replica_log_.clear();
  remember_for_replica();
}

void RedisNode::remember_for_replica() {
  replica_log_.remember(world_.now(), engine_->keyspace().entries());
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
