#!/usr/bin/env bash
# `locksim check --stream` as a user meets it: a history written by `locksim run`, judged as it
# streams, gives the verdicts and explanations the whole history's check gives, with the same exit
# codes; what it cannot do is refused with exit 2 and the reason.
source "$(dirname "$0")/../support/usage.sh" "$@"

"$locksim" run "$source_dir/scenarios/pause-longer-than-lease-rlock.yaml" --out run >/dev/null 2>&1
history=run/pause-longer-than-lease-rlock/history.jsonl
[[ -s $history ]] || { echo "FAIL: locksim run wrote no $history"; exit 1; }
properties=mutual_exclusion,reentrancy,watchdog,liveness

"$locksim" check --stream "$history" --lock rlock --properties "$properties" >streamed 2>&1
[[ $? -eq 1 ]] || fail "a violation without --expect: exit $?, expected 1"
"$locksim" check "$history" --lock rlock --properties "$properties" --expect mutual_exclusion=violated --out reports >whole 2>&1
grep -q "mutual_exclusion  -         violated" streamed || fail "no mutual_exclusion violation: $(cat streamed)"
# The same verdicts, and the explanation the whole check prints is the streamed one's.
diff <(grep -E "^pause" streamed | awk '{print $3, $5}') <(grep -E "^pause" whole | awk '{print $3, $5}') >/dev/null \
  || fail "verdicts differ: $(grep -E '^pause' streamed) vs $(grep -E '^pause' whole)"
explanation=$(grep "^mutual_exclusion: Let " streamed)
[[ -n $explanation ]] || fail "no explanation of the overlap: $(cat streamed)"
grep -qxF "$explanation" whole || fail "the explanation differs from the whole check's: $explanation"

"$locksim" check --stream "$history" --lock rlock --properties "$properties" --expect mutual_exclusion=violated,liveness=holds >/dev/null 2>&1
[[ $? -eq 0 ]] || fail "as --expect says: exit $?, expected 0"

# fair_queue, judged in two phases (every grant, then every stay), streams too: a blocked-by-evicted
# waiter is found and told as the whole check tells it.
"$locksim" run "$source_dir/scenarios/fair-crashed-waiter-head.yaml" --out run >/dev/null 2>&1
fair=run/fair-crashed-waiter-head/history.jsonl
[[ -s $fair ]] || fail "locksim run wrote no $fair"
"$locksim" check --stream "$fair" --lock fair --properties fair_queue --expect fair_queue=violated >fair-streamed 2>&1
[[ $? -eq 0 ]] || fail "fair_queue streamed: exit $?, expected 0: $(cat fair-streamed)"
"$locksim" check "$fair" --lock fair --properties fair_queue --expect fair_queue=violated --out fair-reports >fair-whole 2>&1
fair_explanation=$(grep "^fair_queue: " fair-streamed)
[[ $fair_explanation == *evict* ]] || fail "no blocked-by-evicted explanation: $(cat fair-streamed)"
grep -qxF "$fair_explanation" fair-whole || fail "fair_queue's explanation differs from the whole check's: $fair_explanation"

refuses() {  # expected-text args...
  local expected=$1; shift
  local out status
  out=$("$locksim" check --stream "$@" 2>&1); status=$?
  [[ $status -eq 2 && $out == *"$expected"* ]] || fail "check --stream $*: exit $status, expected 2 and '$expected'; got: $out"
}
refuses "it takes neither --out" "$history" --out somewhere
refuses "it takes neither --exhaustive" "$source_dir/examples/exhaustive/rlock-2x2.yaml" --exhaustive
refuses "cannot read missing.jsonl" missing.jsonl
printf '{"i":0,"t":5,"type":"invoke","p":"A"}\n{"i":1,"t":4,"type":"ok","p":"A"}\n' >bad.jsonl
refuses "history line 2: history events must arrive in time order" bad.jsonl --properties liveness
# A history whose End does not name its lock (an older locksim's) needs --lock; one that names it
# refuses another.
sed 's/"type":"end","p":"world","f":"rlock"/"type":"end","p":"world"/' "$history" >untyped.jsonl
grep -q '"type":"end","p":"world"}' untyped.jsonl || fail "the history's End did not name its lock: $(tail -1 "$history")"
refuses "say which with --lock TYPE" untyped.jsonl --properties "$properties"
refuses "was recorded by a run of a rlock lock, not a fair one" "$history" --lock fair --properties liveness
((fails == 0)) && echo "ok: check --stream judges as the whole check does, and refuses what it cannot do"
exit $fails
