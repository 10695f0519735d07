#include "engine/pubsub.hpp"

#include <algorithm>

#include "base/assert.hpp"
#include "engine/glob.hpp"

namespace locksim::engine {
namespace {

// Takes `session` out of `key`'s subscribers in `by_key`, and the entry with it when it was the last.
template <typename Map>
void leave(Map& by_key, std::string_view key, SessionId session) {
  auto subs = by_key.find(key);
  LS_ASSERT(subs != by_key.end());
  auto& list = subs->second;
  list.erase(std::remove(list.begin(), list.end(), session), list.end());
  if (list.empty()) by_key.erase(subs);
}

}  // namespace

size_t PubSub::subscribe(SessionId session, std::string_view channel) {
  auto& mine = channels_[session];
  if (mine.emplace(channel).second) subscribers_[std::string(channel)].push_back(session);
  return count_of(session);
}

size_t PubSub::unsubscribe(SessionId session, std::string_view channel) {
  auto mine = channels_.find(session);
  if (mine == channels_.end()) return count_of(session);
  auto it = mine->second.find(channel);
  if (it != mine->second.end()) {
    mine->second.erase(it);
    leave(subscribers_, channel, session);
  }
  if (mine->second.empty()) channels_.erase(mine);
  return count_of(session);
}

size_t PubSub::psubscribe(SessionId session, std::string_view pattern) {
  auto& mine = patterns_[session];
  if (std::find(mine.begin(), mine.end(), pattern) == mine.end()) {
    mine.emplace_back(pattern);
    pattern_subscribers_[std::string(pattern)].push_back(session);
  }
  return count_of(session);
}

size_t PubSub::punsubscribe(SessionId session, std::string_view pattern) {
  auto mine = patterns_.find(session);
  if (mine == patterns_.end()) return count_of(session);
  auto it = std::find(mine->second.begin(), mine->second.end(), pattern);
  if (it != mine->second.end()) {
    mine->second.erase(it);
    leave(pattern_subscribers_, pattern, session);
  }
  if (mine->second.empty()) patterns_.erase(mine);
  return count_of(session);
}

std::vector<std::string> PubSub::channels_of(SessionId session) const {
  auto mine = channels_.find(session);
  if (mine == channels_.end()) return {};
  return {mine->second.begin(), mine->second.end()};
}

std::vector<std::string> PubSub::patterns_of(SessionId session) const {
  auto mine = patterns_.find(session);
  return mine == patterns_.end() ? std::vector<std::string>{} : mine->second;
}

size_t PubSub::count_of(SessionId session) const {
  auto channels = channels_.find(session);
  auto patterns = patterns_.find(session);
  return (channels == channels_.end() ? 0 : channels->second.size()) +
         (patterns == patterns_.end() ? 0 : patterns->second.size());
}

void PubSub::drop_session(SessionId session) {
  for (const std::string& channel : channels_of(session)) unsubscribe(session, channel);
  for (const std::string& pattern : patterns_of(session)) punsubscribe(session, pattern);
  LS_ASSERT(count_of(session) == 0);
}

size_t PubSub::publish(Host& host, std::string_view channel, std::string_view message) const {
  size_t receivers = 0;
  if (auto subs = subscribers_.find(channel); subs != subscribers_.end()) {
    for (SessionId session : subs->second) host.deliver(session, channel, message, {});
    receivers += subs->second.size();
  }
  for (const auto& [pattern, sessions] : pattern_subscribers_) {
    if (!glob_match(pattern, channel)) continue;
    for (SessionId session : sessions) host.deliver(session, channel, message, pattern);
    receivers += sessions.size();
  }
  return receivers;
}

std::vector<std::string> PubSub::active_channels(std::optional<std::string_view> pattern) const {
  std::vector<std::string> out;
  for (const auto& [channel, sessions] : subscribers_)
    if (!pattern || glob_match(*pattern, channel)) out.push_back(channel);
  return out;
}

size_t PubSub::subscribers_of(std::string_view channel) const {
  auto subs = subscribers_.find(channel);
  return subs == subscribers_.end() ? 0 : subs->second.size();
}

std::vector<SessionId> PubSub::subscribers_in_order(std::string_view channel) const {
  auto subs = subscribers_.find(channel);
  return subs == subscribers_.end() ? std::vector<SessionId>{} : subs->second;
}

}  // namespace locksim::engine
