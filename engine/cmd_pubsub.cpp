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

namespace {

using Change = size_t (PubSub::*)(SessionId, std::string_view);

// `change` applied to each of `names` in turn, with one reply each: [kind, name, count after].
Reply each(CommandContext& ctx, std::string_view kind, Change change, const std::vector<std::string>& names) {
  std::vector<Reply> replies;
  for (const std::string& name : names) {
    const size_t count = (ctx.engine.pubsub().*change)(ctx.session, name);
    replies.push_back(subscription_reply(kind, Reply::bulk(name), count));
  }
  return Reply::sequence(std::move(replies));
}

std::vector<std::string> arguments(const CommandContext& ctx) {
  return {ctx.argv.begin() + 1, ctx.argv.end()};
}

// UNSUBSCRIBE and PUNSUBSCRIBE: from the names given, else from all `subscribed`; with none,
// [kind, nil, count].
Reply leave(CommandContext& ctx, std::string_view kind, Change change, std::vector<std::string> subscribed) {
  if (ctx.argc() > 1) return each(ctx, kind, change, arguments(ctx));
  if (subscribed.empty())
    return Reply::sequence({subscription_reply(kind, Reply::nil(), ctx.engine.pubsub().count_of(ctx.session))});
  return each(ctx, kind, change, subscribed);
}

}  // namespace

// SUBSCRIBE channel [channel ...]: one reply per channel.
Reply subscribe_command(CommandContext& ctx) { return each(ctx, "subscribe", &PubSub::subscribe, arguments(ctx)); }

// UNSUBSCRIBE [channel ...]: without channels, from all of them (in byte order).
Reply unsubscribe_command(CommandContext& ctx) {
  return leave(ctx, "unsubscribe", &PubSub::unsubscribe, ctx.engine.pubsub().channels_of(ctx.session));
}

// PSUBSCRIBE pattern [pattern ...]: one reply per pattern.
Reply psubscribe_command(CommandContext& ctx) { return each(ctx, "psubscribe", &PubSub::psubscribe, arguments(ctx)); }

// PUNSUBSCRIBE [pattern ...]: without patterns, from all of them, in the order they were subscribed.
Reply punsubscribe_command(CommandContext& ctx) {
  return leave(ctx, "punsubscribe", &PubSub::punsubscribe, ctx.engine.pubsub().patterns_of(ctx.session));
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
