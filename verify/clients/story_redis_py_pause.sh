#!/usr/bin/env bash
# Fault story a: a redis-py Lock holder paused past its lease. Two redis-py clients take the same
# Lock(timeout=1 s) on `locksim serve --lock lk --resource counter` and increment the counter by GET
# then SET inside it, noting their beliefs with LOCKSIM.NOTE.
#   control: no pause -> `locksim check` finds resource and mutual_exclusion hold, 2 writes judged.
#   pause:   A stops after its GET until B, let in when A's lease ran out, has updated the counter ->
#            check must FIND the lost update (resource violated) and the overlap (mutual_exclusion).
# Usage: story_redis_py_pause.sh LOCKSIM CLIENTS_DIR
source "$(dirname "$0")/lib.sh" "$@"
need_redis_server  # redis-cli talks to serve
need_redis_py

# story MODE [serve options]: serve with a history, the two clients, the history written; out in $work/MODE.*
story() {
  local mode=$1
  shift
  start_serve "$mode" --history "$work/$mode.jsonl" --lock lk --resource counter "$@"
  timeout 60 "$python" "$here/story_redis_py_lock.py" "$mode" "$SERVE_PORT" >"$work/$mode.out" 2>&1 ||
    fail "the $mode story's clients failed: $(cat "$work/$mode.out")"
  stop_serve "$SERVE_PORT" "$SERVE_PID"
  [[ -s $work/$mode.jsonl ]] || fail "serve wrote no history for the $mode story: $(cat "$work/serve-$mode.err")"
  echo "--- $mode: what the clients saw"
  cat "$work/$mode.out"
}

# judge MODE ARGS...: locksim check on the story's history; exit code in $judged, output in $work/MODE.check
judge() {
  local mode=$1
  shift
  "$locksim" check "$work/$mode.jsonl" --out "$work/$mode-reports" "$@" >"$work/$mode.check" 2>&1
  judged=$?
  echo "--- $mode: locksim check $*  (exit $judged)"
  cat "$work/$mode.check"
}

expect_line() {  # FILE LINE: the clients printed exactly this line
  grep -qxF "$2" "$1" || fail "expected the line '$2' in $1"
}

story control
expect_line "$work/control.out" "A: release -> ok"
expect_line "$work/control.out" "B: read 1"
expect_line "$work/control.out" "counter at the end: 2"
judge control --expect resource=holds --expect mutual_exclusion=holds
((judged == 0)) || fail "without a pause the lock should have kept the counter right"
grep -q "^resource: 2 writes of the protected resource" "$work/control.check" ||
  fail "the control should have had its 2 writes judged"

story pause
expect_line "$work/pause.out" "A: paused until B is done -> True"
expect_line "$work/pause.out" "B: read 0"
expect_line "$work/pause.out" "counter at the end: 1"
expect_line "$work/pause.out" "A: release -> LockNotOwnedError: Cannot release a lock that's no longer owned"
judge pause --expect resource=violated --expect mutual_exclusion=violated
((judged == 0)) || fail "check did not find the lost update and the overlap the pause made"
grep -q "^resource: Let A read counter .* B's update is lost" "$work/pause.check" ||
  fail "the resource verdict should name A's stale write over B's update"
judge pause
((judged == 1)) || fail "check with no expectation should fail (exit 1) on the paused story's history, got $judged"

echo "PASS the paused holder's lost update is found; without the pause the counter holds"
