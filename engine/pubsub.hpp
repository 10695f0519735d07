#pragma once
// Channel and pattern subscriptions (Redis pubsub.c). Subscribers of a channel, and of a pattern,
// are kept in subscription order, which is the order Redis delivers a PUBLISH in; the host carries
// each message to its subscriber. Redis visits patterns in its hash table's order, which changes
// from run to run; here in byte order.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engine/host.hpp"

namespace locksim::engine {

class PubSub {
 public:
  // Each returns the session's subscription count afterwards: its channels and its patterns.
  size_t subscribe(SessionId session, std::string_view channel);
  size_t unsubscribe(SessionId session, std::string_view channel);
  size_t psubscribe(SessionId session, std::string_view pattern);
  size_t punsubscribe(SessionId session, std::string_view pattern);
  // Channels the session is subscribed to, in byte order.
  std::vector<std::string> channels_of(SessionId session) const;
  // Patterns the session is subscribed to, in the order it subscribed.
  std::vector<std::string> patterns_of(SessionId session) const;
  size_t count_of(SessionId session) const;
  void drop_session(SessionId session);
  // Delivers to every subscriber of the channel, then of each matching pattern, through the host;
  // returns how many deliveries there were (a session subscribed both ways gets two).
  size_t publish(Host& host, std::string_view channel, std::string_view message) const;

  // PUBSUB CHANNELS [pattern]: the channels with a subscriber, in byte order.
  std::vector<std::string> active_channels(std::optional<std::string_view> pattern) const;
  // PUBSUB NUMSUB: the channel's subscribers (pattern subscribers not counted).
  size_t subscribers_of(std::string_view channel) const;
  // The channel's subscribers in the order they subscribed (the order publish delivers in).
  std::vector<SessionId> subscribers_in_order(std::string_view channel) const;
  // PUBSUB NUMPAT: the patterns with a subscriber.
  size_t active_patterns() const { return pattern_subscribers_.size(); }

 private:
  std::map<std::string, std::vector<SessionId>, std::less<>> subscribers_;
  std::map<SessionId, std::set<std::string, std::less<>>> channels_;
  std::map<std::string, std::vector<SessionId>, std::less<>> pattern_subscribers_;
  std::map<SessionId, std::vector<std::string>> patterns_;
};

}  // namespace locksim::engine
