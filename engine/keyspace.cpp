#include "engine/keyspace.hpp"

#include "base/assert.hpp"

namespace locksim::engine {

Entry* Keyspace::find(std::string_view key) {
  auto it = entries_.find(key);
  if (it == entries_.end()) return nullptr;
  if (!expired(it->second)) return &it->second;
  const int64_t expire_at = it->second.expire_at_ms;
  host_.key_event(KeyEvent::Expired, key, expire_at);
  entries_.erase(it);
  return nullptr;
}

Entry& Keyspace::insert(std::string_view key, Value value) {
  auto [it, inserted] = entries_.emplace(std::string(key), Entry{std::move(value), kNoExpire});
  LS_ASSERT(inserted);
  host_.key_event(KeyEvent::Created, key, kNoExpire);
  return it->second;
}

bool Keyspace::remove(std::string_view key) {
  auto it = entries_.find(key);
  if (it == entries_.end()) return false;
  host_.key_event(KeyEvent::Deleted, key, it->second.expire_at_ms);
  entries_.erase(it);
  return true;
}

void Keyspace::set_expire(std::string_view key, Entry& entry, int64_t expire_at_ms) {
  LS_ASSERT(expire_at_ms != kNoExpire);
  entry.expire_at_ms = expire_at_ms;
  host_.key_event(KeyEvent::ExpireSet, key, expire_at_ms);
}

void Keyspace::persist(std::string_view key, Entry& entry) {
  LS_ASSERT(entry.expire_at_ms != kNoExpire);
  entry.expire_at_ms = kNoExpire;
  host_.key_event(KeyEvent::Persisted, key, kNoExpire);
}

void Keyspace::clear() {
  for (const auto& [key, entry] : entries_) host_.key_event(KeyEvent::Deleted, key, entry.expire_at_ms);
  entries_.clear();
}

size_t Keyspace::active_expire() {
  size_t removed = 0;
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (expired(it->second)) {
      host_.key_event(KeyEvent::Expired, it->first, it->second.expire_at_ms);
      it = entries_.erase(it);
      ++removed;
    } else {
      ++it;
    }
  }
  return removed;
}

}  // namespace locksim::engine
