#pragma once
// Every command handler, grouped by the file (family) that implements it.
#include "engine/blocked.hpp"
#include "engine/command_context.hpp"

namespace locksim::engine {

// cmd_string.cpp
Reply get_command(CommandContext& ctx);
Reply getrange_command(CommandContext& ctx);
Reply incrbyfloat_command(CommandContext& ctx);
Reply lcs_command(CommandContext& ctx);
Reply setrange_command(CommandContext& ctx);
Reply set_command(CommandContext& ctx);
Reply setnx_command(CommandContext& ctx);
Reply setex_command(CommandContext& ctx);
Reply psetex_command(CommandContext& ctx);
Reply getset_command(CommandContext& ctx);
Reply getdel_command(CommandContext& ctx);
Reply getex_command(CommandContext& ctx);
Reply mget_command(CommandContext& ctx);
Reply mset_command(CommandContext& ctx);
Reply msetnx_command(CommandContext& ctx);
Reply strlen_command(CommandContext& ctx);
Reply append_command(CommandContext& ctx);
Reply incr_command(CommandContext& ctx);
Reply decr_command(CommandContext& ctx);
Reply incrby_command(CommandContext& ctx);
Reply decrby_command(CommandContext& ctx);

// cmd_bits.cpp
Reply setbit_command(CommandContext& ctx);
Reply getbit_command(CommandContext& ctx);
Reply bitcount_command(CommandContext& ctx);
Reply bitpos_command(CommandContext& ctx);
Reply bitop_command(CommandContext& ctx);

// cmd_keys.cpp
Reply del_command(CommandContext& ctx);
Reply exists_command(CommandContext& ctx);
Reply expire_command(CommandContext& ctx);
Reply pexpire_command(CommandContext& ctx);
Reply expireat_command(CommandContext& ctx);
Reply pexpireat_command(CommandContext& ctx);
Reply ttl_command(CommandContext& ctx);
Reply pttl_command(CommandContext& ctx);
Reply expiretime_command(CommandContext& ctx);
Reply pexpiretime_command(CommandContext& ctx);
Reply persist_command(CommandContext& ctx);
Reply type_command(CommandContext& ctx);
Reply unlink_command(CommandContext& ctx);
Reply touch_command(CommandContext& ctx);
Reply keys_command(CommandContext& ctx);
Reply scan_command(CommandContext& ctx);
Reply randomkey_command(CommandContext& ctx);
Reply rename_command(CommandContext& ctx);
Reply renamenx_command(CommandContext& ctx);

// cmd_scan.cpp
Reply hscan_command(CommandContext& ctx);
Reply sscan_command(CommandContext& ctx);
Reply zscan_command(CommandContext& ctx);

// cmd_object.cpp
Reply object_command(CommandContext& ctx);
Reply memory_command(CommandContext& ctx);

// cmd_hash.cpp
Reply hset_command(CommandContext& ctx);
Reply hmset_command(CommandContext& ctx);
Reply hsetnx_command(CommandContext& ctx);
Reply hget_command(CommandContext& ctx);
Reply hmget_command(CommandContext& ctx);
Reply hexists_command(CommandContext& ctx);
Reply hincrby_command(CommandContext& ctx);
Reply hincrbyfloat_command(CommandContext& ctx);
Reply hdel_command(CommandContext& ctx);
Reply hlen_command(CommandContext& ctx);
Reply hstrlen_command(CommandContext& ctx);
Reply hrandfield_command(CommandContext& ctx);
Reply hgetall_command(CommandContext& ctx);
Reply hkeys_command(CommandContext& ctx);
Reply hvals_command(CommandContext& ctx);

// cmd_list.cpp
Reply lpush_command(CommandContext& ctx);
Reply rpush_command(CommandContext& ctx);
Reply lpop_command(CommandContext& ctx);
Reply rpop_command(CommandContext& ctx);
Reply lindex_command(CommandContext& ctx);
Reply llen_command(CommandContext& ctx);
Reply lpos_command(CommandContext& ctx);
Reply lpushx_command(CommandContext& ctx);
Reply rpushx_command(CommandContext& ctx);
Reply ltrim_command(CommandContext& ctx);
Reply lmove_command(CommandContext& ctx);
Reply rpoplpush_command(CommandContext& ctx);
Reply lmpop_command(CommandContext& ctx);
Reply linsert_command(CommandContext& ctx);
Reply blpop_command(CommandContext& ctx);
Reply brpop_command(CommandContext& ctx);
Reply blmpop_command(CommandContext& ctx);
Reply blmove_command(CommandContext& ctx);
Reply brpoplpush_command(CommandContext& ctx);
// serveClientBlockedOnList: `key` (in ctx.db, a non-empty list) serves `pop`'s client; its reply.
Reply serve_blocked_list(CommandContext& ctx, std::string_view key, const BlockedPop& pop);
Reply lrange_command(CommandContext& ctx);
Reply lrem_command(CommandContext& ctx);
Reply lset_command(CommandContext& ctx);

// cmd_zset.cpp (the pop they share, for the blocking forms too: zset_pop.hpp)
Reply zadd_command(CommandContext& ctx);
Reply zscore_command(CommandContext& ctx);
Reply zmscore_command(CommandContext& ctx);
Reply zincrby_command(CommandContext& ctx);
Reply zrem_command(CommandContext& ctx);
Reply zrange_command(CommandContext& ctx);
Reply zrangestore_command(CommandContext& ctx);
Reply zrevrange_command(CommandContext& ctx);
Reply zrangebyscore_command(CommandContext& ctx);
Reply zrevrangebyscore_command(CommandContext& ctx);
Reply zrangebylex_command(CommandContext& ctx);
Reply zrevrangebylex_command(CommandContext& ctx);
Reply zcount_command(CommandContext& ctx);
Reply zlexcount_command(CommandContext& ctx);
Reply zremrangebyrank_command(CommandContext& ctx);
Reply zremrangebyscore_command(CommandContext& ctx);
Reply zremrangebylex_command(CommandContext& ctx);
Reply zcard_command(CommandContext& ctx);
Reply zrank_command(CommandContext& ctx);
Reply zrevrank_command(CommandContext& ctx);
Reply zpopmin_command(CommandContext& ctx);
Reply zpopmax_command(CommandContext& ctx);
Reply zmpop_command(CommandContext& ctx);
Reply bzmpop_command(CommandContext& ctx);
Reply bzpopmin_command(CommandContext& ctx);
Reply bzpopmax_command(CommandContext& ctx);
// serveClientsBlockedOnSortedSetKey: `key` (in ctx.db, a non-empty sorted set) serves `pop`'s client.
Reply serve_blocked_zset(CommandContext& ctx, std::string_view key, const BlockedPop& pop);
Reply zrandmember_command(CommandContext& ctx);

// cmd_zset_algebra.cpp
Reply zunionstore_command(CommandContext& ctx);
Reply zinterstore_command(CommandContext& ctx);
Reply zdiffstore_command(CommandContext& ctx);
Reply zunion_command(CommandContext& ctx);
Reply zinter_command(CommandContext& ctx);
Reply zdiff_command(CommandContext& ctx);
Reply zintercard_command(CommandContext& ctx);

// cmd_sort.cpp
Reply sort_command(CommandContext& ctx);
Reply sort_ro_command(CommandContext& ctx);

// cmd_set.cpp
Reply sadd_command(CommandContext& ctx);
Reply srem_command(CommandContext& ctx);
Reply smove_command(CommandContext& ctx);
Reply sismember_command(CommandContext& ctx);
Reply smismember_command(CommandContext& ctx);
Reply scard_command(CommandContext& ctx);
Reply smembers_command(CommandContext& ctx);
Reply spop_command(CommandContext& ctx);
Reply srandmember_command(CommandContext& ctx);
Reply sinter_command(CommandContext& ctx);
Reply sintercard_command(CommandContext& ctx);
Reply sinterstore_command(CommandContext& ctx);
Reply sunion_command(CommandContext& ctx);
Reply sunionstore_command(CommandContext& ctx);
Reply sdiff_command(CommandContext& ctx);
Reply sdiffstore_command(CommandContext& ctx);

// cmd_pubsub.cpp
Reply publish_command(CommandContext& ctx);
Reply subscribe_command(CommandContext& ctx);
Reply unsubscribe_command(CommandContext& ctx);
Reply psubscribe_command(CommandContext& ctx);
Reply punsubscribe_command(CommandContext& ctx);
Reply pubsub_command(CommandContext& ctx);

// cmd_server.cpp
Reply ping_command(CommandContext& ctx);
Reply echo_command(CommandContext& ctx);
Reply time_command(CommandContext& ctx);
Reply debug_command(CommandContext& ctx);
Reply cluster_command(CommandContext& ctx);

// cmd_db.cpp
Reply copy_command(CommandContext& ctx);
Reply select_command(CommandContext& ctx);
Reply swapdb_command(CommandContext& ctx);
Reply move_command(CommandContext& ctx);
Reply flushdb_command(CommandContext& ctx);
Reply flushall_command(CommandContext& ctx);
Reply dbsize_command(CommandContext& ctx);

// cmd_multi.cpp
Reply multi_command(CommandContext& ctx);
Reply exec_command(CommandContext& ctx);
Reply discard_command(CommandContext& ctx);
Reply watch_command(CommandContext& ctx);
Reply unwatch_command(CommandContext& ctx);

// cmd_scripting.cpp
Reply eval_command(CommandContext& ctx);
Reply evalsha_command(CommandContext& ctx);
Reply eval_ro_command(CommandContext& ctx);
Reply evalsha_ro_command(CommandContext& ctx);
Reply script_command(CommandContext& ctx);

// cmd_functions.cpp
Reply function_command(CommandContext& ctx);
Reply fcall_command(CommandContext& ctx);
Reply fcall_ro_command(CommandContext& ctx);

}  // namespace locksim::engine
