#include "engine/set_key.hpp"

namespace locksim::engine {

Entry& set_key(Keyspace& db, std::string_view key, Value value, bool keep_ttl) {
  Entry* entry = db.find(key);
  if (entry == nullptr) return db.insert(key, std::move(value));
  entry->value = std::move(value);
  entry->string_form = StringForm::Encoded;
  db.signal_modified(key);  // even with the bytes it held: a WATCH breaks (keyspace.hpp)
  if (!keep_ttl && entry->expire_at_ms != kNoExpire) db.persist(key, *entry);
  return *entry;
}

}  // namespace locksim::engine
