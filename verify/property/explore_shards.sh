#!/usr/bin/env bash
# Exploration fanned out with GNU parallel over 2 shards, merged, equals the unsharded run, byte for
# byte. Skips (exit 77) when GNU parallel is not installed, unless CI is set.
set -euo pipefail
locksim=$1
if ! command -v parallel >/dev/null 2>&1; then
  if [[ -n "${CI:-}" ]]; then echo "GNU parallel is missing (tools/install-deps installs it)"; exit 1; fi
  echo "skipped: GNU parallel is not installed (tools/install-deps installs it)"
  exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
# --show-hazards: these faults break the lock only through hazards, which are then shrunk and reported too.
args=(--lock rlock --faults pause,crash,partition,redis_restart --properties mutual_exclusion,reentrancy --seeds 1..200 --shrink-runs 50 --show-hazards --cases cases)
# Exit code 1 means violations were found, which these faults produce; 2 or more is a failure.
status=0
"$locksim" explore "${args[@]}" --out all.jsonl >all.txt || status=$?
((status <= 1)) || { cat all.txt; exit 1; }
parallel --will-cite "'$locksim' explore ${args[*]} --shard {}/2 --out shard-{}.jsonl > shard-{}.txt; test \$? -le 1" ::: 0 1
"$locksim" merge shard-0.jsonl shard-1.jsonl --out merged.jsonl
cases() { grep -c '^{"seed":' "$1"; }
[[ $(cases all.jsonl) -eq 200 ]] || { echo "expected 200 cases, got $(cases all.jsonl)"; exit 1; }
[[ $(cases shard-0.jsonl) -eq 100 && $(cases shard-1.jsonl) -eq 100 ]] || { echo "shards are not 100 + 100"; exit 1; }
# The finding lines (a finding's seeds added up over the shards) come after the cases.
grep -q '^{"finding":' all.jsonl || { echo "expected a finding line"; exit 1; }
grep -q '"violated"' all.jsonl || { echo "expected some violations among 200 cases"; exit 1; }
cmp all.jsonl merged.jsonl
# Every counterexample the merged file names exists and replays to the violation (exit 1).
first=$(grep -m1 -o '"scenario":"[^"]*"' merged.jsonl | cut -d'"' -f4)
[[ -f "$first" ]] || { echo "missing counterexample $first"; exit 1; }
replay=0
"$locksim" run "$first" --out replay >/dev/null || replay=$?
((replay == 1)) || { echo "replaying $first gave exit code $replay, expected 1 (a violated holds)"; exit 1; }
# Without --show-hazards the same seeds are hazards, counted by hazard: their lines merge too.
plain=()
for a in "${args[@]}"; do [[ $a == --show-hazards ]] || plain+=("$a"); done
"$locksim" explore "${plain[@]}" --out plain.jsonl >plain.txt || true
parallel --will-cite "'$locksim' explore ${plain[*]} --shard {}/2 --out plain-{}.jsonl > plain-{}.txt; test \$? -le 1" ::: 0 1
"$locksim" merge plain-0.jsonl plain-1.jsonl --out plain-merged.jsonl
grep -q '^{"hazard":' plain.jsonl || { echo "expected a hazard line"; exit 1; }
cmp plain.jsonl plain-merged.jsonl
# A differential run's pairs with no verdict on one side (its acquires still waiting) are counted
# apart as hazards are, by the side and the other's hazard: their lines merge too.
diff=(--lock fair --redisson 3.23.0 --against redisson=3.52.0 --seeds 1..120 --cases none)
"$locksim" explore "${diff[@]}" --out diff.jsonl >diff.txt || true
parallel --will-cite "'$locksim' explore ${diff[*]} --shard {}/2 --out diff-{}.jsonl > diff-{}.txt; test \$? -le 1" ::: 0 1
"$locksim" merge diff-0.jsonl diff-1.jsonl --out diff-merged.jsonl
grep -q '^{"no_verdict_under":' diff.jsonl || { echo "expected a no-verdict line"; exit 1; }
cmp diff.jsonl diff-merged.jsonl
# A merge that would count a case twice, or miss a shard, is refused rather than summed.
refused() {  # refused PATTERN FILES...
  local pattern=$1 out
  shift
  if out=$("$locksim" merge "$@" --out refused.jsonl 2>&1); then echo "merge $* was not refused"; exit 1; fi
  [[ $out == *"$pattern"* ]] || { echo "merge $*: expected '$pattern', got: $out"; exit 1; }
}
refused "1 of 2 shards given; missing: 1" shard-0.jsonl
refused "shard 0 is given twice (shard-0.jsonl and shard-0.jsonl)" shard-0.jsonl shard-0.jsonl shard-1.jsonl
refused "seed 1 is in both all.jsonl and plain.jsonl" all.jsonl plain.jsonl
refused "is shard 0/2, but all.jsonl is no shard's file" all.jsonl shard-0.jsonl
refused "all.jsonl is no shard's file, but shard-0.jsonl is shard 0/2" shard-0.jsonl all.jsonl
: >empty.jsonl
refused "empty.jsonl is empty, not a shard's file" shard-0.jsonl empty.jsonl
refused "is shard 1/2 of" shard-0.jsonl plain-1.jsonl  # --show-hazards on one shard only: other lines
"$locksim" explore --lock rlock --properties mutual_exclusion --seeds 1..20 --shard 1/2 --cases none --out other-1.jsonl >/dev/null 2>&1 || true
refused "is shard 1/2 of \`locksim explore --lock rlock" shard-0.jsonl other-1.jsonl
echo "ok: 2 shards merged equal the unsharded run (cases, findings, hazards, pairs with no verdict); $first replays; bad merges refused"
