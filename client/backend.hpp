#pragma once
// Backend: everything a lock client may ask of the world it runs in. The simulated world implements
// it on virtual time; the live backend on hiredis and the real clock. Clients see nothing else.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "client/task.hpp"
#include "base/reply.hpp"
#include "base/state_writer.hpp"
#include "model/history.hpp"

namespace locksim::client {

// A Lua script as a client holds it: its body, and the SHA1 it is cached under on the server.
struct Script {
  std::string name;  // e.g. "rlock_acquire_hincrby"
  std::string body;
  std::string sha;
};

// How a client sends a script. Redis clients differ: ioredis and node-redis send EVALSHA and fall
// back to EVAL on NOSCRIPT; Redisson sends EVAL unless useScriptCache is on (its default from
// 3.46.0), and then EVALSHA, and on NOSCRIPT SCRIPT LOAD and EVALSHA again (as redis-py's Script).
enum class ScriptForm : uint8_t { EvalshaThenEval, Eval, EvalshaLoadEvalsha };

// One request to Redis. With `script`, argv holds only the KEYS and ARGV (numkeys = keys).
struct Command {
  std::string role{};   // what it is for: acquire, unlock, renew, ... (recorded in the history)
  std::string lock{};   // the lock key it concerns ("" when none)
  const Script* script = nullptr;
  std::vector<std::string> keys{};
  std::vector<std::string> argv{};  // a plain command: its words; a script: its ARGV
  int64_t thread = 0;
  int64_t op = 0;
  int server = 0;  // which Redis server (RedLock's locks live on several)
  // A FairLock's waiter queue (a list key), recorded after the command ran: who may take the lock
  // next is part of what the server holds.
  std::string queue{};
  // Redisson's synced eval: the request goes in one batch with `WAIT sync_replicas sync_timeout_ms`
  // behind it on the same connection, and the batch is answered when the WAIT is (-1: no WAIT).
  int64_t sync_replicas = -1;
  int64_t sync_timeout_ms = 0;
};

// A request as it is sent: built once, then shared, unchanged, by every attempt to send it and by
// the copies in flight (a reply may come after its caller gave up).
using SharedCommand = std::shared_ptr<const Command>;

struct CallResult {
  bool timed_out = false;
  Reply reply;  // error replies are replies too
  // The connection closed while the request was in flight (a reset): no answer will come, and
  // `reply` is an error that says so. The request may or may not have run on the server.
  bool connection_lost = false;
  // A synced request (Command::sync_replicas): how many replicas its WAIT counted; -1 for none.
  int64_t synced_replicas = -1;
  // Redisson's synced eval found no replica had it (checkLockSyncedSlaves): NoSyncedSlavesException,
  // though the script ran and `reply` is its answer.
  bool no_synced_replicas = false;
};

// The error a request in flight gets when its connection closes (the `reset` fault). Not a Redis
// reply: what the client library reports, as Redisson's RedisReconnectedException does.
inline constexpr std::string_view kConnectionLost = "connection closed while the request was in flight";

class Backend {
 public:
  virtual ~Backend() = default;
  // The client's task running now (a thread's operation, a watchdog): what a coroutine keeps
  // across its suspensions is kept under it, as data (Lock::describe).
  virtual int64_t task() const { return 0; }
  // What a coroutine of task `task` keeps across a suspension that no lock member holds (a retry's
  // attempt), as `what`; a negative value forgets it. Part of the client's state (Lock::describe's
  // counterpart for the library's own loops): see Kept.
  virtual void keep(int64_t /*task*/, std::string_view /*what*/, int64_t /*value*/) {}
  // The same for a command the coroutine will send again (kept alive by its frame; null forgets
  // it): written whole when the state is, not before.
  virtual void keep_command(int64_t /*task*/, std::string_view /*what*/, const Command* /*command*/) {}

  // Java's interrupt status of `thread` (Thread.interrupt(), the interrupt fault): set by the world,
  // cleared by a wait that throws InterruptedException (Lock::interrupt says which do).
  virtual bool interrupted(int64_t /*thread*/) const { return false; }
  virtual void clear_interrupt(int64_t /*thread*/) {}
  // `thread` begins a wait with its status set: the world interrupts it again once the wait is under
  // way (a get() throws only after its request has gone).
  virtual void interrupt_when_waiting(int64_t /*thread*/) {}
  // Ends at once the subscription or message wait of `task` (Backend::task), as its timeout would;
  // false when it is in neither.
  virtual bool end_wait(int64_t /*task*/) { return false; }

  // This client's clock (skew and jumps included), in ms.
  virtual int64_t now_ms() = 0;
  virtual Task<void> sleep(int64_t ms) = 0;
  // Sends one request; its reply, or timed_out when none came within `timeout_ms` (of each send: a
  // script's fallback after NOSCRIPT, as `form` says, sends again and waits again).
  virtual Task<CallResult> call(SharedCommand command, int64_t timeout_ms, ScriptForm form) = 0;
  // Subscribes this client to `channel` on `server` (reference-counted across its threads); false
  // when the server did not confirm within `timeout_ms`.
  virtual Task<bool> subscribe(std::string channel, int64_t timeout_ms, int server) = 0;
  virtual void unsubscribe(const std::string& channel, int server) = 0;
  // Waits for a message on a subscribed channel, like Redisson's semaphore: a message that came
  // while nobody waited is kept as a permit. True when a message came, false on timeout.
  virtual Task<bool> wait_message(std::string channel, int64_t timeout_ms, int server) = 0;
  // Drops the permits of messages that came on `channel` while nobody waited (a client that adds
  // its listener after checking for them, and so misses what came in between).
  virtual void forget_messages(const std::string& channel, int server) = 0;
  // Sends a write carrying `token` to the fenced resource; its answer, or nullopt-like -1 on timeout
  // (1 accepted, 0 rejected).
  virtual Task<int> write_fenced(std::string resource, int64_t token, int64_t thread, int64_t timeout_ms) = 0;
  // Runs a background coroutine (a watchdog) that lives and dies with this client.
  virtual void spawn(Task<void> task) = 0;
  // Appends to the run's history, stamped with the current time by the backend.
  virtual void record(model::Event&& event) = 0;
  // A fresh operation id for linking history events.
  virtual int64_t next_op() = 0;
  // The client's identity prefix (Redisson's ServiceManager id: a UUID per client).
  virtual const std::string& client_id() const = 0;
  // The client's name in the run (A, B, ...).
  virtual const std::string& name() const = 0;
  // A random 128-bit token (hex), from the backend's seeded source. `purpose` names what it is for
  // (with the lock and thread it concerns): a simulated client draws it from that name and how many
  // draws of that name went before, so a draw for one purpose never moves another's.
  virtual std::string random_token(std::string_view purpose) = 0;
  // A number uniform in [lo, hi] (inclusive; lo when hi <= lo), drawn as random_token() is.
  virtual int64_t random_range(std::string_view purpose, int64_t lo, int64_t hi) = 0;
};

// A task (Backend::task) as state: a thread's operation by its thread's number, a spawned task (a
// watchdog) by its place among the spawned tasks the description has met (StateWriter::id), none
// as none.
inline StateWriter& describe_task(StateWriter& out, std::string_view name, int64_t task) {
  if (task == 0) return out.field(name, "none");  // a waiter no task made (reset()'s resubscription)
  return task > 0 ? out.field(name, task) : out.id(name, "task", task);
}

// A value a coroutine keeps across its suspensions, kept by its backend under the running task
// (Backend::keep) as long as the frame lives, however it ends.
class Kept {
 public:
  Kept(Backend& backend, std::string_view what) : backend_(backend), task_(backend.task()), what_(what) {}
  Kept(const Kept&) = delete;
  Kept& operator=(const Kept&) = delete;
  ~Kept() { backend_.keep(task_, what_, -1); }  // a command kept goes with it
  void operator=(int64_t value) { backend_.keep(task_, what_, value); }
  // The frame holds `command` as long as this: it stays alive.
  void operator=(const Command* command) { backend_.keep_command(task_, what_, command); }

 private:
  Backend& backend_;
  int64_t task_;
  std::string_view what_;  // a literal
};

}  // namespace locksim::client
