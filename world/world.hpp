#pragma once
// World: the harness every run needs, whatever its servers. Time in ms on one agenda, one seeded
// RNG split per purpose, clients on network links, operations and faults at exact times, and a
// history of everything. Its servers and the pace of its clock come from its Fabric: on simulated
// servers (sim/) a run is a pure function of its inputs and seed, the same seed giving the same
// history byte for byte; on real ones (live/) the clock follows real time.
#include <cstdint>
#include <functional>
#include <map>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "client/lock_spec.hpp"
#include "client/script_catalog.hpp"
#include "model/history.hpp"
#include "world/client_backend.hpp"
#include "world/client_process.hpp"
#include "world/event_queue.hpp"
#include "world/fabric.hpp"
#include "world/fault.hpp"
#include "world/fenced_resource.hpp"
#include "world/harness.hpp"
#include "world/ops.hpp"
#include "world/rng.hpp"
#include "world/world_options.hpp"

namespace locksim::world {

class World final : public Harness {
 public:
  // The fabric outlives the world.
  World(WorldOptions options, Fabric& fabric);
  ~World() override;
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  // --- set-up
  ClientProcess& add_client(const std::string& name);
  // Gives every client (present and future) its own instance of the lock.
  void add_lock(const client::LockSpec& spec);
  ClientProcess& client(const std::string& name);
  int servers() const { return fabric_.servers(); }
  client::ScriptCatalog& scripts() { return scripts_; }

  // --- what happens, at exact times
  // `action` at `t` (now, if t has passed), being what `tag` says (event_tag.hpp).
  void at(int64_t t, EventQueue::Action action, const EventTag& tag);
  // The messages on the agenda (requests, replies, deliveries), from its records alone.
  std::vector<EventQueue::Scheduled> messages_in_flight() const;
  // The client threads whose acquire is under way, read from their locks' members alone
  // (client/waiting.hpp), in client, lock and thread order.
  struct WaitingThread {
    std::string client, lock;
    int64_t thread = 0;
    client::Waiting waiting;
  };
  std::vector<WaitingThread> waiting_threads() const;
  // The world's state between two events as data (base/state_writer.hpp), times relative to now:
  // what is on the agenda (by its records: world/event_tag.hpp), each client (its clock, link,
  // threads, tasks' waits, channels and locks), each server (world-as-data.md). The history and the
  // ids counted so far are not in it, except where their values still act. False when some part
  // cannot be written (a lock that keeps state in coroutine frames, real servers): a search must
  // then never take this state for another.
  bool describe(StateWriter& out) const;
  // Called before each event a scheduler that decides the order runs (a bounded search's), with
  // the world as it is then: where a search fingerprints its states.
  void observe_steps(std::function<void(const World&)> observer) { observer_ = std::move(observer); }
  // Queues an operation on a client thread; a thread does one thing at a time, in order.
  void op(int64_t t, const std::string& client, int64_t thread, OpSpec spec);
  // `fault` happens at `t`. Throws std::invalid_argument for a server the world does not have.
  void inject(int64_t t, const Fault& fault);

  // --- running
  // Hands the world's chances to `scheduler` (it outlives the world) instead of the seeded RNG;
  // before anything is scheduled.
  void set_scheduler(Scheduler& scheduler) { scheduler_ = &scheduler; }
  // run_until() stops early once the world has settled (a bounded search's runs end there).
  void stop_when_settled() { stop_when_settled_ = true; }
  // Runs every event up to and including time t; the clock ends at t.
  void run_until(int64_t t);
  // Whether nothing more would happen unless something new were scheduled: every client that is
  // alive idle (no operation running or queued, no coroutine left, not paused), no client, alive
  // or crashed, believing it holds a lock (its key may still be on a server, its expiry to come),
  // nothing on the agenda but the servers' housekeeping, no fault still lasting and no Sentinel
  // failover awaited. A live run without an explicit run_ms ends here (scenario/runner.hpp).
  bool settled() const;
  // Records that the run stops now: checkers judge what never finished against this end. `note`
  // says why it stops before the time planned, if it does; `lock_type`, the lock the clients ran
  // (model/lock_types.hpp), so that a history says how it is to be judged.
  void finish(std::string note = {}, std::string lock_type = {});
  uint64_t events_executed() const { return queue_.executed(); }
  // The history recorded so far (of a streamed run: its latest events only).
  model::History& history() { return history_; }
  // From now on every event recorded is written to `out` as it happens, one JSON line each
  // (History::write_jsonl's lines), and the history in memory keeps only its latest events: a long
  // run's memory stays flat, and its history is the file (model/stream_judging.hpp judges it).
  void stream_history(std::ostream& out) { history_out_ = &out; }
  FencedResource& resource(const std::string& lock) { return resources_.try_emplace(lock, options_.fence_rule).first->second; }

  // --- Harness
  const WorldOptions& options() const override { return options_; }
  int64_t now() const override { return queue_.now(); }
  int64_t epoch_now() const override { return options_.epoch_ms + queue_.now(); }
  EventQueue& queue() override { return queue_; }
  Scheduler& scheduler() override { return *scheduler_; }
  void record(model::Event&& event) override;
  int64_t history_size() const override { return static_cast<int64_t>(history_.size()); }
  void wake(ClientProcess& client, const std::shared_ptr<Waiter>& waiter) override;
  void spawn(ClientProcess& client, client::Task<void> task) override;
  void carry_message(const std::string& client, std::string_view channel, int server) override;
  bool fenced_write(const std::string& client, int64_t thread, const std::string& resource, int64_t token) override;
  int64_t next_op_id() override { return ++last_op_id_; }
  void interrupt_soon(ClientProcess& client, int64_t thread) override;

 private:
  void add_locks_to(ClientProcess& client, const client::LockSpec& spec);
  void start_next_op(ClientProcess& client, int64_t thread);
  // The thread takes up its next operation from the world's loop, once what runs now has run.
  void next_op_soon(ClientProcess& client, int64_t thread);
  // Thread.interrupt(): sets the thread's status, and its acquire under way meets it as Redisson's
  // sync methods do (client::Lock::interrupt); one it ends frees the thread for its next operation.
  void interrupt(ClientProcess& client, int64_t thread);
  // Starts `task` as the client's task `id` (ClientProcess::task).
  void launch(ClientProcess& client, client::Task<void> task, int64_t id);
  // Resumes `handle`, a coroutine of the client's task `task`.
  void resume_as(ClientProcess& client, std::coroutine_handle<> handle, int64_t task);
  client::Task<void> run_op(ClientProcess& client, int64_t thread, OpSpec spec);
  // Acts `fault` out now and records it.
  void act(const Fault& fault);
  void crash(ClientProcess& client);
  void pause(ClientProcess& client, int64_t for_ms);
  void fault_event(const std::string& process, std::string_view f, int64_t value, int64_t for_ms, std::string text = {});
  void sweep_finished_tasks();
  // Runs the event of those due now that the scheduler picks, after the fault it places there.
  void step_scheduled();
  void check_server(int server) const;

  WorldOptions options_;
  Fabric& fabric_;
  EventQueue queue_;
  Rng root_rng_;
  RandomScheduler random_scheduler_;
  Scheduler* scheduler_ = &random_scheduler_;
  bool stop_when_settled_ = false;
  std::function<void(const World&)> observer_;
  int64_t until_ = 0;  // run_until's end
  model::History history_;
  std::ostream* history_out_ = nullptr;
  client::ScriptCatalog scripts_;
  // Before the clients: their locks and coroutines use their backends to the last.
  std::vector<std::unique_ptr<ClientBackend>> backends_;
  std::map<std::string, std::unique_ptr<ClientProcess>> clients_;
  std::vector<std::string> client_names_;  // by index
  std::vector<EventQueue::Due> due_scratch_;  // step_scheduled's buffers, reused from step to step
  std::vector<Actor> actors_scratch_;
  std::vector<client::LockSpec> locks_;
  std::map<std::string, FencedResource> resources_;
  int64_t last_op_id_ = 0;
  int64_t timeline_items_ = 0;  // the scenario's timeline entries scheduled so far (EventTag::item)
  // For settled(): when the last lasting fault acted so far ends, and the Sentinel failovers acted
  // out whose promotion the fabric has not recorded yet.
  int64_t faults_until_ = 0;
  int failovers_awaited_ = 0;
};

}  // namespace locksim::world
