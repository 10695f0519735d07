#!/usr/bin/env bash
# ioredis (npm, installed into the build tree) against redis-server and against `locksim serve`: the
# same session (ioredis_client.js: the connect handshake, commands, binary values, errors, pipelines,
# MULTI/EXEC, WATCH, defineCommand, pub/sub, scanStream) must print the same.
# Usage: ioredis_vs_serve.sh LOCKSIM CLIENTS_DIR
source "$(dirname "$0")/lib.sh" "$@"
need_redis_server
need_node_module ioredis

session() { timeout 60 env NODE_PATH="$node_dir/node_modules" node "$here/ioredis_client.js" "$1"; }
run_both

# Known differences: what serve lacks (see README.md). Each is left out of the verdict, its diff printed.
known=()
compare_outputs "$work/redis.out" "$work/serve.out" "${known[@]}"
