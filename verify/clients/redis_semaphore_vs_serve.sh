#!/usr/bin/env bash
# redis-semaphore v5 over ioredis (npm, installed into the build tree) against redis-server and against
# `locksim serve`: the same session (redis_semaphore_client.js: Mutex with a refused and a waiting rival,
# refresh, a lost lock, an expired lease; Semaphore filled to its limit with a waiter getting in when a
# holder leaves, refresh and the sweep of expired holders (sorted sets, by Lua); MultiSemaphore;
# RedlockMutex and RedlockSemaphore with a quorum) must print the same.
# Usage: redis_semaphore_vs_serve.sh LOCKSIM CLIENTS_DIR
source "$(dirname "$0")/lib.sh" "$@"
need_redis_server
need_node_module ioredis redis-semaphore

session() { timeout 60 env NODE_PATH="$node_dir/node_modules" node "$here/redis_semaphore_client.js" "$1"; }
run_both
compare_outputs "$work/redis.out" "$work/serve.out"
