// Pub/sub: PUBLISH, SUBSCRIBE, UNSUBSCRIBE (Redis pubsub.c). Delivery is the host's job.
#include "engine/commands.hpp"
#include "engine/engine.hpp"

namespace locksim::engine {
namespace {

Reply subscription_reply(std::string_view kind, const Reply& channel, size_t count) {
  return Reply::array({Reply::bulk(kind), channel, Reply::integer_of(static_cast<int64_t>(count))});
}

}  // namespace

// PUBLISH channel message
Reply publish_command(CommandContext& ctx) {
  const size_t receivers = ctx.engine.pubsub().publish(ctx.engine.host(), ctx.arg(1), ctx.arg(2));
  return Reply::integer_of(static_cast<int64_t>(receivers));
}

// SUBSCRIBE channel [channel ...]: one reply per channel.
Reply subscribe_command(CommandContext& ctx) {
  std::vector<Reply> replies;
  for (size_t j = 1; j < ctx.argc(); ++j) {
    const size_t count = ctx.engine.pubsub().subscribe(ctx.session, ctx.arg(j));
    replies.push_back(subscription_reply("subscribe", Reply::bulk(ctx.arg(j)), count));
  }
  return Reply::sequence(std::move(replies));
}

// UNSUBSCRIBE [channel ...]: without channels, from all of them (in byte order).
Reply unsubscribe_command(CommandContext& ctx) {
  PubSub& pubsub = ctx.engine.pubsub();
  std::vector<std::string> channels;
  if (ctx.argc() > 1) {
    for (size_t j = 1; j < ctx.argc(); ++j) channels.emplace_back(ctx.arg(j));
  } else {
    channels = pubsub.channels_of(ctx.session);
    if (channels.empty()) return Reply::sequence({subscription_reply("unsubscribe", Reply::nil(), 0)});
  }
  std::vector<Reply> replies;
  for (const std::string& channel : channels) {
    const size_t count = pubsub.unsubscribe(ctx.session, channel);
    replies.push_back(subscription_reply("unsubscribe", Reply::bulk(channel), count));
  }
  return Reply::sequence(std::move(replies));
}

}  // namespace locksim::engine
