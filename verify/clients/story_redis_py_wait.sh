#!/usr/bin/env bash
# A redis-py Lock across a failover, on `locksim serve --replica-lag-ms 300`: serve's replica
# acknowledges each write 300 ms after it ran, and WAIT says when it has (issue 40: a replica that
# acknowledges). `locksim check` judges both histories.
#   wait:   A waits for the replica (WAIT 1 2000 -> 1 after ~300 ms) before counting the lock as held;
#           the failover keeps A's key, B is refused -> mutual_exclusion holds.
#   nowait: A counts the lock at once; the failover to the replica loses A's key, B takes the lock
#           while A believes it holds it -> mutual_exclusion violated.
# Usage: story_redis_py_wait.sh LOCKSIM CLIENTS_DIR
source "$(dirname "$0")/lib.sh" "$@"
need_redis_server  # redis-cli talks to serve
need_redis_py

story() {  # MODE: serve with a history, the clients, the history written, then locksim check
  local mode=$1
  start_serve "$mode" --history "$work/$mode.jsonl" --lock lk --replica-lag-ms 300
  timeout 60 "$python" "$here/story_redis_py_wait.py" "$mode" "$SERVE_PORT" >"$work/$mode.out" 2>&1 ||
    fail "the $mode story's clients failed: $(cat "$work/$mode.out")"
  stop_serve "$SERVE_PORT" "$SERVE_PID"
  echo "--- $mode: what the clients saw"
  cat "$work/$mode.out"
}
expect_line() {  # FILE LINE
  grep -qxF "$2" "$1" || fail "expected the line '$2' in $1"
}

story wait
expect_line "$work/wait.out" "A: acquire -> True"
expect_line "$work/wait.out" "A: WAIT 1 2000 -> 1, after the replica's lag: True"
expect_line "$work/wait.out" "B: acquire -> False"
expect_line "$work/wait.out" "A: release -> ok"
"$locksim" check "$work/wait.jsonl" --out "$work/wait-reports" --expect mutual_exclusion=holds >"$work/wait.check" 2>&1 ||
  fail "check on the wait story: $(cat "$work/wait.check")"
cat "$work/wait.check"

story nowait
expect_line "$work/nowait.out" "A: acquire -> True"
expect_line "$work/nowait.out" "B: acquire -> True"
grep -q "^A: release -> LockNotOwnedError" "$work/nowait.out" || fail "A's release should find the lock not its own"
"$locksim" check "$work/nowait.jsonl" --out "$work/nowait-reports" --expect mutual_exclusion=violated >"$work/nowait.check" 2>&1 ||
  fail "check on the nowait story: $(cat "$work/nowait.check")"
cat "$work/nowait.check"
echo "PASS WAIT keeps the failover from losing the lock; without it B gets in while A holds it"
