#!/usr/bin/env bash
# node-redlock v5 over ioredis (npm, installed into the build tree) against redis-server and against
# `locksim serve`: the same session (redlock_client.js: acquire, a refused rival, extend, release,
# several resources, an expired lease, using() with automatic extension) must print the same.
# Usage: redlock_vs_serve.sh LOCKSIM CLIENTS_DIR
source "$(dirname "$0")/lib.sh" "$@"
need_redis_server
need_node_module ioredis redlock

session() { timeout 60 env NODE_PATH="$node_dir/node_modules" node "$here/redlock_client.js" "$1"; }
run_both
compare_outputs "$work/redis.out" "$work/serve.out"
