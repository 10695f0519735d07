#!/usr/bin/env bash
# Ctrl-C during a long simulated run, as a user meets it: the run stops where it is (not at the
# world's event cap, many seconds later, blamed on the cap), says it was interrupted, exits 130, and
# the reports keep what ran. A soak past the cap raises it with world: {max_events: N}.
source "$(dirname "$0")/../support/usage.sh" "$@"

cat >soak.yaml <<'YAML'
name: soak
lock: {type: rlock, name: orders, watchdog_ms: 3000}
clients: [A, B]
timeline:
  - {at: 0, client: A, op: lock}
  - {at: 0, client: A, op: work, for_ms: 990000000}
  - {at: 0, client: A, op: unlock}
  - {at: 10, client: B, op: lock}
run_ms: 1000000000
expect:
  mutual_exclusion: holds
YAML
# The outer timeout only keeps a broken build from hanging the suite. --foreground: without it,
# timeout sends its signal to locksim and again to its process group, and on a busy machine locksim
# handles the first before the second arrives, which it takes for a second Ctrl-C (exit at once,
# nothing written): the one Ctrl-C this test means is one signal.
timeout -s KILL 120 timeout --foreground --preserve-status -s INT 1 "$locksim" run soak.yaml --out r >out 2>err
status=$?
[[ $status -eq 130 ]] || fail "Ctrl-C: exit $status, expected 130: $(cat out err)"
grep -q "soak .*(interrupted) .*error" out || fail "the table does not say the run was interrupted: $(cat out)"
grep -q "needed more than" out r/summary.md && fail "the interruption is blamed on the event cap: $(cat out)"
[[ -s r/soak/history.jsonl ]] || fail "what ran before Ctrl-C was not kept: $(ls -R r)"

# The cap is the file's to raise or lower: a run past it stops with an error that says how.
sed 's/^lock:/world: {max_events: 5000}\nlock:/' soak.yaml >capped.yaml
timeout -s KILL 120 "$locksim" run capped.yaml --out c >out 2>err
status=$?
[[ $status -eq 1 ]] || fail "a run past max_events: exit $status, expected 1: $(cat out err)"
grep -q "the run needed more than 5000 events, the cap on one run .*world: {max_events: N}" out ||
  fail "no word of the cap and how to raise it: $(cat out)"
((fails == 0)) && echo "ok: Ctrl-C stops a simulated run where it is; max_events caps a run and says how to raise it"
exit $fails
