#pragma once
// The lock types locksim runs, and what a checker needs to know of each, in one table: how the
// server stores a hold (a hash of holder fields, or a string value), who counts re-entries, which
// holds the watchdog renews, which hand out fencing tokens, how many of its keys a holder needs.
// Scenario files, exploration and the checkers' applicability all read this table.
#include <string>
#include <string_view>
#include <vector>

namespace locksim::model {

// How many of a lock's keys a holder needs: its one key, every part (MultiLock), or a majority of
// its servers (RedLock).
enum class Quorum { One, All, Majority };

// Which lock a type is, as a word the compiler checks: code that builds or treats one kind apart
// switches on it (every case named) rather than comparing names.
enum class LockKind {
  RLock,
  Fair,
  Multi,
  Red,
  RwLock,
  Spin,
  Fenced,
  NonReentrant,
  NonReentrantFair,
  Setnx,
  Naive,
  Token,
  ClientReentrant,
};

struct LockType {
  LockKind kind;
  std::string_view name;
  std::string_view about;
  bool hash = true;              // a hold is a field "<client id>:<thread>" of a hash; false: the key's string value
  bool server_reentrant = true;  // the server counts a holder's re-entries (its field)
  bool refuses_reentry = false;  // a holder's second acquire is refused at once with an error (Redisson's non-reentrant locks)
  bool client_reentrant = false; // the client counts re-entries and releases the key at 0
  bool watchdog = true;          // a hold without a lease is renewed (Redisson's watchdog)
  bool fencing = false;          // each acquire hands out a fencing token for the guarded resource
  bool fair = false;             // waiters queue (Redisson's FairLock)
  bool sides = false;            // a read side and a write side over one hash (Redisson's ReadWriteLock)
  Quorum quorum = Quorum::One;
  bool redisson = true;          // one of Redisson's locks: `redisson: X.Y.Z` says which version
  std::string_view since = "";   // the first Redisson version that has it ("" for every modelled one)
  // Thread.interrupt() is modelled for its acquires (the interrupt fault): RedissonLock's lock() and
  // tryLock() loops; not MultiLock's and RedLock's own loops, SpinLock's backoff or the plain locks.
  bool interruptible = false;
};

const std::vector<LockType>& lock_types();
// nullptr for a name the table does not have.
const LockType* find_lock_type(std::string_view name);
// The table's row of `kind`: every kind has one.
const LockType& lock_type(LockKind kind);
// Whether `name` is the table's name of `kind` (false for a name the table does not have).
bool is_kind(std::string_view name, LockKind kind);
// Whether a lock of type `name` is made of parts (MultiLock, RedLock: its quorum is not One).
bool has_parts(std::string_view name);
// Whether `name` is a FairLock of either kind (its waiters queue); false for a name the table lacks.
bool is_fair(std::string_view name);
// "rlock, fair, ..., or client-reentrant", for messages.
std::string lock_type_list();
// "rlock, fair, ... and nonreentrant-fair": the types whose acquires an interrupt fault reaches.
std::string interruptible_type_list();

}  // namespace locksim::model
