#include "live/live_fabric.hpp"

#include <poll.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <thread>

#include "live/interrupt.hpp"
#include "live/live_backend.hpp"
#include "live/sync_client.hpp"
#include "model/events.hpp"
#include "model/fault_events.hpp"

namespace locksim::live {
namespace {

constexpr const char* kNotify = "Exgn";  // key events: expired, generic (del), new keys
const std::vector<std::pair<std::string, std::string>> kKeyEvents = {
    {"__keyevent@0__:expired", "expired"}, {"__keyevent@0__:del", "deleted"}, {"__keyevent@0__:new", "created"}};

SyncClient admin(const Address& address, const std::string& password) {
  return SyncClient(address.host, address.port, password);
}

std::string must(const Reply& reply, const std::string& what) {
  if (reply.is_error()) throw std::runtime_error(what + ": " + reply.str);
  return reply.str;
}

}  // namespace

LiveFabric::LiveFabric(LiveOptions options, std::vector<ServerNeeds> needs) : options_(std::move(options)) {
  if (!options_.servers.empty() && options_.servers.size() < needs.size())
    throw std::runtime_error("the scenario needs " + std::to_string(needs.size()) + " Redis servers; --redis named " +
                             std::to_string(options_.servers.size()));
  try {
    for (size_t i = 0; i < needs.size(); ++i) {
      servers_.emplace_back();
      Server& s = servers_.back();
      s.name = model::server_name(static_cast<int>(i));
      if (options_.servers.empty()) start_own(s, needs[i]);
      else prepare_named(s, needs[i]);
      SyncClient c = admin(s.address, options_.password);
      must(c.command({"CONFIG", "SET", "notify-keyspace-events", kNotify}),
           "CONFIG SET notify-keyspace-events on " + s.address.text());
    }
  } catch (...) {
    // The destructor will not run: named servers get their setting back here.
    restore_named();
    throw;
  }
}

void LiveFabric::start_own(Server& s, const ServerNeeds& needs) {
  if (needs.failovers > 1)
    throw std::runtime_error(s.name + " fails over " + std::to_string(needs.failovers) +
                             " times in this scenario; live, locksim keeps one replica per server and acts out one "
                             "failover (the simulation does any number)");
  RedisProcessOptions server;
  server.aof = needs.aof;
  server.debug_command = false;
  s.process = std::make_unique<RedisProcess>(server);
  s.address = Address{"127.0.0.1", s.process->port()};
  if (needs.failovers > 0) {
    server.replica_of = "127.0.0.1 " + std::to_string(s.process->port());
    s.replica = std::make_unique<RedisProcess>(server);
    wait_for_replica(s);
  }
  if (needs.sentinel) start_sentinel(s, needs.down_after_ms);
}

void LiveFabric::prepare_named(Server& s, const ServerNeeds& needs) {
  s.address = options_.servers[static_cast<size_t>(&s - servers_.data())];
  if (needs.faults)
    throw std::runtime_error("the scenario has server faults (restart, pause, failover), which locksim can only act out on "
                             "servers it starts itself: run it without --redis");
  SyncClient c = admin(s.address, options_.password);
  const Reply config = c.command({"CONFIG", "GET", "notify-keyspace-events"});
  if (config.is_error()) throw std::runtime_error(hint(s.address, "CONFIG GET on " + s.address.text() + ": " + config.str));
  if (config.kind == Reply::Kind::Array && config.elements.size() == 2) s.saved_notify_config = config.elements[1].str;
  s.named = true;
  if (options_.flush) {
    must(c.command({"FLUSHALL"}), "FLUSHALL on " + s.address.text());
    return;
  }
  // Every database counts: a scenario starts from an empty server.
  const Reply keyspace = c.command({"INFO", "keyspace"});
  if (keyspace.is_error()) throw std::runtime_error(hint(s.address, "INFO keyspace on " + s.address.text() + ": " + keyspace.str));
  std::string databases;
  for (size_t at = keyspace.str.find("\ndb"); at != std::string::npos; at = keyspace.str.find("\ndb", at + 1))
    databases += (databases.empty() ? "" : ", ") + keyspace.str.substr(at + 1, keyspace.str.find(',', at) - at - 1);
  if (!databases.empty())
    throw std::runtime_error("Redis at " + s.address.text() + " is not empty (" + databases +
                             "); a scenario starts from an empty server (pass --flush to let locksim FLUSHALL it)");
}

// What a user can do about a refusal.
std::string LiveFabric::hint(const Address& address, const std::string& message) const {
  if (message.find("NOAUTH") != std::string::npos) return message + " (pass its password with --password)";
  if (message.find("Protocol error") != std::string::npos)
    return message + " (is " + address.text() + " a Redis server?)";
  return message;
}

// A named server is someone's: its setting goes back, and the keys the run created go.
void LiveFabric::restore_named() {
  for (Server& s : servers_) {
    if (!s.named) continue;
    try {
      SyncClient c = admin(s.address, options_.password);
      c.command({"CONFIG", "SET", "notify-keyspace-events", s.saved_notify_config});
      std::vector<std::string> del = {"DEL"};
      for (const std::string& key : s.created) del.push_back(key);
      if (del.size() > 1) c.command(del);
    } catch (const std::exception&) {
      // It is gone; nothing to restore.
    }
  }
}

// Ready when the master streams writes to it (RedisProcess syncs replicas from disk: see there).
void LiveFabric::wait_for_replica(Server& s) {
  SyncClient c(s.process->port());
  for (int i = 0; i < 1000 && !interrupt_requested(); ++i) {
    const Reply info = c.command({"INFO", "replication"});
    if (info.str.find(",state=online,") != std::string::npos) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (interrupt_requested()) throw std::runtime_error("interrupted while the replica of " + s.name + " synced");
  throw std::runtime_error("the replica of " + s.name + " did not catch up with its master within 10 s");
}

void LiveFabric::start_sentinel(Server& s, int64_t down_after_ms) {
  RedisProcessOptions options;
  options.sentinel_of = "127.0.0.1 " + std::to_string(s.process->port());
  options.down_after_ms = down_after_ms;
  s.sentinel = std::make_unique<RedisProcess>(options);
  // A Sentinel can only promote a replica it knows of; it learns of it from the master's INFO.
  SyncClient c(s.sentinel->port());
  for (int i = 0; i < 500 && !interrupt_requested(); ++i) {
    const Reply replicas = c.command({"SENTINEL", "REPLICAS", "locksim"});
    if (replicas.kind == Reply::Kind::Array && !replicas.elements.empty()) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  throw std::runtime_error("the Sentinel of " + s.name + " did not find its replica within 5 s");
}

void LiveFabric::watch_sentinel(int server) {
  Server& s = servers_[static_cast<size_t>(server)];
  s.sentinel_events = std::make_unique<Connection>(Address{"127.0.0.1", s.sentinel->port()}, "", true);
  // "+switch-master <name> <old ip> <old port> <new ip> <new port>"
  s.sentinel_events->on_push([this, server](Reply message) {
    const std::string& text = message.elements[2].str;
    const auto last_space = text.rfind(' ');
    if (last_space == std::string::npos) return;
    switched(server, std::atoi(text.c_str() + last_space + 1));
  });
  if (!s.sentinel_events->send({"SUBSCRIBE", "+switch-master"}, nullptr))
    throw std::runtime_error("cannot connect to the Sentinel of " + s.name);
  watch(s.sentinel_events.get());
}

LiveFabric::~LiveFabric() {
  for (Server& s : servers_) {
    s.monitor.reset();
    s.sentinel_events.reset();
    if (s.process && s.paused) s.process->continue_signal();  // RedisProcess stops it
  }
  restore_named();
}

std::string LiveFabric::describe(int server) const {
  const Server& s = servers_.at(static_cast<size_t>(server));
  return s.name + " at " + s.address.text();
}

void LiveFabric::attach(world::Harness& world) {
  world_ = &world;
  for (int i = 0; i < servers(); ++i) {
    open_monitor(i);
    if (servers_[static_cast<size_t>(i)].sentinel) watch_sentinel(i);
  }
  start_ = last_check_ = std::chrono::steady_clock::now();
}

void LiveFabric::open_monitor(int server) {
  Server& s = servers_[static_cast<size_t>(server)];
  if (s.monitor) unwatch(s.monitor.get());
  s.monitor = std::make_unique<Connection>(s.address, options_.password, true);
  s.monitor->on_push([this, server, name = s.name](Reply message) {
    for (const auto& [channel, kind] : kKeyEvents) {
      if (message.elements[1].str != channel) continue;
      const std::string& key = message.elements[2].str;
      if (kind == "created" && servers_[static_cast<size_t>(server)].named) servers_[static_cast<size_t>(server)].created.insert(key);
      world_->record(model::key_event(name, key, kind, 0));
    }
  });
  std::vector<Connection::Request> subscribe;
  for (const auto& [channel, kind] : kKeyEvents) subscribe.push_back({{"SUBSCRIBE", channel}, nullptr});
  if (!s.monitor->send(std::move(subscribe)))
    throw std::runtime_error("cannot connect to " + describe(server) + " to watch its key events");
  watch(s.monitor.get());
}

std::unique_ptr<world::ClientBackend> LiveFabric::connect(world::ClientProcess& client) {
  return std::make_unique<LiveBackend>(*world_, client, *this);
}

void LiveFabric::watch(Connection* connection) { watched_.emplace(connection, next_watch_++); }
void LiveFabric::unwatch(Connection* connection) { watched_.erase(connection); }

int64_t LiveFabric::elapsed_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start_).count();
}

int64_t LiveFabric::reachable(int64_t now, int64_t until) { return std::max(now, std::min(elapsed_ms(), until)); }

// Polls every open connection for up to `timeout_ms`; the ones with something to read.
std::vector<LiveFabric::Ready> LiveFabric::poll_watched(int timeout_ms) {
  std::vector<pollfd> fds;
  std::vector<Ready> open;
  for (const auto& [connection, order] : watched_) {
    if (!connection->open()) continue;
    fds.push_back(pollfd{connection->fd(), POLLIN, 0});
    open.push_back(Ready{order, connection, connection->generation()});
  }
  std::vector<Ready> ready;
  if (!fds.empty() && ::poll(fds.data(), fds.size(), timeout_ms) > 0)
    for (size_t i = 0; i < fds.size(); ++i)
      if (fds[i].revents != 0) ready.push_back(open[i]);
  return ready;
}

void LiveFabric::wait(int64_t until_ms) {
  poll_watched(static_cast<int>(std::clamp<int64_t>(until_ms - elapsed_ms(), 0, 100)));
}

void LiveFabric::pump() {
  if (interrupt_requested()) throw std::runtime_error("interrupted: the run stopped here");
  std::vector<Ready> ready = poll_watched(0);
  // In the order the connections were made, the servers' key events first: Redis wrote them during
  // the command whose reply comes with them.
  std::sort(ready.begin(), ready.end());
  std::stable_partition(ready.begin(), ready.end(), [this](const Ready& item) {
    return std::any_of(servers_.begin(), servers_.end(), [&](const Server& s) { return s.monitor.get() == item.connection; });
  });
  for (const Ready& r : ready) {
    // A callback may have dropped a connection since the poll, or closed and reopened it: a
    // blocking read on a fresh socket with nothing to read would stall every client.
    const auto it = watched_.find(r.connection);
    if (it != watched_.end() && it->second == r.order && r.connection->generation() == r.generation)
      r.connection->readable();
  }
  check_servers();
}

// A server that went away without a fault asking for it ends the run.
void LiveFabric::check_servers() {
  const auto now = std::chrono::steady_clock::now();
  if (now - last_check_ < std::chrono::milliseconds(20)) return;
  last_check_ = now;
  for (int i = 0; i < servers(); ++i) {
    Server& s = servers_[static_cast<size_t>(i)];
    if (s.master_died) {
      // Sentinel takes down-after-milliseconds and an election; a minute is far beyond either.
      if (now - *s.master_died > std::chrono::seconds(60))
        throw std::runtime_error("the Sentinel of " + describe(i) + " did not promote its replica within 60 s");
      continue;
    }
    if (s.process && !s.process->alive())
      throw std::runtime_error(describe(i) + " died during the run (killed from outside locksim, or crashed)");
    if (!s.monitor->open()) {
      // Its monitor connection broke: the port closed. One reconnect tells a blip from a dead server.
      try {
        open_monitor(i);
      } catch (const std::exception&) {
        throw std::runtime_error("lost " + describe(i) + " during the run: it no longer accepts connections");
      }
    }
  }
}

void LiveFabric::restart(int server, world::Persistence persistence) {
  Server& s = servers_.at(static_cast<size_t>(server));
  if (!s.process) throw std::runtime_error("cannot restart " + describe(server) + ": locksim did not start it");
  s.paused = false;
  s.process->start_again(persistence == world::Persistence::AofEverySec);
  SyncClient c(s.process->port());
  must(c.command({"CONFIG", "SET", "notify-keyspace-events", kNotify}), "CONFIG SET after restart");
  open_monitor(server);
}

void LiveFabric::pause(int server, int64_t) {
  Server& s = servers_.at(static_cast<size_t>(server));
  if (!s.process) throw std::runtime_error("cannot pause " + describe(server) + ": locksim did not start it");
  s.process->stop_signal();
  s.paused = true;
}

void LiveFabric::resume(int server) {
  Server& s = servers_.at(static_cast<size_t>(server));
  if (s.process && s.paused) s.process->continue_signal();
  s.paused = false;
}

void LiveFabric::detach_replica(int server) {
  Server& s = servers_.at(static_cast<size_t>(server));
  if (!s.replica) throw std::runtime_error("cannot fail over " + describe(server) + ": it has no replica");
  SyncClient c(s.replica->port());
  must(c.command({"REPLICAOF", "NO", "ONE"}), "REPLICAOF NO ONE on the replica of " + s.name);
}

// A real replica lags by having stopped following its master `lag_ms` before the promotion; one
// lagging further back than the run's start has seen none of it, so it stops following now.
void LiveFabric::plan(const world::Fault& fault, int64_t at) {
  if (fault.kind != world::FaultKind::Failover || fault.sentinel) return;
  const int server = fault.server;
  if (at - fault.lag_ms <= world_->now()) detach_replica(server);
  else
    world_->queue().at(at - fault.lag_ms, [this, server] { detach_replica(server); },
                       world::EventTag::of_server(world::EventKind::ServerChange, server));
}

void LiveFabric::failover(int server, int64_t) {
  Server& s = servers_.at(static_cast<size_t>(server));
  if (!s.replica) throw std::runtime_error("cannot fail over " + describe(server) + ": it has no replica");
  s.process->kill();
  detach_replica(server);  // again when it lagged: REPLICAOF NO ONE on a master is a no-op
  make_master(server);
}

void LiveFabric::crash_master(int server, int64_t) {
  Server& s = servers_.at(static_cast<size_t>(server));
  if (!s.sentinel) throw std::runtime_error("cannot fail over " + describe(server) + " via Sentinel: none watches it");
  s.process->kill();
  s.master_died = std::chrono::steady_clock::now();
}

// The runner skips a scenario with such a fault live (world::FaultInfo::not_live); this is the
// backstop for a world driven some other way.
void LiveFabric::error_reply(int server, int64_t, const std::string&) {
  throw std::runtime_error("cannot act out error_reply on " + describe(server) + ": " +
                           std::string(world::fault_info(world::FaultKind::ErrorReply).not_live));
}

void LiveFabric::switched(int server, int port) {
  Server& s = servers_.at(static_cast<size_t>(server));
  if (!s.replica || s.replica->port() != port) return;  // not the switch this run waits for
  make_master(server);
  s.master_died.reset();
  world_->record(model::fault_event(s.name, model::fault_name::kFailover, 0, -1,
                                    "Sentinel promoted the replica (127.0.0.1:" + std::to_string(port) + ")"));
}

// The replica becomes the server clients use: key events from it, every client moved to it.
void LiveFabric::make_master(int server) {
  Server& s = servers_.at(static_cast<size_t>(server));
  s.process = std::move(s.replica);
  s.process->promoted();
  s.address = Address{"127.0.0.1", s.process->port()};
  SyncClient c(s.process->port());
  must(c.command({"CONFIG", "SET", "notify-keyspace-events", kNotify}), "CONFIG SET on the promoted replica");
  open_monitor(server);
  move_clients(server);
}

void LiveFabric::move_clients(int server) {
  for (MoveListener* listener : listeners_) listener->moved(server);
}

}  // namespace locksim::live
