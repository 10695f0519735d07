#!/usr/bin/env bash
# node-redis v4 (npm, installed into the build tree) against redis-server and against `locksim serve`,
# both requiring a password: the same session (node_redis_client.js: the AUTH handshake, commands,
# errors, MULTI/EXEC, WATCH, defineScript scripts, pub/sub, scanIterator) must print the same.
# Usage: node_redis_vs_serve.sh LOCKSIM CLIENTS_DIR
source "$(dirname "$0")/lib.sh" "$@"
need_redis_server
need_node_module redis

password=sekret
session() { timeout 60 env NODE_PATH="$node_dir/node_modules" node "$here/node_redis_client.js" "$1" "$password"; }
run_both --requirepass "$password"

# Known differences: what serve lacks (see README.md). Each is left out of the verdict, its diff printed.
known=(
  # No SELECT: select(), and the SELECT a client made with `database: 1` sends as it connects.
  "connection: select"
  # No INCRBYFLOAT, MSET, MGET.
  "strings: more commands"
  # No MULTI/EXEC: multi().exec() and a defined script inside multi.
  "multi/exec"
  # No WATCH (nor MULTI/EXEC): executeIsolated() with watch.
  "watch"
  # No PSUBSCRIBE/PUNSUBSCRIBE.
  "pubsub: patterns"
  # No PUBSUB NUMSUB.
  "pubsub: introspection"
  # No SCAN: scanIterator().
  "scan"
  # No FLUSHDB.
  "flush: flushDb"
)
compare_outputs "$work/redis.out" "$work/serve.out" "${known[@]}"
