#!/usr/bin/env bash
# redis-py (Debian's python3-redis) against redis-server and against `locksim serve`: the same session
# (redis_py_client.py: plain commands, errors, pipelines, WATCH, registered scripts, pub/sub, Lock)
# must print the same.
# Usage: redis_py_vs_serve.sh LOCKSIM CLIENTS_DIR
source "$(dirname "$0")/lib.sh" "$@"
need_redis_server
need_redis_py

session() { timeout 60 "$python" "$here/redis_py_client.py" "$1"; }
run_both

# Known differences: what serve lacks (see README.md). Each is left out of the verdict, its diff printed.
known=()
compare_outputs "$work/redis.out" "$work/serve.out" "${known[@]}"
