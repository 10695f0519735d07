#pragma once
// Engine: a deterministic, in-process Redis 7.0 for the commands Redis locks use. It owns the
// databases, the subscriptions, the sessions' transactions and the Lua scripting state; time,
// sleeping and message delivery belong to its Host. One command runs at a time, atomically, as in
// Redis; so does a whole EXEC.
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/reply.hpp"
#include "base/state_writer.hpp"
#include "engine/host.hpp"
#include "engine/keyspace.hpp"
#include "engine/notify.hpp"
#include "engine/pubsub.hpp"
#include "engine/script_server.hpp"

namespace locksim::engine {

class Scripting;
struct CommandContext;
struct CommandSpec;

struct EngineOptions {
  // A script that executes more Lua instructions than this is stopped with an error. It stands in
  // for Redis's busy-script time limit, counted instead of timed so that it is deterministic.
  // kNoBudget: none; a script runs until it ends or is killed (SCRIPT KILL from a host that serves
  // other clients while it runs: Host::script_running).
  static constexpr int64_t kNoBudget = INT64_MAX;
  int64_t script_instruction_budget = 100'000'000;
};

// One command queued by MULTI: the command it resolved to and its words.
struct QueuedCommand {
  const CommandSpec* spec;
  std::vector<std::string> argv;
};

// A session's MULTI state (Redis's multiState with the CLIENT_MULTI and CLIENT_DIRTY_EXEC flags).
// Whether a WATCH broke (CLIENT_DIRTY_CAS) is the Watches registry's to say.
struct Transaction {
  bool open = false;        // between MULTI and EXEC / DISCARD
  bool dirty_exec = false;  // a command was refused while queuing: EXEC answers EXECABORT
  std::vector<QueuedCommand> queued;
};

class Engine final : public ScriptServer {
 public:
  explicit Engine(Host& host, EngineOptions options = {});
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // A client connection. It starts in db 0; its subscriptions, transaction and WATCHes belong to
  // it and end with it.
  SessionId open_session();
  void close_session(SessionId session);

  // Runs one command as a client on `session` would: the reply Redis would send.
  Reply execute(SessionId session, std::span<const std::string_view> argv);
  Reply execute(SessionId session, std::initializer_list<std::string_view> argv);
  Reply execute(SessionId session, const std::vector<std::string>& argv);
  // Whether the table knows `argv` (its command and subcommand, as this host serves them) with a
  // count of arguments it allows: what Redis checks before it asks whether a client authenticated.
  bool well_formed(const std::vector<std::string>& argv) const;

  // redis.call/redis.pcall: the same command table, with the checks Redis applies inside scripts.
  Reply call_from_script(std::span<const std::string_view> argv) override;
  // The table's row for `name` as this engine's host answers it: null for an unknown command, or
  // for a server-layer one its host does not serve.
  const CommandSpec* find_command(std::string_view name) const override;
  void script_log(int level, std::string_view message) override { host_.script_log(level, message); }
  void enter_script(bool read_only, bool eval, std::string_view name) override;
  void leave_script() override;
  bool script_interrupted() override;

  // Busy scripts (Redis's script.c). The host says when the running script has run past
  // busy-reply-threshold; from then on, until it ends, execute() may be called from inside
  // Host::script_running for other sessions, and refuses with BUSY what Redis refuses.
  void mark_script_busy();
  bool script_busy() const { return in_script() && running_.busy; }
  // The BUSY error for what the host refuses itself (its control commands, SHUTDOWN without
  // NOSAVE): a transaction in progress is flagged, as rejectCommand does.
  Reply reject_busy(SessionId session);
  // SCRIPT KILL (`eval`) or FUNCTION KILL: OK and the script stops, or why not.
  Reply kill_script(bool eval);
  // SHUTDOWN NOSAVE: the script stops whatever it wrote (the server goes with it).
  void abort_script() { running_.killed = true; }
  // FCALL names its command before the function runs, for FUNCTION STATS.
  void set_function_command(std::span<const std::string_view> argv) {
    function_command_.assign(argv.begin(), argv.end());
  }
  // FUNCTION STATS's running_script: nil, or the busy function's name, its caller's command and
  // how long it has run by the host's clock; a busy EVAL's BUSY error.
  Reply running_script() const;

  // Redis's call(): runs a resolved command (checked, not queued) in `ctx`. Every command runs
  // through here: from a client, from EXEC and from a script.
  Reply call(const CommandSpec& spec, CommandContext& ctx);

  // Blocking commands (blocked.hpp). Whether `session` may block now: not inside MULTI or a script,
  // and only on a host that can carry a later reply (Host::can_block).
  bool may_block(SessionId session) const;
  // blockForKeys: `session` waits, and its command answers later through Host::unblocked. Its
  // command returns an empty Sequence meanwhile (nothing to send yet).
  void block(SessionId session, BlockedPop pop);
  bool blocked(SessionId session) const { return dbs_.blocked().find(session) != nullptr; }
  // The deadline of `session`'s wait on the host's clock: 0 when it waits until served.
  int64_t block_deadline(SessionId session) const;
  // Ends every wait whose deadline is before the host's clock, each answered nil (Redis's
  // handleBlockedClientsTimeout).
  void timeout_blocked();
  // CLIENT UNBLOCK: ends `session`'s wait, answered nil as a timeout or with the UNBLOCKED error;
  // false when it was not blocked.
  bool unblock(SessionId session, bool with_error);
  size_t blocked_clients() const { return dbs_.blocked().count(); }

  // Redis's active expiry, made deterministic: every key whose time has passed, db by db, in key
  // order.
  size_t active_expire();

  Host& host() { return host_; }
  // Db 0: the database every connection starts in, and the only one lock clients use.
  Keyspace& keyspace() { return dbs_.db(0); }
  Databases& databases() { return dbs_; }
  PubSub& pubsub() { return pubsub_; }
  // notify-keyspace-events as NotifyClass bits (notify.hpp); 0, nothing sent, until set.
  void set_keyspace_events(int flags) { notifier_.set_flags(flags); }
  int keyspace_events() const { return notifier_.flags(); }
  Scripting& scripting() { return *scripting_; }

  // The engine's state as data (base/state_writer.hpp): every database's keys in byte order with
  // their values and expiries relative to `now_ms`, the watched keys, the scripts and libraries, the
  // scripts' random generator. Sessions are the connections' own: describe_session.
  void describe(StateWriter& out, int64_t now_ms) const;
  // One session's db, transaction, watched keys and subscriptions.
  void describe_session(StateWriter& out, SessionId session) const;
  // The channels with subscribers, each with its subscribers in the order publish delivers to them.
  std::vector<std::pair<std::string, std::vector<SessionId>>> subscribers() const;
  bool in_script() const { return script_depth_ > 0; }

  // The database `session` works in (kScriptCaller: the running script's).
  Keyspace& db_of(SessionId session);
  // SELECT: `session` works in db `id` from now on; a script's SELECT lasts until the script ends.
  void select(SessionId session, int id);
  Transaction& transaction(SessionId session);
  // HELLO 3 / RESET: whether the connection speaks RESP3, where a subscriber may run any command and
  // PING answers as usual (Redis 7.0 limits the subscriber context under RESP2 only).
  void set_resp3(SessionId session, bool resp3) { client(session).resp3 = resp3; }
  bool resp3(SessionId session) const;  // false for a script's calls
  // Redis's discardTransaction: the queue, the transaction's flags and the session's WATCHes go.
  void discard_transaction(SessionId session);

 private:
  struct Client {
    int db = 0;
    Transaction multi;
    bool resp3 = false;
  };

  Client& client(SessionId session);
  const Client& client(SessionId session) const;
  // handleClientsBlockedOnKeys: after a command, the clients waiting on keys it made ready are
  // served, first blocked first, while the key still has something for them.
  void handle_blocked_on_keys();
  // unblockClient and the reply the blocked command finally gives.
  void finish_blocked(SessionId session, const Reply& reply);
  // Redis's rejectCommand: the error, and a transaction in progress is flagged; EXEC itself aborts.
  Reply reject(SessionId session, const CommandSpec* spec, std::string error);

  Host& host_;
  Databases dbs_;
  PubSub pubsub_;
  Notifier notifier_{pubsub_, host_};
  std::unique_ptr<Scripting> scripting_;
  std::map<SessionId, Client> clients_;  // open sessions
  SessionId next_session_ = 1;
  SessionId current_ = 0;  // the session whose command is running (Redis's server.current_client)
  int script_db_ = 0;      // the running script's db: its caller's, until it SELECTs another
  int script_depth_ = 0;
  bool script_read_only_ = false;  // the running script may not write (scriptVerifyWriteCommandAllow)
  // The running script's scriptRunCtx flags.
  struct RunningScript {
    bool eval = true;     // SCRIPT_EVAL_MODE
    bool busy = false;    // SCRIPT_TIMEDOUT
    bool wrote = false;   // SCRIPT_WRITE_DIRTY
    bool killed = false;  // SCRIPT_KILLED
    std::string_view name;   // the caller's (LuaCall's), alive while the script runs
    int64_t started_ms = 0;  // the command's clock, frozen since
  };
  std::vector<std::string> function_command_;  // the running FCALL's words
  RunningScript running_;
  // processCommand while a script is busy (execute() from inside the script's hook).
  Reply execute_while_busy(SessionId session, std::span<const std::string_view> argv);
  const CommandSpec* checked_command(SessionId session, std::span<const std::string_view> argv, Reply& refused);
};

}  // namespace locksim::engine
