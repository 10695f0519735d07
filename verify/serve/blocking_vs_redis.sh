#!/usr/bin/env bash
# Blocking commands (BLPOP and its kin, CLIENT UNBLOCK) told as the same stories to redis-server and
# to `locksim serve`: blocking_vs_redis.py says how. Usage: blocking_vs_redis.sh <locksim binary>
exec python3 "$(dirname "$0")/blocking_vs_redis.py" "$1"
