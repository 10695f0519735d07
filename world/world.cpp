#include "world/world.hpp"

#include <cstdio>
#include <stdexcept>

#include "world/lock_factory.hpp"
#include "base/assert.hpp"
#include "world/server_records.hpp"
#include "world/sim_backend.hpp"

namespace locksim::world {
namespace {

std::string uuid_from(Rng rng) {
  char buf[40];
  const uint64_t a = rng.next(), b = rng.next();
  std::snprintf(buf, sizeof buf, "%08llx-%04llx-%04llx-%04llx-%012llx", static_cast<unsigned long long>(a >> 32),
                static_cast<unsigned long long>((a >> 16) & 0xffff), static_cast<unsigned long long>(a & 0xffff),
                static_cast<unsigned long long>(b >> 48), static_cast<unsigned long long>(b & 0xffffffffffffULL));
  return buf;
}

}  // namespace

World::World(WorldOptions options, Fabric* fabric)
    : options_(std::move(options)),
      fabric_(fabric),
      root_rng_(options_.seed),
      network_rng_(root_rng_.split("network")),
      scripts_(options_.scripts_dir.empty() ? std::string(LOCKSIM_SCRIPTS_DIR) : options_.scripts_dir) {
  LS_ASSERT(options_.active_expire_every_ms > 0);
  // A message takes at least a millisecond: with zero latency a waiter told "0 ms left" would retry
  // at the same virtual instant forever (found by exploration).
  // On a fabric the network is real and so is its latency: no emulated latency is needed on top.
  const int64_t least_latency = fabric_ ? 0 : 1;
  if (options_.link.latency_min_ms < least_latency || options_.link.latency_max_ms < options_.link.latency_min_ms)
    throw std::invalid_argument("link latency must be a range of at least 1 ms, not [" +
                                std::to_string(options_.link.latency_min_ms) + ", " +
                                std::to_string(options_.link.latency_max_ms) + "]");
  if (options_.servers < 1 || options_.servers > 64)
    throw std::invalid_argument("a world has 1 to 64 Redis servers, not " + std::to_string(options_.servers));
  if (fabric_) return;  // real servers keep their own timers
  for (int i = 0; i < options_.servers; ++i)
    nodes_.push_back(std::make_unique<RedisNode>(*this, server_name(i), i));
  queue_.at(0, [this] { housekeeping(); });
}

World::~World() {
  // Coroutine frames go before the locks and backends they point at.
  for (auto& [name, client] : clients_) client->tasks.clear();
}

// Redis's own timers: the active expiry cycle and, once a second, the AOF fsync.
void World::housekeeping() {
  for (auto& node : nodes_) {
    if (node->paused_until() > now()) continue;
    node->active_expire();
    if (now() % 1000 < options_.active_expire_every_ms) node->aof_fsync();
  }
  queue_.at(now() + options_.active_expire_every_ms, [this] { housekeeping(); });
}

ClientProcess& World::add_client(const std::string& name) {
  if (clients_.count(name)) throw std::invalid_argument("client '" + name + "' is declared twice");
  const Rng rng = root_rng_.split("client:" + name);
  auto process = std::make_unique<ClientProcess>(name, uuid_from(rng), options_.link, rng.split("tokens"));
  if (fabric_) process->backend = fabric_->connect(*this, *process);
  else process->backend = std::make_unique<SimBackend>(*this, *process);
  process->user = std::make_unique<client::LockUser>(*process->backend);
  for (const LockSpec& spec : locks_)
    for (auto& lock : make_locks(*process, spec)) process->user->add_lock(std::move(lock));
  return *clients_.emplace(name, std::move(process)).first->second;
}

void World::add_lock(const LockSpec& spec) {
  locks_.push_back(spec);
  for (auto& [name, process] : clients_)
    for (auto& lock : make_locks(*process, spec)) process->user->add_lock(std::move(lock));
}

std::vector<std::unique_ptr<client::Lock>> World::make_locks(ClientProcess& process, const LockSpec& spec) {
  return locksim::world::make_locks(*process.backend, scripts_, spec);
}

void World::check_server(int server) const {
  if (server < 0 || server >= servers())
    throw std::invalid_argument("no server " + std::to_string(server) + " (the world has " + std::to_string(servers()) + ")");
}

RedisNode& World::node(int server) {
  if (fabric_) throw std::logic_error("a world on a live fabric has no simulated servers");
  if (server < 0 || server >= servers())
    throw std::invalid_argument("no server " + std::to_string(server) + " (the world has " + std::to_string(servers()) + ")");
  return *nodes_[static_cast<size_t>(server)];
}

ClientProcess& World::client(const std::string& name) {
  auto it = clients_.find(name);
  if (it == clients_.end()) throw std::invalid_argument("no client named '" + name + "'");
  return *it->second;
}

void World::at(int64_t t, std::function<void()> action) { queue_.at(std::max(t, now()), std::move(action)); }

void World::record(model::Event event) {
  event.at_ms = now();
  history_.add(std::move(event));
}

bool World::fenced_write(const std::string& client, int64_t thread, const std::string& resource, int64_t token) {
  const bool accepted = resources_[resource].write(token);
  model::Event e;
  e.kind = model::EventKind::Write;
  e.process = client;
  e.thread = thread;
  e.lock = resource;
  e.f = accepted ? "accepted" : "rejected";
  e.value = token;
  record(std::move(e));
  return accepted;
}

void World::fault(const std::string& process, const std::string& f, int64_t value, int64_t for_ms, std::string text) {
  model::Event e;
  e.kind = model::EventKind::Fault;
  e.process = process;
  e.f = f;
  e.value = value;
  e.for_ms = for_ms;
  e.text = std::move(text);
  record(std::move(e));
}

void World::spawn(ClientProcess& process, client::Task<void> task) {
  LS_ASSERT(!process.crashed);
  auto handle = task.handle();
  process.tasks.push_back(std::move(task));
  handle.resume();
}

void World::wake(ClientProcess& process, const std::shared_ptr<Waiter>& waiter) {
  if (process.crashed || waiter->generation != process.generation) return;
  if (now() < process.paused_until) {
    process.deferred.push_back(waiter->handle);
    return;
  }
  waiter->handle.resume();
}

void World::carry_message(const std::string& client_name, const std::string& channel, int server) {
  ClientProcess& process = client(client_name);
  if (process.crashed) return;
  const auto arrival = process.link.arrival(now(), false, network_rng_);
  model::Event e;
  e.kind = model::EventKind::Message;
  e.process = client_name;
  e.lock = channel;
  if (!arrival) {
    e.f = "lost";
    record(std::move(e));
    return;
  }
  const uint64_t generation = process.generation;
  queue_.at(*arrival, [this, &process, generation, channel, server, e]() mutable {
    if (process.crashed || process.generation != generation) return;
    e.f = "delivered";
    record(std::move(e));
    process.backend->on_message(channel, server);
  });
}

// --- operations

void World::op(int64_t t, const std::string& client_name, int64_t thread, OpSpec spec) {
  at(t, [this, client_name, thread, spec] {
    ClientProcess& process = client(client_name);
    if (process.crashed) return;
    ClientThread& th = process.threads[thread];
    th.pending.push_back(spec);
    if (!th.busy && now() >= process.paused_until) start_next_op(process, thread);
  });
}

void World::start_next_op(ClientProcess& process, int64_t thread) {
  ClientThread& th = process.threads[thread];
  if (th.busy || th.pending.empty() || process.crashed) return;
  th.busy = true;
  OpSpec spec = th.pending.front();
  th.pending.pop_front();
  spawn(process, run_op(process, thread, std::move(spec)));
}

client::Task<void> World::run_op(ClientProcess& process, int64_t thread, OpSpec spec) {
  client::LockUser& user = *process.user;
  switch (spec.kind) {
    case OpSpec::Kind::Lock:
      co_await user.acquire(thread, spec.lock, {-1, spec.lease_ms});
      break;
    case OpSpec::Kind::TryLock:
      co_await user.acquire(thread, spec.lock, {std::max<int64_t>(spec.wait_ms, 0), spec.lease_ms});
      break;
    case OpSpec::Kind::Unlock:
      co_await user.release(thread, spec.lock);
      break;
    case OpSpec::Kind::ForceUnlock:
      co_await user.force_release(thread, spec.lock);
      break;
    case OpSpec::Kind::Work:
      co_await user.work(thread, spec.duration_ms);
      break;
    case OpSpec::Kind::Write:
      co_await user.write(thread, spec.lock);
      break;
    case OpSpec::Kind::IsLocked:
      co_await user.query(thread, spec.lock, "is_locked");
      break;
    case OpSpec::Kind::IsHeld:
      co_await user.query(thread, spec.lock, "is_held");
      break;
  }
  // The thread takes its next operation from the world's loop, not from inside this coroutine.
  queue_.at(now(), [this, &process, thread, generation = process.generation] {
    if (process.crashed || process.generation != generation) return;
    process.threads[thread].busy = false;
    if (now() >= process.paused_until) start_next_op(process, thread);
  });
}

// --- faults

void World::crash(int64_t t, const std::string& client_name) {
  at(t, [this, client_name] {
    ClientProcess& process = client(client_name);
    if (process.crashed) return;
    process.crashed = true;
    ++process.generation;
    fault(client_name, "crash", 0, -1);
    for (const auto& [held, depth] : process.user->believed()) {
      model::Event e;
      e.kind = model::EventKind::Release;
      e.process = client_name;
      e.thread = held.second;
      e.lock = held.first;
      e.f = "crash";
      e.value = 0;
      record(std::move(e));
    }
    process.backend->disconnect();
    process.deferred.clear();
    process.channels.clear();
    process.threads.clear();
    process.tasks.clear();  // every coroutine of the client vanishes mid-flight
  });
}

void World::pause(int64_t t, const std::string& client_name, int64_t duration_ms) {
  at(t, [this, client_name, duration_ms] {
    ClientProcess& process = client(client_name);
    if (process.crashed) return;
    process.paused_until = std::max(process.paused_until, now() + duration_ms);
    fault(client_name, "pause", 0, duration_ms);
    const int64_t until = process.paused_until;
    queue_.at(until, [this, &process, client_name, until, generation = process.generation] {
      if (process.crashed || process.generation != generation || process.paused_until != until) return;
      fault(client_name, "resume", 0, -1);
      std::deque<std::coroutine_handle<>> ready;
      ready.swap(process.deferred);
      for (auto handle : ready) {
        if (process.crashed || process.generation != generation) return;
        handle.resume();
      }
      for (auto& [thread, th] : process.threads)
        if (!th.busy) start_next_op(process, thread);
    });
  });
}

void World::partition(int64_t t, const std::string& client_name, int64_t duration_ms) {
  at(t, [this, client_name, duration_ms] {
    client(client_name).link.partition_until(now() + duration_ms);
    fault(client_name, "partition", 0, duration_ms);
    queue_.at(now() + duration_ms, [this, client_name] { fault(client_name, "heal", 0, -1); });
  });
}

void World::delay(int64_t t, const std::string& client_name, int64_t extra_ms, int64_t duration_ms) {
  at(t, [this, client_name, extra_ms, duration_ms] {
    client(client_name).link.delay_until(now() + duration_ms, extra_ms);
    fault(client_name, "delay", extra_ms, duration_ms);
  });
}

void World::loss(int64_t t, const std::string& client_name, uint64_t per_thousand, int64_t duration_ms) {
  at(t, [this, client_name, per_thousand, duration_ms] {
    client(client_name).link.loss_until(now() + duration_ms, per_thousand);
    fault(client_name, "loss", static_cast<int64_t>(per_thousand), duration_ms);
  });
}

void World::clock_jump(int64_t t, const std::string& client_name, int64_t jump_ms) {
  at(t, [this, client_name, jump_ms] {
    client(client_name).clock.offset_ms += jump_ms;
    fault(client_name, "clock_jump", jump_ms, -1);
  });
}

void World::redis_restart(int64_t t, Persistence persistence, int server) {
  check_server(server);
  at(t, [this, persistence, server] {
    if (fabric_) fabric_->restart(server, persistence);
    else node(server).restart(persistence);
    fault(server_name(server), "restart", 0, -1,
          persistence == Persistence::AofEverySec ? "aof everysec" : "no persistence");
  });
}

void World::failover(int64_t t, int64_t lag_ms, int server) {
  check_server(server);
  if (fabric_) {
    // A real replica lags by having stopped following its master `lag_ms` before the promotion; one
    // lagging further back than the run's start has seen none of it, so it stops following now.
    if (t - lag_ms <= now()) fabric_->detach_replica(server);
    else at(t - lag_ms, [this, server] { fabric_->detach_replica(server); });
  } else {
    node(server).keep_replica(lag_ms);
  }
  at(t, [this, lag_ms, server] {
    if (fabric_) fabric_->failover(server);
    else node(server).failover(lag_ms);
    fault(server_name(server), "failover", lag_ms, -1,
          "replica lagging " + std::to_string(lag_ms) + " ms promoted");
  });
}

void World::sentinel_failover(int64_t t, int64_t down_ms, int server) {
  check_server(server);
  if (!fabric_) node(server).keep_replica(down_ms);
  at(t, [this, down_ms, server] {
    const std::string name = server_name(server);
    if (fabric_) fabric_->crash_master(server);
    else node(server).go_down();
    fault(name, "down", 0, -1, "the master dies; Sentinel to promote its replica");
    if (fabric_) return;  // the fabric records the failover when Sentinel announces it
    queue_.at(now() + down_ms, [this, down_ms, server, name] {
      // The replica has everything the master had when it died.
      node(server).failover(down_ms);
      fault(name, "failover", 0, -1, "Sentinel promoted the replica after " + std::to_string(down_ms) + " ms");
    });
  });
}

void World::redis_pause(int64_t t, int64_t duration_ms, int server) {
  check_server(server);
  at(t, [this, duration_ms, server] {
    const std::string name = server_name(server);
    if (fabric_) fabric_->pause(server);
    else node(server).pause_until(now() + duration_ms);
    fault(name, "pause", 0, duration_ms);
    queue_.at(now() + duration_ms, [this, server, name] {
      if (fabric_) fabric_->resume(server);
      fault(name, "resume", 0, -1);
    });
  });
}

// --- running

void World::run_until(int64_t t) {
  if (fabric_) {
    run_paced_until(t);
    return;
  }
  uint64_t since_sweep = 0;
  while (!queue_.empty() && queue_.next_time() <= t) {
    if (queue_.executed() >= static_cast<uint64_t>(options_.max_events))
      throw std::runtime_error("the run needed more than " + std::to_string(options_.max_events) + " events");
    queue_.step();
    if (++since_sweep == 4096) {
      sweep_finished_tasks();
      since_sweep = 0;
    }
  }
  sweep_finished_tasks();
  queue_.advance_to(t);
}

// The live loop: events run once real time reaches them (at the real time they run), and in between
// the fabric waits for replies and messages, which complete coroutines at the time they came.
void World::run_paced_until(int64_t t) {
  for (;;) {
    const int64_t real = std::max(now(), std::min(fabric_->elapsed_ms(), t));
    while (!queue_.empty() && queue_.next_time() <= real) {
      if (queue_.executed() >= static_cast<uint64_t>(options_.max_events))
        throw std::runtime_error("the run needed more than " + std::to_string(options_.max_events) + " events");
      queue_.step_late(real);
    }
    queue_.advance_to(real);
    fabric_->pump();
    sweep_finished_tasks();
    if (!queue_.empty() && queue_.next_time() <= real) continue;
    if (real >= t) break;
    fabric_->wait(queue_.empty() ? t : std::min(queue_.next_time(), t));
  }
}

void World::finish() {
  model::Event e;
  e.kind = model::EventKind::End;
  e.process = "world";
  record(std::move(e));
}

void World::sweep_finished_tasks() {
  for (auto& [name, process] : clients_) {
    auto& tasks = process->tasks;
    for (auto it = tasks.begin(); it != tasks.end();) {
      if (it->done()) {
        it->rethrow_if_failed();
        it = tasks.erase(it);
      } else {
        ++it;
      }
    }
  }
}

}  // namespace locksim::world
