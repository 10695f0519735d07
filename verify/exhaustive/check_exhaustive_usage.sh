#!/usr/bin/env bash
# `locksim check --exhaustive` as a user meets it: exit codes (0 as expected, 1 a counterexample or not
# covered, 2 bad input), what it writes, and that the counterexample replays with `locksim run`.
set -u
locksim=$1
here=$(cd "$(dirname "$0")" && pwd)
world=$here/rlock-late-trylock.yaml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
check() {  # check NAME EXPECTED_EXIT PATTERN -- ARGS...
  local name=$1 want=$2 pattern=$3
  shift 4
  "$locksim" check --exhaustive "$@" >"$tmp/out" 2>&1
  local got=$?
  if [[ $got != "$want" ]] || ! grep -qE -- "$pattern" "$tmp/out"; then
    echo "FAIL $name: exit $got (want $want), output:"; sed 's/^/    /' "$tmp/out"
    failures=$((failures + 1))
  else
    echo "ok   $name"
  fi
}

check "holds for all" 0 '^HOLDS for every schedule within the bounds: mutual_exclusion, reentrancy' -- "$world" --out "$tmp/a"
[[ -f $tmp/a/exhaustive.json ]] && grep -q '"complete":true' "$tmp/a/exhaustive.json" || { echo "FAIL exhaustive.json"; failures=$((failures + 1)); }
check "counterexample" 1 '^COUNTEREXAMPLE: mutual_exclusion violated .* with 1 deviation' -- "$world" --faults pause=40000@A:1 --out "$tmp/b"
# A search that stops at its counterexample still counts the states it had seen.
grep -qE ' [1-9][0-9]* states \(choice points\)' "$tmp/out" || { echo "FAIL counterexample: no states counted"; failures=$((failures + 1)); }
"$locksim" run "$tmp/b/counterexample.yaml" --out "$tmp/b-run" >"$tmp/run" 2>&1
[[ $? == 1 ]] && grep -qE 'mutual_exclusion +holds +violated +FAIL' "$tmp/run" || { echo "FAIL replay:"; cat "$tmp/run"; failures=$((failures + 1)); }
[[ -f $tmp/b/rlock-late-trylock/timeline.html && -f $tmp/b/index.html ]] || { echo "FAIL timeline"; failures=$((failures + 1)); }
check "expected counterexample" 0 '^COUNTEREXAMPLE \(expected\): mutual_exclusion' -- "$world" --faults pause=40000@A:1 --expect mutual_exclusion=violated --out "$tmp/c"
check "expected but not found" 1 '^NOT FOUND: no schedule within the bounds violates' -- "$world" --properties mutual_exclusion --expect mutual_exclusion=violated --out "$tmp/d"
check "a limit" 1 '^INCOMPLETE \(max-schedules\)' -- "$world" --faults crash:1 --max-schedules 3 --out "$tmp/e"
check "random schedules within --max-seconds" 0 'no violation in [0-9]+ schedules, .* \(stopped: max-seconds\)' -- "$world" --random 1000000000 --max-seconds 1 --out "$tmp/r"
# The random schedules stop at what the enumeration calls a counterexample: here a pinned outcome.
check "random schedules find a pinned outcome" 1 'the first violation \(ops\) at schedule [0-9]+' -- "$here/../../examples/exhaustive/fair-2-waiters-3.13.yaml" --random 20000 --out "$tmp/r2"
check "random comparison" 1 '^random schedules of the same world: the first violation \(mutual_exclusion\)' -- "$world" --faults pause=40000@A:1 --random 1000 --out "$tmp/f"
check "an estimate instead of a search" 0 '^  schedules within the bounds: about [0-9]+ \(Knuth' -- "$world" --estimate 200 --out "$tmp/est"
[[ ! -e $tmp/est ]] || { echo "FAIL estimate: it wrote reports"; failures=$((failures + 1)); }
check "an estimate counts states" 0 '^  distinct states: [1-9][0-9]* seen' -- "$world" --estimate 200
check "an estimate of none" 2 'estimate' -- "$world" --estimate 0
check "an estimate judges nothing" 2 '--random means nothing with --estimate' -- "$world" --estimate 5 --random 5
check "bad fault" 2 "--faults meteor: unknown fault 'meteor'" -- "$world" --faults meteor --out "$tmp/g"
check "pause without duration" 2 'pause lasts: give its duration, pause=MS' -- "$world" --faults pause --out "$tmp/g"
check "fault of a client not there" 2 "no client named 'Z'" -- "$world" --faults crash@Z --out "$tmp/g"
check "bad shard" 2 '--shard I/N needs 0 <= I < N, not 3/2' -- "$world" --shard 3/2 --out "$tmp/g"
grep -q '^bounds:' "$tmp/out" && { echo "FAIL a bad shard is refused after the search is described"; failures=$((failures + 1)); }
check "shard not a pair" 2 '--shard x: expected I/N' -- "$world" --shard x --out "$tmp/g"
check "bad expect" 2 '--expect mutual_exclusion=maybe: expected PROPERTY=holds or PROPERTY=violated' -- "$world" --expect mutual_exclusion=maybe --out "$tmp/g"
check "property not for the lock" 2 'fair_queue' -- "$world" --properties fair_queue --out "$tmp/g"
check "latency 0" 2 'a latency is at least 1 ms' -- "$world" --latencies 0,10 --out "$tmp/g"
check "latency not a number" 2 "--latencies 1,10ms: '10ms' is not a number of ms" -- "$world" --latencies 1,10ms --out "$tmp/g"
check "clock offset not a number" 2 "--clock-offsets 0,ahead: 'ahead' is not a number of ms" -- "$world" --clock-offsets 0,ahead --out "$tmp/g"
check "an empty item in a list" 2 '--latencies 1,,10: an empty item' -- "$world" --latencies 1,,10 --out "$tmp/g"
check "a shard with more after it" 2 '--shard 1/3x: expected I/N' -- "$world" --shard 1/3x --out "$tmp/g"
check "an empty shard" 2 "--shard : expected I/N" -- "$world" --shard '' --out "$tmp/g"
check "a pause's duration with more after it" 2 "--faults pause=4e4@A:1: expected an integer for for_ms, got '4e4'" -- "$world" --faults pause=4e4@A:1 --out "$tmp/g"
check "a pause past the longest run" 2 '--faults pause=9223372036854775807@A:1: for_ms is at most 1000000000 ms \(about 11.6 days, the longest run\), not 9223372036854775807' -- "$world" --faults pause=9223372036854775807@A:1 --out "$tmp/g"
check "a fault count with more after it" 2 '--faults crash:1x: the count is not a number' -- "$world" --faults crash:1x --out "$tmp/g"
check "a fault count past an int" 2 '--faults crash:3000000000: the count is at most 2147483647' -- "$world" --faults crash:3000000000 --out "$tmp/g"
check "a fault count of 0" 2 '--faults crash:0: the count is at least 1' -- "$world" --faults crash:0 --out "$tmp/g"
check "a sign and a sign" 2 "--clock-offsets 0,\+-5: '\+-5' is not a number of ms" -- "$world" --clock-offsets 0,+-5 --out "$tmp/g"
check "negative max-seconds" 2 '--max-seconds: at least 0 \(0: no limit\), not -1' -- "$world" --max-seconds -1 --out "$tmp/g"
check "a latency twice" 2 'the latencies name 1 twice' -- "$world" --latencies 1,10,1 --out "$tmp/g"
check "a clock offset twice" 2 'the clock offsets name 0 twice' -- "$world" --clock-offsets 0,0 --out "$tmp/g"
check "clock offset out of range" 2 'a clock offset is at most 1000000000000 ms either way' -- "$world" --clock-offsets 0,-9223372036854775808 --out "$tmp/g"
check "clock offsets" 0 '^HOLDS' -- "$world" --clock-offsets 0,-500 --out "$tmp/h"
grep -q 'clock offsets {0, -500} ms' "$tmp/out" && grep -q '^HOLDS' "$tmp/out" || { echo "FAIL clock offsets: no bound or no verdict"; failures=$((failures + 1)); }
check "no such file" 2 'cannot read the file' -- "$tmp/none.yaml" --out "$tmp/g"
check "a folder" 2 'a folder, not a scenario file' -- "$here" --out "$tmp/g"
printf '%s\n' '{"i":0,"t":0,"type":"invoke","p":"A","thread":1,"op":1,"lock":"orders","f":"lock"}' >"$tmp/history.jsonl"
check "a history" 2 'a history \(history.jsonl\), not a scenario: .locksim check FILE. judges it' -- "$tmp/history.jsonl" --out "$tmp/g"
# Shards: each runs its part; `locksim merge` adds them up to the totals of one search.
"$locksim" check --exhaustive "$world" --faults crash:1 --out "$tmp/whole" >/dev/null 2>&1
for i in 0 1 2; do "$locksim" check --exhaustive "$world" --faults crash:1 --shard $i/3 --out "$tmp/s$i" >/dev/null 2>&1; done
"$locksim" merge "$tmp/s0/exhaustive.json" "$tmp/s1/exhaustive.json" "$tmp/s2/exhaustive.json" --out "$tmp/merged.json" >"$tmp/out" 2>&1
for key in schedules states pruned complete level; do
  want=$(grep -oE "\"$key\":[a-z0-9]+" "$tmp/whole/exhaustive.json")
  got=$(grep -oE "\"$key\":[a-z0-9]+" "$tmp/merged.json")
  if [[ -z $want || $want != "$got" ]]; then echo "FAIL merge $key: one search $want, shards $got"; failures=$((failures + 1)); else echo "ok   merge $key ($got)"; fi
done
# The merged level: a complete search's is the deepest level any shard needed (a shard whose part
# ran out of schedules sooner says a lower one); with a shard stopped early, the least of the
# stopped shards' levels.
grep -q '"level":2,"complete":true' "$tmp/s1/exhaustive.json" || { echo "FAIL shard 1 is not complete at level 2"; failures=$((failures + 1)); }
sed 's/"level":2,"complete":true/"level":1,"complete":true/' "$tmp/s1/exhaustive.json" >"$tmp/s1-level1.json"
"$locksim" merge "$tmp/s0/exhaustive.json" "$tmp/s1-level1.json" "$tmp/s2/exhaustive.json" --out "$tmp/ml.json" >/dev/null 2>&1
grep -q '"level":2,"complete":true' "$tmp/ml.json" && echo "ok   merge: a complete search's level is the deepest shard's" || { echo "FAIL merge level (complete):"; cat "$tmp/ml.json"; failures=$((failures + 1)); }
sed 's/"level":2,"complete":true/"level":1,"complete":false/' "$tmp/s1/exhaustive.json" >"$tmp/s1-stopped.json"
"$locksim" merge "$tmp/s0/exhaustive.json" "$tmp/s1-stopped.json" "$tmp/s2/exhaustive.json" --out "$tmp/ml.json" >/dev/null 2>&1
grep -q '"level":1,"complete":false' "$tmp/ml.json" && echo "ok   merge: a stopped shard's level bounds the search's" || { echo "FAIL merge level (stopped):"; cat "$tmp/ml.json"; failures=$((failures + 1)); }
"$locksim" merge "$tmp/s0/exhaustive.json" "$tmp/s2/exhaustive.json" --out "$tmp/m2.json" >"$tmp/out" 2>&1
[[ $? == 2 ]] && grep -q "2 of 3 shards given; missing: 1" "$tmp/out" && echo "ok   merge with a shard missing" || { echo "FAIL merge missing:"; cat "$tmp/out"; failures=$((failures + 1)); }
merge_refuses() {  # merge_refuses NAME PATTERN FILES...
  local name=$1 pattern=$2
  shift 2
  "$locksim" merge "$@" --out "$tmp/bad.json" >"$tmp/out" 2>&1
  if [[ $? == 2 ]] && grep -qE -- "$pattern" "$tmp/out"; then echo "ok   merge $name"; else echo "FAIL merge $name:"; cat "$tmp/out"; failures=$((failures + 1)); fi
}
merge_refuses "a shard twice" "shard 1 is given twice" "$tmp/s0/exhaustive.json" "$tmp/s1/exhaustive.json" "$tmp/s1/exhaustive.json"
"$locksim" check --exhaustive "$world" --shard 0/2 --out "$tmp/t0" >/dev/null 2>&1
merge_refuses "another split" "shard 0 of 2, but the others are of 3" "$tmp/s1/exhaustive.json" "$tmp/t0/exhaustive.json"
echo 'not json' >"$tmp/junk.json"
"$locksim" check --exhaustive "$world" --faults none --shard 2/3 --out "$tmp/u2" >/dev/null 2>&1
merge_refuses "a shard of another search" "a shard of another search \(rlock-late-trylock; .*faults none" "$tmp/s0/exhaustive.json" "$tmp/s1/exhaustive.json" "$tmp/u2/exhaustive.json"
# The same name and bounds over a world edited between shards (a different client delay) is another search.
sed 's/^\(name: .*\)$/\1\n# edited between shards/' "$world" >"$tmp/edited.yaml"
sed -i '0,/at: \([0-9]\+\)/s//at: 1\1/' "$tmp/edited.yaml"
cmp -s "$world" "$tmp/edited.yaml" && { echo "FAIL the edited world is not edited"; failures=$((failures + 1)); }
"$locksim" check --exhaustive "$tmp/edited.yaml" --faults crash:1 --shard 2/3 --out "$tmp/e2" >/dev/null 2>&1
merge_refuses "a shard of an edited world" "a shard of another search .*; world " "$tmp/s0/exhaustive.json" "$tmp/s1/exhaustive.json" "$tmp/e2/exhaustive.json"
# A merge exits as the one search would: 1 when a counterexample nobody expected came out.
"$locksim" check --exhaustive "$world" --faults pause=40000:1 --shard 0/2 --out "$tmp/p0" >/dev/null 2>&1; p0=$?
"$locksim" check --exhaustive "$world" --faults pause=40000:1 --shard 1/2 --out "$tmp/p1" >"$tmp/p1.out" 2>&1; p1=$?
# A shard knows only its part of the tree: it does not claim the fewest deviations of all.
grep -q "the fewest in this shard's part of the tree" "$tmp/p1.out" && ! grep -q "the fewest any schedule needs" "$tmp/p1.out" &&
  echo "ok   a shard's counterexample is the fewest of its part" || { echo "FAIL shard's claim:"; cat "$tmp/p1.out"; failures=$((failures + 1)); }
"$locksim" check --exhaustive "$world" --faults pause=40000:1 --out "$tmp/pw" >/dev/null 2>&1; whole=$?
"$locksim" merge "$tmp/p0/exhaustive.json" "$tmp/p1/exhaustive.json" --out "$tmp/pm.json" >"$tmp/out" 2>&1; merged=$?
[[ $whole == 1 && $merged == 1 ]] && grep -q "the shortest counterexample" "$tmp/out" && echo "ok   merge exits 1 on an unexpected counterexample" ||
  { echo "FAIL merge exit: one search $whole, shards $p0 and $p1, merged $merged:"; cat "$tmp/out"; failures=$((failures + 1)); }
merge_refuses "a file that is not a search's" "junk.json: not the exhaustive.json of a .check --exhaustive. run" "$tmp/s0/exhaustive.json" "$tmp/junk.json"
# A search's option on a plain check (a history to judge) is refused, not ignored.
"$locksim" check "$world" --clock-offsets 0,5 >"$tmp/out" 2>&1
[[ $? == 2 ]] && grep -q -- '--clock-offsets is an option of --exhaustive' "$tmp/out" && echo "ok   a search's option without --exhaustive" ||
  { echo "FAIL option without --exhaustive:"; cat "$tmp/out"; failures=$((failures + 1)); }
check "depth 0" 2 'the depth bound is at least 1' -- "$world" --depth 0 --out "$tmp/g"
check "a history's --name" 2 '--name is an option of a history.s check' -- "$world" --name foo --out "$tmp/g"
check "a history's --lock" 2 '--lock is an option of a history.s check' -- "$world" --lock rlock --out "$tmp/g"
"$locksim" check --exhaustive "$world" --latencies 0 --out "$tmp/g" >"$tmp/out" 2>&1
[[ $? == 2 ]] && ! grep -q '^bounds:' "$tmp/out" && echo "ok   bad bounds refused before they are shown" ||
  { echo "FAIL bad bounds:"; cat "$tmp/out"; failures=$((failures + 1)); }
# A shard that holds says so of its part only, and exits 0 for it.
check "a shard holds for its part" 0 "^HOLDS for every schedule within the bounds of shard 1/3's part \(.locksim merge. of every shard speaks for all\)" -- "$world" --faults crash:1 --shard 1/3 --out "$tmp/h1"
# A search that holds leaves no earlier search's counterexample or reports beside it.
"$locksim" check --exhaustive "$world" --faults pause=40000@A:1 --out "$tmp/stale" >/dev/null 2>&1
[[ -f $tmp/stale/counterexample.yaml && -f $tmp/stale/index.html ]] || { echo "FAIL no counterexample to leave stale"; failures=$((failures + 1)); }
check "a search that holds after one that did not" 0 '^HOLDS' -- "$world" --out "$tmp/stale"
[[ ! -e $tmp/stale/counterexample.yaml && ! -e $tmp/stale/index.html && ! -e $tmp/stale/summary.md ]] && echo "ok   no stale counterexample" ||
  { echo "FAIL stale reports left:"; ls "$tmp/stale"; failures=$((failures + 1)); }
# --random beside a search that found nothing does not speak of its counterexample.
check "--random beside a search that holds" 0 'the enumeration found none in' -- "$world" --random 5 --out "$tmp/r"
grep -q "first counterexample came after" "$tmp/out" && { echo "FAIL --random speaks of a counterexample that was not found"; failures=$((failures + 1)); }
# A property some schedules had nothing to judge for (nobody queued) holds in the others, and the
# search says how many tested it; one that no schedule could judge was never tested: not "holds".
queue=$here/fair-queue-sometimes-queued.yaml
check "nothing to judge in some schedules" 0 '^HOLDS for every schedule within the bounds: fair_queue, mutual_exclusion' -- "$queue" --out "$tmp/q"
grep -qE '^  fair_queue had nothing to judge in [1-9][0-9]* of the [0-9]+ schedules; the other [1-9][0-9]* tested it$' "$tmp/out" &&
  grep -qE '"nothing_to_judge":\{"fair_queue":[1-9][0-9]*,"mutual_exclusion":0\}' "$tmp/q/exhaustive.json" &&
  echo "ok   the schedules with nothing to judge are counted" || { echo "FAIL nothing-to-judge count:"; cat "$tmp/out"; failures=$((failures + 1)); }
line=$(grep 'had nothing to judge' "$tmp/out")
for i in 0 1; do "$locksim" check --exhaustive "$queue" --shard $i/2 --out "$tmp/q$i" >/dev/null 2>&1; done
"$locksim" merge "$tmp/q0/exhaustive.json" "$tmp/q1/exhaustive.json" --out "$tmp/qm.json" >"$tmp/out" 2>&1
[[ $? == 0 ]] && grep -qxF -- "$line" "$tmp/out" && echo "ok   merge counts the schedules with nothing to judge as one search" ||
  { echo "FAIL merge of nothing to judge (want: $line):"; cat "$tmp/out"; failures=$((failures + 1)); }
sed 's/at: 8,/at: 100,/' "$queue" >"$tmp/never-queued.yaml"
check "nothing to judge in any schedule" 1 '^NOT ALL JUDGED: no counterexample within the bounds for fair_queue, mutual_exclusion' -- "$tmp/never-queued.yaml" --out "$tmp/q"
grep -qE '^  but fair_queue had nothing to judge in any of the [0-9]+ schedules \(unknown\): it was never tested$' "$tmp/out" &&
  echo "ok   a property never tested is said so" || { echo "FAIL never tested:"; cat "$tmp/out"; failures=$((failures + 1)); }
# So is one a stopped search never tested.
check "a stopped search's untested property" 1 '^  but fair_queue had nothing to judge in any of the 30 schedules \(unknown\): it was never tested$' -- "$tmp/never-queued.yaml" --max-schedules 30 --out "$tmp/q"
# A shard whose part of the tree is empty judged nothing: not "holds".
check "a shard with no schedule" 1 "^NOTHING JUDGED: shard 50/339's part of the tree has no schedule within the bounds" -- "$queue" --shard 50/339 --out "$tmp/q50"
# The violation a search looks for, found: a property expected to hold that no schedule before it
# could judge (a token lock without a write: fencing) keeps it from exit 0.
check "an expected counterexample beside an untested claim" 1 '^  but fencing had nothing to judge in the one schedule \(unknown\): it was never tested$' -- "$here/expected-and-untested.yaml" --out "$tmp/eu"
grep -q '^COUNTEREXAMPLE (expected): mutual_exclusion' "$tmp/out" || { echo "FAIL no expected counterexample:"; cat "$tmp/out"; failures=$((failures + 1)); }
"$locksim" merge "$tmp/eu/exhaustive.json" --out "$tmp/eum.json" >"$tmp/out" 2>&1
[[ $? == 1 ]] && grep -q 'but fencing had nothing to judge' "$tmp/out" && echo "ok   merge: an expected counterexample beside an untested claim exits 1" ||
  { echo "FAIL merge of an untested claim:"; cat "$tmp/out"; failures=$((failures + 1)); }
# --first and deepening shards are not one search.
"$locksim" check --exhaustive "$world" --faults crash:1 --first --shard 0/2 --out "$tmp/f0" >/dev/null 2>&1
"$locksim" check --exhaustive "$world" --faults crash:1 --shard 1/2 --out "$tmp/f1" >/dev/null 2>&1
merge_refuses "a --first shard with a deepening one" "a shard of another search .*; --first; judging" "$tmp/f1/exhaustive.json" "$tmp/f0/exhaustive.json"
# --first shards' counterexample is not called the shortest.
for i in 0 1; do "$locksim" check --exhaustive "$world" --faults pause=40000@A:1 --first --shard $i/2 --out "$tmp/fp$i" >/dev/null 2>&1; done
"$locksim" merge "$tmp/fp0/exhaustive.json" "$tmp/fp1/exhaustive.json" --out "$tmp/fpm.json" >"$tmp/out" 2>&1
[[ $? == 1 ]] && grep -q "; a counterexample: mutual_exclusion, .* (--first: not necessarily the fewest)" "$tmp/out" && grep -q '"shortest":false' "$tmp/fpm.json" &&
  echo "ok   merge of --first shards claims no shortest" || { echo "FAIL merge of --first shards:"; cat "$tmp/out"; failures=$((failures + 1)); }
# Every shard's counterexample counts, whatever the order of the files: one of a property expected
# to hold makes the merge exit 1 though another shard's expected one costs no more. And a shortest
# counterexample is claimed only when every other shard searched every level below it. (Shard files
# edited: no small world gives these at once.)
"$locksim" check --exhaustive "$world" --faults crash:1 --expect mutual_exclusion=holds,reentrancy=violated --shard 0/2 --out "$tmp/x0" >/dev/null 2>&1
"$locksim" check --exhaustive "$world" --faults crash:1 --expect mutual_exclusion=holds,reentrancy=violated --shard 1/2 --out "$tmp/x1" >/dev/null 2>&1
sed -i 's/"counterexample":null/"counterexample":{"property":"reentrancy","cost":2,"choices":[1,1]}/' "$tmp/x0/exhaustive.json"
sed -i 's/"counterexample":null/"counterexample":{"property":"mutual_exclusion","cost":2,"choices":[2,1]}/' "$tmp/x1/exhaustive.json"
for order in "x0 x1" "x1 x0"; do
  set -- $order
  "$locksim" merge "$tmp/$1/exhaustive.json" "$tmp/$2/exhaustive.json" --out "$tmp/xm.json" >"$tmp/out" 2>&1
  [[ $? == 1 ]] && grep -q "counterexample: mutual_exclusion, 2 deviations, in shard 1" "$tmp/out" && echo "ok   merge ($order) keeps the unexpected counterexample" ||
    { echo "FAIL merge ($order):"; cat "$tmp/out"; failures=$((failures + 1)); }
done
sed -i 's/"counterexample":{"property":"reentrancy","cost":2,"choices":\[1,1\]}/"counterexample":null/; s/"level":[0-9]*,"complete":true/"level":0,"complete":false/' "$tmp/x0/exhaustive.json"
"$locksim" merge "$tmp/x0/exhaustive.json" "$tmp/x1/exhaustive.json" --out "$tmp/xm.json" >"$tmp/out" 2>&1
grep -q "a counterexample: mutual_exclusion, 2 deviations, in shard 1 (not necessarily the fewest" "$tmp/out" && ! grep -q "shortest" "$tmp/out" &&
  echo "ok   merge claims no shortest beside a shard that stopped early" || { echo "FAIL merge shortest:"; cat "$tmp/out"; failures=$((failures + 1)); }
exit $((failures > 0))
