#include "engine/engine.hpp"

#include <algorithm>

#include "base/assert.hpp"
#include "engine/command_context.hpp"
#include "engine/command_table.hpp"
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

}  // namespace

Engine::Engine(Host& host, EngineOptions options)
    : host_(host), dbs_(host), scripting_(std::make_unique<Scripting>(*this, options.script_instruction_budget)) {}

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
  pubsub_.drop_session(session);
  clients_.erase(it);
}

Engine::Client& Engine::client(SessionId session) {
  auto it = clients_.find(session);
  LS_ASSERT(it != clients_.end());
  return it->second;
}

Reply Engine::execute(SessionId session, std::initializer_list<std::string_view> argv) {
  return execute(session, std::span<const std::string_view>(argv.begin(), argv.size()));
}

Reply Engine::execute(SessionId session, const std::vector<std::string>& argv) {
  std::vector<std::string_view> views(argv.begin(), argv.end());
  return execute(session, std::span<const std::string_view>(views));
}

Reply Engine::execute(SessionId session, std::span<const std::string_view> argv) {
  LS_ASSERT(!in_script());
  client(session);  // an open session
  if (argv.empty()) return Reply::error(errors::kEmptyCommand);
  const CommandSpec* spec = lookup_command(argv[0]);
  if (spec == nullptr) return Reply::error(unknown_command(argv));
  if (!arity_ok(*spec, argv.size())) return Reply::error(errors::wrong_arity(spec->name));
  if (pubsub_.count_of(session) > 0 && !(spec->flags & kCmdPubSubContext)) {
    return Reply::error(errors::not_in_pubsub_context(spec->name));
  }
  dbs_.set_now(host_.now_ms());
  current_ = session;
  CommandContext ctx{*this, db_of(session), argv, session};
  return spec->handler(ctx);
}

Reply Engine::call_from_script(std::span<const std::string_view> argv) {
  LS_ASSERT(in_script());
  LS_ASSERT(!argv.empty());
  const CommandSpec* spec = lookup_command(argv[0]);
  if (spec == nullptr) return Reply::error(errors::kUnknownScriptCommand);
  if (!arity_ok(*spec, argv.size()))
    return Reply::error(errors::kScriptCommandArity);
  if (spec->flags & kCmdNoScript) return Reply::error(errors::kNotAllowedFromScript);
  CommandContext ctx{*this, db_of(kScriptCaller), argv, kScriptCaller};
  return spec->handler(ctx);
}

void Engine::enter_script() {
  // prepareLuaClient: the script starts in its caller's db.
  if (script_depth_++ == 0) script_db_ = client(current_).db;
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

}  // namespace locksim::engine
