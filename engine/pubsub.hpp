#pragma once
// Channel subscriptions. Subscribers of a channel are kept in subscription order, which is the
// order Redis delivers a PUBLISH in; the host carries each message to its subscriber.
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engine/host.hpp"

namespace locksim::engine {

class PubSub {
 public:
  // Returns the session's subscription count afterwards.
  size_t subscribe(SessionId session, std::string_view channel);
  size_t unsubscribe(SessionId session, std::string_view channel);
  // Channels the session is subscribed to, in byte order.
  std::vector<std::string> channels_of(SessionId session) const;
  size_t count_of(SessionId session) const;
  void drop_session(SessionId session);
  // Delivers to every subscriber through the host; returns how many received it.
  size_t publish(Host& host, std::string_view channel, std::string_view message) const;

 private:
  std::map<std::string, std::vector<SessionId>, std::less<>> subscribers_;
  std::map<SessionId, std::set<std::string, std::less<>>> channels_;
};

}  // namespace locksim::engine
