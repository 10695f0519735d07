#pragma once
// PollingLock: the waiting loop of the seed-001 locks, which have no pub/sub: try, and while the
// lock is taken sleep `retry_ms` and try again, until the wait runs out (or forever for lock()).
#include <cstdint>
#include <string>

#include "client/backend.hpp"
#include "client/command_policy.hpp"
#include "client/lock.hpp"

namespace locksim::client {

struct PollingOptions {
  int64_t default_lease_ms = 30000;  // used when an acquire names no lease (these locks never renew)
  int64_t retry_ms = 100;
  bool setnx_expire = true;  // setnx only: false is the seed's first lock, SETNX with no EXPIRE at all
  CommandPolicy commands;
};

class PollingLock : public Lock {
 public:
  PollingLock(Backend& backend, std::string name, PollingOptions options)
      : backend_(backend), name_(std::move(name)), options_(options) {}
  const std::string& name() const override { return name_; }
  Task<OpResult> acquire(int64_t thread, int64_t op, AcquireOptions options) override;
  Task<OpResult> force_release(int64_t op) override;
  Task<OpResult> is_locked(int64_t op) override;

 protected:
  // One try: Ok (value = token) when taken, Fail("busy") when someone holds it, or an error.
  virtual Task<OpResult> try_once(int64_t thread, int64_t op, int64_t lease_ms) = 0;
  Task<CallResult> send(std::string role, int64_t thread, int64_t op, std::vector<std::string> argv);
  // Ok(1) when the key's value is `expected` (this thread's), Ok(0) otherwise.
  Task<OpResult> value_is(int64_t thread, int64_t op, std::string expected);
  int64_t lease_or_default(int64_t lease_ms) const { return lease_ms >= 0 ? lease_ms : options_.default_lease_ms; }
  // A lease in whole seconds, rounded up, for EXPIRE/EX.
  static int64_t lease_seconds(int64_t lease_ms) { return lease_ms <= 0 ? 1 : (lease_ms + 999) / 1000; }

  static constexpr const char* kBusy = "busy";
  Backend& backend_;
  std::string name_;
  PollingOptions options_;
};

}  // namespace locksim::client
