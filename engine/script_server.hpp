#pragma once
// What a running script asks of the server it runs in, as Redis's script_lua.c asks server.c: its
// commands, its log, and time frozen while the script runs. The engine implements it, so scripting
// and the Lua bridge know the server only through this.
#include <span>
#include <string_view>

#include "base/reply.hpp"

namespace locksim::engine {

struct CommandSpec;

class ScriptServer {
 public:
  // redis.call/redis.pcall: a command with the checks Redis applies inside scripts.
  virtual Reply call_from_script(std::span<const std::string_view> argv) = 0;
  // The command table's row for `name` as this server answers it (redis.acl_check_cmd): null for
  // an unknown command, or a server-layer one its host does not serve.
  virtual const CommandSpec* find_command(std::string_view name) const = 0;
  // redis.log.
  virtual void script_log(int level, std::string_view message) = 0;
  // Bracket one script run: between them the server's clock stands still. A read-only run
  // (FCALL_RO, a function flagged no-writes) may call no command that writes. `eval`: EVAL or
  // EVALSHA (SCRIPT KILL ends it), else a function (FUNCTION KILL); `name` is the function's.
  virtual void enter_script(bool read_only, bool eval, std::string_view name) = 0;
  virtual void leave_script() = 0;
  // Redis's scriptInterrupt, asked every few thousand Lua instructions of a running script: the
  // server may serve other clients meanwhile; true once the script must stop (SCRIPT KILL).
  virtual bool script_interrupted() = 0;

 protected:
  ~ScriptServer() = default;
};

}  // namespace locksim::engine
