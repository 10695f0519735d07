#!/usr/bin/env bash
# redlock-universal over ioredis and over node-redis v4 (npm, installed into the build tree) against
# redis-server and against `locksim serve`: the same session (redlock_universal_client.js: acquire, a
# refused rival, isLocked, inspect, extend, forged handles, release, an expired lease, using() with
# automatic extension, a batch of keys, its scripts flushed under it, RedLock with a quorum) must print
# the same.
# Usage: redlock_universal_vs_serve.sh LOCKSIM CLIENTS_DIR
source "$(dirname "$0")/lib.sh" "$@"
need_redis_server
need_node_module ioredis redis redlock-universal

session() { timeout 60 env NODE_PATH="$node_dir/node_modules" node "$here/redlock_universal_client.js" "$1"; }
run_both
compare_outputs "$work/redis.out" "$work/serve.out"
