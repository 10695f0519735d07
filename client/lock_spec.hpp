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

// LockSpec{} holds each option's own default, which is no one Redisson version; a scenario starts
// from redisson_spec(default_version()) (client/redisson_version.hpp) instead.
struct LockSpec {
  std::string type = "rlock";  // a name of model/lock_types.hpp
  std::string name = "lock";
  std::string redisson_version;  // the Redisson version the options were set from ("" for none)
  RedissonOptions redisson{};
  RLockScripts rlock_scripts{};
  FairOptions fair{};  // fair: the script era and threadWaitTime
  RwOptions rw{};      // rwlock: the script era (the locks are "<name>:read" and "<name>:write")
  PollingOptions polling{};
  MultiOptions multi{};  // multi, red: the version's client logic
  int parts = 3;  // multi: how many locks ("<name>-1" ..); red: how many servers hold "<name>"
};

}  // namespace locksim::client
