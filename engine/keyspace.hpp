#pragma once
// The keyspace: Redis's 16 databases (Databases, server.db[]), each a Keyspace of keys in byte order
// with an absolute expiry on the host's clock. A key past its time is gone: lookups delete it lazily
// (Redis's expireIfNeeded) and active_expire() sweeps the rest in key order, so what a run sees
// never depends on hashing or sampling.
//
// Key events (Host::key_event) are db 0's only. Hosts record them as the life of the lock keys in
// a run's history, and lock clients never leave db 0 (a connection starts there; none of them sends
// SELECT). A key of the same name in another db is another key: reported without its db it would
// put a stranger's changes into a lock key's history, and no host has a use for its db. So the
// other databases are silent, and SWAPDB and MOVE report what db 0 loses (Deleted) and gains
// (Created, then ExpireSet if the key has an expiry).
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "engine/host.hpp"
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
  // The time every lookup compares against: the server's, read once per command and frozen for a
  // whole script.
  int64_t now() const;

  // The live entry for `key`, or null. An expired key is deleted here (KeyEvent::Expired).
  Entry* find(std::string_view key);
  // Adds a key that must not exist.
  Entry& insert(std::string_view key, Value value);
  // Removes a key if present (KeyEvent::Deleted); true when something was removed.
  bool remove(std::string_view key);
  void set_expire(std::string_view key, Entry& entry, int64_t expire_at_ms);
  void persist(std::string_view key, Entry& entry);
  // FLUSHDB: every key goes (KeyEvent::Deleted for each, in key order).
  void clear();

  // Deletes every key whose time has passed, in key order; returns how many.
  size_t active_expire();
  // Stored keys (not yet lazily expired ones are counted, as Redis's DBSIZE does).
  size_t size() const { return entries_.size(); }
  const std::map<std::string, Entry, std::less<>>& entries() const { return entries_; }

 private:
  friend class Databases;  // SWAPDB exchanges two databases' entries

  bool expired(const Entry& entry) const { return entry.expire_at_ms != kNoExpire && now() > entry.expire_at_ms; }
  void key_event(KeyEvent event, std::string_view key, int64_t expire_at_ms);

  Databases& server_;
  int id_;
  std::map<std::string, Entry, std::less<>> entries_;
};

// Redis's server.db[]: the databases and the clock they share.
class Databases {
 public:
  explicit Databases(Host& host);
  Databases(const Databases&) = delete;
  Databases& operator=(const Databases&) = delete;

  Keyspace& db(int id);
  const Keyspace& db(int id) const;
  static bool valid(int64_t id) { return id >= 0 && id < kDatabases; }

  Host& host() { return host_; }
  // Set once per command from the host's clock; every database reads it.
  void set_now(int64_t now_ms) { now_ms_ = now_ms; }
  int64_t now() const { return now_ms_; }

  // FLUSHALL: every database cleared.
  void clear_all();
  // SWAPDB (dbSwapDatabases): the two databases exchange their keys. Swapping a db with itself
  // does nothing.
  void swap(int a, int b);
  // Active expiry over every database, db 0 first.
  size_t active_expire();

 private:
  template <size_t... I>
  static std::array<Keyspace, kDatabases> make_dbs(Databases& server, std::index_sequence<I...>) {
    return {Keyspace(server, static_cast<int>(I))...};
  }

  Host& host_;
  int64_t now_ms_ = 0;
  std::array<Keyspace, kDatabases> dbs_;
};

}  // namespace locksim::engine
