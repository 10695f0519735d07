#pragma once
// The ops a scenario file's timeline step can name: one row per op with the keys that op reads, so
// that the loader accepts exactly those keys, lists them when a step has another, and names the
// ops in its messages from this one table. (A fault's keys come from world/fault.hpp's table.)
#include <string>
#include <string_view>
#include <vector>

#include "world/ops.hpp"

namespace locksim::scenario {

struct OpInfo {
  world::OpSpec::Kind kind = world::OpSpec::Kind::Lock;
  std::vector<std::string_view> keys{};  // beyond at, client, thread, op (and side)
  bool names_side = true;                // on an rwlock it concerns the read or the write side
  std::string_view name() const { return world::op_name(kind); }
  bool takes(std::string_view key) const;
};

// Every op, in the order docs/scenario-format.md lists them.
const std::vector<OpInfo>& op_kinds();
// nullptr for a name the table does not have.
const OpInfo* find_op(std::string_view name);
// "lock, try_lock, ... or is_held", for messages.
std::string op_list();
// "lock and try_lock": the ops that take `key` (side: those that name one); empty when none does.
std::string ops_taking(std::string_view key);

// The keys every timeline step with an op may have, before the op's own.
inline constexpr std::string_view kOpStepKeys[] = {"at", "client", "thread", "op"};

}  // namespace locksim::scenario
