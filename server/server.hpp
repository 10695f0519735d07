#pragma once
// Server: the fake Redis engine behind a RESP socket, for real clients in any language. One event
// loop (standalone Asio) serves every connection; each command runs atomically on the engine, as in
// Redis. Around the engine it keeps what Redis's networking layer keeps (connections, names,
// protocol, authentication), the clock (real or virtual), faults acted out while clients run, and
// the history that `locksim check` judges.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <asio.hpp>

#include "engine/engine.hpp"
#include "engine/snapshot.hpp"
#include "server/connection.hpp"
#include "server/recorder.hpp"
#include "server/serve_clock.hpp"
#include "server/serve_options.hpp"

namespace locksim::server {

// A fault in a schedule: at `at_ms` of the run, the control command `argv` (LOCKSIM.FAULT ...).
struct ScheduledFault {
  int64_t at_ms = 0;
  std::vector<std::string> argv;
  std::string where;  // "file:line", for messages
};

class Server final : public engine::Host {
 public:
  explicit Server(ServeOptions options);
  ~Server() override;

  // Binds and listens; throws std::runtime_error saying why it cannot.
  void listen();
  int port() const { return port_; }
  // Serves until SHUTDOWN, LOCKSIM.SHUTDOWN, SIGINT/SIGTERM or stop(); then records the end and
  // writes the history (options.history).
  void run();
  // Safe from another thread.
  void stop();
  const Recorder& recorder() const { return recorder_; }
  // Faults to act out at their times (loaded from a schedule file by the caller).
  void schedule(std::vector<ScheduledFault> faults) { schedule_ = std::move(faults); }

  // engine::Host
  int64_t now_ms() override { return clock_.now_ms(); }
  void sleep_ms(int64_t ms) override;
  void deliver(engine::SessionId subscriber, std::string_view channel, std::string_view message,
               std::string_view pattern) override;
  void key_event(engine::KeyEvent event, std::string_view key, int64_t expire_at_ms) override;
  bool can_block() const override { return true; }
  void unblocked(engine::SessionId session, const Reply& reply) override;
  void script_running() override;
  bool serves(engine::ServerCommand /*command*/) const override { return true; }
  // The server layer's rows of the engine's command table (networking_commands.cpp), once the
  // engine checked them: on the connection of ctx.session, none for a script's INFO or COMMAND.
  Reply server_command(engine::ServerCommand command, engine::CommandContext& ctx) override;

 private:
  using ConnPtr = std::shared_ptr<Connection>;
  friend struct Commands;

  void accept();
  void adopt(asio::ip::tcp::socket socket);
  void read(const ConnPtr& c);
  bool receive(const ConnPtr& c);
  // processEventsWhileBlocked: what other clients sent while a script is busy.
  void serve_while_busy();
  engine::EngineOptions engine_options() const;
  void process(const ConnPtr& c);
  void process_commands(const ConnPtr& c);
  void process_all();
  void execute(const ConnPtr& c, std::vector<std::string>& argv);
  // `spec`: argv's row of the table, as execute() found it (null for an unknown command).
  Reply run_engine(const ConnPtr& c, const std::vector<std::string>& argv, const engine::CommandSpec* spec);
  void reply(const ConnPtr& c, const Reply& r, bool push = false, Resp3Shape shape = Resp3Shape::Plain);
  void send(const ConnPtr& c, std::string bytes);
  // Whether a reply to `c` leaves now: no delay or partition was ever set (nothing can hold it back)
  // and none of its replies waits.
  bool sends_now(const Connection& c) const;
  // Appends to what goes out now; closes a client whose unsent replies pass their limit.
  void queue_out(const ConnPtr& c, std::string_view bytes);
  void flush(const ConnPtr& c);
  void arm_delayed(const ConnPtr& c);
  void close(const ConnPtr& c);
  void housekeeping();
  void after_clock_moved();
  void replace_engine(const engine::Snapshot& snapshot);
  void write_history();
  void arm_schedule();

  // The server layer's commands (networking_commands.cpp).
  Reply reset_command(const ConnPtr& c);
  Reply shutdown_command(const ConnPtr& c, const std::vector<std::string>& argv);
  Reply wait_command(const ConnPtr& c, const std::vector<std::string>& argv);
  Reply auth_command(const ConnPtr& c, const std::vector<std::string>& argv);
  Reply config_command(const std::vector<std::string>& argv);
  Reply command_command(const std::vector<std::string>& argv);
  Reply client_command(const ConnPtr& c, const std::vector<std::string>& argv);
  Reply client_kill(const ConnPtr& c, const std::vector<std::string>& argv);
  // CLIENT UNBLOCK of a WAIT: its acknowledgements so far, or the UNBLOCKED error.
  void end_wait(const ConnPtr& c, bool with_error);
  // A real clock answers a blocked command at its deadline; a virtual one when it is moved past it.
  void arm_block_timer(const ConnPtr& c);
  // LOCKSIM.* (control_commands.cpp).
  Reply control_command(const ConnPtr& c, const std::vector<std::string>& argv);
  Reply fault_command(const std::vector<std::string>& argv);
  std::string client_info(const Connection& c) const;
  std::string info(const std::string& section) const;

  // Faults in effect.
  struct ClientFault {
    SteadyTime until{};
    int64_t extra_ms = 0;       // delay
    uint64_t per_thousand = 0;  // loss
  };
  bool paused() const;
  bool held(const Connection& c) const;
  SteadyTime held_until(const Connection& c) const;
  const ClientFault* fault_on(const std::map<std::string, ClientFault>& faults, const Connection& c) const;
  void timer_at(SteadyTime when, std::function<void()> then);

  ServeOptions options_;
  ServeClock clock_;
  Recorder recorder_;
  asio::io_context io_;
  asio::ip::tcp::acceptor acceptor_;
  // SIGINT and SIGTERM: a handler of our own (not asio::signal_set, whose handler only the event
  // loop hears) writes to a pipe the loop reads, and sets a flag a busy script's hook reads.
  asio::posix::stream_descriptor signal_reader_;
  asio::steady_timer housekeeping_timer_;
  int port_ = 0;
  std::unique_ptr<engine::Engine> engine_;
  std::map<uint64_t, ConnPtr> connections_;  // by id, ascending
  std::map<engine::SessionId, ConnPtr> by_session_;
  uint64_t next_id_ = 1;
  bool stopping_ = false;
  int64_t started_epoch_ms_ = 0;

  // Faults.
  SteadyTime paused_until_{};
  SteadyTime errors_until_{};
  std::string error_text_;
  std::map<std::string, ClientFault> partitions_, delays_, losses_;  // by client name ("*": every client)
  std::mt19937_64 rng_;
  engine::Snapshot aof_;
  bool aof_stale_ = false;
  SteadyTime last_fsync_{};
  engine::ReplicaLog replica_;
  int64_t last_write_ms_ = -1;  // the run's time of the last write the replica must apply
  // The replicas WAIT and INFO count: the one --replica-lag-ms keeps, else none.
  int replicas() const { return options_.replica_lag_ms >= 0 ? 1 : 0; }
  std::vector<ScheduledFault> schedule_;

  // Busy scripts: the connection whose command runs on the engine, since when its script runs (by
  // the machine's clock, read at the script's first hook call rather than for every command), how
  // long a script runs before other clients are served (busy-reply-threshold), when they were last
  // served meanwhile, and whether SHUTDOWN NOSAVE or a signal ended a busy script.
  const Connection* running_ = nullptr;
  SteadyTime command_started_{};
  int64_t busy_reply_threshold_ms_ = 5000;
  SteadyTime last_busy_poll_{};
  bool halting_ = false;
  std::atomic<bool> stop_requested_{false};  // stop() was called, maybe from another thread

  // CONFIG SET values clients asked for, by name.
  std::map<std::string, std::string> config_;
  // INFO errorstats: error replies by their first word, in byte order as Redis's rax lists them;
  // at most kErrorPrefixes of them, as Redis tracks at most ERROR_STATS_NUMBER.
  static constexpr size_t kErrorPrefixes = 128;
  std::map<std::string, uint64_t> error_counts_;
  void count_errors(const Reply& r);
};

}  // namespace locksim::server
