#include "engine/keyspace.hpp"

#include "base/assert.hpp"

namespace locksim::engine {

// ---------------------------------------------------------------------------------------------
// Keyspace

int64_t Keyspace::now() const { return server_.now(); }

void Keyspace::key_event(KeyEvent event, std::string_view key, int64_t expire_at_ms) {
  if (id_ == 0) server_.host().key_event(event, key, expire_at_ms);
}

Entry* Keyspace::find(std::string_view key) {
  auto it = entries_.find(key);
  if (it == entries_.end()) return nullptr;
  if (!expired(it->second)) return &it->second;
  const int64_t expire_at = it->second.expire_at_ms;
  key_event(KeyEvent::Expired, key, expire_at);
  entries_.erase(it);
  return nullptr;
}

Entry& Keyspace::insert(std::string_view key, Value value) {
  auto [it, inserted] = entries_.emplace(std::string(key), Entry{std::move(value), kNoExpire});
  LS_ASSERT(inserted);
  key_event(KeyEvent::Created, key, kNoExpire);
  return it->second;
}

bool Keyspace::remove(std::string_view key) {
  auto it = entries_.find(key);
  if (it == entries_.end()) return false;
  key_event(KeyEvent::Deleted, key, it->second.expire_at_ms);
  entries_.erase(it);
  return true;
}

void Keyspace::set_expire(std::string_view key, Entry& entry, int64_t expire_at_ms) {
  LS_ASSERT(expire_at_ms != kNoExpire);
  entry.expire_at_ms = expire_at_ms;
  key_event(KeyEvent::ExpireSet, key, expire_at_ms);
}

void Keyspace::persist(std::string_view key, Entry& entry) {
  LS_ASSERT(entry.expire_at_ms != kNoExpire);
  entry.expire_at_ms = kNoExpire;
  key_event(KeyEvent::Persisted, key, kNoExpire);
}

void Keyspace::clear() {
  for (const auto& [key, entry] : entries_) key_event(KeyEvent::Deleted, key, entry.expire_at_ms);
  entries_.clear();
}

size_t Keyspace::active_expire() {
  size_t removed = 0;
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (expired(it->second)) {
      key_event(KeyEvent::Expired, it->first, it->second.expire_at_ms);
      it = entries_.erase(it);
      ++removed;
    } else {
      ++it;
    }
  }
  return removed;
}

// ---------------------------------------------------------------------------------------------
// Databases

Databases::Databases(Host& host)
    : host_(host), dbs_(make_dbs(*this, std::make_index_sequence<static_cast<size_t>(kDatabases)>{})) {}

Keyspace& Databases::db(int id) {
  LS_ASSERT(valid(id));
  return dbs_[static_cast<size_t>(id)];
}

const Keyspace& Databases::db(int id) const {
  LS_ASSERT(valid(id));
  return dbs_[static_cast<size_t>(id)];
}

void Databases::clear_all() {
  for (Keyspace& db : dbs_) db.clear();
}

void Databases::swap(int a, int b) {
  if (a == b) return;
  Keyspace& x = db(a);
  Keyspace& y = db(b);
  // Only db 0 reports (module comment): what it held goes, what it gets arrives.
  for (Keyspace* side : {&x, &y})
    for (const auto& [key, entry] : side->entries_) side->key_event(KeyEvent::Deleted, key, entry.expire_at_ms);
  std::swap(x.entries_, y.entries_);
  for (Keyspace* side : {&x, &y}) {
    for (const auto& [key, entry] : side->entries_) {
      side->key_event(KeyEvent::Created, key, kNoExpire);
      if (entry.expire_at_ms != kNoExpire) side->key_event(KeyEvent::ExpireSet, key, entry.expire_at_ms);
    }
  }
}

size_t Databases::active_expire() {
  size_t removed = 0;
  for (Keyspace& db : dbs_) removed += db.active_expire();
  return removed;
}

}  // namespace locksim::engine
