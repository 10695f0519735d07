#pragma once
// The command table: one row per command, as Redis's commands.def. Arity follows Redis: a positive
// number is the exact argc (command name included), a negative one the minimum.
#include <cstdint>
#include <span>
#include <string_view>

#include "base/reply.hpp"
#include "engine/host.hpp"

namespace locksim::engine {

struct CommandContext;
using CommandHandler = Reply (*)(CommandContext&);

enum CommandFlag : uint32_t {
  kCmdWrite = 1u << 0,
  kCmdReadOnly = 1u << 1,
  kCmdNoScript = 1u << 2,       // refused inside EVAL ("not allowed from script")
  kCmdPubSubContext = 1u << 3,  // allowed on a connection in subscriber mode
  kCmdMayReplicate = 1u << 4,   // not a write, but propagated (PUBLISH): refused in a read-only script
  kCmdBlocking = 1u << 5,       // may block its client (BLPOP): COMMAND INFO says "blocking"
  kCmdAllowBusy = 1u << 6,      // runs while a script is busy (Redis's CMD_ALLOW_BUSY); others get BUSY
  kCmdNoAuth = 1u << 7,         // runs before the client authenticated (AUTH, HELLO, QUIT, RESET)
  kCmdNoMulti = 1u << 8,        // refused inside MULTI, which it spoils (SHUTDOWN)
};

// A subcommand of a container command (SCRIPT LOAD): Redis resolves it by argv[1] before running
// anything, so an unknown one or a wrong argument count is refused as an unknown command or a wrong
// arity is (and flags a transaction in progress). Its arity counts the command's name too.
struct SubcommandSpec {
  std::string_view name;  // lower case
  int arity;
  uint32_t flags = 0;  // added to the command's own (CLUSTER RESET is no-script, CLUSTER INFO is not)
};

struct CommandSpec {
  std::string_view name;  // lower case, as Redis reports it in errors
  int arity;
  uint32_t flags;
  CommandHandler handler;  // null for a server-layer command: the host answers it
  std::span<const SubcommandSpec> subcommands = {};  // non-empty for a container command
  ServerCommand server = ServerCommand::None;         // which, for a server-layer command
};

// Case-insensitive lookup; null for an unknown command. A server-layer row is returned whoever
// serves it: Engine::find_command asks the host.
const CommandSpec* lookup_command(std::string_view name);
// Case-insensitive lookup of a container command's subcommand; null for an unknown one.
const SubcommandSpec* lookup_subcommand(const CommandSpec& spec, std::string_view name);
std::span<const CommandSpec> all_commands();

inline bool arity_ok(int arity, size_t argc) {
  const auto n = static_cast<int64_t>(argc);
  return arity > 0 ? n == arity : n >= -arity;
}
inline bool arity_ok(const CommandSpec& spec, size_t argc) { return arity_ok(spec.arity, argc); }

}  // namespace locksim::engine
