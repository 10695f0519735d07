#include "engine/engine.hpp"

#include <algorithm>
#include <array>
#include <variant>

#include "base/assert.hpp"
#include "engine/command_context.hpp"
#include "engine/command_table.hpp"
#include "engine/commands.hpp"
#include "engine/errors.hpp"
#include "engine/scripting.hpp"

namespace locksim::engine {
namespace {

// Redis's rejectCommandFormat keeps the error on one line.
std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\r', ' ');
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

// Redis formats the name and arguments with %s, so each ends at its first NUL byte.
std::string_view as_c_string(std::string_view s) { return s.substr(0, s.find('\0')); }

std::string unknown_command(std::span<const std::string_view> argv) {
  std::string args;
  for (size_t i = 1; i < argv.size() && args.size() < 128; ++i) {
    const size_t room = 128 - args.size();
    args += "'" + std::string(as_c_string(argv[i]).substr(0, room)) + "' ";
  }
  return one_line(errors::unknown_command(as_c_string(argv[0]).substr(0, 128), args));
}

// commandCheckExistence for a container command whose subcommand is unknown: the command as the
// client spelled it, upper-cased.
std::string unknown_subcommand(std::span<const std::string_view> argv) {
  std::string command(as_c_string(argv[0]));
  std::transform(command.begin(), command.end(), command.begin(),
                 [](char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - ('a' - 'A')) : c; });
  return one_line(errors::unknown_subcommand(as_c_string(argv[1]), command));
}

enum class Shape { Ok, UnknownSubcommand, WrongArity };

// What Redis's lookupCommand and commandCheckArity make of a command found by name: a container
// command (SCRIPT) given a subcommand stands for that subcommand, whose arity counts and whose
// name errors use ("script|load"). `fullname` is set in every case.
Shape check_shape(const CommandSpec& spec, std::span<const std::string_view> argv, std::string& fullname) {
  fullname = spec.name;
  if (spec.subcommands.empty() || argv.size() < 2)
    return arity_ok(spec.arity, argv.size()) ? Shape::Ok : Shape::WrongArity;
  const SubcommandSpec* sub = lookup_subcommand(spec, argv[1]);
  if (sub == nullptr) return Shape::UnknownSubcommand;
  fullname += "|";
  fullname += sub->name;
  return arity_ok(sub->arity, argv.size()) ? Shape::Ok : Shape::WrongArity;
}

// The commands a session in MULTI runs at once instead of queuing (processCommand's list).
bool runs_inside_multi(const CommandSpec& spec) {
  return spec.handler == exec_command || spec.handler == discard_command || spec.handler == multi_command ||
         spec.handler == watch_command || spec.server == ServerCommand::Quit || spec.server == ServerCommand::Reset;
}

}  // namespace

Engine::Engine(Host& host, EngineOptions options)
    : host_(host), dbs_(host), scripting_(std::make_unique<Scripting>(*this, options.script_instruction_budget)) {
  dbs_.set_notifier(notifier_);
}

Engine::~Engine() = default;

SessionId Engine::open_session() {
  const SessionId id = next_session_++;
  LS_ASSERT(id != kScriptCaller);
  clients_.emplace(id, Client{});
  return id;
}

void Engine::close_session(SessionId session) {
  auto it = clients_.find(session);
  LS_ASSERT(it != clients_.end());
  // freeClient: the transaction, the WATCHes and a wait go with the connection.
  discard_transaction(session);
  dbs_.blocked().unblock(session);
  pubsub_.drop_session(session);
  clients_.erase(it);
}

Engine::Client& Engine::client(SessionId session) {
  auto it = clients_.find(session);
  LS_ASSERT(it != clients_.end());
  return it->second;
}

const Engine::Client& Engine::client(SessionId session) const {
  auto it = clients_.find(session);
  LS_ASSERT(it != clients_.end());
  return it->second;
}

Reply Engine::execute(SessionId session, std::initializer_list<std::string_view> argv) {
  return execute(session, std::span<const std::string_view>(argv.begin(), argv.size()));
}

Reply Engine::execute(SessionId session, const std::vector<std::string>& argv) {
  // Most commands have a few arguments: their views then live on the stack, not the heap.
  constexpr size_t kOnStack = 16;
  if (argv.size() <= kOnStack) {
    std::array<std::string_view, kOnStack> views;
    std::copy(argv.begin(), argv.end(), views.begin());
    return execute(session, std::span<const std::string_view>(views.data(), argv.size()));
  }
  std::vector<std::string_view> views(argv.begin(), argv.end());
  return execute(session, std::span<const std::string_view>(views));
}

bool Engine::well_formed(const std::vector<std::string>& argv) const {
  if (argv.empty()) return false;
  const CommandSpec* spec = find_command(argv[0]);
  if (spec == nullptr) return false;
  const std::vector<std::string_view> views(argv.begin(), argv.end());
  std::string fullname;
  return check_shape(*spec, views, fullname) == Shape::Ok;
}

// processCommand's first checks, the same whether a script is busy or not: an empty command, an
// unknown one, a wrong shape, a RESP2 subscriber's command outside the pub/sub context. The spec,
// or null with the refusal in `refused`.
const CommandSpec* Engine::checked_command(SessionId session, std::span<const std::string_view> argv, Reply& refused) {
  if (argv.empty()) {
    refused = Reply::error(errors::kEmptyCommand);
    return nullptr;
  }
  const CommandSpec* spec = find_command(argv[0]);
  if (spec == nullptr) {
    refused = reject(session, nullptr, unknown_command(argv));
    return nullptr;
  }
  std::string fullname;
  switch (check_shape(*spec, argv, fullname)) {
    case Shape::UnknownSubcommand: refused = reject(session, spec, unknown_subcommand(argv)); return nullptr;
    case Shape::WrongArity: refused = reject(session, spec, errors::wrong_arity(fullname)); return nullptr;
    case Shape::Ok: break;
  }
  if ((spec->flags & kCmdNoMulti) && client(session).multi.open) {
    refused = reject(session, spec, std::string(errors::kNotInTransaction));
    return nullptr;
  }
  if (!client(session).resp3 && pubsub_.count_of(session) > 0 && !(spec->flags & kCmdPubSubContext)) {
    refused = reject(session, spec, errors::not_in_pubsub_context(fullname));
    return nullptr;
  }
  return spec;
}

// Redis's processCommand: the checks, then queuing inside MULTI, else call().
Reply Engine::execute(SessionId session, std::span<const std::string_view> argv) {
  if (in_script()) return execute_while_busy(session, argv);
  Client& c = client(session);
  Reply refused;
  const CommandSpec* spec = checked_command(session, argv, refused);
  if (spec == nullptr) return refused;

  if (c.multi.open && !runs_inside_multi(*spec)) {
    // queueMultiCommand keeps nothing for a transaction that cannot run anyway.
    if (!c.multi.dirty_exec && !dbs_.watches().dirty(session))
      c.multi.queued.push_back(QueuedCommand{spec, std::vector<std::string>(argv.begin(), argv.end())});
    return Reply::status("QUEUED");
  }
  // The clock is read once: a command, and an EXEC with all it runs, happen at one instant.
  dbs_.set_now(host_.now_ms());
  current_ = session;
  CommandContext ctx{*this, db_of(session), argv, session};
  Reply reply = call(*spec, ctx);
  if (dbs_.blocked().has_ready()) handle_blocked_on_keys();
  current_ = session;
  return reply;
}

// processCommand from processEventsWhileBlocked: the checks before the BUSY one, then only the
// commands flagged allow-busy run. Nothing here moves the script's frozen clock or serves blocked
// clients: the script is still in the middle of its run.
Reply Engine::execute_while_busy(SessionId session, std::span<const std::string_view> argv) {
  LS_ASSERT(script_busy());
  LS_ASSERT(session != kScriptCaller);
  Client& c = client(session);
  Reply refused;
  const CommandSpec* spec = checked_command(session, argv, refused);
  if (spec == nullptr) return refused;
  const SubcommandSpec* sub = spec->subcommands.empty() || argv.size() < 2 ? nullptr : lookup_subcommand(*spec, argv[1]);
  if (!((spec->flags | (sub ? sub->flags : 0)) & kCmdAllowBusy))
    return reject(session, spec, std::string(running_.eval ? errors::kBusyEval : errors::kBusyFunction));
  if (c.multi.open && !runs_inside_multi(*spec)) {
    if (!c.multi.dirty_exec && !dbs_.watches().dirty(session))
      c.multi.queued.push_back(QueuedCommand{spec, std::vector<std::string>(argv.begin(), argv.end())});
    return Reply::status("QUEUED");
  }
  const SessionId caller = current_;
  current_ = session;
  CommandContext ctx{*this, db_of(session), argv, session};
  Reply reply = call(*spec, ctx);
  current_ = caller;
  return reply;
}

Reply Engine::reject_busy(SessionId session) {
  LS_ASSERT(script_busy());
  return reject(session, nullptr, std::string(running_.eval ? errors::kBusyEval : errors::kBusyFunction));
}

void Engine::mark_script_busy() {
  LS_ASSERT(in_script());
  running_.busy = true;
}

bool Engine::script_interrupted() {
  // FUNCTION LOAD's top level runs outside any script (and its hook never asks).
  if (!in_script()) return false;
  host_.script_running();
  return running_.killed;
}

// Redis's scriptKill.
Reply Engine::kill_script(bool eval) {
  if (!in_script()) return Reply::error(errors::kNotBusy);
  if (running_.wrote) return Reply::error(errors::kUnkillable);
  if (eval && !running_.eval) return Reply::error(errors::kBusyFunction);
  if (!eval && running_.eval) return Reply::error(errors::kBusyEval);
  running_.killed = true;
  return Reply::ok();
}

Reply Engine::reject(SessionId session, const CommandSpec* spec, std::string error) {
  Client& c = client(session);
  if (c.multi.open) c.multi.dirty_exec = true;  // flagTransaction
  if (spec != nullptr && spec->handler == exec_command) {
    // execCommandAbort, whether or not a transaction was open: its WATCHes go too.
    discard_transaction(session);
    return Reply::error(errors::exec_abort(error));
  }
  return Reply::error(error);
}

const CommandSpec* Engine::find_command(std::string_view name) const {
  const CommandSpec* spec = lookup_command(name);
  if (spec != nullptr && spec->server != ServerCommand::None && !host_.serves(spec->server)) return nullptr;
  return spec;
}

Reply Engine::call(const CommandSpec& spec, CommandContext& ctx) {
  if (spec.server != ServerCommand::None) return host_.server_command(spec.server, ctx);
  if (!(spec.flags & kCmdWrite)) return spec.handler(ctx);
  WatchedWrite watched(ctx.db);
  Reply reply = spec.handler(ctx);
  watched.finish();
  return reply;
}

Reply Engine::call_from_script(std::span<const std::string_view> argv) {
  LS_ASSERT(in_script());
  LS_ASSERT(!argv.empty());
  const CommandSpec* spec = find_command(argv[0]);
  if (spec == nullptr) return Reply::error(errors::kUnknownScriptCommand);
  std::string fullname;
  switch (check_shape(*spec, argv, fullname)) {
    case Shape::UnknownSubcommand: return Reply::error(errors::kUnknownScriptCommand);
    case Shape::WrongArity: return Reply::error(errors::kScriptCommandArity);
    case Shape::Ok: break;
  }
  // A container command's subcommand adds its own flags (CLUSTER RESET is refused, CLUSTER INFO not).
  const SubcommandSpec* sub = spec->subcommands.empty() || argv.size() < 2 ? nullptr : lookup_subcommand(*spec, argv[1]);
  if ((spec->flags | (sub ? sub->flags : 0)) & kCmdNoScript) return Reply::error(errors::kNotAllowedFromScript);
  if (script_read_only_ && (spec->flags & (kCmdWrite | kCmdMayReplicate)))
    return Reply::error(errors::kWriteInReadOnlyScript);
  if (spec->flags & kCmdWrite) running_.wrote = true;  // SCRIPT_WRITE_DIRTY: SCRIPT KILL refuses from now
  CommandContext ctx{*this, db_of(kScriptCaller), argv, kScriptCaller};
  return call(*spec, ctx);
}

void Engine::enter_script(bool read_only, bool eval, std::string_view name) {
  // prepareLuaClient: the script starts in its caller's db.
  if (script_depth_++ == 0) {
    script_db_ = client(current_).db;
    script_read_only_ = read_only;
    running_ = RunningScript{.eval = eval, .name = name, .started_ms = dbs_.now()};
  }
}

void Engine::leave_script() {
  if (--script_depth_ == 0) {
    running_ = RunningScript{};
    function_command_.clear();
  }
}

Reply Engine::running_script() const {
  if (!in_script()) return Reply::nil();
  if (running_.eval) return Reply::error(errors::kBusyEval);
  Reply command = Reply::array();
  for (const std::string& word : function_command_) command.elements.push_back(Reply::bulk(word));
  return Reply::array({Reply::bulk("name"), Reply::bulk(running_.name), Reply::bulk("command"), std::move(command),
                       Reply::bulk("duration_ms"), Reply::integer_of(host_.now_ms() - running_.started_ms)});
}

bool Engine::resp3(SessionId session) const { return session != kScriptCaller && client(session).resp3; }

bool Engine::may_block(SessionId session) const {
  return session != kScriptCaller && !in_script() && !client(session).multi.open && host_.can_block();
}

void Engine::block(SessionId session, BlockedPop pop) {
  LS_ASSERT(may_block(session));
  LS_ASSERT(!blocked(session));
  dbs_.blocked().block(session, std::move(pop));
}

int64_t Engine::block_deadline(SessionId session) const {
  const BlockedPop* pop = dbs_.blocked().find(session);
  LS_ASSERT(pop != nullptr);
  return pop->deadline_ms;
}

void Engine::handle_blocked_on_keys() {
  LS_ASSERT(!in_script());
  BlockedKeys& blocked = dbs_.blocked();
  while (blocked.has_ready()) {
    for (const auto& [db_id, key] : blocked.take_ready()) {
      Keyspace& db = dbs_.db(db_id);
      const Entry* entry = db.find(key);
      if (entry == nullptr) continue;  // gone again before the command ended (MULTI: LPUSH, DEL)
      BlockedType type;
      if (std::holds_alternative<List>(entry->value)) type = BlockedType::List;
      else if (std::holds_alternative<ZSet>(entry->value)) type = BlockedType::ZSet;
      else continue;  // a key of another type wakes nobody
      for (const SessionId session : blocked.waiting_on(db_id, key)) {
        const BlockedPop* pop = blocked.find(session);
        LS_ASSERT(pop != nullptr);
        if (pop->type != type) continue;
        current_ = session;
        CommandContext ctx{*this, db, {}, session};
        const Reply reply = type == BlockedType::List ? serve_blocked_list(ctx, key, *pop)
                                                      : serve_blocked_zset(ctx, key, *pop);
        finish_blocked(session, reply);
        if (!db.contains(key)) break;  // emptied and deleted: the others wait on
      }
    }
  }
}

void Engine::finish_blocked(SessionId session, const Reply& reply) {
  dbs_.blocked().unblock(session);
  host_.unblocked(session, reply);
}

void Engine::timeout_blocked() {
  LS_ASSERT(!in_script());
  for (const SessionId session : dbs_.blocked().timed_out(host_.now_ms())) finish_blocked(session, Reply::nil_array());
}

bool Engine::unblock(SessionId session, bool with_error) {
  if (!blocked(session)) return false;
  finish_blocked(session, with_error ? Reply::error(errors::kUnblocked) : Reply::nil_array());
  return true;
}

size_t Engine::active_expire() {
  LS_ASSERT(!in_script());
  dbs_.set_now(host_.now_ms());
  return dbs_.active_expire();
}

Keyspace& Engine::db_of(SessionId session) {
  return dbs_.db(session == kScriptCaller ? script_db_ : client(session).db);
}

void Engine::select(SessionId session, int id) {
  LS_ASSERT(Databases::valid(id));
  if (session == kScriptCaller) {
    LS_ASSERT(in_script());
    script_db_ = id;
  } else {
    client(session).db = id;
  }
}

Transaction& Engine::transaction(SessionId session) {
  LS_ASSERT(session != kScriptCaller);
  return client(session).multi;
}

void Engine::discard_transaction(SessionId session) {
  client(session).multi = Transaction{};
  dbs_.watches().clear_dirty(session);
  dbs_.watches().unwatch_all(session);
}

}  // namespace locksim::engine
