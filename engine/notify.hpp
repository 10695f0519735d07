#pragma once
// Keyspace notifications (Redis notify.c): a command that changes a key announces it on
// `__keyspace@<db>__:<key>` (message: the event) and `__keyevent@<db>__:<event>` (message: the
// key), each through PUBLISH's own delivery, when notify-keyspace-events enables the event's class.
// Off by default, so that nothing is published unless a client asks for it.
#include <optional>
#include <string>
#include <string_view>

#include "engine/host.hpp"

namespace locksim::engine {

class PubSub;

// The classes, with the bits and letters of Redis's NOTIFY_* (server.h).
enum NotifyClass : int {
  kNotifyKeyspace = 1 << 0,  // K
  kNotifyKeyevent = 1 << 1,  // E
  kNotifyGeneric = 1 << 2,   // g
  kNotifyString = 1 << 3,    // $
  kNotifyList = 1 << 4,      // l
  kNotifySet = 1 << 5,       // s
  kNotifyHash = 1 << 6,      // h
  kNotifyZset = 1 << 7,      // z
  kNotifyExpired = 1 << 8,   // x
  kNotifyEvicted = 1 << 9,   // e
  kNotifyStream = 1 << 10,   // t
  kNotifyKeyMiss = 1 << 11,  // m (not part of A)
  kNotifyLoaded = 1 << 12,   // modules only
  kNotifyModule = 1 << 13,   // d
  kNotifyNew = 1 << 14,      // n (not part of A)
  kNotifyAll = kNotifyGeneric | kNotifyString | kNotifyList | kNotifySet | kNotifyHash | kNotifyZset |
               kNotifyExpired | kNotifyEvicted | kNotifyStream | kNotifyModule,  // A
};

// keyspaceEventsStringToFlags: nullopt for a character that names no class.
std::optional<int> keyspace_events_from_string(std::string_view classes);
// keyspaceEventsFlagsToString: the canonical spelling CONFIG GET answers (`KA` reads back `AK`).
std::string keyspace_events_to_string(int flags);

// notifyKeyspaceEvent, with the flags it reads (server.notify_keyspace_events).
class Notifier {
 public:
  Notifier(PubSub& pubsub, Host& host) : pubsub_(pubsub), host_(host) {}
  void set_flags(int flags) { flags_ = flags; }
  int flags() const { return flags_; }
  // Publishes `event` about `key` of db `db` if `type` is enabled: the keyspace channel first.
  void notify(int type, std::string_view event, std::string_view key, int db) const;

 private:
  PubSub& pubsub_;
  Host& host_;
  int flags_ = 0;
};

}  // namespace locksim::engine
