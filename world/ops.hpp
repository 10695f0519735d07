#pragma once
// What a client thread can be told to do, and which lock types exist: the vocabulary scenario
// files and generators share.
#include <cstdint>
#include <string>

#include "client/fair_lock.hpp"
#include "client/polling_lock.hpp"
#include "client/redisson_lock.hpp"
#include "client/rlock.hpp"
#include "client/rw_lock.hpp"

namespace locksim::world {

struct OpSpec {
  enum class Kind { Lock, TryLock, Unlock, ForceUnlock, Work, Write, IsLocked, IsHeld };
  Kind kind = Kind::Lock;
  std::string lock;
  int64_t wait_ms = -1;   // TryLock
  int64_t lease_ms = -1;  // Lock, TryLock: -1 = no lease
  int64_t duration_ms = 0;  // Work
};

struct LockSpec {
  std::string type = "rlock";  // rlock | fair | multi | red | rwlock | setnx | naive | token | client-reentrant
  std::string name = "lock";
  client::RedissonOptions redisson;
  client::RLockScripts rlock_scripts;
  client::FairOptions fair;  // fair: the script era and threadWaitTime
  client::RwOptions rw;      // rwlock: the script era (the locks are "<name>:read" and "<name>:write")
  client::PollingOptions polling;
  int parts = 3;  // multi: how many locks ("<name>-1" ..); red: how many servers hold "<name>"
};

}  // namespace locksim::world
