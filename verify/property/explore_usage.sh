#!/usr/bin/env bash
# `locksim explore` refuses bad options with exit code 2 and a message that says what was expected.
set -uo pipefail
locksim=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
fails=0
refuses() {  # expected-text args...
  local expected=$1; shift
  local out status
  out=$("$locksim" explore --count 1 --cases none "$@" 2>&1); status=$?
  if [[ $status -ne 2 || $out != *"$expected"* ]]; then
    echo "explore $*: exit $status, expected 2 and '$expected'; got: $out"
    fails=1
  fi
}
refuses "unknown key 'unlock-latch' in lock" --set unlock-latch=true
refuses "scripts are replaced with --script NAME=FILE" --set script:rlock_unlock=x.lua
refuses "expected KEY=VALUE" --against fair_variant
refuses "fair_variant applies to lock types fair and nonreentrant-fair only" --lock rlock --against fair_variant=tail-3.32
refuses "expected true or false for unlock_latch" --against unlock_latch=maybe
refuses "threads per client must be within 1..100" --threads 0
refuses "the longest tryLock wait must not be negative" --wait-ms-max -1
refuses "the horizon is at most 1000000000 ms" --horizon-ms 60000000000
refuses "unknown fair_variant 'middle'" --lock fair --fair-variant middle
mkdir -p "$dir/a-folder"
refuses "--out a-folder is a folder: --out names a file" --out a-folder
refuses "Redisson 4.3.0 has no nonreentrant lock: it came in 4.4.0" --lock nonreentrant --redisson 4.3.0
# A shard left no seed would judge nothing and exit 0.
out=$("$locksim" explore --seeds 1..2 --shard 5/10 --cases none 2>&1); status=$?
if [[ $status -ne 2 || $out != *"--shard 5/10 over seeds 1..2 leaves this shard no seed: split them into at most 2 shards"* ]]; then
  echo "explore --shard 5/10 of 2 seeds: exit $status, expected 2; got: $out"
  fails=1
fi
((fails == 0)) && echo "ok: every bad option refused with exit 2 and its reason"
# A property some cases had nothing to judge for (nobody queued on the FairLock) is said to be
# unjudged there: "0 findings" does not cover those cases.
out=$("$locksim" explore --lock fair --count 100 --properties fair_queue,mutual_exclusion --cases none 2>&1)
if [[ $out =~ not\ judged\ in\ every\ case\ .*:\ fair_queue\ in\ [1-9][0-9]*\ of\ 100\ cases ]] && [[ $out != *"mutual_exclusion in"* ]]; then
  echo "ok: the cases with fair_queue unjudged are counted"
else
  echo "explore --lock fair: expected fair_queue unjudged in some cases; got: $out"
  fails=1
fi
exit $fails
