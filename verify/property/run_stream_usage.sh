#!/usr/bin/env bash
# `locksim run --stream` as a user meets it: each history is written to its file as it is recorded
# and judged from there as it streams. The verdict table, the results (pinned outcomes included) and
# the histories are those of the same run held whole; the streamed reports have no timeline, and
# nothing is left behind in the report folder.
source "$(dirname "$0")/../support/usage.sh" "$@"

scenarios=(fair-crashed-waiter-head pause-longer-than-lease-rlock client-side-reentrancy watchdog-long-job)
files=()
for s in "${scenarios[@]}"; do files+=("$source_dir/scenarios/$s.yaml"); done

"$locksim" run "${files[@]}" --out whole >whole.txt 2>&1
whole_status=$?
mkdir -p streamed/watchdog-long-job && echo stale >streamed/watchdog-long-job/timeline.html  # an earlier run's
"$locksim" run "${files[@]}" --out streamed --stream >streamed.txt 2>&1
streamed_status=$?
[[ $streamed_status -eq $whole_status ]] || fail "exit $streamed_status streamed, $whole_status whole"
grep -q "violated" whole.txt || fail "the whole run shows no violation to compare: $(cat whole.txt)"
diff <(grep -v "^reports:" whole.txt) <(grep -v "^reports:" streamed.txt) >table.diff \
  || fail "the verdict tables differ: $(cat table.diff)"
grep -q "^reports: streamed/index.html.*<scenario>/history.jsonl" streamed.txt || fail "no reports line: $(cat streamed.txt)"
for s in "${scenarios[@]}"; do
  [[ -s streamed/$s/history.jsonl ]] || { fail "no streamed/$s/history.jsonl"; continue; }
  cmp -s whole/$s/history.jsonl streamed/$s/history.jsonl || fail "$s: the streamed history differs from the whole run's"
  [[ ! -e streamed/$s/timeline.html ]] || fail "$s: a streamed run wrote (or left) a timeline"
done
# The same results, pinned outcomes included, but for the seconds each run took.
diff <(grep -v '"seconds"' whole/results.json) <(grep -v '"seconds"' streamed/results.json) >results.diff \
  || fail "results.json differs: $(head -20 results.diff)"
grep -q '"property": "op B:1 try_lock #3"' streamed/results.json || fail "no pinned outcome was compared"
leftover=$(find streamed -name '.streaming-*')
[[ -z $leftover ]] || fail "left behind: $leftover"
grep -q "(streamed: no timeline)" streamed/summary.md || fail "summary.md does not say the timeline is missing"

# A history that cannot be written where the reports go is bad usage, said before anything runs.
touch not-a-folder
"$locksim" run "${files[0]}" --out not-a-folder/reports --stream >bad.txt 2>&1
[[ $? -eq 2 ]] && grep -q "cannot create" bad.txt || fail "an unwritable --out: $(cat bad.txt)"

# Reports that cannot be written (a file where a scenario's folder goes) are bad usage, and the
# streamed histories stay where the run wrote them, each said.
mkdir blocked && touch blocked/pause-longer-than-lease-rlock
"$locksim" run "${files[@]:0:2}" --out blocked --stream >blocked.txt 2>&1
[[ $? -eq 2 ]] || fail "reports that cannot be written: exit $?, expected 2"
[[ -s blocked/fair-crashed-waiter-head/history.jsonl ]] || fail "the first history did not reach its folder"
[[ -s blocked/.streaming-2.jsonl ]] || fail "the second history, whose folder could not be made, was not kept"
grep -q "pause-longer-than-lease-rlock's history is in blocked/.streaming-2.jsonl" blocked.txt \
  || fail "not said where the second history is: $(cat blocked.txt)"

# A history that cannot be written (here a file size limit of 30 KiB; the history is 60) stops the
# run with that said, and what was written is kept as the scenario's history.
(
  ulimit -f 30
  trap '' XFSZ
  "$locksim" run "$source_dir/scenarios/setnx-expire-not-atomic.yaml" --out limited --stream >limited.txt 2>&1
  echo $? >limited.status
)
[[ $(cat limited.status) -eq 1 ]] || fail "a history that could not be written: exit $(cat limited.status), expected 1"
grep -q "the run stopped: its history could not be written to its file" limited.txt \
  || fail "no word of the history that could not be written: $(cat limited.txt)"
kept=limited/setnx-expire-not-atomic/history.jsonl
[[ -s $kept ]] && (($(wc -c <"$kept") <= 30 * 1024)) || fail "the part written was not kept: $(ls -la limited/*/ 2>&1)"

((fails == 0)) && echo "ok: run --stream judges as the whole run does and writes the same histories"
exit $fails
