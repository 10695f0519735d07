#pragma once
// The lock types a world can give its clients, by LockSpec::type.
#include <memory>
#include <vector>

#include "client/backend.hpp"
#include "client/lock.hpp"
#include "client/lock_spec.hpp"
#include "client/script_catalog.hpp"

namespace locksim::client {

// A client's own instance of the lock `spec` describes; throws std::invalid_argument for a type
// it does not know, or that makes several locks (rwlock).
std::unique_ptr<Lock> make_lock(Backend& backend, ScriptCatalog& scripts, const LockSpec& spec);

// Every lock `spec` gives a client: make_lock's one, or for "rwlock" the ReadWriteLock's two sides,
// the locks "<name>:read" and "<name>:write" over the one hash `<name>`.
std::vector<std::unique_ptr<Lock>> make_locks(Backend& backend, ScriptCatalog& scripts, const LockSpec& spec);

// The scripts of scripts/ (by name, sorted) that the locks `spec` describes may run: each lock asks
// its catalog for every script it may run when it is built. A replaced script outside this list
// would never run.
std::vector<std::string> scripts_run_by(const LockSpec& spec, const std::string& scripts_dir);

}  // namespace locksim::client
