#include "engine/keyspace.hpp"

#include <algorithm>
#include <concepts>
#include <variant>

#include "base/assert.hpp"

namespace locksim::engine {
namespace {

// Values are compared by what a client can read of them. A new value type must be comparable with
// ==, or get an overload here: WATCH finds in-place edits by comparing (WatchedWrite).
template <class T>
  requires std::equality_comparable<T>
bool same(const T& a, const T& b) {
  return a == b;
}
bool same(const Hash& a, const Hash& b) { return a.fields() == b.fields(); }
bool same(const ZSet& a, const ZSet& b) { return a.ordered() == b.ordered(); }
bool same(const Set& a, const Set& b) { return a.members() == b.members(); }

bool same_value(const Value& a, const Value& b) {
  if (a.index() != b.index()) return false;
  return std::visit([&b](const auto& x) { return same(x, std::get<std::decay_t<decltype(x)>>(b)); }, a);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Keyspace

int64_t Keyspace::now() const { return server_.now(); }
const EncodingLimits& Keyspace::limits() const { return server_.limits(); }

void Keyspace::key_event(KeyEvent event, std::string_view key, int64_t expire_at_ms) {
  if (id_ == 0) server_.host().key_event(event, key, expire_at_ms);
}

Entry* Keyspace::find(std::string_view key) {
  auto it = entries_.find(key);
  if (it == entries_.end()) return nullptr;
  if (!expired(it->second)) return &it->second;
  // deleteExpiredKeyAndPropagate: delete, notify, then signal (a WATCH sees the key gone).
  const int64_t expire_at = it->second.expire_at_ms;
  key_event(KeyEvent::Expired, key, expire_at);
  const std::string name = it->first;  // `key` may be the entry's own name, erased next
  entries_.erase(it);
  notify(kNotifyExpired, "expired", name);
  signal_modified(name);
  return nullptr;
}

Entry& Keyspace::insert(std::string_view key, Value value) {
  auto [it, inserted] = entries_.emplace(std::string(key), Entry{std::move(value), kNoExpire});
  LS_ASSERT(inserted);
  key_event(KeyEvent::Created, key, kNoExpire);
  signal_modified(key);
  server_.blocked().signal_ready(id_, key);
  // dbAdd announces a key's birth (class n) before the command announces what it did to it.
  notify(kNotifyNew, "new", key);
  return it->second;
}

bool Keyspace::remove(std::string_view key) {
  auto it = entries_.find(key);
  if (it == entries_.end()) return false;
  key_event(KeyEvent::Deleted, key, it->second.expire_at_ms);
  entries_.erase(it);
  signal_modified(key);
  return true;
}

void Keyspace::set_expire(std::string_view key, Entry& entry, int64_t expire_at_ms) {
  LS_ASSERT(expire_at_ms != kNoExpire);
  entry.expire_at_ms = expire_at_ms;
  key_event(KeyEvent::ExpireSet, key, expire_at_ms);
  signal_modified(key);
}

void Keyspace::persist(std::string_view key, Entry& entry) {
  LS_ASSERT(entry.expire_at_ms != kNoExpire);
  entry.expire_at_ms = kNoExpire;
  key_event(KeyEvent::Persisted, key, kNoExpire);
  signal_modified(key);
}

void Keyspace::clear() {
  // signalFlushedDb comes first, while the keys are still there to be seen.
  server_.watches().touch_all(*this, nullptr);
  for (const auto& [key, entry] : entries_) key_event(KeyEvent::Deleted, key, entry.expire_at_ms);
  entries_.clear();
}

void Keyspace::signal_modified(std::string_view key) { server_.watches().touch(*this, key); }

void Keyspace::notify(int type, std::string_view event, std::string_view key) const {
  server_.notify(type, event, key, id_);
}

bool Keyspace::is_expired(std::string_view key) const {
  auto it = entries_.find(key);
  return it != entries_.end() && expired(it->second);
}

size_t Keyspace::active_expire() {
  size_t removed = 0;
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (expired(it->second)) {
      const std::string key = it->first;
      key_event(KeyEvent::Expired, key, it->second.expire_at_ms);
      it = entries_.erase(it);
      notify(kNotifyExpired, "expired", key);
      signal_modified(key);
      ++removed;
    } else {
      ++it;
    }
  }
  return removed;
}

// ---------------------------------------------------------------------------------------------
// Watches

void Watches::watch(SessionId session, const Keyspace& db, std::string_view key) {
  std::list<WatchedKey>& mine = by_session_[session];
  for (const WatchedKey& wk : mine)
    if (wk.db == db.id() && wk.key == key) return;  // already watched in this db
  mine.push_back(WatchedKey{db.id(), std::string(key), session, db.is_expired(key)});
  auto& keys = by_key_[static_cast<size_t>(db.id())];
  auto watchers = keys.find(key);
  if (watchers == keys.end()) watchers = keys.emplace(std::string(key), std::vector<WatchedKey*>{}).first;
  watchers->second.push_back(&mine.back());
}

void Watches::unwatch_all(SessionId session) {
  auto mine = by_session_.find(session);
  if (mine == by_session_.end()) return;
  for (WatchedKey& wk : mine->second) {
    auto& keys = by_key_[static_cast<size_t>(wk.db)];
    auto watchers = keys.find(wk.key);
    LS_ASSERT(watchers != keys.end());
    auto& list = watchers->second;
    auto it = std::find(list.begin(), list.end(), &wk);
    LS_ASSERT(it != list.end());
    list.erase(it);
    if (list.empty()) keys.erase(watchers);
  }
  by_session_.erase(mine);
}

bool Watches::watched_key_expired(SessionId session, const Databases& dbs) const {
  auto mine = by_session_.find(session);
  if (mine == by_session_.end()) return false;
  for (const WatchedKey& wk : mine->second) {
    if (wk.expired) continue;  // was expired when WATCH was called
    if (dbs.db(wk.db).is_expired(wk.key)) return true;
  }
  return false;
}

void Watches::touch(const Keyspace& db, std::string_view key) {
  auto& keys = by_key_[static_cast<size_t>(db.id())];
  if (keys.empty()) return;
  auto it = keys.find(key);
  if (it == keys.end()) return;
  // A session marked dirty is unwatched at once (its entry in this list with it): walk a copy. Each
  // session has one entry per key, so the entries still ahead are never the ones freed.
  const std::vector<WatchedKey*> watchers = it->second;
  for (WatchedKey* wk : watchers) {
    if (wk->expired) {
      if (!db.contains(key)) {
        // Already expired when watched, and now deleted: logically no change.
        wk->expired = false;
        continue;
      }
      // 7.0.15's touchWatchedKey leaves the loop here, sparing the watchers after this one. It is
      // not reached in practice: the key was deleted before it could be stored again, and that
      // deletion cleared the flag.
      break;
    }
    const SessionId session = wk->session;
    dirty_.insert(session);
    unwatch_all(session);
  }
}

void Watches::touch_all(const Keyspace& emptied, const Keyspace* replaced_with) {
  for (auto& [key, watchers] : by_key_[static_cast<size_t>(emptied.id())]) {
    const bool exists_in_emptied = emptied.contains(key);
    const bool exists_in_replacement = replaced_with != nullptr && replaced_with->contains(key);
    if (!exists_in_emptied && !exists_in_replacement) continue;
    // Redis does not unwatch here, so the list stays as it is while we walk it.
    for (WatchedKey* wk : watchers) {
      if (wk->expired) {
        if (!exists_in_replacement) {
          wk->expired = false;  // an expired key now deleted: no logical change
          continue;
        }
        if (replaced_with->is_expired(key)) continue;  // an expired key stays expired
      } else if (!exists_in_emptied && replaced_with->is_expired(key)) {
        wk->expired = true;  // a missing key replaced by an expired one
        continue;
      }
      dirty_.insert(wk->session);
    }
  }
}

std::vector<std::pair<int, std::string>> Watches::watched_by(SessionId session) const {
  std::vector<std::pair<int, std::string>> out;
  if (const auto it = by_session_.find(session); it != by_session_.end())
    for (const WatchedKey& w : it->second) out.emplace_back(w.db, w.key);
  return out;
}

std::vector<std::string> Watches::watched_keys(int db) const {
  std::vector<std::string> keys;
  for (const auto& [key, watchers] : by_key_[static_cast<size_t>(db)]) keys.push_back(key);
  return keys;
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
  watches_.touch_all(x, &y);
  watches_.touch_all(y, &x);
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
  for (Keyspace* side : {&x, &y})
    blocked_.signal_existing(side->id(), [side](const std::string& key) { return side->contains(key); });
}

size_t Databases::active_expire() {
  size_t removed = 0;
  for (Keyspace& db : dbs_) removed += db.active_expire();
  return removed;
}

// ---------------------------------------------------------------------------------------------
// WatchedWrite

WatchedWrite::WatchedWrite(Keyspace& db) : db_(db) {
  Watches& watches = db.server_.watches();
  if (!watches.anything_watched(db.id())) return;
  for (std::string& key : watches.watched_keys(db.id())) {
    auto it = db.entries_.find(key);
    if (it == db.entries_.end()) continue;
    before_.push_back(Before{std::move(key), &it->second, it->second.value});
  }
}

void WatchedWrite::finish() {
  for (const Before& before : before_) {
    auto it = db_.entries_.find(before.key);
    if (it == db_.entries_.end() || &it->second != before.entry) continue;
    if (!same_value(it->second.value, before.value)) db_.signal_modified(before.key);
  }
  before_.clear();
}

}  // namespace locksim::engine
