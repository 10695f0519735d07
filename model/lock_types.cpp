#include "model/lock_types.hpp"

namespace locksim::model {

const std::vector<LockType>& lock_types() {
  // name, about, hash, server_reentrant, client_reentrant, watchdog, fencing, fair, sides, quorum
  static const std::vector<LockType> table{
      {"rlock", "Redisson's RLock: a hash of holder counts, the watchdog, waiting over pub/sub", true, true, false, true,
       false, false, false, Quorum::One},
      {"fair", "Redisson's FairLock: an RLock whose waiters queue, each woken on its own channel", true, true, false, true,
       false, true, false, Quorum::One},
      {"multi", "Redisson's MultiLock over RLocks <name>-1 .. <name>-n on one server: every part needed", true, true,
       false, true, false, false, false, Quorum::All},
      {"red", "Redisson's RedLock over the RLock <name> on n servers: a majority needed", true, true, false, true, false,
       false, false, Quorum::Majority},
      {"rwlock", "Redisson's ReadWriteLock: read and write sides over one hash", true, true, false, true, false, false,
       true, Quorum::One},
      {"setnx", "SETNX then EXPIRE (seed 001): two commands, no owner", false, false, false, false, false, false, false,
       Quorum::One},
      {"naive", "SET NX EX released by a plain DEL (seed 001)", false, false, false, false, false, false, false,
       Quorum::One},
      {"token", "SET NX PX with a random token, compare-and-delete, and a fencing token from INCR", false, false, false,
       false, true, false, false, Quorum::One},
      {"client-reentrant", "the token lock with a re-entry counter per thread on the client", false, false, true, false,
       true, false, false, Quorum::One},
  };
  return table;
}

const LockType* find_lock_type(std::string_view name) {
  for (const LockType& t : lock_types())
    if (t.name == name) return &t;
  return nullptr;
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

}  // namespace locksim::model
