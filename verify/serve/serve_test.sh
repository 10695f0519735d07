#!/usr/bin/env bash
# locksim serve with redis-cli and raw sockets: what clients send on connect, the control commands,
# each fault as a client sees it, the history and its verdict; and the protocol's edges sent as the
# same bytes to a real redis-server and to serve, whose answers must be the same.
# Usage: serve_test.sh <locksim binary>
set -uo pipefail
locksim=$1
command -v redis-cli >/dev/null && command -v redis-server >/dev/null || { echo "SKIP: redis-cli/redis-server missing"; exit 77; }
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  wait 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
expect_eq() {  # what, expected, got
  if [[ "$2" != "$3" ]]; then fail "$1: expected [$2], got [$3]"; else echo "ok: $1"; fi
}

# Starts serve with the given options; sets PORT (and the pid in pids).
start_serve() {
  rm -f "$work/port"
  "$locksim" serve --port 0 --port-file "$work/port" --quiet "$@" &
  SERVE_PID=$!
  pids+=("$SERVE_PID")
  for _ in $(seq 100); do [[ -s "$work/port" ]] && break; sleep 0.05; done
  PORT=$(cat "$work/port")
}
stop_serve() {  # [password]
  local said
  said=$(redis-cli -p "$PORT" ${1:+-a "$1" --no-auth-warning} locksim.shutdown 2>&1)
  timeout 10 tail --pid="$SERVE_PID" -f /dev/null || { fail "serve did not stop on LOCKSIM.SHUTDOWN (it said: $said)"; kill "$SERVE_PID"; }
  wait "$SERVE_PID" 2>/dev/null
}
cli() { redis-cli -p "$PORT" "$@"; }
# The raw bytes a server answers to `bytes` (sent as printf's format), within half a second.
raw() {  # port, bytes
  exec 3<>"/dev/tcp/127.0.0.1/$1"
  printf "$2" >&3
  timeout 0.5 cat <&3 | od -c | sed 's/^[0-9]* *//' | tr -s ' '
  exec 3<&-
}

# ---- connection commands, as clients send them on connect
start_serve --history "$work/h1.jsonl" --resource counter --lock lk --requirepass secret
expect_eq "NOAUTH before AUTH" "NOAUTH Authentication required." "$(cli ping 2>&1)"
expect_eq "AUTH wrong" "WRONGPASS invalid username-password pair or user is disabled." "$(cli auth nope 2>&1)"
expect_eq "AUTH" "PONG" "$(cli -a secret --no-auth-warning ping)"
expect_eq "HELLO 3 AUTH" "proto 3" "$(cli hello 3 auth default secret | paste -sd' ' | grep -o 'proto 3')"
expect_eq "CLIENT SETNAME/GETNAME" "A" "$(printf 'AUTH secret\nCLIENT SETNAME A\nCLIENT GETNAME\n' | cli | tail -1)"
expect_eq "CLIENT LIST names itself" "name=me" \
  "$(printf 'AUTH secret\nCLIENT SETNAME me\nCLIENT LIST\n' | cli | tail -1 | grep -o 'name=me')"
expect_eq "INFO loading" "loading:0" "$(cli -a secret --no-auth-warning info persistence | tr -d '\r' | grep '^loading:')"
expect_eq "CONFIG GET" "databases 16" "$(cli -a secret --no-auth-warning config get databases | paste -sd' ')"
# Redis 7.0's compiled-in defaults (config.c), the thresholds the engine converts at.
expect_eq "CONFIG GET hash-max-listpack-entries" "hash-max-listpack-entries 512" \
  "$(cli -a secret --no-auth-warning config get hash-max-listpack-entries | paste -sd' ')"
expect_eq "SELECT db out of range" "ERR DB index is out of range" "$(cli -a secret --no-auth-warning select 16 2>&1)"
expect_eq "WAIT 0 replicas" "0" "$(cli -a secret --no-auth-warning wait 0 0)"
start=$(date +%s%N)
expect_eq "WAIT 1 replica blocks its timeout" "0" "$(cli -a secret --no-auth-warning wait 1 300)"
elapsed=$((($(date +%s%N) - start) / 1000000))
((elapsed >= 290)) || fail "WAIT 1 300 answered after ${elapsed} ms"

# ---- a lost update, made by hand in a known order, found from the server's log alone
# The last reply of a connection named A (or B); redis-cli follows an error with a blank line.
a() { printf 'AUTH secret\nCLIENT SETNAME A\n%s\n' "$1" | cli | grep -v '^$' | tail -1; }
b() { printf 'AUTH secret\nCLIENT SETNAME B\n%s\n' "$1" | cli | grep -v '^$' | tail -1; }
a "SET lk a-token NX PX 10000" >/dev/null
a "GET counter" >/dev/null
b "GET counter" >/dev/null
b "SET counter 1" >/dev/null
a "SET counter 1" >/dev/null
expect_eq "LOCKSIM.NOTE acquired" "OK" "$(a "LOCKSIM.NOTE acquired lk")"
expect_eq "LOCKSIM.NOTE released without a hold" \
  "ERR LOCKSIM.NOTE released: B thread 0 noted no hold of 'lk'" "$(b "LOCKSIM.NOTE released lk")"
stop_serve secret
grep -q '"f":"resource_write"' "$work/h1.jsonl" || fail "no resource_write in the history"
grep -q '"text":"A SET lk a-token NX PX 10000".*"after":"a-token"' "$work/h1.jsonl" \
  || fail "the lock key's content is not recorded around the SET"
"$locksim" check "$work/h1.jsonl" --properties resource --expect resource=violated --out "$work/r1" >"$work/check1" 2>&1
expect_eq "check finds the lost update (exit)" "0" "$?"
grep -q "B's update is lost" "$work/check1" || fail "check's explanation: $(cat "$work/check1")"
[[ -s "$work/r1/h1/timeline.html" ]] || fail "check wrote no timeline: $(ls -R "$work/r1")"
"$locksim" check "$work/h1.jsonl" --properties resource --out "$work/r2" >/dev/null 2>&1
expect_eq "check without --expect: a violation exits 1" "1" "$?"
printf '{"i":0,"t":0,"type":"nonsense"}\n' >"$work/bad.jsonl"
"$locksim" check "$work/bad.jsonl" >/dev/null 2>"$work/bad.err"
expect_eq "check of a bad history exits 2" "2" "$?"
grep -q "line 1" "$work/bad.err" || fail "bad history error names no line: $(cat "$work/bad.err")"
"$locksim" check "$work/h1.jsonl" --expect resource=maybe --out "$work/r3" >/dev/null 2>"$work/expect.err"
expect_eq "check --expect with a bad verdict exits 2" "2" "$?"
expect_eq "check --expect's error" "locksim check: --expect resource=maybe: expected PROPERTY=holds or PROPERTY=violated" \
  "$(cat "$work/expect.err")"
"$locksim" serve --port 0 --resource counter 2>"$work/nohistory.err"
expect_eq "serve --resource without --history exits 2" "2" "$?"
grep -q "need --history FILE" "$work/nohistory.err" || fail "serve --resource without --history: $(cat "$work/nohistory.err")"

# ---- a replica that acknowledges: WAIT answers when it has the connection's last write
start_serve --replica-lag-ms 300
expect_eq "INFO counts the replica" "connected_slaves:1" "$(cli info replication | tr -d '\r' | grep '^connected_slaves:')"
expect_eq "WAIT with nothing written: at once" "1" "$(cli wait 1 0)"
start=$(date +%s%N)
expect_eq "WAIT after a write: the replica's count" "1" "$(printf 'SET k v\nWAIT 1 2000\n' | cli | tail -1)"
elapsed=$((($(date +%s%N) - start) / 1000000))
((elapsed >= 280 && elapsed < 1900)) || fail "WAIT 1 2000 after a write answered after ${elapsed} ms (the replica lags 300)"
start=$(date +%s%N)
expect_eq "WAIT shorter than the lag: none" "0" "$(printf 'SET k w\nWAIT 1 100\n' | cli | tail -1)"
elapsed=$((($(date +%s%N) - start) / 1000000))
((elapsed >= 90 && elapsed < 290)) || fail "WAIT 1 100 after a write answered after ${elapsed} ms"
stop_serve

# ---- faults as a client sees them
start_serve --clock virtual --replica-lag-ms 5000 --appendonly
cli set k v px 30000 >/dev/null
expect_eq "virtual clock: PTTL does not move" "30000" "$(sleep 0.2; cli pttl k)"
cli locksim.clock advance 29999 >/dev/null
expect_eq "virtual clock: 1 ms left" "1" "$(cli pttl k)"
cli locksim.clock advance 1 >/dev/null
expect_eq "virtual clock: not yet expired at its ms" "v" "$(cli get k)"
cli locksim.clock advance 1 >/dev/null
expect_eq "virtual clock: expired" "" "$(cli get k)"
expect_eq "DEBUG SLEEP (seconds) moves the virtual clock" "1700000060001" "$(cli debug sleep 30 >/dev/null; cli locksim.clock get)"
cli locksim.fault error_reply for_ms 300 >/dev/null
expect_eq "error_reply answers BUSY" \
  "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE." "$(cli get k 2>&1)"
sleep 0.35
expect_eq "error_reply ends" "" "$(cli get k)"
start=$(date +%s%N)
cli locksim.fault redis_pause for_ms 400 >/dev/null
cli ping >/dev/null
elapsed=$((($(date +%s%N) - start) / 1000000))
((elapsed >= 380)) || fail "redis_pause 400: PING answered after ${elapsed} ms"
echo "ok: redis_pause held PING ${elapsed} ms"
cli set before-restart 1 >/dev/null
expect_eq "redis_restart empties" "0" "$(cli locksim.fault redis_restart >/dev/null; cli exists before-restart)"
cli set survivor 1 >/dev/null
sleep 2.2  # two fsyncs later, whatever the load (what the last second wrote may or may not be in the AOF)
expect_eq "redis_restart from the AOF keeps what was fsynced" "1" \
  "$(cli locksim.fault redis_restart persistence aof >/dev/null; cli exists survivor)"
cli set f1 1 >/dev/null
cli locksim.clock advance 1000 >/dev/null
cli set f2 1 >/dev/null
expect_eq "failover to a replica 500 ms behind" "1 0" \
  "$(cli locksim.fault failover lag_ms 500 >/dev/null; echo "$(cli exists f1) $(cli exists f2)")"
expect_eq "failover beyond the replica's lag" "ERR LOCKSIM.FAULT failover: lag_ms 6000 is beyond serve --replica-lag-ms 5000" \
  "$(cli locksim.fault failover lag_ms 6000 2>&1)"
expect_eq "unknown fault" "ERR unknown fault 'nap' (expected crash, pause, partition, delay, loss, clock_jump, redis_restart, failover, redis_pause, error_reply, reset or interrupt)" \
  "$(cli locksim.fault nap 2>&1)"
expect_eq "a client's pause is not serve's" "ERR fault 'pause' cannot" "$(cli locksim.fault pause for_ms 10 2>&1 | cut -c1-25 | sed 's/ *$//')"
expect_eq "a client's thread is not serve's to interrupt" "ERR fault 'interrupt' cannot" \
  "$(cli locksim.fault interrupt thread 1 2>&1 | cut -c1-29 | sed 's/ *$//')"
expect_eq "a lasting fault needs for_ms" "ERR LOCKSIM.FAULT delay: missing 'for_ms' in a delay fault" \
  "$(cli locksim.fault delay extra_ms 5 2>&1)"
stop_serve

# delay and partition hit one client name; reset closes its connections.
start_serve
cli locksim.fault delay client slow extra_ms 300 for_ms 2000 >/dev/null
start=$(date +%s%N)
printf 'CLIENT SETNAME slow\nPING\n' | cli >/dev/null
elapsed=$((($(date +%s%N) - start) / 1000000))
((elapsed >= 280)) || fail "delay 300 on 'slow': answered after ${elapsed} ms"
start=$(date +%s%N)
cli ping >/dev/null
elapsed=$((($(date +%s%N) - start) / 1000000))
((elapsed < 250)) || fail "delay on 'slow' slowed another client: ${elapsed} ms"
echo "ok: delay hits only its client"
stop_serve

# partition: a named client's commands wait for the heal; reset closes its connections; loss eats a
# reply (the command ran) and closes the connection when it ends.
start_serve
cli locksim.fault partition client P for_ms 400 >/dev/null
start=$(date +%s%N)
printf 'CLIENT SETNAME P\nPING\n' | cli >/dev/null
elapsed=$((($(date +%s%N) - start) / 1000000))
((elapsed >= 380)) || fail "partition 400 on 'P': answered after ${elapsed} ms"
exec 4<>"/dev/tcp/127.0.0.1/$PORT"
printf 'CLIENT SETNAME R\r\n' >&4
read -r -t 2 line <&4
expect_eq "reset closes the named client's connections" "1" "$(cli locksim.fault reset client R)"
expect_eq "reset: the connection is closed" "" "$(timeout 2 cat <&4)"
exec 4<&-
cli locksim.fault loss client L per_thousand 1000 for_ms 500 >/dev/null
exec 4<>"/dev/tcp/127.0.0.1/$PORT"
printf 'CLIENT SETNAME L\r\nSET lost 1\r\n' >&4
start=$(date +%s%N)
got=$(timeout 3 cat <&4 | tr -d '\r')
elapsed=$((($(date +%s%N) - start) / 1000000))
exec 4<&-
expect_eq "loss: SETNAME answered, SET's reply lost" "+OK" "$got"
((elapsed >= 300 && elapsed < 2500)) || fail "loss: the connection closed after ${elapsed} ms (the loss lasted 500)"
expect_eq "loss: the command ran" "1" "$(cli get lost)"
stop_serve

# A fault schedule: checked when it loads.
printf '# at_ms fault params\n100 redis_pause for_ms 50\n200 delay client X extra_ms ten for_ms 5\n' >"$work/bad.faults"
"$locksim" serve --port 0 --faults "$work/bad.faults" 2>"$work/sched.err" &
wait $!
expect_eq "a bad schedule exits 2" "2" "$?"
expect_eq "a bad schedule names file and line" \
  "locksim serve: $work/bad.faults:3: LOCKSIM.FAULT delay: expected an integer for extra_ms, got 'ten'" "$(cat "$work/sched.err")"

# ---- a millisecond count a client writes may be any 64-bit number: none may overflow serve's
# clocks (WAIT 1 4848378279948546481 or a redis_pause as long killed serve under the sanitizers).
start_serve --clock virtual
huge=4848378279948546481
timeout 0.3 redis-cli -p "$PORT" wait 1 "$huge" >/dev/null
expect_eq "WAIT with a huge timeout leaves serve up" "PONG" "$(cli ping)"
expect_eq "a delay past 31 years is refused, as in a scenario file" \
  "ERR LOCKSIM.FAULT delay: extra_ms is at most 1000000000000 ms (about 31 years), not $huge" \
  "$(cli locksim.fault delay client far extra_ms "$huge" for_ms 1000 2>&1)"
expect_eq "a delay at the longest extra_ms and for_ms" "OK" \
  "$(cli locksim.fault delay client far extra_ms 1000000000000 for_ms 1000000000)"
expect_eq "... slows only its client" "PONG" "$(cli ping)"
expect_eq "CLOCK ADVANCE past 31 years" \
  "ERR LOCKSIM.CLOCK ADVANCE: the run's time would pass 1000000000000 ms (about 31 years)" \
  "$(cli locksim.clock advance "$huge" 2>&1)"
expect_eq "CLOCK JUMP past 31 years, refused as in a scenario file" \
  "ERR LOCKSIM.FAULT clock_jump: a clock jump's by_ms: a clock offset is at most 1000000000000 ms either way, not -$huge" \
  "$(cli locksim.clock jump "-$huge" 2>&1)"
cli locksim.clock jump 600000000000 >/dev/null
expect_eq "two jumps that add up past 31 years" \
  "ERR LOCKSIM.FAULT clock_jump: the server's clock would be set off by more than 1000000000000 ms (about 31 years) either way" \
  "$(cli locksim.clock jump 600000000000 2>&1)"
expect_eq "redis_pause for a century is refused" \
  "ERR LOCKSIM.FAULT redis_pause: for_ms is at most 1000000000 ms (about 11.6 days, the longest run), not $huge" \
  "$(cli locksim.fault redis_pause for_ms "$huge" 2>&1)"
expect_eq "an error_reply text of two lines is refused (it would break RESP)" \
  "ERR LOCKSIM.FAULT error_reply: text must be one line: a Redis error reply cannot hold a line break" \
  "$(cli locksim.fault error_reply for_ms 10 text "$(printf 'ERR a\r\n+OK')" 2>&1)"
expect_eq "redis_pause for the longest run" "OK" "$(cli locksim.fault redis_pause for_ms 1000000000)"
sleep 0.2
kill -0 "$SERVE_PID" 2>/dev/null || fail "serve died on a redis_pause of 1000000000 ms"
kill "$SERVE_PID"; wait "$SERVE_PID" 2>/dev/null

# ---- the protocol's edges: the same bytes to redis-server and to serve
redis_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --daemonize no --logfile "$work/redis.log" &
pids+=($!)
for _ in $(seq 100); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.05; done
start_serve
cases=(
  '*1\r\n$4\r\nPING\r\n'
  'PING\r\n'
  'SET "a b" c\r\nGET "a b"\r\n'
  "GET 'unbalanced\r\nPING\r\n"
  'ECHO "x\\x41\\n"\r\n'
  '*x\r\nPING\r\n'
  '*1\r\n:1\r\n'
  '*1\r\n$-5\r\n'
  '*2\r\n$4\r\nECHO\r\n$3\r\nabc\r\n*0\r\n\r\n*1\r\n$4\r\nPING\r\n'
  '*1\r\n$4\r\nNOPE\r\n'
  '*2\r\n$3\r\nGET\r\n'
  'HELLO 4\r\n'
  'AUTH x\r\n'
  'CLIENT SETNAME "a b"\r\n'
  'CLIENT NOPE\r\n'
  'CONFIG SET nope 1\r\n'
  'QUIT\r\nPING\r\n'
  'RESET\r\n'
  'MULTI\r\nSET k v\r\nSHUTDOWN\r\nEXEC\r\nPING\r\n'
  'MULTI\r\nINCR n\r\nEXEC\r\nSELECT 3\r\nGET n\r\n'
  'CLIENT REPLY OFF\r\nPING\r\nGET nokey\r\nCLIENT REPLY ON\r\nPING\r\n'
  'CLIENT REPLY SKIP\r\nECHO skipped\r\nECHO sent\r\nCLIENT REPLY SKIP\r\nNOPE\r\nPING\r\n'
  'CLIENT REPLY OFF\r\nCLIENT REPLY SKIP\r\nRESET\r\nECHO after\r\n'
  'CLIENT REPLY MAYBE\r\nCLIENT REPLY\r\n'
)
for bytes in "${cases[@]}"; do
  want=$(raw "$redis_port" "$bytes")
  got=$(raw "$PORT" "$bytes")
  expect_eq "same bytes as redis-server for $(printf '%q' "$bytes")" "$want" "$got"
done
got=$(raw "$PORT" 'HELLO 3\r\nGET missing\r\n' | tr -d ' \n')
[[ "$got" == *'_\r\n' ]] || fail "RESP3 nil: $got"
stop_serve

# Before AUTH: an unknown command, subcommand or argument count is refused as such, then NOAUTH
# (processCommand's order); the same bytes from a redis-server with a password.
redis-cli -p "$redis_port" config set requirepass secret >/dev/null
start_serve --requirepass secret
for bytes in 'NOPE\r\nGET\r\nCLIENT NOPE\r\nCLIENT ID x\r\nGET k\r\nCLIENT ID\r\nAUTH secret\r\nGET k\r\n'; do
  want=$(raw "$redis_port" "$bytes")
  got=$(raw "$PORT" "$bytes")
  expect_eq "same bytes as redis-server with a password for $(printf '%q' "$bytes")" "$want" "$got"
done
expect_eq "LOCKSIM.* before AUTH" "NOAUTH Authentication required." "$(cli locksim.clock get 2>&1)"
stop_serve secret

# ---- LOCKSIM.HISTORY SAVE names a file beside --history, never a path a client chooses
mkdir -p "$work/hist"
start_serve --history "$work/hist/h.jsonl"
expect_eq "SAVE a path is refused" "ERR LOCKSIM.HISTORY SAVE: expected a file name (no '/'), written beside --history" \
  "$(cli locksim.history save "$work/elsewhere.jsonl" 2>&1)"
expect_eq "SAVE .. is refused" "ERR LOCKSIM.HISTORY SAVE: expected a file name (no '/'), written beside --history" \
  "$(cli locksim.history save .. 2>&1)"
cli set k v >/dev/null
cli locksim.history save copy.jsonl >/dev/null
[[ -s "$work/hist/copy.jsonl" && ! -e "$work/elsewhere.jsonl" ]] || fail "SAVE name: wrote $(ls "$work" "$work/hist")"
stop_serve

((failures == 0)) || { echo "$failures failure(s)"; exit 1; }
echo "all serve checks passed"
