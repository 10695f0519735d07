#include "engine/command_table.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <unordered_map>

#include "base/assert.hpp"
#include "engine/commands.hpp"

namespace locksim::engine {
namespace {

constexpr uint32_t W = kCmdWrite, R = kCmdReadOnly, NS = kCmdNoScript, PS = kCmdPubSubContext, MR = kCmdMayReplicate,
                   B = kCmdBlocking, AB = kCmdAllowBusy, NA = kCmdNoAuth, NM = kCmdNoMulti;
using enum ServerCommand;

// SCRIPT's subcommands in Redis 7.0 (the handler implements LOAD, EXISTS and FLUSH), sorted by name.
constexpr std::array kScriptSubcommands = std::to_array<SubcommandSpec>({
    {"debug", 3},
    {"exists", -3},
    {"flush", -2},
    {"help", 2},
    {"kill", 2, AB},
    {"load", 3},
});

// FUNCTION's subcommands in Redis 7.0, sorted by name.
constexpr std::array kFunctionSubcommands = std::to_array<SubcommandSpec>({
    {"delete", 3},
    {"dump", 2},
    {"flush", -2},
    {"help", 2},
    {"kill", 2, AB},
    {"list", -2},
    {"load", -3},
    {"restore", -3},
    {"stats", 2, AB},
});

// PUBSUB's subcommands in Redis 7.0, sorted by name.
constexpr std::array kPubsubSubcommands = std::to_array<SubcommandSpec>({
    {"channels", -2},
    {"help", 2},
    {"numpat", 2},
    {"numsub", -2},
    {"shardchannels", -2},
    {"shardnumsub", -2},
});

// MEMORY's subcommands the fake answers (USAGE, HELP); DOCTOR, MALLOC-STATS, PURGE and STATS are left
// out, so dispatch refuses them as unknown (docs/fidelity.md).
constexpr std::array kMemorySubcommands = std::to_array<SubcommandSpec>({
    {"help", 2},
    {"usage", -3},
});

// CLUSTER's subcommands in Redis 7.0 (commands/cluster-*.json), sorted by name. A server without
// cluster support answers each with the same error, after these checks.
constexpr std::array kClusterSubcommands = std::to_array<SubcommandSpec>({
    {"addslots", -3},      {"addslotsrange", -4}, {"bumpepoch", 2},      {"count-failure-reports", 3},
    {"countkeysinslot", 3}, {"delslots", -3},     {"delslotsrange", -4}, {"failover", -2},
    {"flushslots", 2},     {"forget", 3},         {"getkeysinslot", 4},  {"help", 2},
    {"info", 2},           {"keyslot", 3},        {"links", 2},          {"meet", -4},
    {"myid", 2},           {"nodes", 2},          {"replicas", 3},       {"replicate", 3},
    {"reset", -2, kCmdNoScript}, {"saveconfig", 2}, {"set-config-epoch", 3}, {"setslot", -4},
    {"shards", 2},         {"slaves", 3},         {"slots", 2},
});

// CLIENT's subcommands serve answers (commands/client-*.json), sorted by name. NO-TOUCH is 7.2's,
// answered as a no-op for the clients that send it.
constexpr std::array kClientSubcommands = std::to_array<SubcommandSpec>({
    {"getname", 2, NS}, {"id", 2, NS},        {"info", 2, NS},      {"kill", -3, NS},      {"list", -2, NS},
    {"no-evict", 3, NS}, {"no-touch", 3, NS}, {"reply", 3, NS},     {"setname", 3, NS},    {"unblock", -3, NS},
});

// CONFIG's subcommands serve answers (HELP and REWRITE are left out), sorted by name.
constexpr std::array kConfigSubcommands = std::to_array<SubcommandSpec>({
    {"get", -3, NS},
    {"resetstat", 2, NS},
    {"set", -4, NS},
});

// COMMAND's subcommands serve answers (GETKEYS, GETKEYSANDFLAGS, HELP and LIST are left out).
constexpr std::array kCommandSubcommands = std::to_array<SubcommandSpec>({
    {"count", 2},
    {"docs", -2},
    {"info", -2},
});

// Sorted by name, so that COMMAND lists in a fixed order (lookup goes through a hash map).
constexpr std::array kCommands = std::to_array<CommandSpec>({
    {"append", 3, W, append_command},
    {"auth", -2, NS | NA | AB, nullptr, {}, Auth},
    {"bitcount", -2, R, bitcount_command},
    {"bitop", -4, W, bitop_command},
    {"bitpos", -3, R, bitpos_command},
    {"blmove", 6, W | NS | B, blmove_command},
    {"blmpop", -5, W | B, blmpop_command},
    {"blpop", -3, W | NS | B, blpop_command},
    {"brpop", -3, W | NS | B, brpop_command},
    {"brpoplpush", 4, W | NS | B, brpoplpush_command},
    {"bzmpop", -5, W | B, bzmpop_command},
    {"bzpopmax", -3, W | NS | B, bzpopmax_command},
    {"bzpopmin", -3, W | NS | B, bzpopmin_command},
    {"client", -2, 0, nullptr, kClientSubcommands, Client},
    {"cluster", -2, 0, cluster_command, kClusterSubcommands},
    {"command", -1, 0, nullptr, kCommandSubcommands, Command},
    {"config", -2, 0, nullptr, kConfigSubcommands, Config},
    {"copy", -3, W, copy_command},
    {"dbsize", 1, R, dbsize_command},
    {"debug", -2, NS, debug_command},
    {"decr", 2, W, decr_command},
    {"decrby", 3, W, decrby_command},
    {"del", -2, W, del_command},
    {"discard", 1, NS | AB, discard_command},
    {"echo", 2, 0, echo_command},
    {"eval", -3, NS | MR, eval_command},
    {"eval_ro", -3, NS, eval_ro_command},
    {"evalsha", -3, NS | MR, evalsha_command},
    {"evalsha_ro", -3, NS, evalsha_ro_command},
    {"exec", 1, NS, exec_command},
    {"exists", -2, R, exists_command},
    {"expire", -3, W, expire_command},
    {"expireat", -3, W, expireat_command},
    {"expiretime", 2, R, expiretime_command},
    {"fcall", -3, NS | MR, fcall_command},
    {"fcall_ro", -3, NS, fcall_ro_command},
    {"flushall", -1, W, flushall_command},
    {"flushdb", -1, W, flushdb_command},
    {"function", -2, NS, function_command, kFunctionSubcommands},
    {"get", 2, R, get_command},
    {"getbit", 3, R, getbit_command},
    {"getdel", 2, W, getdel_command},
    {"getex", -2, W, getex_command},
    {"getrange", 4, R, getrange_command},
    {"getset", 3, W, getset_command},
    {"hdel", -3, W, hdel_command},
    {"hello", -1, NS | NA | AB, nullptr, {}, Hello},
    {"hexists", 3, R, hexists_command},
    {"hget", 3, R, hget_command},
    {"hgetall", 2, R, hgetall_command},
    {"hincrby", 4, W, hincrby_command},
    {"hincrbyfloat", 4, W, hincrbyfloat_command},
    {"hkeys", 2, R, hkeys_command},
    {"hlen", 2, R, hlen_command},
    {"hmget", -3, R, hmget_command},
    {"hmset", -4, W, hmset_command},
    {"hrandfield", -2, R, hrandfield_command},
    {"hscan", -3, R, hscan_command},
    {"hset", -4, W, hset_command},
    {"hsetnx", 4, W, hsetnx_command},
    {"hstrlen", 3, R, hstrlen_command},
    {"hvals", 2, R, hvals_command},
    {"incr", 2, W, incr_command},
    {"incrby", 3, W, incrby_command},
    {"incrbyfloat", 3, W, incrbyfloat_command},
    {"info", -1, 0, nullptr, {}, Info},
    {"keys", 2, R, keys_command},
    {"lcs", -3, R, lcs_command},
    {"lindex", 3, R, lindex_command},
    {"linsert", 5, W, linsert_command},
    {"llen", 2, R, llen_command},
    {"lmove", 5, W, lmove_command},
    {"lmpop", -4, W, lmpop_command},
    {"lpop", -2, W, lpop_command},
    {"lpos", -3, R, lpos_command},
    {"lpush", -3, W, lpush_command},
    {"lpushx", -3, W, lpushx_command},
    {"lrange", 4, R, lrange_command},
    {"lrem", 4, W, lrem_command},
    {"lset", 4, W, lset_command},
    {"ltrim", 4, W, ltrim_command},
    {"memory", -2, R, memory_command, kMemorySubcommands},
    {"mget", -2, R, mget_command},
    {"move", 3, W, move_command},
    {"mset", -3, W, mset_command},
    {"msetnx", -3, W, msetnx_command},
    {"multi", 1, NS | AB, multi_command},
    {"object", -2, R, object_command},
    {"persist", 2, W, persist_command},
    {"pexpire", -3, W, pexpire_command},
    {"pexpireat", -3, W, pexpireat_command},
    {"pexpiretime", 2, R, pexpiretime_command},
    {"ping", -1, PS, ping_command},
    {"psetex", 4, W, psetex_command},
    {"psubscribe", -2, NS | PS, psubscribe_command},
    {"pttl", 2, R, pttl_command},
    {"publish", 3, MR, publish_command},
    {"pubsub", -2, 0, pubsub_command, kPubsubSubcommands},
    {"punsubscribe", -1, NS | PS, punsubscribe_command},
    {"quit", -1, NS | NA | AB | PS, nullptr, {}, Quit},
    {"randomkey", 1, R, randomkey_command},
    {"rename", 3, W, rename_command},
    {"renamenx", 3, W, renamenx_command},
    {"reset", 1, NS | NA | AB | PS, nullptr, {}, Reset},
    {"rpop", -2, W, rpop_command},
    {"rpoplpush", 3, W, rpoplpush_command},
    {"rpush", -3, W, rpush_command},
    {"rpushx", -3, W, rpushx_command},
    {"sadd", -3, W, sadd_command},
    {"scan", -2, R, scan_command},
    {"scard", 2, R, scard_command},
    {"script", -2, NS, script_command, kScriptSubcommands},
    {"sdiff", -2, R, sdiff_command},
    {"sdiffstore", -3, W, sdiffstore_command},
    {"select", 2, 0, select_command},
    {"set", -3, W, set_command},
    {"setbit", 4, W, setbit_command},
    {"setex", 4, W, setex_command},
    {"setnx", 3, W, setnx_command},
    {"setrange", 4, W, setrange_command},
    {"shutdown", -1, NS | AB | NM, nullptr, {}, Shutdown},
    {"sinter", -2, R, sinter_command},
    {"sintercard", -3, R, sintercard_command},
    {"sinterstore", -3, W, sinterstore_command},
    {"sismember", 3, R, sismember_command},
    {"smembers", 2, R, smembers_command},
    {"smismember", -3, R, smismember_command},
    {"smove", 4, W, smove_command},
    {"sort", -2, W, sort_command},
    {"sort_ro", -2, R, sort_ro_command},
    {"spop", -2, W, spop_command},
    {"srandmember", -2, R, srandmember_command},
    {"srem", -3, W, srem_command},
    {"sscan", -3, R, sscan_command},
    {"strlen", 2, R, strlen_command},
    {"subscribe", -2, NS | PS, subscribe_command},
    {"substr", 4, R, getrange_command},
    {"sunion", -2, R, sunion_command},
    {"sunionstore", -3, W, sunionstore_command},
    {"swapdb", 3, W, swapdb_command},
    {"time", 1, 0, time_command},
    {"touch", -2, R, touch_command},
    {"ttl", 2, R, ttl_command},
    {"type", 2, R, type_command},
    {"unlink", -2, W, unlink_command},
    {"unsubscribe", -1, NS | PS, unsubscribe_command},
    {"unwatch", 1, NS | AB, unwatch_command},
    {"wait", 3, NS, nullptr, {}, Wait},
    {"watch", -2, NS | AB, watch_command},
    {"zadd", -4, W, zadd_command},
    {"zcard", 2, R, zcard_command},
    {"zcount", 4, R, zcount_command},
    {"zdiff", -3, R, zdiff_command},
    {"zdiffstore", -4, W, zdiffstore_command},
    {"zincrby", 4, W, zincrby_command},
    {"zinter", -3, R, zinter_command},
    {"zintercard", -3, R, zintercard_command},
    {"zinterstore", -4, W, zinterstore_command},
    {"zlexcount", 4, R, zlexcount_command},
    {"zmpop", -4, W, zmpop_command},
    {"zmscore", -3, R, zmscore_command},
    {"zpopmax", -2, W, zpopmax_command},
    {"zpopmin", -2, W, zpopmin_command},
    {"zrandmember", -2, R, zrandmember_command},
    {"zrange", -4, R, zrange_command},
    {"zrangebylex", -4, R, zrangebylex_command},
    {"zrangebyscore", -4, R, zrangebyscore_command},
    {"zrangestore", -5, W, zrangestore_command},
    {"zrank", 3, R, zrank_command},
    {"zrem", -3, W, zrem_command},
    {"zremrangebylex", 4, W, zremrangebylex_command},
    {"zremrangebyrank", 4, W, zremrangebyrank_command},
    {"zremrangebyscore", 4, W, zremrangebyscore_command},
    {"zrevrange", -4, R, zrevrange_command},
    {"zrevrangebylex", -4, R, zrevrangebylex_command},
    {"zrevrangebyscore", -4, R, zrevrangebyscore_command},
    {"zrevrank", 3, R, zrevrank_command},
    {"zscan", -3, R, zscan_command},
    {"zscore", 3, R, zscore_command},
    {"zunion", -3, R, zunion_command},
    {"zunionstore", -4, W, zunionstore_command},
});


// ASCII folding without a libc call per byte: command lookup runs for every redis.call.
inline char fold(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + ('a' - 'A')) : c; }

}  // namespace

static_assert(std::is_sorted(kCommands.begin(), kCommands.end(),
                             [](const CommandSpec& a, const CommandSpec& b) { return a.name < b.name; }),
              "kCommands must stay sorted by name");

const CommandSpec* lookup_command(std::string_view name) {
  char lower[32];
  if (name.empty() || name.size() > sizeof lower) return nullptr;
  for (size_t i = 0; i < name.size(); ++i)
    lower[i] = fold(name[i]);
  // Redis looks commands up in a dict by name; so does this, built once. Only looked up, never
  // iterated, so its order reaches nothing.
  static const std::unordered_map<std::string_view, const CommandSpec*> by_name = [] {
    std::unordered_map<std::string_view, const CommandSpec*> map;
    for (const CommandSpec& spec : kCommands) {
      // A row runs its handler, or is the server layer's, never both nor neither. (Not a
      // static_assert: a function's address is no constant under the sanitizers' build.)
      LS_ASSERT((spec.handler == nullptr) == (spec.server != ServerCommand::None));
      map.emplace(spec.name, &spec);
    }
    return map;
  }();
  const auto it = by_name.find(std::string_view(lower, name.size()));
  return it == by_name.end() ? nullptr : it->second;
}

const SubcommandSpec* lookup_subcommand(const CommandSpec& spec, std::string_view name) {
  for (const SubcommandSpec& sub : spec.subcommands)
    if (equals_ignore_case(sub.name, name)) return &sub;
  return nullptr;
}

std::span<const CommandSpec> all_commands() { return kCommands; }

bool equals_ignore_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (fold(a[i]) != fold(b[i]))
      return false;
  return true;
}

}  // namespace locksim::engine
