#pragma once
// What a command handler sees: its arguments, the keyspace, the engine, and who called it.
#include <cstdint>
#include <span>
#include <string_view>

#include "engine/host.hpp"
#include "engine/keyspace.hpp"
#include "base/reply.hpp"

namespace locksim::engine {

class Engine;

// The caller of a command run by redis.call inside a script: not a connection.
inline constexpr SessionId kScriptCaller = 0;

struct CommandContext {
  Engine& engine;
  Keyspace& db;
  std::span<const std::string_view> argv;
  SessionId session;  // kScriptCaller inside a script

  size_t argc() const { return argv.size(); }
  std::string_view arg(size_t i) const { return argv[i]; }
  // Redis's notifyKeyspaceEvent(type, event, key, c->db->id): `type` is a NotifyClass.
  void notify(int type, std::string_view event, std::string_view key) const { db.notify(type, event, key); }
};

// The entry at `key` holding a T, or why not. `wrong_type` is set when the key holds another type.
template <class T>
struct Found {
  Entry* entry = nullptr;
  T* value = nullptr;
  bool wrong_type = false;
};

template <class T>
Found<T> find_as(Keyspace& db, std::string_view key) {
  Found<T> found;
  found.entry = db.find(key);
  if (found.entry == nullptr) return found;
  found.value = std::get_if<T>(&found.entry->value);
  found.wrong_type = found.value == nullptr;
  if (found.wrong_type) found.entry = nullptr;
  return found;
}

// Like find_as, but creates an empty T when the key is missing.
template <class T>
Found<T> find_or_create(Keyspace& db, std::string_view key) {
  Found<T> found = find_as<T>(db, key);
  if (found.entry == nullptr && !found.wrong_type) {
    found.entry = &db.insert(key, Value{T{}});
    found.value = std::get_if<T>(&found.entry->value);
  }
  return found;
}

// Case-insensitive comparison of an argument with an option name.
bool equals_ignore_case(std::string_view a, std::string_view b);

}  // namespace locksim::engine
