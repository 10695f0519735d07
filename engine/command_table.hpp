#pragma once
// The command table: one row per command, as Redis's commands.def. Arity follows Redis: a positive
// number is the exact argc (command name included), a negative one the minimum.
#include <cstdint>
#include <span>
#include <string_view>

#include "base/reply.hpp"

namespace locksim::engine {

struct CommandContext;
using CommandHandler = Reply (*)(CommandContext&);

enum CommandFlag : uint32_t {
  kCmdWrite = 1u << 0,
  kCmdReadOnly = 1u << 1,
  kCmdNoScript = 1u << 2,       // refused inside EVAL ("not allowed from script")
  kCmdPubSubContext = 1u << 3,  // allowed on a connection in subscriber mode
};

struct CommandSpec {
  std::string_view name;  // lower case, as Redis reports it in errors
  int arity;
  uint32_t flags;
  CommandHandler handler;
};

// Case-insensitive lookup; null for an unknown command.
const CommandSpec* lookup_command(std::string_view name);
std::span<const CommandSpec> all_commands();

inline bool arity_ok(const CommandSpec& spec, size_t argc) {
  const auto n = static_cast<int64_t>(argc);
  return spec.arity > 0 ? n == spec.arity : n >= -spec.arity;
}

}  // namespace locksim::engine
