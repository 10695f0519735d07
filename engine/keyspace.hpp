#pragma once
// Keyspace: keys in byte order, each with an absolute expiry on the host's clock. A key past its
// time is gone: lookups delete it lazily (Redis's expireIfNeeded) and active_expire() sweeps the
// rest in key order, so what a run sees never depends on hashing or sampling.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "engine/host.hpp"
#include "engine/types.hpp"

namespace locksim::engine {

class Keyspace {
 public:
  explicit Keyspace(Host& host) : host_(host) {}

  // The time every lookup compares against; set once per command (frozen during a script).
  void set_now(int64_t now_ms) { now_ms_ = now_ms; }
  int64_t now() const { return now_ms_; }

  // The live entry for `key`, or null. An expired key is deleted here (KeyEvent::Expired).
  Entry* find(std::string_view key);
  // Adds a key that must not exist.
  Entry& insert(std::string_view key, Value value);
  // Removes a key if present (KeyEvent::Deleted); true when something was removed.
  bool remove(std::string_view key);
  void set_expire(std::string_view key, Entry& entry, int64_t expire_at_ms);
  void persist(std::string_view key, Entry& entry);
  void clear();

  // Deletes every key whose time has passed, in key order; returns how many.
  size_t active_expire();
  // Live keys (not yet lazily expired ones are counted, as Redis's DBSIZE does).
  size_t size() const { return entries_.size(); }
  const std::map<std::string, Entry, std::less<>>& entries() const { return entries_; }

 private:
  bool expired(const Entry& entry) const {
    return entry.expire_at_ms != kNoExpire && now_ms_ > entry.expire_at_ms;
  }

  Host& host_;
  int64_t now_ms_ = 0;
  std::map<std::string, Entry, std::less<>> entries_;
};

}  // namespace locksim::engine
