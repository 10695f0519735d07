#include "engine/pubsub.hpp"

#include <algorithm>

#include "base/assert.hpp"

namespace locksim::engine {

size_t PubSub::subscribe(SessionId session, std::string_view channel) {
  auto& mine = channels_[session];
  if (mine.emplace(channel).second) subscribers_[std::string(channel)].push_back(session);
  return mine.size();
}

size_t PubSub::unsubscribe(SessionId session, std::string_view channel) {
  auto mine = channels_.find(session);
  if (mine == channels_.end()) return 0;
  auto it = mine->second.find(channel);
  if (it != mine->second.end()) {
    mine->second.erase(it);
    auto subs = subscribers_.find(channel);
    LS_ASSERT(subs != subscribers_.end());
    auto& list = subs->second;
    list.erase(std::remove(list.begin(), list.end(), session), list.end());
    if (list.empty()) subscribers_.erase(subs);
  }
  const size_t left = mine->second.size();
  if (left == 0) channels_.erase(mine);
  return left;
}

std::vector<std::string> PubSub::channels_of(SessionId session) const {
  auto mine = channels_.find(session);
  if (mine == channels_.end()) return {};
  return {mine->second.begin(), mine->second.end()};
}

size_t PubSub::count_of(SessionId session) const {
  auto mine = channels_.find(session);
  return mine == channels_.end() ? 0 : mine->second.size();
}

void PubSub::drop_session(SessionId session) {
  for (const std::string& channel : channels_of(session)) unsubscribe(session, channel);
  LS_ASSERT(count_of(session) == 0);
}

size_t PubSub::publish(Host& host, std::string_view channel, std::string_view message) const {
  auto subs = subscribers_.find(channel);
  if (subs == subscribers_.end()) return 0;
  for (SessionId session : subs->second) host.deliver(session, channel, message);
  return subs->second.size();
}

}  // namespace locksim::engine
