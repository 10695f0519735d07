#!/usr/bin/env bash
# Fault story b: node-redlock's automatic extension across a server pause. Two node clients contend
# with redlock.using() (1000 ms lease, extended 500 ms before it runs out) on `locksim serve --lock lk
# --resource counter`; each increments the counter by GET then SET inside and notes its belief with
# LOCKSIM.NOTE. 300 ms into A's long routine the server pauses (LOCKSIM.FAULT redis_pause):
#   short: 400 ms, shorter than the lease: the extension sent during the pause is answered late but in
#          time; one holder at a time -> check finds resource and mutual_exclusion hold (2 writes).
#   long:  1500 ms, past the lease: the extension fails, B is let in, A (which ignores its aborted
#          signal) writes over B's update -> check must FIND the lost update and the overlap.
# Usage: story_redlock_pause.sh LOCKSIM CLIENTS_DIR
source "$(dirname "$0")/lib.sh" "$@"
need_redis_server  # redis-cli talks to serve
need_node_module ioredis redlock

story() {  # MODE: serve with a history, the clients, the history written; output in $work/MODE.*
  local mode=$1
  start_serve "$mode" --history "$work/$mode.jsonl" --lock lk --resource counter
  timeout 60 env NODE_PATH="$node_dir/node_modules" node "$here/story_redlock_pause.js" "$mode" "$SERVE_PORT" \
    >"$work/$mode.out" 2>&1 || fail "the $mode story's clients failed: $(cat "$work/$mode.out")"
  stop_serve "$SERVE_PORT" "$SERVE_PID"
  [[ -s $work/$mode.jsonl ]] || fail "serve wrote no history for the $mode story: $(cat "$work/serve-$mode.err")"
  echo "--- $mode pause: what the clients saw"
  cat "$work/$mode.out"
}

judge() {  # MODE ARGS...: locksim check on the story's history; exit code in $judged
  local mode=$1
  shift
  "$locksim" check "$work/$mode.jsonl" --out "$work/$mode-reports" "$@" >"$work/$mode.check" 2>&1
  judged=$?
  echo "--- $mode pause: locksim check $*  (exit $judged)"
  cat "$work/$mode.check"
}

expect_lines() {  # FILE LINE...: the clients printed each of these lines
  local file=$1 line
  shift
  for line in "$@"; do grep -qxF "$line" "$file" || fail "expected the line '$line' in $file"; done
}

story short
expect_lines "$work/short.out" "test: LOCKSIM.FAULT redis_pause for_ms 400 -> OK" \
  "A: an extension was held up by the pause -> true" "A: an extension failed -> false" \
  "A: signal aborted before its write -> false" "B: read 1" "A: using() -> done" "B: using() -> done" \
  "counter at the end: 2"
judge short --expect resource=holds --expect mutual_exclusion=holds
((judged == 0)) || fail "the automatic extension should have kept one holder across a pause shorter than the lease"
grep -q "^resource: 2 writes of the protected resource" "$work/short.check" || fail "expected 2 writes judged"

story long
expect_lines "$work/long.out" "test: LOCKSIM.FAULT redis_pause for_ms 1500 -> OK" \
  "A: an extension failed -> true" "A: signal aborted before its write -> true" "B: read 0" "counter at the end: 1"
judge long --expect resource=violated --expect mutual_exclusion=violated
((judged == 0)) || fail "check did not find the lost update and the overlap a pause past the lease made"
grep -q "^resource: Let A read counter .* B's update is lost" "$work/long.check" ||
  fail "the resource verdict should name A's stale write over B's update"

echo "PASS redlock's extension keeps one holder across a short pause; past the lease the lost update is found"
