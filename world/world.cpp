#include "world/world.hpp"

#include <cstdio>
#include <ostream>
#include <stdexcept>

#include "base/assert.hpp"
#include "client/lock_factory.hpp"
#include "client/script_files.hpp"
#include "model/events.hpp"
#include "model/fault_events.hpp"

namespace locksim::world {
namespace {

namespace fe = model::fault_name;

std::string uuid_from(Rng rng) {
  char buf[40];
  const uint64_t a = rng.next(), b = rng.next();
  std::snprintf(buf, sizeof buf, "%08llx-%04llx-%04llx-%04llx-%012llx", static_cast<unsigned long long>(a >> 32),
                static_cast<unsigned long long>((a >> 16) & 0xffff), static_cast<unsigned long long>(a & 0xffff),
                static_cast<unsigned long long>(b >> 48), static_cast<unsigned long long>(b & 0xffffffffffffULL));
  return buf;
}

}  // namespace

World::World(WorldOptions options, Fabric& fabric)
    : options_(std::move(options)),
      fabric_(fabric),
      root_rng_(options_.seed),
      random_scheduler_(root_rng_.split("network").next()),
      scripts_(!options_.scripts_dir.empty() ? options_.scripts_dir
               : options_.script_texts      ? options_.script_texts->default_dir()
                                            : client::default_scripts_dir(),
               options_.script_texts) {
  LS_ASSERT(options_.active_expire_every_ms > 0);
  // Simulated, a message takes at least a millisecond: with zero latency a waiter told "0 ms left"
  // would retry at the same virtual instant forever (found by exploration). A real network has a
  // latency of its own.
  const int64_t least_latency = fabric_.least_latency_ms();
  if (options_.link.latency_min_ms < least_latency || options_.link.latency_max_ms < options_.link.latency_min_ms)
    throw std::invalid_argument("link latency must be a range of at least 1 ms, not [" +
                                std::to_string(options_.link.latency_min_ms) + ", " +
                                std::to_string(options_.link.latency_max_ms) + "]");
  if (options_.servers < 1 || options_.servers > 64)
    throw std::invalid_argument("a world has 1 to 64 Redis servers, not " + std::to_string(options_.servers));
  fabric_.attach(*this);
}

World::~World() {
  // Coroutine frames go before the locks and backends they point at.
  for (auto& [name, client] : clients_) client->tasks.clear();
}

ClientProcess& World::add_client(const std::string& name) {
  if (clients_.count(name)) throw std::invalid_argument("client '" + name + "' is declared twice");
  const Rng rng = root_rng_.split("client:" + name);
  auto process = std::make_unique<ClientProcess>(name, static_cast<int>(client_names_.size()), uuid_from(rng),
                                                 options_.link, rng.split("tokens").next());
  client_names_.push_back(name);
  scheduler_->on_client(process->index, name);
  process->clock.offset_ms = scheduler_->clock_offset(process->index);
  backends_.push_back(fabric_.connect(*process));
  process->backend = backends_.back().get();
  process->user = std::make_unique<client::LockUser>(*process->backend);
  for (const client::LockSpec& spec : locks_) add_locks_to(*process, spec);
  return *clients_.emplace(name, std::move(process)).first->second;
}

void World::add_lock(const client::LockSpec& spec) {
  locks_.push_back(spec);
  for (auto& [name, process] : clients_) add_locks_to(*process, spec);
}

void World::add_locks_to(ClientProcess& process, const client::LockSpec& spec) {
  for (auto& lock : client::make_locks(*process.backend, scripts_, spec)) process.user->add_lock(std::move(lock));
}

void World::check_server(int server) const {
  if (server < 0 || server >= servers())
    throw std::invalid_argument("no server " + std::to_string(server) + " (the world has " + std::to_string(servers()) + ")");
}

ClientProcess& World::client(const std::string& name) {
  auto it = clients_.find(name);
  if (it == clients_.end()) throw std::invalid_argument("no client named '" + name + "'");
  return *it->second;
}

void World::at(int64_t t, EventQueue::Action action, const EventTag& tag) {
  queue_.at(std::max(t, now()), std::move(action), tag);
}

std::vector<EventQueue::Scheduled> World::messages_in_flight() const {
  std::vector<EventQueue::Scheduled> out = queue_.scheduled();
  std::erase_if(out, [](const EventQueue::Scheduled& s) { return !s.tag.is_message(); });
  return out;
}

std::vector<World::WaitingThread> World::waiting_threads() const {
  std::vector<WaitingThread> out;
  for (const auto& [name, client] : clients_) {
    if (!client->user) continue;
    for (const auto& [lock_name, lock] : client->user->locks())
      for (const auto& [thread, waiting] : lock->waiting()) out.push_back({name, lock_name, thread, waiting});
  }
  return out;
}

void World::record(model::Event&& event) {
  event.at_ms = now();
  if (event.kind == model::EventKind::Fault && event.f == fe::kFailover && failovers_awaited_ > 0) --failovers_awaited_;
  const model::Event& e = history_.add(std::move(event));
  if (!history_out_) return;
  model::write_event_jsonl(*history_out_, e);
  *history_out_ << '\n';
  if (!*history_out_) throw std::runtime_error("the history could not be written on");
  history_.drop_before(e.index);
}

bool World::fenced_write(const std::string& client, int64_t thread, const std::string& resource, int64_t token) {
  const bool accepted = resources_.try_emplace(resource, options_.fence_rule).first->second.write(token);
  record(model::write_event(client, thread, resource, accepted, token));
  return accepted;
}

void World::fault_event(const std::string& process, std::string_view f, int64_t value, int64_t for_ms, std::string text) {
  record(model::fault_event(process, f, value, for_ms, std::move(text)));
}

void World::spawn(ClientProcess& process, client::Task<void> task) { launch(process, std::move(task), -++process.tasks_spawned); }

void World::launch(ClientProcess& process, client::Task<void> task, int64_t id) {
  LS_ASSERT(!process.crashed);
  auto handle = task.handle();
  process.tasks.push_back(std::move(task));
  resume_as(process, handle, id);
}

void World::resume_as(ClientProcess& process, std::coroutine_handle<> handle, int64_t task) {
  const int64_t outer = process.task;
  process.task = task;
  handle.resume();
  process.task = outer;
}

void World::wake(ClientProcess& process, const std::shared_ptr<Waiter>& waiter) {
  if (process.crashed || waiter->generation != process.generation) return;
  if (now() < process.paused_until) {
    process.deferred.push_back({waiter->handle, waiter->task, waiter->value});
    return;
  }
  resume_as(process, waiter->handle, waiter->task);
}

void World::carry_message(const std::string& client_name, std::string_view channel_name, int server) {
  ClientProcess& process = client(client_name);
  if (process.crashed) return;
  // As the history's atom: the closure and the Message event share it, nothing copied.
  const Atom channel(channel_name);
  // A delivery is named by its channel and how many went to this client before: the n-th message
  // on a channel keeps its fate whatever else the client was sent.
  const uint64_t identity =
      process.occurrences.next(Identity() << process.name << "delivery" << channel_name << static_cast<int64_t>(server));
  const auto arrival = process.link.arrival(now(), false, process.index, identity, *scheduler_);
  if (!arrival) {
    record(model::message_event(client_name, channel, "lost"));
    return;
  }
  auto deliver = [this, &process, generation = process.generation, channel, server] {
    if (process.crashed || process.generation != generation) return;
    record(model::message_event(process.name, channel, "delivered"));
    process.backend->on_message(channel, server);
  };
  // Kept in place by the agenda, not allocated: one of these per message delivered.
  static_assert(EventQueue::Action::kept_inline<decltype(deliver)>);
  EventTag tag = EventTag::of_client(EventKind::Delivery, process.index);
  tag.server = server;
  tag.message = identity;
  tag.what = channel;
  queue_.at(*arrival, std::move(deliver), tag);
}

// --- operations

void World::op(int64_t t, const std::string& client_name, int64_t thread, OpSpec spec) {
  ClientProcess& process = client(client_name);
  at(t, [this, &process, thread, spec] {
    if (process.crashed) return;
    ClientThread& th = process.threads[thread];
    th.pending.push_back(spec);
    if (!th.busy && now() >= process.paused_until) start_next_op(process, thread);
  }, EventTag{.kind = EventKind::TimelineOp, .actor = Actor::timeline(), .client = process.index, .item = timeline_items_++});
}

void World::start_next_op(ClientProcess& process, int64_t thread) {
  ClientThread& th = process.threads[thread];
  if (th.busy || th.pending.empty() || process.crashed) return;
  th.busy = true;
  OpSpec spec = th.pending.front();
  th.pending.pop_front();
  launch(process, run_op(process, thread, std::move(spec)), thread);
}

client::Task<void> World::run_op(ClientProcess& process, int64_t thread, OpSpec spec) {
  client::LockUser& user = *process.user;
  const uint64_t left = process.threads[thread].left;
  switch (spec.kind) {
    case OpSpec::Kind::Lock:
      co_await user.acquire(thread, spec.lock, {.lease_ms = spec.lease_ms, .lease_unit_ms = spec.lease_unit_ms});
      break;
    case OpSpec::Kind::TryLock:
      co_await user.acquire(thread, spec.lock,
                            {.wait_ms = std::max<int64_t>(spec.wait_ms, 0),
                             .lease_ms = spec.lease_ms,
                             .wait_minus_one = spec.wait_ms == -1,
                             .lease_unit_ms = spec.lease_unit_ms});
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
  // Interrupted, the thread left this operation and has gone on.
  if (process.threads[thread].left != left) co_return;
  next_op_soon(process, thread);
}

void World::next_op_soon(ClientProcess& process, int64_t thread) {
  // The thread takes its next operation from the world's loop, not from inside this coroutine.
  EventTag next = EventTag::of_client(EventKind::ThreadNext, process.index);
  next.item = thread;
  queue_.at(now(), [this, &process, thread, generation = process.generation] {
    if (process.crashed || process.generation != generation) return;
    process.threads[thread].busy = false;
    if (now() >= process.paused_until) start_next_op(process, thread);
  }, next);
}

void World::interrupt_soon(ClientProcess& process, int64_t thread) {
  EventTag tag = EventTag::of_client(EventKind::Interrupt, process.index);
  tag.item = thread;
  queue_.at(std::max(now(), process.paused_until), [this, &process, thread, generation = process.generation] {
    if (process.crashed || process.generation != generation) return;
    const auto it = process.threads.find(thread);
    if (it != process.threads.end() && it->second.interrupted) interrupt(process, thread);
  }, tag);
}

void World::interrupt(ClientProcess& process, int64_t thread) {
  if (process.crashed) return;
  ClientThread& th = process.threads[thread];
  th.interrupted = true;
  // Nothing of a paused client runs, its threads' exceptions included: the interrupt acts at its resume.
  if (now() < process.paused_until) {
    interrupt_soon(process, thread);
    return;
  }
  if (!th.busy) return;  // the status waits for the thread's next wait
  if (process.user->interrupt(thread).kind != client::Interruption::Kind::Detached) return;
  ++th.left;
  next_op_soon(process, thread);
}

// --- faults

void World::inject(int64_t t, const Fault& fault) {
  if (fault_info(fault.kind).on_server) {
    check_server(fault.server);
    fabric_.plan(fault, t);
  }
  // Shared: a fault (its client's name, an error text) is larger than the agenda keeps in place.
  EventTag tag = EventTag::of(EventKind::TimelineFault, Actor::timeline());
  tag.item = timeline_items_++;
  at(t, [this, fault = std::make_shared<const Fault>(fault)] { act(*fault); }, tag);
}

void World::act(const Fault& f) {
  const std::string server = model::server_name(f.server);
  if (fault_info(f.kind).lasts()) faults_until_ = std::max(faults_until_, now() + f.for_ms);
  switch (f.kind) {
    case FaultKind::Crash:
      crash(client(f.client));
      return;
    case FaultKind::Pause:
      pause(client(f.client), f.for_ms);
      return;
    case FaultKind::Partition:
      client(f.client).link.partition_until(now() + f.for_ms);
      fault_event(f.client, fe::kPartition, 0, f.for_ms);
      queue_.at(now() + f.for_ms, [this, name = f.client] { fault_event(name, fe::kHeal, 0, -1); },
                EventTag::of_client(EventKind::FaultEnd, client(f.client).index));
      return;
    case FaultKind::Delay:
      client(f.client).link.delay_until(now() + f.for_ms, f.extra_ms);
      fault_event(f.client, fe::kDelay, f.extra_ms, f.for_ms);
      return;
    case FaultKind::Loss:
      client(f.client).link.loss_until(now() + f.for_ms, f.per_thousand);
      fault_event(f.client, fe::kLoss, static_cast<int64_t>(f.per_thousand), f.for_ms);
      return;
    case FaultKind::ClockJump:
      client(f.client).clock.offset_ms += f.by_ms;
      fault_event(f.client, fe::kClockJump, f.by_ms, -1);
      return;
    case FaultKind::RedisRestart:
      fabric_.restart(f.server, f.persistence);
      fault_event(server, fe::kRestart, 0, -1,
                  f.persistence == Persistence::AofEverySec ? "aof everysec" : "no persistence");
      return;
    case FaultKind::Failover:
      if (f.sentinel) {
        ++failovers_awaited_;
        fabric_.crash_master(f.server, f.down_ms);
        fault_event(server, fe::kDown, 0, -1, "the master dies; Sentinel to promote its replica");
      } else {
        fabric_.failover(f.server, f.lag_ms);
        fault_event(server, fe::kFailover, f.lag_ms, -1, "replica lagging " + std::to_string(f.lag_ms) + " ms promoted");
      }
      return;
    case FaultKind::RedisPause:
      fabric_.pause(f.server, f.for_ms);
      fault_event(server, fe::kPause, 0, f.for_ms);
      queue_.at(now() + f.for_ms, [this, index = f.server, server = std::string(server)] {
        fabric_.resume(index);
        fault_event(server, fe::kResume, 0, -1);
      }, EventTag::of_server(EventKind::FaultEnd, f.server));
      return;
    case FaultKind::ErrorReply:
      fabric_.error_reply(f.server, f.for_ms, f.text);
      fault_event(server, fe::kErrorReply, 0, f.for_ms, f.text);
      return;
    case FaultKind::Reset: {
      ClientProcess& process = client(f.client);
      if (process.crashed) return;
      fault_event(f.client, fe::kReset, 0, -1);
      process.backend->reset();
      return;
    }
    case FaultKind::Interrupt: {
      ClientProcess& process = client(f.client);
      if (process.crashed) return;
      fault_event(f.client, fe::kInterrupt, f.thread, -1, "thread " + std::to_string(f.thread));
      interrupt(process, f.thread);
      return;
    }
  }
}

void World::crash(ClientProcess& process) {
  if (process.crashed) return;
  process.crashed = true;
  ++process.generation;
  fault_event(process.name, fe::kCrash, 0, -1);
  for (const auto& [held, depth] : process.user->believed())
    record(model::crash_release(process.name, held.second, held.first));
  process.backend->disconnect();
  process.deferred.clear();
  process.channels.clear();
  process.threads.clear();
  process.tasks.clear();  // every coroutine of the client vanishes mid-flight
}

void World::pause(ClientProcess& process, int64_t for_ms) {
  if (process.crashed) return;
  process.paused_until = std::max(process.paused_until, now() + for_ms);
  fault_event(process.name, fe::kPause, 0, for_ms);
  const int64_t until = process.paused_until;
  queue_.at(until, [this, &process, until, generation = process.generation] {
    if (process.crashed || process.generation != generation || process.paused_until != until) return;
    fault_event(process.name, fe::kResume, 0, -1);
    std::deque<ClientProcess::Deferred> ready;
    ready.swap(process.deferred);
    for (const auto& [handle, task, value] : ready) {
      if (process.crashed || process.generation != generation) return;
      resume_as(process, handle, task);
    }
    for (auto& [thread, th] : process.threads)
      if (!th.busy) start_next_op(process, thread);
  }, EventTag::of_client(EventKind::ClientResume, process.index));
}

// --- running

// Events run once the fabric lets the clock reach them: simulated servers let it jump from one to
// the next; real ones hold it to real time, and in between the fabric waits for replies and
// messages, which complete coroutines at the time they came.
void World::run_until(int64_t t) {
  until_ = t;
  for (;;) {
    const int64_t reached = fabric_.reachable(now(), t);
    const auto max_events = static_cast<uint64_t>(options_.max_events);
    uint64_t since_sweep = 0;
    for (;;) {
      // Every 4096 events (idle ticks of the servers' housekeeping count as events run, and one
      // sweep stands for every one that fell among them), finished tasks go and Ctrl-C is asked.
      since_sweep += queue_.skip_idle_ticks(reached, max_events);
      if (since_sweep >= 4096) {
        sweep_finished_tasks();
        since_sweep %= 4096;
        if (options_.stop_requested && options_.stop_requested()) throw Interrupted();
      }
      if (queue_.empty() || queue_.next_time() > reached) break;
      if (queue_.executed() >= max_events)
        throw std::runtime_error("the run needed more than " + std::to_string(options_.max_events) +
                                 " events, the cap on one run (usually a scenario without end; a soak meant to be this "
                                 "long raises it with world: {max_events: N})");
      if (scheduler_->decides_order()) {
        step_scheduled();
        if (stop_when_settled_ && settled()) {
          sweep_finished_tasks();
          return;
        }
      } else {
        queue_.step_at(fabric_.run_at(queue_.next_time(), reached));
      }
      ++since_sweep;
    }
    queue_.advance_to(reached);
    fabric_.pump();
    sweep_finished_tasks();
    if (!queue_.empty() && queue_.next_time() <= reached) continue;
    if (reached >= t) break;
    fabric_.wait(queue_.empty() ? t : std::min(queue_.next_time(), t));
  }
}

void World::step_scheduled() {
  if (observer_) observer_(*this);
  std::vector<EventQueue::Due>& due = due_scratch_;
  queue_.due(due);
  // The scenario's own inputs run first, in file order: they were scheduled before anything else.
  if (due[0].actor.kind == Actor::Kind::Timeline) {
    queue_.step_chosen(due[0].seq);
    return;
  }
  std::vector<Actor>& actors = actors_scratch_;
  actors.clear();
  for (const auto& d : due) actors.push_back(d.actor);
  const size_t pick = due.size() > 1 ? scheduler_->next_event(actors, queue_.next_time()) : 0;
  LS_ASSERT(pick < due.size());
  // A crashed client's leftovers do nothing: no fault is placed before them.
  const Actor next = due[pick].actor;
  const uint64_t seq = due[pick].seq;  // read before act(), which must not find the buffers in use
  const bool gone = next.kind == Actor::Kind::Client && client(client_names_[static_cast<size_t>(next.index)]).crashed;
  if (const auto fault = gone ? std::nullopt : scheduler_->fault_before(next, client_names_, queue_.next_time())) {
    queue_.advance_to(queue_.next_time());
    act(*fault);
  }
  queue_.step_chosen(seq);
}

bool World::settled() const {
  if (queue_.events_pending() || now() < faults_until_ || failovers_awaited_ > 0) return false;
  for (const auto& [name, process] : clients_) {
    if (!process->user->believed().empty()) return false;
    if (process->crashed) continue;
    if (now() < process->paused_until) return false;
    for (const auto& task : process->tasks)
      if (!task.done()) return false;
    for (const auto& [id, thread] : process->threads)
      if (thread.busy || !thread.pending.empty()) return false;
  }
  return true;
}

void World::finish(std::string note, std::string lock_type) {
  model::Event end = model::end_event();
  end.text = std::move(note);
  end.f = std::move(lock_type);
  record(std::move(end));
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
