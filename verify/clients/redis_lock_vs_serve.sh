#!/usr/bin/env bash
# redis-lock v1 over node-redis v4 (npm, installed into the build tree) against redis-server and
# against `locksim serve`: the same session (redis_lock_client.js: acquire, a rival waiting until the
# holder lets go, several waiters taking turns, a short lease running out under a waiting rival and the
# first holder's late done(), a key set by someone else, a holder that quits) must print the same.
# Usage: redis_lock_vs_serve.sh LOCKSIM CLIENTS_DIR
source "$(dirname "$0")/lib.sh" "$@"
need_redis_server
need_node_module redis redis-lock

session() { timeout 60 env NODE_PATH="$node_dir/node_modules" node "$here/redis_lock_client.js" "$1"; }
run_both
compare_outputs "$work/redis.out" "$work/serve.out"
