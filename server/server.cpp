#include "server/server.hpp"

#include <csignal>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <thread>
#include <utility>

#include "base/assert.hpp"
#include "engine/command_context.hpp"
#include "engine/command_table.hpp"
#include "model/events.hpp"

namespace locksim::server {
namespace {

using std::chrono::milliseconds;
using tcp = asio::ip::tcp;

constexpr int64_t kHousekeepingMs = 100;  // Redis's serverCron at hz 10

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

std::string endpoint_text(const tcp::endpoint& e) { return e.address().to_string() + ":" + std::to_string(e.port()); }

}  // namespace

Server::Server(ServeOptions options)
    : options_(std::move(options)),
      clock_(options_.clock, options_.start_ms),
      recorder_(!options_.history.empty(), [this] { return clock_.run_ms(); }, options_.lock_keys, options_.resource, options_.history_limit),
      acceptor_(io_),
      signals_(io_, SIGINT, SIGTERM),
      housekeeping_timer_(io_),
      rng_(options_.seed) {
  engine_ = std::make_unique<engine::Engine>(*this);
  started_epoch_ms_ = clock_.now_ms();
  if (options_.replica_lag_ms >= 0) {
    replica_.keep_lag(options_.replica_lag_ms);
    replica_.sync(clock_.run_ms(), engine_->keyspace().entries());  // what it starts with: no write
  }
}

Server::~Server() = default;

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
  if (ec) throw std::runtime_error("cannot listen on " + where + ": " + ec.message());
  port_ = acceptor_.local_endpoint().port();
  if (!options_.port_file.empty()) {
    std::ofstream f(options_.port_file);
    f << port_ << "\n";
    if (!f) throw std::runtime_error("cannot write --port-file " + options_.port_file);
  }
}

void Server::run() {
  signals_.async_wait([this](const asio::error_code& ec, int) {
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
  asio::post(io_, [this] {
    if (stopping_) return;
    stopping_ = true;
    asio::error_code ec;
    acceptor_.close(ec);
    signals_.cancel(ec);
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
    if (!ec) {
      auto c = std::make_shared<Connection>(std::move(socket), next_id_++, options_.limits);
      asio::error_code ignored;
      c->addr = endpoint_text(c->socket.remote_endpoint(ignored));
      c->laddr = endpoint_text(c->socket.local_endpoint(ignored));
      c->socket.set_option(tcp::no_delay(true), ignored);
      c->created_ms = c->last_ms = clock_.run_ms();
      c->authenticated = !options_.requirepass.has_value();
      c->parser.set_authenticated(c->authenticated);
      c->session = engine_->open_session();
      connections_[c->id] = c;
      by_session_[c->session] = c;
      if (connections_.size() > options_.max_clients) {
        reply(c, Reply::error("ERR max number of clients reached"));
        c->closing = true;
        flush(c);
      } else {
        read(c);
      }
    }
    accept();
  });
}

void Server::read(const ConnPtr& c) {
  c->socket.async_read_some(asio::buffer(c->in), [this, c](const asio::error_code& ec, size_t n) {
    if (c->closed) return;
    if (ec) {
      close(c);
      return;
    }
    if (!c->parser.feed(std::string_view(c->in.data(), n))) {
      // Redis closes a client past client-query-buffer-limit without a reply.
      if (!options_.quiet) std::cerr << "locksim serve: closing " << c->who() << ": query buffer past its limit\n";
      close(c);
      return;
    }
    c->last_ms = clock_.run_ms();  // Redis's lastinteraction: set as a read comes in
    process(c);
    if (!c->closed && !c->closing) read(c);
  });
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
  while (!c->closed && !c->closing && !c->blocked && !c->black_holed && !paused() && !held(*c) && !stopping_) {
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
  if (!c->authenticated && name != "auth" && name != "hello" && name != "quit" && name != "reset") {
    reply(c, Reply::error("NOAUTH Authentication required."));
    return;
  }
  if (name.rfind("locksim.", 0) == 0) {
    c->control = true;
    reply(c, control_command(c, argv));
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
  if (std::optional<Reply> r = networking_command(c, argv)) {
    if (!c->closed) reply(c, *r, false, shape_for(*c, argv));
    return;
  }
  const Reply r = run_engine(c, argv);
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

Reply Server::run_engine(const ConnPtr& c, const std::vector<std::string>& argv) {
  if (!recorder_.enabled() && !options_.appendonly && options_.replica_lag_ms < 0) {
    // Nothing to keep about the command (serve as users start it): the engine alone reads the clock.
    c->woff_ms = last_write_ms_;
    return engine_->execute(c->session, argv);
  }
  const Recorder::Before before = recorder_.before(engine_->keyspace(), clock_.now_ms(), argv);
  Reply r = engine_->execute(c->session, argv);
  recorder_.exec(c->who(), argv, r, before, engine_->keyspace(), clock_.now_ms());
  const engine::CommandSpec* spec = engine::lookup_command(argv[0]);
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
  return !c.closed && !c.black_holed && delays_.empty() && partitions_.empty() && c.delayed.empty();
}

void Server::send(const ConnPtr& c, std::string bytes) {
  if (c->closed || c->black_holed) return;
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
  if (c->closed) return;
  if (c->writing) return;
  if (c->out.empty()) {
    if (c->closing && c->delayed.empty()) close(c);
    return;
  }
  c->writing = true;
  auto buffer = std::make_shared<std::string>(std::move(c->out));
  c->out.clear();
  asio::async_write(c->socket, asio::buffer(*buffer), [this, c, buffer](const asio::error_code& ec, size_t) {
    c->writing = false;
    if (ec) {
      close(c);
      return;
    }
    flush(c);
  });
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
  engine_ = std::make_unique<engine::Engine>(*this);
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
