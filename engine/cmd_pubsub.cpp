// Pub/sub: PUBLISH, SUBSCRIBE, UNSUBSCRIBE, PSUBSCRIBE, PUNSUBSCRIBE, PUBSUB (Redis pubsub.c).
// Delivery is the host's job.
#include "engine/commands.hpp"
#include "engine/engine.hpp"
#include "engine/errors.hpp"
#include "engine/pubsub.hpp"

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
    if (channels.empty()) {
      const auto count = pubsub.count_of(ctx.session);  // its patterns
      return Reply::sequence({subscription_reply("unsubscribe", Reply::nil(), count)});
    }
  }
  std::vector<Reply> replies;
  for (const std::string& channel : channels) {
    const size_t count = pubsub.unsubscribe(ctx.session, channel);
    replies.push_back(subscription_reply("unsubscribe", Reply::bulk(channel), count));
  }
  return Reply::sequence(std::move(replies));
}

// PSUBSCRIBE pattern [pattern ...]: one reply per pattern.
Reply psubscribe_command(CommandContext& ctx) {
  std::vector<Reply> replies;
  for (size_t j = 1; j < ctx.argc(); ++j) {
    const size_t count = ctx.engine.pubsub().psubscribe(ctx.session, ctx.arg(j));
    replies.push_back(subscription_reply("psubscribe", Reply::bulk(ctx.arg(j)), count));
  }
  return Reply::sequence(std::move(replies));
}

// PUNSUBSCRIBE [pattern ...]: without patterns, from all of them, in the order they were subscribed.
Reply punsubscribe_command(CommandContext& ctx) {
  PubSub& pubsub = ctx.engine.pubsub();
  std::vector<std::string> patterns;
  if (ctx.argc() > 1) {
    for (size_t j = 1; j < ctx.argc(); ++j) patterns.emplace_back(ctx.arg(j));
  } else {
    patterns = pubsub.patterns_of(ctx.session);
    if (patterns.empty())
      return Reply::sequence({subscription_reply("punsubscribe", Reply::nil(), pubsub.count_of(ctx.session))});
  }
  std::vector<Reply> replies;
  for (const std::string& pattern : patterns) {
    const size_t count = pubsub.punsubscribe(ctx.session, pattern);
    replies.push_back(subscription_reply("punsubscribe", Reply::bulk(pattern), count));
  }
  return Reply::sequence(std::move(replies));
}

namespace {

constexpr std::string_view kPubsubHelp[] = {
    "PUBSUB <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
    "CHANNELS [<pattern>]",
    "    Return the currently active channels matching a <pattern> (default: '*').",
    "NUMPAT",
    "    Return number of subscriptions to patterns.",
    "NUMSUB [<channel> ...]",
    "    Return the number of subscribers for the specified channels, excluding",
    "    pattern subscriptions(default: no channels).",
    "SHARDCHANNELS [<pattern>]",
    "    Return the currently active shard level channels matching a <pattern> (default: '*').",
    "SHARDNUMSUB [<shardchannel> ...]",
    "    Return the number of subscribers for the specified shard level channel(s)",
    "HELP",
    "    Prints this help.",
};

Reply bulks(const std::vector<std::string>& items) {
  Reply reply = Reply::array();
  for (const std::string& item : items) reply.elements.push_back(Reply::bulk(item));
  return reply;
}

}  // namespace

// PUBSUB CHANNELS [pattern] | NUMSUB [channel ...] | NUMPAT | SHARDCHANNELS [pattern] |
// SHARDNUMSUB [channel ...] | HELP. Shard channels are never subscribed here (no SSUBSCRIBE).
Reply pubsub_command(CommandContext& ctx) {
  const PubSub& pubsub = ctx.engine.pubsub();
  const std::string_view sub = ctx.arg(1);
  const size_t argc = ctx.argc();
  if (argc == 2 && equals_ignore_case(sub, "help")) {
    Reply help = Reply::array();
    for (const std::string_view line : kPubsubHelp) help.elements.push_back(Reply::status(line));
    return help;
  }
  if (equals_ignore_case(sub, "channels") && argc <= 3)
    return bulks(pubsub.active_channels(argc == 3 ? std::optional(ctx.arg(2)) : std::nullopt));
  if (equals_ignore_case(sub, "shardchannels") && argc <= 3) return Reply::array();
  const bool numsub = equals_ignore_case(sub, "numsub");
  if (numsub || equals_ignore_case(sub, "shardnumsub")) {
    Reply reply = Reply::array();
    for (size_t j = 2; j < argc; ++j) {
      reply.elements.push_back(Reply::bulk(ctx.arg(j)));
      reply.elements.push_back(Reply::integer_of(numsub ? static_cast<int64_t>(pubsub.subscribers_of(ctx.arg(j))) : 0));
    }
    return reply;
  }
  if (equals_ignore_case(sub, "numpat") && argc == 2) return Reply::integer_of(static_cast<int64_t>(pubsub.active_patterns()));
  return Reply::error(errors::unknown_subcommand_or_arity(sub, "PUBSUB"));
}

}  // namespace locksim::engine
