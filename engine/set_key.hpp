#pragma once
// Redis's setKey (db.c): the one way a command replaces whatever a key holds, of any type, with a
// new value. The key's expiry goes unless `keep_ttl` (SET's KEEPTTL); the host hears of it.
#include <string_view>

#include "engine/keyspace.hpp"

namespace locksim::engine {

// Returns the entry now holding `value`.
Entry& set_key(Keyspace& db, std::string_view key, Value value, bool keep_ttl = false);

}  // namespace locksim::engine
