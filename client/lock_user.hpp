#pragma once
// LockUser: one client's operations on its locks, recorded in the history the same way for every
// lock type: Invoke, then Ok / Fail / Info, and the client's belief (Hold, Release) around them.
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "client/backend.hpp"
#include "client/lock.hpp"

namespace locksim::client {

class LockUser {
 public:
  explicit LockUser(Backend& backend) : backend_(backend) {}
  void add_lock(std::unique_ptr<Lock> lock);
  bool has_lock(const std::string& name) const { return locks_.count(name) > 0; }
  Lock& lock(const std::string& name);
  const std::map<std::string, std::unique_ptr<Lock>>& locks() const { return locks_; }

  // lock() when options.wait_ms < 0, else tryLock(wait, lease).
  Task<OpResult> acquire(int64_t thread, std::string lock, AcquireOptions options);
  Task<OpResult> release(int64_t thread, std::string lock);
  Task<OpResult> force_release(int64_t thread, std::string lock);
  // isLocked() (f = "is_locked") or isHeldByCurrentThread() (f = "is_held"): Ok with value 1 or 0.
  Task<OpResult> query(int64_t thread, std::string lock, std::string f);
  // Holds the lock (or not) for `ms`, doing nothing else.
  Task<OpResult> work(int64_t thread, int64_t ms);
  // Writes to the resource the lock guards, carrying the thread's fencing token.
  Task<OpResult> write(int64_t thread, std::string lock);

  // Thread.interrupt() of `thread`, whose status the backend has set: what it did to the acquire the
  // thread runs, if any. An operation it ends is recorded as ended now (Interruption::Detached), and
  // its frame, which goes on, records nothing more.
  Interruption interrupt(int64_t thread);

  // The (lock, thread) pairs this client believes it holds, with their depth.
  const std::map<std::pair<std::string, int64_t>, int64_t>& believed() const { return depth_; }
  // What it believes it holds and each lock's members, as state (Lock::describe); false when a
  // lock cannot say.
  bool describe(StateWriter& out, int64_t client_now_ms) const;

 private:
  void record_outcome(int64_t thread, int64_t op, const std::string& lock, const std::string& f, const OpResult& result);

  Backend& backend_;
  std::map<std::string, std::unique_ptr<Lock>> locks_;
  std::map<std::pair<std::string, int64_t>, int64_t> depth_;
  // Each thread's acquire under way, as interrupt() needs it.
  struct Acquiring {
    int64_t op = 0;
    std::string lock;
    std::string f;
  };
  std::map<int64_t, Acquiring> acquiring_;
  std::set<int64_t> detached_;  // ops an interrupt ended while their frames go on
};

}  // namespace locksim::client
