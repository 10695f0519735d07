#!/usr/bin/env bash
# `locksim audit`: two versions give different, correct tables (the bugs each is affected by, as the
# version history says), reports are written, and bad usage is refused with exit code 2.
set -uo pipefail
locksim=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "$*"; fails=1; }

refuses() {  # expected-text args...
  local expected=$1; shift
  local out status
  out=$("$locksim" audit --out "$dir/bad" "$@" 2>&1); status=$?
  [[ $status -eq 2 && $out == *"$expected"* ]] || fail "audit $*: exit $status, expected 2 and '$expected'; got: $out"
}
refuses "is not modelled (modelled: 3.5.5 to 3.52.0)" --redisson 3.4.0
refuses "is not a Redisson version" --redisson latest
refuses "--redisson X.Y.Z is required"
refuses "expected one of Redisson's lock types" --redisson 3.23.0 --lock token
refuses "unknown key 'unlock-latch' in lock" --redisson 3.23.0 --set unlock-latch=true

# 3.23.0: before the latch (#4871), before the batched watchdog (#3194), before 3.28's listener (#5761).
old=$("$locksim" audit --redisson 3.23.0 --lock rlock --out "$dir/old" 2>&1) || fail "audit 3.23.0: exit $?: $old"
[[ $old == *"## Bugs that affect 3.23.0 (3)"* ]] || fail "3.23.0: expected 3 bugs; got: $old"
for issue in "#4871" "#3194" "#5761"; do
  grep -q "^| $issue .*| violated (.*) | yes |" <<<"$old" || fail "3.23.0: $issue not shown violated as the table says"
done
grep -q "^| #2018 .*| holds (reentrancy) | yes |" <<<"$old" || fail "3.23.0: #2018 (fixed in 3.10.6) not shown holding"
for f in summary.md results.json junit.xml 4871-resent-unlock-runs-twice/timeline.html; do
  [[ -s $dir/old/$f ]] || fail "3.23.0: no $f written"
done

# 3.52.0: every modelled rlock bug fixed; the hazards remain.
new=$("$locksim" audit --redisson 3.52.0 --lock rlock --out "$dir/new" 2>&1) || fail "audit 3.52.0: exit $?: $new"
[[ $new == *"## Bugs that affect 3.52.0 (0)"* && $new == *"None of the modelled bugs."* ]] || fail "3.52.0: expected no bug; got: $new"
[[ $new == *"## Hazards no version avoids (2)"* ]] || fail "3.52.0: expected the 2 hazards; got: $new"
grep -q "^| #4871 .*| holds (mutual_exclusion) | yes |" <<<"$new" || fail "3.52.0: #4871 not shown holding"
[[ $old != "$new" ]] || fail "3.23.0 and 3.52.0 gave the same table"

# The configuration in use reaches every story: without the latch, 3.52.0 has #4871 again.
set=$("$locksim" audit --redisson 3.52.0 --lock rlock --set unlock_latch=false --out "$dir/set" 2>&1); status=$?
[[ $status -eq 1 && $set == *"your --set options change them"* ]] || fail "3.52.0 without the latch: exit $status, expected 1 and why; got: $set"
grep -q "^| #4871 .*| violated (mutual_exclusion) | NO |" <<<"$set" || fail "--set unlock_latch=false: #4871 not violated; got: $set"

((fails == 0)) && echo "ok: audit tables for 3.23.0 and 3.52.0, reports written, bad usage refused"
exit $fails
