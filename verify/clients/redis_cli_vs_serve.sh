#!/usr/bin/env bash
# redis-cli against redis-server and against `locksim serve`, both requiring a password: the same
# invocations (arguments, --no-raw and raw output, RESP3 with -3, --eval with keys and arguments, a
# pipe of command lines, a MULTI in a pipe, --pipe mass insertion, -x, -r, --csv, --scan, a
# subscriber, wrong and missing passwords) must print the same, with the same exit codes.
# Usage: redis_cli_vs_serve.sh LOCKSIM CLIENTS_DIR
source "$(dirname "$0")/lib.sh" "$@"
need_redis_server

password=sekret
cat >"$work/incr_to.lua" <<'EOF'
-- KEYS[1] a counter, ARGV[1] how much; returns {old, new} and the key's type
local old = tonumber(redis.call('GET', KEYS[1]) or '0')
local new = redis.call('INCRBY', KEYS[1], ARGV[1])
return {old, new, redis.call('TYPE', KEYS[1])['ok'], KEYS[2] or 'no second key'}
EOF
cat >"$work/lock.lua" <<'EOF'
-- A lock script the way clients write them: SET NX PX, and the owner's check on release.
if ARGV[1] == 'acquire' then
  return redis.call('SET', KEYS[1], ARGV[2], 'NX', 'PX', ARGV[3])
elseif redis.call('GET', KEYS[1]) == ARGV[2] then
  return redis.call('DEL', KEYS[1])
end
return 0
EOF
cat >"$work/broken.lua" <<'EOF'
return redis.call('HGET', KEYS[1])
EOF

# One redis-cli session against PORT: what it printed, each invocation followed by its exit code.
session() {
  local port=$1
  # Every redis-cli is bounded in time: a server that does not answer fails the test, never hangs it.
  local cli=(timeout 10 redis-cli -h 127.0.0.1 -p "$port" -a "$password" --no-auth-warning)
  run() {
    "$@" 2>&1
    echo "[exit $?]"
  }
  echo "== arguments"
  run "${cli[@]}" PING
  run "${cli[@]}" SET k v
  run "${cli[@]}" GET k
  run "${cli[@]}" GET missing
  run "${cli[@]}" --no-raw GET missing
  run "${cli[@]}" INCR n
  run "${cli[@]}" --no-raw INCR n
  run "${cli[@]}" HSET h f1 v1 f2 "two words"
  run "${cli[@]}" HGETALL h
  run "${cli[@]}" --no-raw HGETALL h
  run "${cli[@]}" --no-raw HGETALL nohash
  run "${cli[@]}" SET e x EX 100
  run "${cli[@]}" TTL e
  run "${cli[@]}" --no-raw LRANGE nolist 0 -1
  run "${cli[@]}" RPUSH l a b "c d"
  run "${cli[@]}" --no-raw LRANGE l 0 -1
  run "${cli[@]}" --csv LRANGE l 0 -1
  run "${cli[@]}" SET bin $'\x01\xff tab\there'
  run "${cli[@]}" --no-raw GET bin
  run "${cli[@]}" -r 3 INCR repeated

  echo "== errors"
  run "${cli[@]}" HGET k f
  run "${cli[@]}" --no-raw HGET k f
  run "${cli[@]}" NOSUCHCOMMAND a b
  run "${cli[@]}" GET
  run "${cli[@]}" INCR k
  run "${cli[@]}" SET k v NX XX

  echo "== passwords"
  run timeout 10 redis-cli -h 127.0.0.1 -p "$port" GET k
  run timeout 10 redis-cli -h 127.0.0.1 -p "$port" --no-raw GET k
  run timeout 10 redis-cli -h 127.0.0.1 -p "$port" -a wrong --no-auth-warning GET k
  run timeout 10 redis-cli -h 127.0.0.1 -p "$port" --user default --pass "$password" --no-auth-warning GET k
  run timeout 10 redis-cli -h 127.0.0.1 -p "$port" --user nobody --pass "$password" --no-auth-warning GET k

  echo "== resp3"
  run "${cli[@]}" -3 PING
  run "${cli[@]}" -3 --no-raw GET missing
  run "${cli[@]}" -3 --no-raw LRANGE l 0 -1
  run "${cli[@]}" -3 --no-raw EVAL "return {1, 'a', false, true}" 0
  # A connection's id counts the connections made since the server started, which this test makes
  # differently often to each server: the id is left out.
  run "${cli[@]}" -3 --no-raw HELLO 3 AUTH default "$password" SETNAME cli3 | sed -E 's/"id" => \(integer\) [0-9]+/"id" => <id>/'

  echo "== resp3: maps and doubles"
  run "${cli[@]}" -3 HGETALL h
  run "${cli[@]}" -3 --no-raw HGETALL h
  run "${cli[@]}" -3 --no-raw HGETALL nohash
  run "${cli[@]}" -3 --no-raw CONFIG GET maxmemory
  run "${cli[@]}" ZADD z 1.5 a 2 b
  run "${cli[@]}" -3 --no-raw ZSCORE z a
  run "${cli[@]}" -3 --no-raw ZINCRBY z 1 a
  run "${cli[@]}" -3 --no-raw ZRANGE z 0 -1 WITHSCORES

  echo "== eval"
  run "${cli[@]}" --eval "$work/incr_to.lua" counter , 5
  run "${cli[@]}" --eval "$work/incr_to.lua" counter other , 7
  run "${cli[@]}" --no-raw --eval "$work/incr_to.lua" counter , 1
  run "${cli[@]}" --eval "$work/lock.lua" lk , acquire token-1 100000
  run "${cli[@]}" --eval "$work/lock.lua" lk , acquire token-2 100000
  run "${cli[@]}" --eval "$work/lock.lua" lk , release token-2
  run "${cli[@]}" --eval "$work/lock.lua" lk , release token-1
  run "${cli[@]}" EXISTS lk
  run "${cli[@]}" --eval "$work/broken.lua" h
  run "${cli[@]}" --no-raw --eval "$work/broken.lua" h
  run "${cli[@]}" --eval "$work/incr_to.lua" k
  run "${cli[@]}" SCRIPT LOAD "return ARGV[1]"
  run "${cli[@]}" EVALSHA 098e0f0d1448c0a81dafe820f66d460eb09263da 0 via-sha
  run "${cli[@]}" --no-raw EVALSHA 0000000000000000000000000000000000000000 0

  echo "== a pipe of command lines"
  printf '%s\n' 'SET piped 1' 'INCR piped' 'GET piped' 'HGET k f' 'GET missing' 'LRANGE l 0 -1' 'PING "quoted arg"' \
    'NOSUCH' 'DEL piped' | run "${cli[@]}"
  printf '%s\n' 'SET piped 1' 'INCR piped' 'GET missing' 'HGET k f' 'LRANGE l 0 -1' | run "${cli[@]}" --no-raw

  echo "== a transaction in a pipe"
  printf '%s\n' 'MULTI' 'SET t 1' 'INCR t' 'INCR k' 'GET t' 'EXEC' | run "${cli[@]}"
  printf '%s\n' 'MULTI' 'SET t 1' 'GET' 'EXEC' 'GET t' | run "${cli[@]}" --no-raw
  printf '%s\n' 'WATCH t' 'MULTI' 'INCR t' 'EXEC' 'DISCARD' 'EXEC' | run "${cli[@]}" --no-raw

  echo "== -x"
  printf 'from stdin' | run "${cli[@]}" -x SET fromstdin
  run "${cli[@]}" GET fromstdin

  echo "== --pipe"
  {
    for i in 1 2 3 4 5; do printf '*3\r\n$3\r\nSET\r\n$6\r\nmass:%d\r\n$1\r\n%d\r\n' "$i" "$i"; done
    printf '*2\r\n$4\r\nINCR\r\n$1\r\nk\r\n'
  } | run "${cli[@]}" --pipe
  run "${cli[@]}" GET mass:1
  run "${cli[@]}" GET mass:5

  echo "== --scan"
  for i in $(seq 1 30); do echo "SET scan:$i $i"; done | "${cli[@]}" >/dev/null
  { "${cli[@]}" --scan --pattern 'scan:*' 2>&1; echo "[exit $?]"; } | sort
  { "${cli[@]}" --scan --pattern 'scan:1*' 2>&1; echo "[exit $?]"; } | sort

  echo "== subscriber"
  local out=$work/subscriber-$port.out
  "${cli[@]}" SUBSCRIBE news >"$out" 2>&1 &
  local sub=$!
  # Subscribed once its confirmation (subscribe, news, 1) is out; PUBSUB NUMSUB would tell too, but
  # serve lacks PUBSUB.
  for _ in $(seq 1 100); do
    (($(wc -l <"$out") >= 3)) && break
    sleep 0.05
  done
  run "${cli[@]}" PUBLISH news hello
  run "${cli[@]}" PUBLISH news "second message"
  run "${cli[@]}" PUBLISH elsewhere nobody
  for _ in $(seq 1 100); do
    (($(wc -l <"$out") >= 9)) && break
    sleep 0.05
  done
  kill "$sub" 2>/dev/null
  wait "$sub" 2>/dev/null
  cat "$out"

  echo "== done"
}

run_both --requirepass "$password"

# No known differences: RESP3 maps and doubles, transactions and SCAN all answer as redis-server does.
compare_outputs "$work/redis.out" "$work/serve.out"
