#pragma once
// Host: what the engine needs from whoever runs it (the simulated world, the shell, a test).
// The engine never reads the wall clock, sleeps or talks to a network; it asks its host.
#include <cstdint>
#include <string_view>

#include "base/reply.hpp"

namespace locksim::engine {

using SessionId = uint64_t;
struct CommandContext;

// The commands of Redis's server layer (networking.c, server.c, config.c, replication.c): rows of
// the one command table (command_table.cpp) that need what only a server around the engine has:
// connections, its configuration, replicas. A host answers those it serves (Host::serves); to
// every other host they are unknown commands, as they are to the shell and the differential tests.
enum class ServerCommand : uint8_t { None, Auth, Client, Command, Config, Hello, Info, Quit, Reset, Shutdown, Wait };

enum class KeyEvent : uint8_t {
  Created,    // a key came into existence (also moved or swapped into db 0)
  ExpireSet,  // its expiry was set or moved (expire_at_ms is the new absolute time)
  Persisted,  // its expiry was removed
  Deleted,    // removed by a command (DEL, an emptied container, an expiry in the past, a flush, MOVE, SWAPDB)
  Expired,    // removed because its time passed (lazily on access, or by the active cycle)
};

// The name histories give a key event: created, expire_set, persisted, deleted, expired.
inline std::string_view key_event_name(KeyEvent event) {
  switch (event) {
    case KeyEvent::Created: return "created";
    case KeyEvent::ExpireSet: return "expire_set";
    case KeyEvent::Persisted: return "persisted";
    case KeyEvent::Deleted: return "deleted";
    case KeyEvent::Expired: return "expired";
  }
  return "?";
}

class Host {
 public:
  virtual ~Host() = default;
  // The server's clock in ms since the epoch. Read once per command; frozen while a script runs.
  virtual int64_t now_ms() = 0;
  // DEBUG SLEEP: the server is busy for `ms`. A simulated host advances its clock.
  virtual void sleep_ms(int64_t ms) = 0;
  // PUBLISH reached `subscriber`, subscribed to the channel itself (`pattern` "") or to `pattern`;
  // the host carries the message (over a network, if it has one).
  virtual void deliver(SessionId subscriber, std::string_view channel, std::string_view message,
                       std::string_view pattern) = 0;
  // A key of db 0 changed. Other databases are not reported: keyspace.hpp says why.
  virtual void key_event(KeyEvent /*event*/, std::string_view /*key*/, int64_t /*expire_at_ms*/) {}
  // redis.log from a script. Recorded by hosts that care, never printed by the engine.
  virtual void script_log(int /*level*/, std::string_view /*message*/) {}
  // Whether a client may block (BLPOP on an empty list waits): only a host that can carry a reply
  // later, through unblocked(), says yes. Elsewhere a blocking command answers at once, as Redis's
  // do inside MULTI (CLIENT_DENY_BLOCKING).
  virtual bool can_block() const { return false; }
  // A blocked session's command finished later (served, timed out or CLIENT UNBLOCK): its reply.
  virtual void unblocked(SessionId /*session*/, const Reply& /*reply*/) {}
  // A script is running: asked every few thousand Lua instructions. A host with a real clock may,
  // once the script has run past busy-reply-threshold, tell the engine (Engine::mark_script_busy)
  // and serve other sessions meanwhile through Engine::execute, as Redis's scriptInterrupt does;
  // SCRIPT KILL among them stops the script. The default does nothing: a deterministic host's
  // scripts end by themselves or by the instruction budget.
  virtual void script_running() {}
  // Whether this host answers `command` (serve: all of them; the simulated world's node: WAIT and
  // INFO, which lock clients send). The engine refuses the others as unknown commands.
  virtual bool serves(ServerCommand /*command*/) const { return false; }
  // Answers a command it serves, once the table's checks passed (arity, subcommand, MULTI's
  // queuing, BUSY). `ctx.session` is kScriptCaller when a script calls it (INFO, COMMAND).
  virtual Reply server_command(ServerCommand /*command*/, CommandContext& /*ctx*/) {
    return Reply::error("ERR this host serves no server command");
  }
};

// A host whose clock moves only when told to: for the shell, tests and benchmarks.
class ManualHost : public Host {
 public:
  explicit ManualHost(int64_t start_ms = 1700000000000) : now_ms_(start_ms) {}
  int64_t now_ms() override { return now_ms_; }
  void sleep_ms(int64_t ms) override { now_ms_ += ms; }
  void advance_ms(int64_t ms) { now_ms_ += ms; }
  void deliver(SessionId, std::string_view, std::string_view, std::string_view) override {}

 private:
  int64_t now_ms_;
};

}  // namespace locksim::engine
