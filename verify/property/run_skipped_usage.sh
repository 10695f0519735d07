#!/usr/bin/env bash
# `locksim run` where scenarios are skipped: a run that skipped some and judged the rest exits as its
# verdicts say; one that skipped every scenario judged nothing, and says so with exit 1, so that a CI
# job that tested nothing does not pass.
source "$(dirname "$0")/../support/usage.sh" "$@"

refuses=$source_dir/scenarios/clock-jump-backward-trylock.yaml  # live.time_scale: false
scales=$source_dir/scenarios/watchdog-long-job.yaml
grep -q 'time_scale: false' "$refuses" || fail "$refuses no longer refuses --time-scale"
grep -q 'time_scale: false' "$scales" && fail "$scales refuses --time-scale"

"$locksim" run "$refuses" --time-scale 0.5 --out all-skipped >out.txt 2>&1
status=$?
[[ $status -eq 1 ]] || fail "every scenario skipped: exit $status, expected 1: $(cat out.txt)"
grep -q "every scenario was skipped (the table says why): nothing was judged" out.txt || fail "no word that nothing was judged: $(cat out.txt)"
grep -q "skipped" all-skipped/summary.md || fail "the reports do not show the skipped scenario"

"$locksim" run "$refuses" "$scales" --time-scale 0.5 --out some-skipped >out.txt 2>&1
status=$?
[[ $status -eq 0 ]] || fail "one skipped, one judged as expected: exit $status, expected 0: $(cat out.txt)"
grep -q "nothing was judged" out.txt && fail "a run that judged a scenario says nothing was judged"

((fails == 0)) && echo "ok: a run that skipped every scenario exits 1; one that judged some exits as its verdicts"
exit $fails
