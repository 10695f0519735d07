#pragma once
// Harness: the world as its parts see it (the servers of a fabric, the clients' backends): its
// clock, its agenda, its history and the clients' coroutines. World implements it; the parts hold
// a Harness, never the World, so the world's files do not include one another in a ring.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "client/task.hpp"
#include "model/history.hpp"
#include "world/event_queue.hpp"
#include "world/scheduler.hpp"
#include "world/world_options.hpp"

namespace locksim::world {

struct ClientProcess;
struct Waiter;

class Harness {
 public:
  virtual ~Harness() = default;

  virtual const WorldOptions& options() const = 0;
  // The run's time (ms since it started), and what the servers' clocks read then.
  virtual int64_t now() const = 0;
  virtual int64_t epoch_now() const = 0;
  virtual EventQueue& queue() = 0;
  // What decides every link's latencies and losses (the seeded RNG, unless a search set another).
  virtual Scheduler& scheduler() = 0;
  // Appends `event` to the history at the current time.
  virtual void record(model::Event&& event) = 0;
  // How many events the history holds: the index the next one gets.
  virtual int64_t history_size() const = 0;

  // Resumes a client's parked coroutine now, later (paused) or never (crashed since).
  virtual void wake(ClientProcess& client, const std::shared_ptr<Waiter>& waiter) = 0;
  // Runs a top-level coroutine of `client` (a thread's operation, a watchdog).
  virtual void spawn(ClientProcess& client, client::Task<void> task) = 0;
  // A message a server published, on its way to `client` over its link.
  virtual void carry_message(const std::string& client, std::string_view channel, int server) = 0;
  // A write with `token` reaches the fenced resource: recorded, and whether it was accepted.
  virtual bool fenced_write(const std::string& client, int64_t thread, const std::string& resource, int64_t token) = 0;
  // A fresh operation id for linking history events.
  virtual int64_t next_op_id() = 0;
  // Interrupts `thread` of `client` again once what runs now has run (its status is set as it
  // begins a wait: client::Backend::interrupt_when_waiting).
  virtual void interrupt_soon(ClientProcess& client, int64_t thread) = 0;
};

}  // namespace locksim::world
