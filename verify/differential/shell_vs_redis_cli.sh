#!/usr/bin/env bash
# `locksim redis` against `redis-cli --no-raw`: the same command file goes to the fake (through the
# shell) and to a private redis-server (through redis-cli), and the two outputs must be identical.
# Usage: bash shell_vs_redis_cli.sh <path to locksim>
set -u

locksim=${1:?usage: shell_vs_redis_cli.sh <path to locksim>}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
commands="$here/shell_commands.txt"
work=$(mktemp -d /tmp/locksim-shell-XXXXXX)
pid=""

cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    kill "$pid" 2>/dev/null
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    kill -9 "$pid" 2>/dev/null
  fi
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# Start a fresh server (fresh, so that math.random agrees with a fresh fake); retry on a port race.
port=""
for _ in 1 2 3 4 5; do
  port=$(free_port)
  redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no --enable-debug-command yes \
    --dir "$work" --daemonize no --loglevel warning --logfile "$work/redis.log" &
  pid=$!
  for _ in $(seq 1 100); do
    if redis-cli -p "$port" ping 2>/dev/null | grep -q PONG; then break 2; fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; pid=""
done
if [ -z "$pid" ]; then
  echo "FAIL could not start redis-server" >&2
  exit 2
fi

"$locksim" redis < "$commands" > "$work/fake.out" 2> "$work/fake.err" || {
  echo "FAIL locksim redis exited with $?" >&2; cat "$work/fake.err" >&2; exit 1; }
timeout 60 redis-cli -p "$port" --no-raw < "$commands" > "$work/live.out" 2>&1 || {
  echo "FAIL redis-cli exited with $?" >&2; cat "$work/live.out" >&2; exit 1; }

if ! diff -u --label "locksim redis" --label "redis-cli --no-raw" "$work/fake.out" "$work/live.out"; then
  echo "FAIL the shell's output differs from redis-cli's (commands: $commands)" >&2
  exit 1
fi
lines=$(wc -l < "$work/live.out")
if [ "$lines" -lt 100 ]; then
  echo "FAIL only $lines lines of output: the command file did not run through" >&2
  exit 1
fi
echo "PASS $(grep -c . "$commands") command lines, $lines output lines identical"
