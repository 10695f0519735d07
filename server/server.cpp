#include "server/server.hpp"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <csignal>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <thread>
#include <utility>

#include "base/assert.hpp"
#include "engine/command_context.hpp"
#include "engine/command_table.hpp"
#include "engine/errors.hpp"
#include "model/events.hpp"

namespace locksim::server {
namespace {

using std::chrono::milliseconds;
using tcp = asio::ip::tcp;

constexpr int64_t kHousekeepingMs = 100;  // Redis's serverCron at hz 10
// How often a busy script's hook looks at the other clients: Redis does at each hook call, every
// 100,000 Lua instructions, about a millisecond's worth.
constexpr auto kBusyPoll = std::chrono::milliseconds(1);

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& ch : out) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return out;
}

bool is_subscription(const std::string& name) {
  return name == "subscribe" || name == "unsubscribe" || name == "psubscribe" || name == "punsubscribe";
}

// The RESP3 shape of a command's reply, looked up only for a RESP3 connection: RESP2 has one shape,
// and most clients speak it, so the per-command lookup stays off their path.
Resp3Shape shape_for(const Connection& c, const std::vector<std::string>& argv) {
  return c.protocol == Protocol::Resp3 ? resp3_shape(argv) : Resp3Shape::Plain;
}

// SIGINT / SIGTERM: async-signal-safe, so a flag and a byte down a pipe (Server::run says why).
std::atomic<bool> g_stop_signal{false};
int g_signal_pipe[2] = {-1, -1};

extern "C" void on_stop_signal(int) {
  g_stop_signal.store(true);
  const char byte = 1;
  if (g_signal_pipe[1] >= 0) (void)!::write(g_signal_pipe[1], &byte, 1);
}

std::string endpoint_text(const tcp::endpoint& e) { return e.address().to_string() + ":" + std::to_string(e.port()); }

}  // namespace

Server::Server(ServeOptions options)
    : options_(std::move(options)),
      clock_(options_.clock, options_.start_ms),
      recorder_(!options_.history.empty(), [this] { return clock_.run_ms(); }, options_.lock_keys, options_.resource, options_.history_limit),
      acceptor_(io_),
      signal_reader_(io_),
      housekeeping_timer_(io_),
      rng_(options_.seed) {
  engine_ = std::make_unique<engine::Engine>(*this, engine_options());
  started_epoch_ms_ = clock_.now_ms();
  if (options_.replica_lag_ms >= 0) {
    replica_.keep_lag(options_.replica_lag_ms);
    replica_.sync(clock_.run_ms(), engine_->keyspace().entries());  // what it starts with: no write
  }
}

Server::~Server() = default;

engine::EngineOptions Server::engine_options() const {
  // A real clock lets a runaway script run until a client kills it, as Redis does; a virtual one
  // keeps the engine's deterministic budget, since nothing there may hang on the machine's time.
  engine::EngineOptions o;
  if (options_.script_budget > 0) o.script_instruction_budget = options_.script_budget;
  else if (options_.script_budget == 0 || options_.clock == ClockMode::Real)
    o.script_instruction_budget = engine::EngineOptions::kNoBudget;
  return o;
}

void Server::listen() {
  asio::error_code ec;
  const asio::ip::address address = asio::ip::make_address(options_.bind, ec);
  if (ec) throw std::runtime_error("--bind " + options_.bind + ": not an IP address");
  if (options_.port < 0 || options_.port > 65535)
    throw std::runtime_error("--port " + std::to_string(options_.port) + ": expected 0 to 65535");
  const tcp::endpoint endpoint(address, static_cast<uint16_t>(options_.port));
  const std::string where = options_.bind + ":" + std::to_string(options_.port);
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec) acceptor_.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor_.bind(endpoint, ec);
  if (!ec) acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (!ec) acceptor_.non_blocking(true, ec);  // serve_while_busy accepts without the event loop
  if (ec) throw std::runtime_error("cannot listen on " + where + ": " + ec.message());
  port_ = acceptor_.local_endpoint().port();
  if (!options_.port_file.empty()) {
    std::ofstream f(options_.port_file);
    f << port_ << "\n";
    if (!f) throw std::runtime_error("cannot write --port-file " + options_.port_file);
  }
}

void Server::run() {
  // A busy script keeps the event loop inside one handler, where an asio::signal_set's handler
  // would never run: the stop must reach the script's hook (script_running) too.
  if (g_signal_pipe[0] < 0 && ::pipe2(g_signal_pipe, O_NONBLOCK | O_CLOEXEC) != 0)
    throw std::runtime_error("cannot make a pipe for signals");
  g_stop_signal.store(false);
  char drained[64];
  while (::read(g_signal_pipe[0], drained, sizeof drained) > 0) {
  }
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
  signal_reader_.assign(::dup(g_signal_pipe[0]));
  signal_reader_.async_wait(asio::posix::stream_descriptor::wait_read, [this](const asio::error_code& ec) {
    if (!ec) stop();
  });
  accept();
  housekeeping();
  arm_schedule();
  io_.run();
  recorder_.end();
  write_history();
}

void Server::stop() {
  stop_requested_.store(true);
  asio::post(io_, [this] {
    if (stopping_) return;
    stopping_ = true;
    asio::error_code ec;
    acceptor_.close(ec);
    signal_reader_.cancel(ec);
    housekeeping_timer_.cancel();
    std::vector<ConnPtr> all;
    for (const auto& [id, c] : connections_) all.push_back(c);
    for (const ConnPtr& c : all) close(c);
    io_.stop();
  });
}

void Server::write_history() {
  if (options_.history.empty()) return;
  std::ofstream f(options_.history, std::ios::binary);
  recorder_.history().write_jsonl(f);
  if (!f) {
    std::cerr << "locksim serve: cannot write the history to " << options_.history << "\n";
    return;
  }
  if (!options_.quiet)
    std::cerr << "locksim serve: wrote " << recorder_.history().size() << " events to " << options_.history
              << (recorder_.cut() ? " (cut at --history-limit)" : "") << "; judge them with: locksim check "
              << options_.history << "\n";
}

void Server::accept() {
  acceptor_.async_accept([this](const asio::error_code& ec, tcp::socket socket) {
    if (stopping_) return;
    if (!ec) adopt(std::move(socket));
    accept();
  });
}

void Server::adopt(tcp::socket socket) {
  auto c = std::make_shared<Connection>(std::move(socket), next_id_++, options_.limits);
  asio::error_code ignored;
  c->addr = endpoint_text(c->socket.remote_endpoint(ignored));
  c->laddr = endpoint_text(c->socket.local_endpoint(ignored));
  c->socket.set_option(tcp::no_delay(true), ignored);
  c->socket.non_blocking(true, ignored);  // receive() and flush() never wait on the socket
  c->created_ms = c->last_ms = clock_.run_ms();
  c->authenticated = !options_.requirepass.has_value();
  c->parser.set_authenticated(c->authenticated);
  c->session = engine_->open_session();
  connections_[c->id] = c;
  by_session_[c->session] = c;
  if (connections_.size() > options_.max_clients) {
    reply(c, Reply::error(engine::errors::kMaxClients));
    c->closing = true;
    flush(c);
  } else {
    read(c);
  }
}

// The event loop waits for a connection to be readable and reads it here (receive), rather than
// letting asio read into a buffer: a busy script's hook reads the sockets itself (serve_while_busy),
// and bytes asio had read already, with their handler queued behind the script, would be out of
// its reach (a SCRIPT KILL among them would never run). A wait that finds its bytes taken reads
// nothing and waits again.
void Server::read(const ConnPtr& c) {
  c->socket.async_wait(tcp::socket::wait_read, [this, c](const asio::error_code& ec) {
    if (c->closed || c->closing) return;
    if (ec) {
      close(c);
      return;
    }
    if (receive(c) && !c->closed && !c->closing) read(c);
  });
}

bool Server::receive(const ConnPtr& c) {
  asio::error_code ec;
  const size_t n = c->socket.read_some(asio::buffer(c->in), ec);
  if (ec == asio::error::would_block || ec == asio::error::try_again) return true;
  if (ec) {
    close(c);
    return false;
  }
  if (!c->parser.feed(std::string_view(c->in.data(), n))) {
    // Redis closes a client past client-query-buffer-limit without a reply.
    if (!options_.quiet) std::cerr << "locksim serve: closing " << c->who() << ": query buffer past its limit\n";
    close(c);
    return false;
  }
  c->last_ms = clock_.run_ms();  // Redis's lastinteraction: set as a read comes in
  process(c);
  return !c->closed;
}

void Server::script_running() {
  if (halting_) return;
  if (stop_requested_.load() || g_stop_signal.load()) {
    // SIGTERM, SIGINT or stop(): the script goes with the server, as under SHUTDOWN NOSAVE.
    engine_->abort_script();
    halting_ = true;
    stop();
    return;
  }
  // With a budget the script ends by itself; nothing is served meanwhile, so a virtual clock's
  // runs stay the same whatever the machine's speed.
  if (engine_options().script_instruction_budget != engine::EngineOptions::kNoBudget) return;
  const SteadyTime now = std::chrono::steady_clock::now();
  if (command_started_ == SteadyTime{}) command_started_ = now;  // 1000 instructions in: microseconds
  if (!engine_->script_busy()) {
    if (now < steady_after(command_started_, busy_reply_threshold_ms_)) return;
    engine_->mark_script_busy();
    if (!options_.quiet)
      std::cerr << "locksim serve: slow script detected: still running after " << busy_reply_threshold_ms_
                << " ms; other clients get BUSY until SCRIPT KILL or FUNCTION KILL (if it wrote nothing) or "
                   "SHUTDOWN NOSAVE\n";
  } else if (now - last_busy_poll_ < kBusyPoll) {
    return;
  }
  last_busy_poll_ = now;
  serve_while_busy();
}

// Redis's processEventsWhileBlocked, without the event loop: asio forbids running io_context from
// inside one of its handlers, and the script runs inside one (the read of its caller). The sockets
// are non-blocking, so a poll(2) with no timeout says which have something, and they are accepted,
// read and answered directly (receive, flush); whatever asio had armed on them meanwhile finds
// nothing left and waits again once the script is over. Timers (blocked clients' timeouts, the
// housekeeping) wait for the script, as Redis's time events do.
void Server::serve_while_busy() {
  std::vector<pollfd> fds{pollfd{acceptor_.is_open() ? acceptor_.native_handle() : -1, POLLIN, 0}};
  std::vector<ConnPtr> conns{nullptr};
  for (const auto& [id, c] : connections_) {
    // The script's own client is not read until the script ends (Redis's protectClient).
    if (c.get() == running_ || c->closed || c->closing || c->black_holed) continue;
    fds.push_back(pollfd{c->socket.native_handle(), POLLIN, 0});
    conns.push_back(c);
  }
  if (::poll(fds.data(), fds.size(), 0) <= 0) return;
  if (fds[0].revents & POLLIN) {
    for (;;) {
      tcp::socket socket(io_);
      asio::error_code ec;
      acceptor_.accept(socket, ec);
      if (ec) break;
      adopt(std::move(socket));
    }
  }
  for (size_t i = 1; i < fds.size(); ++i) {
    // An earlier one's command may have closed it (CLIENT KILL is refused, but RESET and QUIT run).
    if (fds[i].revents != 0 && !conns[i]->closed && !conns[i]->closing && !halting_) receive(conns[i]);
  }
}

bool Server::paused() const {
  return paused_until_ != SteadyTime{} && std::chrono::steady_clock::now() < paused_until_;
}

const Server::ClientFault* Server::fault_on(const std::map<std::string, ClientFault>& faults,
                                             const Connection& c) const {
  if (faults.empty()) return nullptr;  // the common case: no fault was ever set
  const auto now = std::chrono::steady_clock::now();
  for (const std::string& name : {c.who(), std::string("*")}) {
    const auto it = faults.find(name);
    if (it != faults.end() && now < it->second.until) return &it->second;
  }
  return nullptr;
}

SteadyTime Server::held_until(const Connection& c) const {
  const ClientFault* p = fault_on(partitions_, c);
  return p ? p->until : SteadyTime{};
}

bool Server::held(const Connection& c) const { return fault_on(partitions_, c) != nullptr; }

void Server::process(const ConnPtr& c) {
  // Replies to what one read brought leave together, as Redis writes a client's replies once per
  // event loop turn.
  c->batching = true;
  process_commands(c);
  c->batching = false;
  flush(c);
}

void Server::process_commands(const ConnPtr& c) {
  // The connection's argument buffers, taken for this run of commands and given back after it: a
  // command that processes every connection again (a clock moved, a fault's end) gets none here.
  std::vector<std::string> argv = std::move(c->spare_argv);
  while (!c->closed && !c->closing && !c->blocked && !c->black_holed && !paused() && !held(*c) && !stopping_ &&
         !halting_) {
    if (!c->parser.next(argv)) {
      if (c->parser.error()) {
        reply(c, Reply::error(*c->parser.error()));
        c->closing = true;
        flush(c);
      }
      break;
    }
    execute(c, argv);
  }
  c->spare_argv = std::move(argv);
}

void Server::process_all() {
  std::vector<ConnPtr> all;
  for (const auto& [id, c] : connections_) all.push_back(c);
  for (const ConnPtr& c : all) process(c);
}

void Server::execute(const ConnPtr& c, std::vector<std::string>& argv) {
  // resetClient: a SKIP silences the command after the one that asked for it, and only that one.
  struct AfterCommand {
    Connection& c;
    ~AfterCommand() { c.reply_skip = std::exchange(c.reply_skip_next, false); }
  } after{*c};
  const std::string name = lower(argv[0]);
  c->last_command = name;
  const engine::CommandSpec* spec = engine_->find_command(name);
  const bool control = name.rfind("locksim.", 0) == 0;
  // processCommand's order: an unknown command or a wrong count of arguments is refused as such
  // (by the engine, below) before NOAUTH.
  if (!c->authenticated && !(spec != nullptr && (spec->flags & engine::kCmdNoAuth)) &&
      (control || engine_->well_formed(argv))) {
    reply(c, Reply::error(engine::errors::kNoAuth));
    return;
  }
  if (control) {
    c->control = true;
    // They move the clock, replace the engine or act out faults on it: not while a script is
    // in the middle of its run.
    reply(c, engine_->script_busy() ? engine_->reject_busy(c->session) : control_command(c, argv));
    return;
  }
  if (errors_until_ != SteadyTime{} && std::chrono::steady_clock::now() < errors_until_) {
    // An error window answers every command with its error, runs nothing, and records whom it refused.
    const Reply r = Reply::error(error_text_);
    const Recorder::Before before = recorder_.before(engine_->keyspace(), clock_.now_ms(), argv);
    recorder_.exec(c->who(), argv, r, before, engine_->keyspace(), clock_.now_ms());
    reply(c, r);
    return;
  }
  if (spec != nullptr && spec->server != engine::ServerCommand::None) {
    // The server layer's commands (server_command) read and set connections, configuration and
    // replicas, never a key: nothing of them is recorded, copied to the AOF or lost.
    const Reply r = engine_->execute(c->session, argv);
    if (!c->closed) reply(c, r, false, shape_for(*c, argv));
    return;
  }
  const Reply r = run_engine(c, argv, spec);
  if (engine_->blocked(c->session)) {
    // BLPOP and its kin found nothing: the reply comes when a key is served or the wait ends.
    c->blocked = true;
    c->block_shape = shape_for(*c, argv);
    arm_block_timer(c);
    return;
  }
  if (const ClientFault* loss = fault_on(losses_, *c)) {
    if (std::uniform_int_distribution<uint64_t>(0, 999)(rng_) < loss->per_thousand) {
      // The command ran; its reply is lost. On TCP that is a connection that goes silent: nothing more
      // in or out of it until the loss ends, when it closes (the client sees a timeout, then a reset).
      recorder_.lost_reply(c->who(), argv);
      c->black_holed = true;
      timer_at(loss->until, [this, c] { close(c); });
      return;
    }
  }
  reply(c, r, is_subscription(name), shape_for(*c, argv));
}

Reply Server::run_engine(const ConnPtr& c, const std::vector<std::string>& argv, const engine::CommandSpec* spec) {
  if (engine_->in_script()) {
    // Let in by a busy script's hook: refused, or a command that writes nothing (SCRIPT KILL,
    // MULTI ...). The AOF and the replica must not copy a keyspace the script is halfway through.
    const Recorder::Before before = recorder_.before(engine_->keyspace(), clock_.now_ms(), argv);
    Reply r = engine_->execute(c->session, argv);
    recorder_.exec(c->who(), argv, r, before, engine_->keyspace(), clock_.now_ms());
    return r;
  }
  // The script's hook reads the machine's clock at its first call: none is read per command.
  running_ = c.get();
  command_started_ = SteadyTime{};
  if (!recorder_.enabled() && !options_.appendonly && options_.replica_lag_ms < 0) {
    // Nothing to keep about the command (serve as users start it): the engine alone reads the clock.
    c->woff_ms = last_write_ms_;
    Reply r = engine_->execute(c->session, argv);
    running_ = nullptr;
    return r;
  }
  const Recorder::Before before = recorder_.before(engine_->keyspace(), clock_.now_ms(), argv);
  Reply r = engine_->execute(c->session, argv);
  running_ = nullptr;
  recorder_.exec(c->who(), argv, r, before, engine_->keyspace(), clock_.now_ms());
  const bool may_write = !spec || !(spec->flags & engine::kCmdReadOnly);
  if (may_write) {
    aof_stale_ = true;
    if (options_.replica_lag_ms >= 0 && replica_.remember(clock_.run_ms(), engine_->keyspace().entries()))
      last_write_ms_ = clock_.run_ms();
  }
  c->woff_ms = last_write_ms_;
  return r;
}

void Server::count_errors(const Reply& r) {
  if (r.kind == Reply::Kind::Array || r.kind == Reply::Kind::Sequence) {
    for (const Reply& e : r.elements) count_errors(e);
    return;
  }
  if (r.kind != Reply::Kind::Error) return;
  // afterErrorReply: the text up to its first space within 32 bytes, else "ERR".
  const std::string_view text = r.str;
  const size_t space = text.substr(0, 32).find(' ');
  const std::string prefix(space == std::string_view::npos ? std::string_view("ERR") : text.substr(0, space));
  const auto it = error_counts_.find(prefix);
  if (it != error_counts_.end()) ++it->second;
  else if (error_counts_.size() < kErrorPrefixes) error_counts_.emplace(prefix, 1);
}

void Server::reply(const ConnPtr& c, const Reply& r, bool push, Resp3Shape shape) {
  count_errors(r);
  if ((c->reply_off || c->reply_skip) && !push) return;
  std::string bytes;
  if (push && c->protocol == Protocol::Resp3) {
    // RESP3 sends subscription confirmations as pushes, like the messages themselves.
    const std::vector<Reply> items = r.kind == Reply::Kind::Sequence ? r.elements : std::vector<Reply>{r};
    for (const Reply& item : items) {
      if (item.kind != Reply::Kind::Array) {
        append_reply(bytes, item, c->protocol);
        continue;
      }
      bytes += ">" + std::to_string(item.elements.size()) + "\r\n";
      for (const Reply& e : item.elements) append_reply(bytes, e, c->protocol);
    }
  } else if (sends_now(*c)) {
    // The common case, written where it leaves from, without a copy.
    append_shaped(c->out, r, c->protocol, shape);
    queue_out(c, {});
    return;
  } else {
    append_shaped(bytes, r, c->protocol, shape);
  }
  send(c, std::move(bytes));
}

bool Server::sends_now(const Connection& c) const {
  return !c.closed && !c.black_holed && !halting_ && delays_.empty() && partitions_.empty() && c.delayed.empty();
}

void Server::send(const ConnPtr& c, std::string bytes) {
  if (c->closed || c->black_holed || halting_) return;
  if (sends_now(*c)) {
    queue_out(c, bytes);
    return;
  }
  const SteadyTime now = std::chrono::steady_clock::now();
  SteadyTime due = now;
  if (const ClientFault* d = fault_on(delays_, *c)) due = steady_after(now, d->extra_ms);
  due = std::max(due, held_until(*c));  // a partition holds replies until it heals
  if (!c->delayed.empty()) due = std::max(due, c->delayed.back().first);
  if (due > now) {
    c->delayed.emplace_back(due, std::move(bytes));
    if (c->delayed.size() == 1) arm_delayed(c);
    return;
  }
  queue_out(c, bytes);
}

void Server::queue_out(const ConnPtr& c, std::string_view bytes) {
  c->out += bytes;
  if (c->out.size() > options_.output_limit) {
    if (!options_.quiet) std::cerr << "locksim serve: closing " << c->who() << ": output buffer past its limit\n";
    close(c);
    return;
  }
  if (!c->batching) flush(c);
}

void Server::arm_delayed(const ConnPtr& c) {
  c->delay_timer.expires_at(c->delayed.front().first);
  c->delay_timer.async_wait([this, c](const asio::error_code& ec) {
    if (ec || c->closed) return;
    const SteadyTime now = std::chrono::steady_clock::now();
    while (!c->delayed.empty() && c->delayed.front().first <= now) {
      c->out += c->delayed.front().second;
      c->delayed.pop_front();
    }
    if (!c->delayed.empty()) arm_delayed(c);
    flush(c);
  });
}

void Server::flush(const ConnPtr& c) {
  if (c->closed || c->writing) return;
  if (!c->out.empty()) {
    // Written at once, as far as the socket takes: a busy script's hook must get its replies out
    // while the event loop cannot run (an asynchronous write's remainder would wait for the script).
    asio::error_code ec;
    const size_t n = c->socket.write_some(asio::buffer(c->out), ec);
    if (ec && ec != asio::error::would_block && ec != asio::error::try_again) {
      // Closed from the event loop, not from inside whatever sent (a PUBLISH delivering in a loop).
      c->writing = true;
      asio::post(io_, [this, c] { close(c); });
      return;
    }
    c->out.erase(0, n);
    if (!c->out.empty()) {
      c->writing = true;
      c->socket.async_wait(tcp::socket::wait_write, [this, c](const asio::error_code& wait_ec) {
        c->writing = false;
        if (c->closed) return;
        if (wait_ec) {
          close(c);
          return;
        }
        flush(c);
      });
      return;
    }
  }
  if (c->closing && c->delayed.empty()) close(c);
}

void Server::close(const ConnPtr& c) {
  if (c->closed) return;
  c->closed = true;
  asio::error_code ec;
  c->socket.shutdown(tcp::socket::shutdown_both, ec);
  c->socket.close(ec);
  c->delay_timer.cancel();
  c->block_timer.cancel();
  engine_->close_session(c->session);
  by_session_.erase(c->session);
  connections_.erase(c->id);
}

void Server::timer_at(SteadyTime when, std::function<void()> then) {
  auto timer = std::make_shared<asio::steady_timer>(io_, when);
  timer->async_wait([timer, then = std::move(then)](const asio::error_code& ec) {
    if (!ec) then();
  });
}

void Server::housekeeping() {
  housekeeping_timer_.expires_after(milliseconds(kHousekeepingMs));
  housekeeping_timer_.async_wait([this](const asio::error_code& ec) {
    if (ec || stopping_) return;
    if (!paused()) {
      engine_->active_expire();
      engine_->timeout_blocked();  // clientsCron's check: a deadline a clock jump passed
      // appendfsync everysec, on the machine's clock even when the server's is virtual: what a
      // restart from the AOF finds.
      const SteadyTime now = std::chrono::steady_clock::now();
      if (options_.appendonly && aof_stale_ && now - last_fsync_ >= std::chrono::seconds(1)) {
        aof_ = engine_->keyspace().entries();
        aof_stale_ = false;
        last_fsync_ = now;
      }
    }
    housekeeping();
  });
}

void Server::after_clock_moved() {
  engine_->active_expire();
  engine_->timeout_blocked();
  process_all();
}

void Server::sleep_ms(int64_t ms) {
  if (ms <= 0) return;
  // DEBUG SLEEP: a real server is busy for that long; a virtual clock just moves.
  if (clock_.mode() == ClockMode::Virtual)
    clock_.advance(ms);
  else
    std::this_thread::sleep_for(milliseconds(ms));
}

void Server::deliver(engine::SessionId subscriber, std::string_view channel, std::string_view message,
                     std::string_view pattern) {
  const auto it = by_session_.find(subscriber);
  LS_ASSERT(it != by_session_.end());
  std::string bytes;
  if (pattern.empty()) append_push(bytes, {"message", channel, message}, it->second->protocol);
  else append_push(bytes, {"pmessage", pattern, channel, message}, it->second->protocol);
  send(it->second, std::move(bytes));
}

void Server::unblocked(engine::SessionId session, const Reply& r) {
  const auto it = by_session_.find(session);
  LS_ASSERT(it != by_session_.end());
  const ConnPtr c = it->second;
  LS_ASSERT(c->blocked && !c->waiting_acks);
  c->block_timer.cancel();
  c->blocked = false;
  reply(c, r, false, c->block_shape);
  // What it sent after the blocking command runs once the command that served it has finished
  // (Redis's processUnblockedClients, in the next event loop turn).
  asio::post(io_, [this, c] {
    if (!c->closed) process(c);
  });
}

void Server::arm_block_timer(const ConnPtr& c) {
  const int64_t deadline = engine_->block_deadline(c->session);
  if (deadline == 0 || clock_.mode() == ClockMode::Virtual) return;
  // Redis times a wait out once its clock has passed the deadline.
  const int64_t wait_ms = deadline < clock_.now_ms() ? 0 : deadline - clock_.now_ms() + 1;
  c->block_timer.expires_at(steady_after(std::chrono::steady_clock::now(), wait_ms));
  c->block_timer.async_wait([this, c](const asio::error_code& ec) {
    if (ec || c->closed || !engine_->blocked(c->session)) return;
    engine_->timeout_blocked();
    if (engine_->blocked(c->session)) arm_block_timer(c);  // the clock jumped back meanwhile
  });
}

void Server::key_event(engine::KeyEvent event, std::string_view key, int64_t expire_at_ms) {
  recorder_.key_event(key, engine::key_event_name(event), expire_at_ms == engine::kNoExpire ? 0 : expire_at_ms);
}

void Server::replace_engine(const engine::Snapshot& snapshot) {
  // Clients lose their connections; control connections are kept and given a session on the new engine.
  std::vector<ConnPtr> all;
  for (const auto& [id, c] : connections_) all.push_back(c);
  for (const ConnPtr& c : all)
    if (!c->control || (c->blocked && !c->waiting_acks)) close(c);  // a wait on keys dies with its engine
  by_session_.clear();
  const engine::EncodingLimits limits = engine_->databases().limits();
  engine_ = std::make_unique<engine::Engine>(*this, engine_options());
  engine_->databases().limits() = limits;  // the encoding thresholds too are CONFIG SETs the server keeps
  engine::restore(engine_->keyspace(), snapshot);
  // Like the other CONFIG SETs the server keeps, notifications stay as set, from after the restore:
  // Redis's load announces no keys.
  if (const auto set = config_.find("notify-keyspace-events"); set != config_.end())
    engine_->set_keyspace_events(engine::keyspace_events_from_string(set->second).value_or(0));
  for (const auto& [id, c] : connections_) {
    c->session = engine_->open_session();
    by_session_[c->session] = c;
  }
  aof_stale_ = true;
  replica_.clear();
  if (options_.replica_lag_ms >= 0) replica_.sync(clock_.run_ms(), engine_->keyspace().entries());  // resynced
}

void Server::arm_schedule() {
  for (const ScheduledFault& f : schedule_) {
    const SteadyTime when = steady_after(std::chrono::steady_clock::now(), f.at_ms);
    timer_at(when, [this, f] {
      const Reply r = fault_command(f.argv);
      if (r.is_error()) std::cerr << "locksim serve: " << f.where << ": " << r.str << "\n";
    });
  }
}

}  // namespace locksim::server
