#include "engine/notify.hpp"

#include "engine/pubsub.hpp"

namespace locksim::engine {

std::optional<int> keyspace_events_from_string(std::string_view classes) {
  int flags = 0;
  for (const char c : classes) {
    switch (c) {
      case 'A': flags |= kNotifyAll; break;
      case 'g': flags |= kNotifyGeneric; break;
      case '$': flags |= kNotifyString; break;
      case 'l': flags |= kNotifyList; break;
      case 's': flags |= kNotifySet; break;
      case 'h': flags |= kNotifyHash; break;
      case 'z': flags |= kNotifyZset; break;
      case 'x': flags |= kNotifyExpired; break;
      case 'e': flags |= kNotifyEvicted; break;
      case 'K': flags |= kNotifyKeyspace; break;
      case 'E': flags |= kNotifyKeyevent; break;
      case 't': flags |= kNotifyStream; break;
      case 'm': flags |= kNotifyKeyMiss; break;
      case 'd': flags |= kNotifyModule; break;
      case 'n': flags |= kNotifyNew; break;
      default: return std::nullopt;
    }
  }
  return flags;
}

std::string keyspace_events_to_string(int flags) {
  std::string out;
  if ((flags & kNotifyAll) == kNotifyAll) {
    out += 'A';
  } else {
    if (flags & kNotifyGeneric) out += 'g';
    if (flags & kNotifyString) out += '$';
    if (flags & kNotifyList) out += 'l';
    if (flags & kNotifySet) out += 's';
    if (flags & kNotifyHash) out += 'h';
    if (flags & kNotifyZset) out += 'z';
    if (flags & kNotifyExpired) out += 'x';
    if (flags & kNotifyEvicted) out += 'e';
    if (flags & kNotifyStream) out += 't';
    if (flags & kNotifyModule) out += 'd';
    // Inside the else, as in 7.0.15, though A does not include n: `An` reads back as `A`.
    if (flags & kNotifyNew) out += 'n';
  }
  if (flags & kNotifyKeyspace) out += 'K';
  if (flags & kNotifyKeyevent) out += 'E';
  if (flags & kNotifyKeyMiss) out += 'm';
  return out;
}

void Notifier::notify(int type, std::string_view event, std::string_view key, int db) const {
  if (!(flags_ & type)) return;
  const std::string id = std::to_string(db);
  if (flags_ & kNotifyKeyspace) pubsub_.publish(host_, "__keyspace@" + id + "__:" + std::string(key), event);
  if (flags_ & kNotifyKeyevent) pubsub_.publish(host_, "__keyevent@" + id + "__:" + std::string(event), key);
}

}  // namespace locksim::engine
