#include "model/lock_types.hpp"

#include "base/assert.hpp"

namespace locksim::model {

const std::vector<LockType>& lock_types() {
  // Only what differs from LockType's defaults (an RLock-like hash lock) is written.
  static const std::vector<LockType> table{
      {.kind = LockKind::RLock,
       .name = "rlock", .about = "Redisson's RLock: a hash of holder counts, the watchdog, waiting over pub/sub",
       .interruptible = true},
      {.kind = LockKind::Fair,
       .name = "fair",
       .about = "Redisson's FairLock: an RLock whose waiters queue, each woken on its own channel",
       .fair = true,
       .interruptible = true},
      {.kind = LockKind::Multi,
       .name = "multi",
       .about = "Redisson's MultiLock over RLocks <name>-1 .. <name>-n on one server: every part needed",
       .quorum = Quorum::All},
      {.kind = LockKind::Red,
       .name = "red",
       .about = "Redisson's RedLock over the RLock <name> on n servers: a majority needed",
       .quorum = Quorum::Majority},
      {.kind = LockKind::RwLock,
       .name = "rwlock", .about = "Redisson's ReadWriteLock: read and write sides over one hash", .sides = true,
       .interruptible = true},
      {.kind = LockKind::Spin,
       .name = "spin",
       .about = "Redisson's SpinLock (3.15.0+): an RLock-like hash lock whose waiters poll with an exponential backoff",
       .since = "3.15.0"},
      {.kind = LockKind::Fenced,
       .name = "fenced",
       .about = "Redisson's FencedLock (3.19.0+): an RLock whose acquire hands out a fencing token from INCR",
       .fencing = true,
       .since = "3.19.0",
       .interruptible = true},
      {.kind = LockKind::NonReentrant,
       .name = "nonreentrant",
       .about = "Redisson's NonReentrantLock (4.4.0+): an RLock whose holder's second acquire fails at once",
       .server_reentrant = false,
       .refuses_reentry = true,
       .since = "4.4.0",
       .interruptible = true},
      {.kind = LockKind::NonReentrantFair,
       .name = "nonreentrant-fair",
       .about = "Redisson's NonReentrantFairLock (4.4.0+): a FairLock whose holder's second acquire fails at once",
       .server_reentrant = false,
       .refuses_reentry = true,
       .fair = true,
       .since = "4.4.0",
       .interruptible = true},
      {.kind = LockKind::Setnx,
       .name = "setnx",
       .about = "SETNX then EXPIRE (article 001): two commands, no owner",
       .hash = false,
       .server_reentrant = false,
       .watchdog = false,
       .redisson = false},
      {.kind = LockKind::Naive,
       .name = "naive",
       .about = "SET NX EX released by a plain DEL (article 001)",
       .hash = false,
       .server_reentrant = false,
       .watchdog = false,
       .redisson = false},
      {.kind = LockKind::Token,
       .name = "token",
       .about = "SET NX PX with a random token, compare-and-delete, and a fencing token from INCR",
       .hash = false,
       .server_reentrant = false,
       .watchdog = false,
       .fencing = true,
       .redisson = false},
      {.kind = LockKind::ClientReentrant,
       .name = "client-reentrant",
       .about = "the token lock with a re-entry counter per thread on the client",
       .hash = false,
       .server_reentrant = false,
       .client_reentrant = true,
       .watchdog = false,
       .fencing = true,
       .redisson = false},
  };
  return table;
}

const LockType* find_lock_type(std::string_view name) {
  for (const LockType& t : lock_types())
    if (t.name == name) return &t;
  return nullptr;
}

const LockType& lock_type(LockKind kind) {
  for (const LockType& t : lock_types())
    if (t.kind == kind) return t;
  LS_ASSERT(false && "a LockKind without a row in the table");
  return lock_types().front();
}

bool is_kind(std::string_view name, LockKind kind) { return lock_type(kind).name == name; }

bool has_parts(std::string_view name) {
  const LockType* type = find_lock_type(name);
  return type != nullptr && type->quorum != Quorum::One;
}

bool is_fair(std::string_view name) {
  const LockType* t = find_lock_type(name);
  return t && t->fair;
}

std::string lock_type_list() {
  std::string out;
  const auto& table = lock_types();
  for (size_t i = 0; i < table.size(); ++i) {
    if (i > 0) out += i + 1 == table.size() ? " or " : ", ";
    out += table[i].name;
  }
  return out;
}

std::string interruptible_type_list() {
  std::vector<std::string_view> names;
  for (const LockType& t : lock_types())
    if (t.interruptible) names.push_back(t.name);
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += i + 1 == names.size() ? " and " : ", ";
    out += names[i];
  }
  return out;
}

}  // namespace locksim::model
