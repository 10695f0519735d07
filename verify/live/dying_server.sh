#!/usr/bin/env bash
# A live run whose redis-server dies mid-run (killed from outside) ends with a clear error, writes the
# history so far and the reports, and leaves no redis-server behind; Ctrl-C likewise (exit 130).
#   dying_server.sh LOCKSIM_BINARY
set -euo pipefail
locksim=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/locksim-dying-XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# The redis-servers a locksim process started (its children).
servers_of() { pgrep -P "$1" -x redis-server || true; }

wait_for_server() {
  for _ in $(seq 1 100); do
    pid=$(servers_of "$1" | head -1)
    [[ -n $pid ]] && { echo "$pid"; return; }
    sleep 0.05
  done
  fail "locksim started no redis-server"
}

# A directory left by a locksim that was SIGKILLed (its owner is gone) is removed by the next one.
true & dead=$!
wait $dead
stale=$(mktemp -d /tmp/locksim-redis-XXXXXX)
echo "$dead" >"$stale/owner"

# --- killed from outside
"$locksim" run "$root/scenarios/pubsub-wakeup.yaml" --backend live --out "$work/killed" >"$work/killed.out" 2>"$work/killed.err" &
run=$!
server=$(wait_for_server $run)
sleep 1.5  # A holds the lock, B waits
kill -9 "$server"
set +e
wait $run
code=$?
set -e
[[ $code == 1 ]] || fail "expected exit code 1 after the server died, got $code: $(cat "$work/killed.out" "$work/killed.err")"
grep -q "died during the run" "$work/killed.out" || fail "no clear error in the table: $(cat "$work/killed.out")"
history=$work/killed/pubsub-wakeup/history.jsonl
[[ -s $history ]] || fail "no history written"
grep -q '"type":"hold","p":"A"' "$history" || fail "the history lacks what happened before the death"
grep -q '"error"' "$work/killed/results.json" || fail "results.json does not record the error"
[[ -s $work/killed/pubsub-wakeup/timeline.html ]] || fail "no timeline written"
[[ -z $(pgrep -f "locksim-redis-" || true) ]] || true  # other tests may run servers; check ours below
kill -0 "$server" 2>/dev/null && fail "the killed server is still there"
[[ ! -e $stale ]] || fail "the stale directory $stale of a dead locksim is still there"

# --- interrupted (Ctrl-C)
"$locksim" run "$root/scenarios/pubsub-wakeup.yaml" "$root/scenarios/watchdog-long-job.yaml" --backend live \
  --out "$work/interrupted" >"$work/int.out" 2>"$work/int.err" &
run=$!
server=$(wait_for_server $run)
sleep 1
kill -INT $run
set +e
wait $run
code=$?
set -e
[[ $code == 130 ]] || fail "expected exit code 130 after Ctrl-C, got $code: $(cat "$work/int.err")"
grep -q "interrupted" "$work/int.err" || fail "no word about the interruption: $(cat "$work/int.err")"
[[ -s $work/interrupted/pubsub-wakeup/history.jsonl ]] || fail "no history written after Ctrl-C"
grep -q '"scenarios": 2' "$work/interrupted/results.json" || fail "the report should list both scenarios"
grep -q '"skipped": "not run: the run was interrupted"' "$work/interrupted/results.json" ||
  fail "the scenario the interruption left unrun should be listed as skipped"
grep -q '"interrupted": true' "$work/interrupted/results.json" || fail "the interrupted scenario should say so"
for _ in $(seq 1 50); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
kill -0 "$server" 2>/dev/null && fail "the server outlived the interrupted run"

# --- a named server that is not there
set +e
"$locksim" run "$root/scenarios/pubsub-wakeup.yaml" --backend live --redis 127.0.0.1:1 --out "$work/absent" \
  >"$work/absent.out" 2>&1
code=$?
set -e
[[ $code == 2 ]] || fail "expected exit code 2 (a set-up error) for an absent --redis, got $code"
grep -q "cannot connect to Redis at 127.0.0.1:1" "$work/absent/summary.md" || fail "unclear error: $(cat "$work/absent/summary.md")"
grep -q 'errors="1"' "$work/absent/junit.xml" || fail "a set-up problem should be a JUnit error"

echo "dying_server: ok"
