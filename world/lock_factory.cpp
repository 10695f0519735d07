#include "world/lock_factory.hpp"

#include <stdexcept>

#include "client/fair_lock.hpp"
#include "client/rlock.hpp"
#include "client/seed_locks.hpp"

namespace locksim::world {

std::unique_ptr<client::Lock> make_lock(client::Backend& backend, client::ScriptCatalog& scripts, const LockSpec& spec) {
  if (spec.type == "rlock")
    return std::make_unique<client::RLock>(backend, scripts, spec.name, spec.redisson, spec.rlock_scripts);
  if (spec.type == "fair")
    return std::make_unique<client::FairLock>(backend, scripts, spec.name, spec.redisson, spec.fair);
  if (spec.type == "setnx") return std::make_unique<client::SetnxLock>(backend, spec.name, spec.polling);
  if (spec.type == "naive") return std::make_unique<client::NaiveLock>(backend, spec.name, spec.polling);
  if (spec.type == "token") return std::make_unique<client::TokenLock>(backend, scripts, spec.name, spec.polling);
  if (spec.type == "client-reentrant")
    return std::make_unique<client::ClientReentrantLock>(backend, scripts, spec.name, spec.polling);
  throw std::invalid_argument("unknown lock type '" + spec.type +
                              "' (expected rlock, fair, setnx, naive, token or client-reentrant)");
}

}  // namespace locksim::world
