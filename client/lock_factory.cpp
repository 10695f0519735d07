#include "client/lock_factory.hpp"

#include <stdexcept>

#include "base/assert.hpp"
#include "client/fair_lock.hpp"
#include "client/fenced_lock.hpp"
#include "client/multi_lock.hpp"
#include "client/rlock.hpp"
#include "client/rw_lock.hpp"
#include "client/seed_locks.hpp"
#include "client/spin_lock.hpp"
#include "model/lock_types.hpp"

namespace locksim::client {
namespace {

// MultiLock over RLocks "<name>-1" .. "<name>-n" on one server, or RedLock over the RLock "<name>"
// on servers 0 .. n-1.
std::unique_ptr<Lock> make_multi_lock(Backend& backend, ScriptCatalog& scripts, const LockSpec& spec) {
  if (spec.parts < 1) throw std::invalid_argument("a " + spec.type + " lock needs at least one part");
  const bool red = model::is_kind(spec.type, model::LockKind::Red);
  std::vector<std::unique_ptr<RedissonLock>> locks;
  for (int i = 0; i < spec.parts; ++i) {
    RedissonOptions options = spec.redisson;
    options.server = red ? i : spec.redisson.server;
    const std::string name = red ? spec.name : spec.name + "-" + std::to_string(i + 1);
    locks.push_back(std::make_unique<RLock>(backend, scripts, name, options, spec.rlock_scripts));
  }
  return std::make_unique<MultiLock>(backend, spec.name, std::move(locks), red, spec.multi);
}

// A backend for building locks only: scripts_run_by never runs them.
class InertBackend final : public Backend {
 public:
  int64_t now_ms() override { return 0; }
  Task<void> sleep(int64_t) override { co_return; }
  Task<CallResult> call(SharedCommand, int64_t, ScriptForm) override { co_return CallResult{}; }
  Task<bool> subscribe(std::string, int64_t, int) override { co_return false; }
  void unsubscribe(const std::string&, int) override {}
  Task<bool> wait_message(std::string, int64_t, int) override { co_return false; }
  Task<int> write_fenced(std::string, int64_t, int64_t, int64_t) override { co_return 0; }
  void spawn(Task<void>) override {}
  void record(model::Event&&) override {}
  int64_t next_op() override { return 0; }
  const std::string& client_id() const override { return name_; }
  const std::string& name() const override { return name_; }
  std::string random_token(std::string_view) override { return "0"; }
  void forget_messages(const std::string&, int) override {}
  int64_t random_range(std::string_view, int64_t lo, int64_t) override { return lo; }

 private:
  std::string name_ = "inert";
};

}  // namespace

std::vector<std::string> scripts_run_by(const LockSpec& spec, const std::string& scripts_dir) {
  InertBackend backend;
  ScriptCatalog catalog(scripts_dir);
  make_locks(backend, catalog, spec);
  return catalog.names();
}

std::unique_ptr<Lock> make_lock(Backend& backend, ScriptCatalog& scripts, const LockSpec& spec) {
  if (!spec.redisson.replica_sync) {  // a lock made alone is its client's only one
    LockSpec alone = spec;
    alone.redisson.replica_sync = std::make_shared<ReplicaSync>();
    return make_lock(backend, scripts, alone);
  }
  const model::LockType* type = model::find_lock_type(spec.type);
  if (type == nullptr)
    throw std::invalid_argument("unknown lock type '" + spec.type + "' (expected " + model::lock_type_list() + ")");
  RedissonOptions options = spec.redisson;
  options.non_reentrant = type->refuses_reentry;
  using enum model::LockKind;
  switch (type->kind) {
    case RLock:
    case NonReentrant: return std::make_unique<client::RLock>(backend, scripts, spec.name, options, spec.rlock_scripts);
    case Spin: return std::make_unique<SpinLock>(backend, scripts, spec.name, options);
    case Fenced: {
      RLockScripts scripts_of_fenced = spec.rlock_scripts;
      scripts_of_fenced.acquire = "fenced_acquire";
      return std::make_unique<FencedLock>(backend, scripts, spec.name, options, scripts_of_fenced);
    }
    case Fair:
    case NonReentrantFair: return std::make_unique<FairLock>(backend, scripts, spec.name, options, spec.fair);
    case Setnx: return std::make_unique<SetnxLock>(backend, spec.name, spec.polling);
    case Naive: return std::make_unique<NaiveLock>(backend, spec.name, spec.polling);
    case Token: return std::make_unique<TokenLock>(backend, scripts, spec.name, spec.polling);
    case ClientReentrant: return std::make_unique<ClientReentrantLock>(backend, scripts, spec.name, spec.polling);
    case Multi:
    case Red: return make_multi_lock(backend, scripts, spec);
    case RwLock: throw std::invalid_argument("an rwlock is two locks: build it with make_locks");
  }
  LS_ASSERT(false && "a LockKind the factory does not build");
  return nullptr;
}

std::vector<std::unique_ptr<Lock>> make_locks(Backend& backend, ScriptCatalog& scripts, const LockSpec& given) {
  // The client's CommandAsyncService: one probe and one replica count per server, for all its locks.
  LockSpec spec = given;
  spec.redisson.replica_sync = std::make_shared<ReplicaSync>();
  std::vector<std::unique_ptr<Lock>> locks;
  if (model::is_kind(spec.type, model::LockKind::RwLock)) {
    locks.push_back(std::make_unique<ReadLock>(backend, scripts, spec.name, spec.redisson, spec.rw));
    locks.push_back(std::make_unique<WriteLock>(backend, scripts, spec.name, spec.redisson, spec.rw));
  } else {
    locks.push_back(make_lock(backend, scripts, spec));
  }
  return locks;
}

}  // namespace locksim::client
