#!/usr/bin/env bash
# `locksim audit` as a user meets it, from a folder with a scenarios/ of its own: what to do comes
# first (the upgrade and the bugs it fixes, read by hand from docs/redisson-versions.md), a bug the
# version has reads "affected" and one it fixed "fixed", every line fits 100 columns into a pipe, the
# replay commands are short and replay the story byte for byte, --set changes a story and not what
# its verdict means, --format md gives the Markdown, --self-check is locksim checking itself, and bad
# usage is refused with exit code 2.
set -uo pipefail
locksim=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=1; }

# A user's project: a scenarios/ with a file named like a story of the library, which is not one.
mkdir -p "$dir/project/scenarios/redisson"
echo "not: [a scenario" >"$dir/project/scenarios/redisson/2018-unlock-expired-silent.yaml"
cd "$dir/project" || exit 1

refuses() {  # expected-text args...
  local expected=$1; shift
  local out status
  out=$("$locksim" audit --out "$dir/bad" "$@" 2>&1); status=$?
  [[ $status -eq 2 && $out == *"$expected"* ]] || fail "audit $*: exit $status, expected 2 and '$expected'; got: $out"
}
refuses "is not modelled (modelled: 3.5.5 to 4.7.0)" --redisson 3.4.0
refuses "is not a Redisson version" --redisson latest
refuses "--redisson X.Y.Z is required"
refuses "expected one of Redisson's lock types" --redisson 3.23.0 --lock token
refuses "unknown key 'unlock-latch' in lock" --redisson 3.23.0 --set unlock-latch=true
refuses "Redisson 3.23.0 has no nonreentrant lock (it came in 4.4.0)" --redisson 3.23.0 --lock nonreentrant
refuses "fair_variant applies to lock types fair and nonreentrant-fair only" --redisson 3.23.0 --lock rlock --set fair_variant=tail
refuses "--self-check compares the stories with locksim's version table" --redisson 3.23.0 --self-check --set watchdog_ms=60000
refuses "--format" --redisson 3.23.0 --format html
refuses "the version audited is --redisson's" --redisson 3.23.0 --set redisson=3.44.0
refuses "--set lease_ms=10000: a lease on every acquire" --redisson 3.23.0 --set lease_ms=10000

# Every Redisson lock type has stories: a fenced lock's own hazards, and RLock's stories run as fenced.
fenced=$("$locksim" audit --redisson 3.23.0 --lock fenced --out "$dir/fenced" 2>&1); status=$?
[[ $status -eq 1 ]] || fail "fenced on 3.23.0: exit $status, expected 1 (#4871 affects it): $fenced"
grep -Eq "^  #4871 +affected\*? +up to 3.23.x" <<<"$fenced" || fail "fenced: #4871 not shown affected"
grep -q "written for rlock, ran as a fenced lock" <<<"$fenced" || fail "fenced: the story run as fenced does not say so"
grep -Eq "^  fence-rule +affected\*? +every version" <<<"$fenced" || fail "fenced: the equal-token hazard is not shown"
grep -q "^type: fenced" "$dir/fenced/4871/story.yaml" 2>/dev/null || grep -q "  type: fenced" "$dir/fenced/4871/story.yaml" ||
  fail "fenced: the written story is not a fenced lock's"

fits() {  # name text: no line wider than 100 columns
  local long
  long=$(awk 'length($0) > 100' <<<"$2")
  [[ -z $long ]] || fail "$1: lines wider than 100 columns:"$'\n'"$long"
}

# 3.23.0, rlock: before the latch (#4871, 3.24.0), the batched watchdog (#3194, 3.44.0) and 3.28's
# listener (#5761): 3.44.0 is the first version without any of them, but it has the renewal entry's
# leak (#6144, 3.37.0 - 3.45.x), so the advice is 3.46.0.
old=$("$locksim" audit --redisson 3.23.0 --lock rlock --out "$dir/old" 2>&1); status=$?
[[ $status -eq 1 ]] || fail "3.23.0: exit $status, expected 1 (bugs affect it): $old"
# The advice comes first, after the headline (one paragraph, two lines when it names an open bug).
first=$(awk '/^$/ {print NR + 1; exit}' <<<"$old")
[[ $(sed -n "${first}p" <<<"$old") == "What to do" ]] || fail "3.23.0: the advice does not come first: $(head -5 <<<"$old")"
[[ $(sed -n "$((first + 1))p" <<<"$old") == "  Upgrade to 3.46.0: it fixes #4871, #3194, #5761, #5623"* ]] ||
  fail "3.23.0: the advice's first line is not the upgrade: $(sed -n "$((first + 1))p" <<<"$old")"
for issue in 4871 3194 5761; do
  grep -Eq "^  #$issue +affected +up to" <<<"$old" || fail "3.23.0: #$issue not shown affected"
done
grep -Eq "^  #5623 +affected +3.19.2 - 3.27.1" <<<"$old" || fail "3.23.0: #5623 not shown affected"
grep -Eq "^  #2018 +fixed +up to 3.10.5" <<<"$old" || fail "3.23.0: #2018 (fixed in 3.10.6) not shown fixed"
grep -Eq "^  #6144 +not yet +3.37.0 - 3.45.x" <<<"$old" || fail "3.23.0: #6144 (from 3.37.0) not shown 'not yet'"
# 3.23.0 is older than #6651 (3.24.0 - 3.51.x), but the upgrade it is told to make (3.46.0) has it.
grep -q "not weighed here: #6651 (3.24.0 - 3.51.x, which 3.46.0 has)." <<<"$old" ||
  fail "3.23.0: #6651, which the advised 3.46.0 has, is not named: $old"
# The headline's hazards are the ones listed under "No version avoids these"; #7272, an open bug and
# no hazard, has its own heading, and the headline counts it apart.
grep -A1 "^Open, no version fixes these yet: mitigate them too" <<<"$old" | grep -q "^  #7272 " ||
  fail "3.23.0: #7272 has no heading of its own"
grep -q "3 hazards and 1 open bug no version avoids.$" <<<"$(head -2 <<<"$old" | tr '\n' ' ' | sed 's/  */ /g; s/ $//')" ||
  fail "3.23.0: the headline does not count #7272 apart: $(head -2 <<<"$old")"
hazards_listed=$(sed -n '/^No version avoids these/,/^$/p' <<<"$old" | grep -c "^  [^ ]")
[[ $hazards_listed -eq 3 ]] || fail "3.23.0: $hazards_listed items under 'No version avoids these', the headline says 3"
# A lock no bug story concerns says so, not "0 of the 0 modelled bugs".
nrf=$("$locksim" audit --redisson 4.7.0 --lock nonreentrant-fair --out "$dir/nrf" 2>&1)
grep -q "^Redisson 4.7.0 (nonreentrant-fair): no story of a modelled bug concerns this lock; 2 hazards" <<<"$nrf" ||
  fail "nonreentrant-fair: the headline is $(head -1 <<<"$nrf")"
in_range=$("$locksim" audit --redisson 3.30.0 --lock rlock --out "$dir/in-range" 2>&1)
grep -q "Known, not modelled, so not weighed here: #6651 (3.24.0 - 3.51.x)." <<<"$in_range" ||
  fail "3.30.0: #6651 (3.24.0 - 3.51.x) is not said to be unweighed: $in_range"
grep -Eq "^  #2665 +affected +every version" <<<"$old" || fail "3.23.0: the pause hazard is not shown"
grep -q -- "--set unlock_latch=true" <<<"$old" || fail "3.23.0: the latch's option is not offered"
grep -q "shown working with a token lock, not Redisson's: locksim run pause-longer-than-lease-token" <<<"$old" ||
  fail "3.23.0: no mitigation shown working, or not said to be another kind of lock's"
if grep -Eqi "pass: violation expected|regression|as the table says" <<<"$old"; then fail "3.23.0: test words in the advice: $old"; fi
fits "3.23.0 into a pipe" "$old"
for f in index.html summary.md results.json junit.xml 4871/timeline.html 4871/story.yaml; do
  [[ -s $dir/old/$f ]] || fail "3.23.0: no $f written"
done
[[ ! -e $dir/project/reports/latest ]] || fail "the audit wrote reports/latest"
# The replay command, run where it says, gives the same history.
grep -q "replay one: cd $dir/old && locksim run <issue>" <<<"$old" || fail "3.23.0: where to replay from is not said"
(cd "$dir/old" && "$locksim" run 4871 --out "$dir/replay" >/dev/null 2>&1) || fail "replaying 4871 did not meet what the audit saw"
cmp -s "$dir/old/4871/history.jsonl" "$dir/replay/4871/history.jsonl" || fail "the replay of 4871 ran another history"

# 4.7.0: every modelled rlock bug fixed; the hazards remain.
new=$("$locksim" audit --redisson 4.7.0 --lock rlock --out "$dir/new" 2>&1); status=$?
[[ $status -eq 0 ]] || fail "4.7.0: exit $status, expected 0: $new"
grep -q "No upgrade needed" <<<"$new" || fail "4.7.0: expected no upgrade; got: $new"
grep -Eq "^  #4871 +fixed" <<<"$new" || fail "4.7.0: #4871 not shown fixed"
# #6651 (3.24.0 - 3.51.x, not modelled) is weighed for no version outside its range.
grep -q "not weighed here: #6651" <<<"$new" && fail "4.7.0: #6651 (fixed in 3.52.0) is called not weighed"
# 4.7.0's WAIT is modelled: the hazard stands (its story turns checkLockSyncedSlaves off), unstarred.
grep -Eq "^  failover +affected +every version" <<<"$new" || fail "4.7.0: the failover hazard is not shown, or starred"
grep -q "^  \* failover: its story fails over to a replica" <<<"$new" && fail "4.7.0: the failover story is said to miss WAIT"
# 3.51.0 sends WAIT too, not modelled: its star says the story ran without it.
pre=$("$locksim" audit --redisson 3.51.0 --lock rlock --out "$dir/pre" 2>&1)
grep -Eq "^  failover +affected\* +every version" <<<"$pre" || fail "3.51.0: the failover hazard is not shown, or not starred"
grep -q "^  \* failover: its story fails over to a replica" <<<"$pre" || fail "3.51.0: the failover story's missing WAIT is not said"

# 3.52.0: no story shows a bug, but #6844 (modelled, seen by no property) is fixed by 4.3.0.
mid=$("$locksim" audit --redisson 3.52.0 --lock rlock --out "$dir/mid" 2>&1); status=$?
[[ $status -eq 0 ]] || fail "3.52.0: exit $status, expected 0: $mid"
grep -q "Upgrade to 4.3.0: it fixes #6844, which locksim models but no story shows." <<<"$mid" ||
  fail "3.52.0: the upgrade for #6844 is not said; got: $mid"

# The bug's own switch reaches its story: without the latch, 3.36.0 has #4871 again (the last version
# that resends an unlock; from 3.37.0 it is sent once, and the story holds without the latch too).
set=$("$locksim" audit --redisson 3.36.0 --lock rlock --set unlock_latch=false --out "$dir/set" 2>&1); status=$?
[[ $status -eq 1 ]] || fail "3.36.0 without the latch: exit $status, expected 1: $set"
grep -Eq "^  #4871 +affected\* +up to 3.23.x" <<<"$set" || fail "--set unlock_latch=false: #4871 not affected; got: $set"
grep -q "Your --set options bring back #4871" <<<"$set" || fail "--set unlock_latch=false: not said why"

# A timing option changes the story, not what its verdict means: a 60 s watchdog on 3.43.0 still has
# #3194, and #1966 (fixed in 3.10.5) does not turn up.
wd=$("$locksim" audit --redisson 3.43.0 --set watchdog_ms=60000 --out "$dir/wd" 2>&1); status=$?
[[ $status -eq 1 ]] || fail "3.43.0 watchdog_ms=60000: exit $status: $wd"
grep -Eq "^  #3194 +affected\*" <<<"$wd" || fail "watchdog_ms=60000: #3194 not shown affected: $wd"
grep -Eq "^  #1966 +fixed\*" <<<"$wd" || fail "watchdog_ms=60000: #1966 not shown fixed: $wd"
grep -q "#1966: --set watchdog_ms=60000 not applied" <<<"$wd" || fail "watchdog_ms=60000: #1966's refusal not said"
grep -q "#3194: its story's times scaled x2 with watchdog_ms" <<<"$wd" || fail "watchdog_ms=60000: #3194's scaling not said"
# Every lock type: only 4.7.0 also ends the renewal entry's leaks (#6144 to 3.45.x, the read side's #7251
# to 4.6.x) and the ReadWriteLock's renewal of dead readers (#1458, to 4.3.x).
grep -q "Upgrade to 4.7.0: it fixes #3194, #1458, #6144, #7251." <<<"$wd" || fail "watchdog_ms=60000: the upgrade is not 4.7.0 for #3194, #1458, #6144, #7251"
fits "3.43.0 with --set" "$wd"

md=$("$locksim" audit --redisson 3.23.0 --lock rlock --format md --out "$dir/md" 2>&1)
[[ $(head -1 <<<"$md") == "# Redisson 3.23.0: what to do" ]] || fail "--format md: $(head -3 <<<"$md")"
grep -q "^| #4871 | affected | up to 3.23.x |" <<<"$md" || fail "--format md: no Markdown row for #4871"
grep -q "\[timeline\](4871/timeline.html)" "$dir/md/summary.md" || fail "summary.md does not link the timelines"
grep -q "$dir/md/4871/timeline.html" <<<"$md" || fail "--format md does not name the timelines' paths"

check=$("$locksim" audit --redisson 3.23.0 --lock rlock --self-check --out "$dir/check" 2>&1); status=$?
[[ $status -eq 0 && $check == *"Every verdict as the version table says."* ]] || fail "--self-check: exit $status: $check"

((fails == 0)) && echo "ok: audit advice, tables, replays, options and bad usage"
exit $fails
