#!/usr/bin/env bash
# A live run of a scenario without run_ms ends once every client is idle and nothing is scheduled,
# well before its default minute, and says so (stderr, the history's end event); with an explicit
# run_ms it runs to that run_ms. Without a terminal, a longer run says how far it is every 10 s.
#   early_end.sh LOCKSIM_BINARY
set -euo pipefail
locksim=$1
work=$(mktemp -d /tmp/locksim-early-end-XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v redis-server >/dev/null || fail "no redis-server (tools/install-deps installs it)"

# Two clients take and release a lock within half a second: by default the run would last until
# 60.6 s. The watchdog's last sleep (10 s) is the longest thing left after the unlocks.
write_scenario() {  # FILE [RUN_MS_LINE]
  cat >"$1" <<YAML
name: $(basename "$1" .yaml)
lock: {type: rlock, name: orders}
clients: [A, B]
timeline:
  - {at: 0,   client: A, op: lock}
  - {at: 100, client: B, op: try_lock, wait_ms: 0}
  - {at: 200, client: A, op: unlock}
  - {at: 500, client: B, op: try_lock, wait_ms: 0}
  - {at: 600, client: B, op: unlock}
${2:-}
expect:
  mutual_exclusion: holds
  ops:
    - {client: B, op: try_lock, nth: 1, result: fail}
    - {client: B, op: try_lock, nth: 2, result: ok}
YAML
}

end_of() { grep '"type":"end"' "$1" | sed 's/.*"t":\([0-9]*\).*/\1/'; }

# --- no run_ms: it ends early
write_scenario "$work/quiet.yaml"
start=$(date +%s)
"$locksim" run "$work/quiet.yaml" --backend live --out "$work/quiet" >"$work/quiet.out" 2>"$work/quiet.err" ||
  fail "the run failed: $(cat "$work/quiet.out" "$work/quiet.err")"
took=$(($(date +%s) - start))
((took < 30)) || fail "a run with nothing left to do took $took s (its default run_ms is 60.6 s)"
history=$work/quiet/quiet/history.jsonl
end=$(end_of "$history")
[[ -n $end ]] || fail "no end event in the history"
((end >= 600 && end < 30000)) || fail "the history ends at $end ms, not early"
grep '"type":"end"' "$history" | grep -q "ended early" || fail "the end event does not say the run ended early: $(tail -1 "$history")"
grep -q "ended at [0-9]* s: every client idle, nothing scheduled" "$work/quiet.err" ||
  fail "stderr does not say the run ended early: $(cat "$work/quiet.err")"
grep -q "\"ended_early_ms\": *$end" "$work/quiet/results.json" ||
  fail "results.json does not say the run ended early at $end ms"
grep -q "ended at [0-9]* s: every client idle" "$work/quiet/index.html" || fail "index.html does not say the run ended early"

# --- an explicit run_ms: it runs that long, and without a terminal says how far it is every 10 s
write_scenario "$work/timed.yaml" "run_ms: 12000"
start=$(date +%s)
"$locksim" run "$work/timed.yaml" --backend live --out "$work/timed" >"$work/timed.out" 2>"$work/timed.err" ||
  fail "the run failed: $(cat "$work/timed.out" "$work/timed.err")"
took=$(($(date +%s) - start))
((took >= 11)) || fail "a run with run_ms 12000 took only $took s"
end=$(end_of "$work/timed/timed/history.jsonl")
[[ $end == 12000 ]] || fail "the history ends at $end ms, not at run_ms 12000"
grep -q ended_early_ms "$work/timed/results.json" && fail "results.json says a run with an explicit run_ms ended early"
grep '"type":"end"' "$work/timed/timed/history.jsonl" | grep -q "ended early" && fail "an explicit run_ms run says it ended early"
grep -q "ended at" "$work/timed.err" && fail "an explicit run_ms run says it ended early: $(cat "$work/timed.err")"
grep -q "timed.yaml (live) 10 s of 12 s" "$work/timed.err" || fail "no progress line at 10 s: $(cat "$work/timed.err")"
[[ $(grep -c " s of 12 s" "$work/timed.err") == 1 ]] || fail "progress lines should come every 10 s, not every second: $(cat "$work/timed.err")"

echo "early_end: ok"
