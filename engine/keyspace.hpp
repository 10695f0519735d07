#pragma once
// The keyspace: Redis's 16 databases (Databases, server.db[]), each a Keyspace of keys in byte order
// with an absolute expiry on the host's clock, and WATCH's registry of who watches which key
// (Watches). A key past its time is gone: lookups delete it lazily (Redis's expireIfNeeded) and
// active_expire() sweeps the rest in key order, so what a run sees never depends on hashing or
// sampling.
//
// Every change to a key is signalled here, as Redis's signalModifiedKey, and nowhere else decides
// which WATCHes it breaks. The keyspace's own mutators signal themselves (insert, remove,
// set_expire, persist, an expiry, a flush, a swap); a write command's in-place edit of a watched
// key is found by comparing the key's value before and after the command (WatchedWrite, which the
// engine runs around every write command), so that a command family needs to know nothing of
// WATCH. Comparing cannot see a write that stores the bytes a key already holds, which Redis
// counts (SET k v over v, APPEND k "", INCRBY k 0, HSET h f v over v, HINCRBY h f 0, LSET over the
// same element): those writes call signal_modified() themselves.
//
// Key events (Host::key_event) are db 0's only. Hosts record them as the life of the lock keys in
// a run's history, and lock clients never leave db 0 (a connection starts there; none of them sends
// SELECT). A key of the same name in another db is another key: reported without its db it would
// put a stranger's changes into a lock key's history, and no host has a use for its db. So the
// other databases are silent, and SWAPDB and MOVE report what db 0 loses (Deleted) and gains
// (Created, then ExpireSet if the key has an expiry).
//
// Keyspace notifications (notify.hpp) are the commands' to send, as in Redis, but for the two that
// Redis sends from db.c: "new" from insert (dbAdd) and "expired" from an expiry, lazy or active
// (deleteExpiredKeyAndPropagate).
#include <array>
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/blocked.hpp"
#include "engine/host.hpp"
#include "engine/notify.hpp"
#include "engine/types.hpp"

namespace locksim::engine {

// Redis's default `databases 16`.
inline constexpr int kDatabases = 16;

class Databases;

class Keyspace {
 public:
  Keyspace(Databases& server, int id) : server_(server), id_(id) {}
  Keyspace(const Keyspace&) = delete;
  Keyspace& operator=(const Keyspace&) = delete;

  int id() const { return id_; }
  // The server's encoding thresholds, which a write reads as it stores.
  const EncodingLimits& limits() const;
  // The time every lookup compares against: the server's, read once per command and frozen for a
  // whole script or EXEC.
  int64_t now() const;

  // The live entry for `key`, or null. An expired key is deleted here (KeyEvent::Expired).
  Entry* find(std::string_view key);
  // Adds a key that must not exist (dbAdd: a client blocked on it may be served).
  Entry& insert(std::string_view key, Value value);
  // Removes a key if present (KeyEvent::Deleted); true when something was removed.
  bool remove(std::string_view key);
  void set_expire(std::string_view key, Entry& entry, int64_t expire_at_ms);
  void persist(std::string_view key, Entry& entry);
  // FLUSHDB: every key goes (KeyEvent::Deleted for each, in key order), and so do the WATCHes of
  // the keys that were here.
  void clear();

  // Redis's signalModifiedKey: the key changed, so every WATCH on it (in this db) is broken.
  void signal_modified(std::string_view key);
  // notifyKeyspaceEvent for a key of this db (notify.hpp).
  void notify(int type, std::string_view event, std::string_view key) const;
  // Redis's keyIsExpired: stored, but its time has passed (not deleted yet). Deletes nothing.
  bool is_expired(std::string_view key) const;
  // Stored, expired or not (Redis's dictFind on the db's dict).
  bool contains(std::string_view key) const { return entries_.find(key) != entries_.end(); }

  // Deletes every key whose time has passed, in key order; returns how many.
  size_t active_expire();
  // Stored keys (not yet lazily expired ones are counted, as Redis's DBSIZE does).
  size_t size() const { return entries_.size(); }
  const std::map<std::string, Entry, std::less<>>& entries() const { return entries_; }

 private:
  friend class Databases;     // SWAPDB exchanges two databases' entries
  friend class WatchedWrite;  // reads entries without expiring them

  bool expired(const Entry& entry) const { return entry.expire_at_ms != kNoExpire && now() > entry.expire_at_ms; }
  void key_event(KeyEvent event, std::string_view key, int64_t expire_at_ms);

  Databases& server_;
  int id_;
  std::map<std::string, Entry, std::less<>> entries_;
};

// WATCH's registry, as the second half of Redis's multi.c: which session watches which key of
// which db, and whose watches were broken (CLIENT_DIRTY_CAS). Watched keys belong to a db's index,
// not to its data: SWAPDB leaves them where they are.
class Watches {
 public:
  // watchForKey: once per (db, key); remembers whether the key was already expired, as 7.0 does.
  void watch(SessionId session, const Keyspace& db, std::string_view key);
  // unwatchAllKeys. Leaves the dirty flag alone, as Redis does.
  void unwatch_all(SessionId session);
  bool dirty(SessionId session) const { return dirty_.contains(session); }
  void clear_dirty(SessionId session) { dirty_.erase(session); }
  // isWatchedKeyExpired: a key the session watches has expired since (EXEC refuses then).
  bool watched_key_expired(SessionId session, const Databases& dbs) const;
  // touchWatchedKey: `key` of `db` changed.
  void touch(const Keyspace& db, std::string_view key);
  // touchAllWatchedKeysInDb: `emptied` is flushed (replaced_with null) or swapped with
  // `replaced_with`; called while both still hold their keys.
  void touch_all(const Keyspace& emptied, const Keyspace* replaced_with);
  // The keys of db `db` someone watches, in byte order.
  std::vector<std::string> watched_keys(int db) const;
  // The (db, key)s `session` watches, in the order it watched them.
  std::vector<std::pair<int, std::string>> watched_by(SessionId session) const;
  bool anything_watched(int db) const { return !by_key_[static_cast<size_t>(db)].empty(); }

 private:
  struct WatchedKey {
    int db;
    std::string key;
    SessionId session;
    bool expired;  // the key was stored but already expired when WATCH ran
  };

  // c->watched_keys: each session's keys in the order it watched them (list: stable addresses).
  std::map<SessionId, std::list<WatchedKey>> by_session_;
  // db->watched_keys: per db, each key's watchers in the order they watched it.
  std::array<std::map<std::string, std::vector<WatchedKey*>, std::less<>>, kDatabases> by_key_;
  std::set<SessionId> dirty_;
};

// Redis's server.db[]: the databases, the clock they share and the WATCH registry over them.
class Databases {
 public:
  explicit Databases(Host& host);
  Databases(const Databases&) = delete;
  Databases& operator=(const Databases&) = delete;

  Keyspace& db(int id);
  const Keyspace& db(int id) const;
  static bool valid(int64_t id) { return id >= 0 && id < kDatabases; }

  Host& host() { return host_; }
  // The encoding thresholds every database's writes read (CONFIG SET *-max-*).
  const EncodingLimits& limits() const { return limits_; }
  EncodingLimits& limits() { return limits_; }
  // Set once per command from the host's clock; every database reads it.
  void set_now(int64_t now_ms) { now_ms_ = now_ms; }
  int64_t now() const { return now_ms_; }
  Watches& watches() { return watches_; }
  const Watches& watches() const { return watches_; }
  // Who waits on which key (BLPOP and its kin), and the keys made ready.
  BlockedKeys& blocked() { return blocked_; }
  const BlockedKeys& blocked() const { return blocked_; }

  // FLUSHALL: every database cleared, WATCHes of keys that were stored broken.
  void clear_all();
  // SWAPDB (dbSwapDatabases): the two databases exchange their keys; a WATCH stays with its db's
  // index and breaks if its key is stored on either side; a key a client blocks on that either side
  // now holds is ready (scanDatabaseForReadyKeys). Swapping a db with itself does nothing.
  void swap(int a, int b);
  // Active expiry over every database, db 0 first.
  size_t active_expire();
  // Where keyspace notifications go: the engine's, set once it exists. Until then nothing is sent.
  void set_notifier(const Notifier& notifier) { notifier_ = &notifier; }
  void notify(int type, std::string_view event, std::string_view key, int db) const {
    if (notifier_ != nullptr) notifier_->notify(type, event, key, db);
  }

 private:
  template <size_t... I>
  static std::array<Keyspace, kDatabases> make_dbs(Databases& server, std::index_sequence<I...>) {
    return {Keyspace(server, static_cast<int>(I))...};
  }

  Host& host_;
  EncodingLimits limits_;
  int64_t now_ms_ = 0;
  Watches watches_;
  BlockedKeys blocked_;
  const Notifier* notifier_ = nullptr;
  std::array<Keyspace, kDatabases> dbs_;
};

// Finds a write command's in-place edits of watched keys (module comment): the values of the
// watched keys of `db` before the command, compared with what the same entries hold after it.
// Costs one check while no key of the db is watched.
class WatchedWrite {
 public:
  explicit WatchedWrite(Keyspace& db);
  // Signals each watched key whose entry was edited in place. Entries created, deleted or
  // re-timed are the keyspace's mutators' to signal (they have already).
  void finish();

 private:
  struct Before {
    std::string key;
    const Entry* entry;
    Value value;
  };
  Keyspace& db_;
  std::vector<Before> before_;
};

}  // namespace locksim::engine
