#!/usr/bin/env bash
# Stories of several connections (blocking commands, CLIENT UNBLOCK and REPLY, RESP3 subscribers) told
# to redis-server and to `locksim serve`: stories_vs_redis.py says how. Usage: stories_vs_redis.sh <locksim>
exec python3 "$(dirname "$0")/stories_vs_redis.py" "$1"
