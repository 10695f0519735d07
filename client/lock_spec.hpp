#pragma once
// LockSpec: which lock a run gives its clients, with every option of its type. The lock factory
// (lock_factory.hpp) builds each client's instance from it; model/lock_types.hpp lists the types.
#include <string>

#include "client/fair_lock.hpp"
#include "client/multi_lock.hpp"
#include "client/polling_lock.hpp"
#include "client/redisson_lock.hpp"
#include "client/rlock.hpp"
#include "client/rw_lock.hpp"

namespace locksim::client {

struct LockSpec {
  std::string type = "rlock";  // rlock | fair | multi | red | rwlock | setnx | naive | token | client-reentrant
  std::string name = "lock";
  RedissonOptions redisson{};
  RLockScripts rlock_scripts{};
  FairOptions fair{};  // fair: the script era and threadWaitTime
  RwOptions rw{};      // rwlock: the script era (the locks are "<name>:read" and "<name>:write")
  PollingOptions polling{};
  MultiOptions multi{};  // multi, red: the version's client logic
  int parts = 3;  // multi: how many locks ("<name>-1" ..); red: how many servers hold "<name>"
};

}  // namespace locksim::client
