#pragma once
// The locks of seed 001, each a step on the way to a safe single-instance Redis lock:
//   setnx            SETNX then EXPIRE: two commands, so a crash between them leaves a key that
//                    never expires (deadlock)
//   naive            SET NX EX in one command, but released with a plain DEL that may delete the
//                    next holder's lock after this one's expired
//   token            SET NX PX with a random token, released by compare-and-delete in Lua; each
//                    acquisition also takes a fencing token from INCR for the fenced resource
//   client-reentrant the token lock wrapped with a per-thread counter on the client
#include <map>

#include "client/polling_lock.hpp"
#include "client/script_catalog.hpp"

namespace locksim::client {

class SetnxLock : public PollingLock {
 public:
  using PollingLock::PollingLock;
  Task<OpResult> release(int64_t thread, int64_t op) override;
  // The key holds "1": there is no owner to compare with.
  Task<OpResult> is_held(int64_t thread, int64_t op) override;

 protected:
  Task<OpResult> try_once(int64_t thread, int64_t op, int64_t lease_ms) override;
};

class NaiveLock : public PollingLock {
 public:
  using PollingLock::PollingLock;
  Task<OpResult> release(int64_t thread, int64_t op) override;
  Task<OpResult> is_held(int64_t thread, int64_t op) override;

 protected:
  Task<OpResult> try_once(int64_t thread, int64_t op, int64_t lease_ms) override;
};

class TokenLock : public PollingLock {
 public:
  TokenLock(Backend& backend, ScriptCatalog& scripts, std::string name, PollingOptions options);
  Task<OpResult> release(int64_t thread, int64_t op) override;
  Task<OpResult> is_held(int64_t thread, int64_t op) override;
  int64_t token(int64_t thread) const override;
  std::string fence_key() const { return "{" + name_ + "}:fence"; }

 protected:
  Task<OpResult> try_once(int64_t thread, int64_t op, int64_t lease_ms) override;

 private:
  const Script& release_;
  std::map<int64_t, std::string> tokens_;   // thread -> its random token
  std::map<int64_t, int64_t> fencing_;      // thread -> its fencing token
};

class ClientReentrantLock : public Lock {
 public:
  ClientReentrantLock(Backend& backend, ScriptCatalog& scripts, std::string name, PollingOptions options)
      : inner_(backend, scripts, std::move(name), options) {}
  const std::string& name() const override { return inner_.name(); }
  Task<OpResult> acquire(int64_t thread, int64_t op, AcquireOptions options) override;
  Task<OpResult> release(int64_t thread, int64_t op) override;
  Task<OpResult> force_release(int64_t op) override { return inner_.force_release(op); }
  Task<OpResult> is_locked(int64_t op) override { return inner_.is_locked(op); }
  // The thread-local counter answers, without asking Redis.
  Task<OpResult> is_held(int64_t thread, int64_t op) override;
  int64_t token(int64_t thread) const override { return inner_.token(thread); }

 private:
  TokenLock inner_;
  std::map<int64_t, int64_t> counts_;  // the thread-local counters
};

}  // namespace locksim::client
