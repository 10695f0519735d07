#pragma once
// Lock: what every lock type offers a client thread. Results say Ok, Fail (certainly not done),
// or Unknown (a timeout: it may have happened), as the history records them.
#include <cstdint>
#include <map>
#include <string>

#include "base/state_writer.hpp"
#include "client/task.hpp"
#include "client/waiting.hpp"

namespace locksim::client {

struct AcquireOptions {
  int64_t wait_ms = -1;   // < 0: lock(), wait as long as it takes; >= 0: tryLock(wait)
  int64_t lease_ms = -1;  // < 0: no lease (Redisson's watchdog renews; other locks use their default)
  // tryLock(-1, lease): Redisson's "no wait" written -1 rather than 0 (wait_ms is then 0). Only
  // MultiLock and RedLock read it apart from tryLock(0, lease): up to 3.11.0 (#2172) -1 was their
  // marker for "no wait" and 0 was a wait.
  bool wait_minus_one = false;
  // The unit the caller gave the lease in, in ms: 1000 for lock(5, SECONDS) (lease_ms is then 5000).
  // Only MultiLock's lock(lease, unit) of 3.17.0 to 3.25.0 (#5484) reads it, as its own mistake.
  int64_t lease_unit_ms = 1;
};

struct OpResult {
  enum class Outcome { Ok, Fail, Unknown };
  Outcome outcome = Outcome::Fail;
  int64_t value = 0;  // acquire: the fencing token (1 when the lock has none); unlock: the script's answer
  std::string why;    // for Fail and Unknown

  static OpResult ok(int64_t value = 1) { return {Outcome::Ok, value, {}}; }
  static OpResult fail(std::string why) { return {Outcome::Fail, 0, std::move(why)}; }
  static OpResult unknown(std::string why) { return {Outcome::Unknown, 0, std::move(why)}; }
};

// What Thread.interrupt() did to a thread's operation on a lock (Lock::interrupt).
struct Interruption {
  enum class Kind {
    None,      // nothing was waiting to be interrupted: the status stays for the thread's next wait
    Woken,     // the wait ended: the operation goes on, or ends, by itself
    Detached,  // the operation ends now with `result`; its frame goes on without the thread
  };
  Kind kind = Kind::None;
  OpResult result{};
};

// What Redisson's sync methods throw when interrupted in CommandAsyncService.get(): the future is
// cancelled, the status set again, and the request goes on.
inline constexpr const char* kInterruptedGet = "RedisException: java.lang.InterruptedException";
// What a latch or a subscription's timed get() throws: the status is cleared.
inline constexpr const char* kInterrupted = "InterruptedException";

class Lock {
 public:
  virtual ~Lock() = default;
  virtual const std::string& name() const = 0;
  virtual Task<OpResult> acquire(int64_t thread, int64_t op, AcquireOptions options) = 0;
  virtual Task<OpResult> release(int64_t thread, int64_t op) = 0;
  virtual Task<OpResult> force_release(int64_t op) = 0;
  // isLocked(): Ok with value 1 when anyone holds the lock, 0 when nobody does.
  virtual Task<OpResult> is_locked(int64_t op) = 0;
  // isHeldByCurrentThread(): Ok with value 1 when `thread` of this client holds it, else 0.
  virtual Task<OpResult> is_held(int64_t thread, int64_t op) = 0;
  // Thread.interrupt() of `thread` while it runs an acquire on this lock; its status is already set
  // (Backend::interrupted). A lock that does not model interruption says None.
  virtual Interruption interrupt(int64_t /*thread*/) { return {}; }
  // The fencing token of `thread`'s current hold; 0 when the lock hands out none.
  virtual int64_t token(int64_t /*thread*/) const { return 0; }
  // The threads whose acquire is under way, and where each is in its waiting loop; an acquire its
  // thread has left (interrupted, Waiting::detached) is listed under a negative key until it ends.
  const std::map<int64_t, Waiting>& waiting() const { return waiting_.threads(); }
  // Its members as state (base/state_writer.hpp): what its operations keep across a suspension and
  // from one operation to the next, times relative to the client's clock reading `client_now_ms`.
  // False for a lock that cannot say all of it (its coroutine frames keep some): a world with one
  // never takes one of its states for another.
  virtual bool describe(StateWriter& /*out*/, int64_t /*client_now_ms*/) const { return false; }

 protected:
  // The waiting threads, as describe() writes them.
  void describe_waiting(StateWriter& out, int64_t client_now_ms) const;

  WaitingThreads waiting_;
};

}  // namespace locksim::client
