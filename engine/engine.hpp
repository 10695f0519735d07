#pragma once
// Engine: a deterministic, in-process Redis 7.0 for the commands Redis locks use. It owns the
// keyspace, the subscriptions and the Lua scripting state; time, sleeping and message delivery
// belong to its Host. One command runs at a time, atomically, as in Redis.
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/reply.hpp"
#include "engine/host.hpp"
#include "engine/keyspace.hpp"
#include "engine/pubsub.hpp"
#include "engine/script_server.hpp"

namespace locksim::engine {

class Scripting;

struct EngineOptions {
  // A script that executes more Lua instructions than this is stopped with an error. It stands in
  // for Redis's busy-script time limit, counted instead of timed so that it is deterministic.
  int64_t script_instruction_budget = 100'000'000;
};

class Engine final : public ScriptServer {
 public:
  explicit Engine(Host& host, EngineOptions options = {});
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // A client connection. Subscriptions belong to it and end with it.
  SessionId open_session();
  void close_session(SessionId session);

  // Runs one command as a client on `session` would: the reply Redis would send.
  Reply execute(SessionId session, std::span<const std::string_view> argv);
  Reply execute(SessionId session, std::initializer_list<std::string_view> argv);
  Reply execute(SessionId session, const std::vector<std::string>& argv);

  // redis.call/redis.pcall: the same command table, with the checks Redis applies inside scripts.
  Reply call_from_script(std::span<const std::string_view> argv) override;
  void script_log(int level, std::string_view message) override { host_.script_log(level, message); }
  void enter_script() override { ++script_depth_; }
  void leave_script() override { --script_depth_; }

  // Redis's active expiry, made deterministic: every key whose time has passed, in key order.
  size_t active_expire();

  Host& host() { return host_; }
  Keyspace& keyspace() { return keyspace_; }
  PubSub& pubsub() { return pubsub_; }
  Scripting& scripting() { return *scripting_; }
  bool in_script() const { return script_depth_ > 0; }

 private:
  Reply dispatch(SessionId session, std::span<const std::string_view> argv);

  Host& host_;
  Keyspace keyspace_;
  PubSub pubsub_;
  std::unique_ptr<Scripting> scripting_;
  std::vector<SessionId> sessions_;  // open sessions, ascending
  SessionId next_session_ = 1;
  int script_depth_ = 0;
};

}  // namespace locksim::engine
