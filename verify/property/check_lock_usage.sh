#!/usr/bin/env bash
# `locksim check` on a run's history as a user meets it: what a property means depends on the lock
# (readers share a ReadWriteLock), so a run's history is judged as the lock its End names, a --lock
# that says otherwise is refused, a history of locksim's own clients that names none (an older
# one) is judged as the lock --lock names and refused without one, and an empty history has
# nothing to judge, even with --expect.
source "$(dirname "$0")/../support/usage.sh" "$@"

"$locksim" run "$source_dir/scenarios/rwlock-readers-share.yaml" --out run >/dev/null 2>&1
history=run/rwlock-readers-share/history.jsonl
[[ -s $history ]] || { echo "FAIL: locksim run wrote no $history"; exit 1; }

# The run's End names its lock: judged as a ReadWriteLock without being told (the readers shared).
grep -q '"type":"end","p":"world","f":"rwlock"' "$history" || fail "the End does not name the lock: $(tail -1 "$history")"
for stream in --out=r10 --stream; do
  out=$("$locksim" check "$stream" "$history" 2>&1); status=$?
  [[ $status -eq 0 && $out == *"read_write  -         holds"* && $out != *mutual_exclusion* ]] \
    || fail "check $stream of a run's history, without --lock: exit $status, expected 0 and read_write judged; got: $out"
  # Judged as an RLock, its sharing readers would be "violated": a --lock that says otherwise is refused.
  out=$("$locksim" check "$stream" "$history" --lock rlock 2>&1); status=$?
  [[ $status -eq 2 && $out == *"was recorded by a run of a rwlock lock, not a rlock one"* ]] \
    || fail "check $stream --lock rlock of a rwlock run: exit $status, expected 2; got: $out"
done
sed 's/"f":"rwlock"}$/"f":"rwlok"}/' "$history" >misnamed.jsonl
out=$("$locksim" check misnamed.jsonl --out r11 2>&1); status=$?
[[ $status -eq 2 && $out == *"says its clients ran a lock of type 'rwlok', which this locksim does not know"* ]] \
  || fail "a history naming an unknown lock: exit $status; got: $out"

# A history that does not name its lock (an older locksim's): refused without --lock, naming the
# script that gave it away and the flag to use.
mkdir -p untyped/rwlock-readers-share
sed 's/"type":"end","p":"world","f":"rwlock"}$/"type":"end","p":"world"}/' "$history" >untyped/rwlock-readers-share/history.jsonl
history=untyped/rwlock-readers-share/history.jsonl
out=$("$locksim" check "$history" --out r0 2>&1); status=$?
[[ $status -eq 2 && $out == *"ran the script rwlock_"*"say which with --lock TYPE"* ]] \
  || fail "check without --lock: exit $status, expected 2 and a request for --lock; got: $out"
out=$("$locksim" check --stream "$history" 2>&1); status=$?
[[ $status -eq 2 && $out == *"--lock TYPE"* ]] || fail "check --stream without --lock: exit $status; got: $out"

# With it: every property that applies to a ReadWriteLock, judged as one (the readers shared; all hold).
out=$("$locksim" check "$history" --lock rwlock --out r1 2>&1); status=$?
[[ $status -eq 0 ]] || fail "check --lock rwlock: exit $status, expected 0: $out"
for property in read_write reentrancy watchdog liveness; do
  grep -qE "^rwlock-readers-share +rwlock +$property +- +holds" <<<"$out" || fail "no '$property holds' row: $out"
done
grep -q "mutual_exclusion" <<<"$out" && fail "mutual_exclusion judged on a ReadWriteLock: $out"
out=$("$locksim" check --stream "$history" --lock rwlock 2>&1); status=$?
[[ $status -eq 0 && $out == *"read_write  -         holds"* ]] || fail "check --stream --lock rwlock: exit $status: $out"

# A property that does not apply to the lock, and a lock locksim does not know, are refused.
out=$("$locksim" check "$history" --lock rwlock --properties mutual_exclusion --out r2 2>&1); status=$?
[[ $status -eq 2 && $out == *"does not apply to a rwlock lock"* ]] || fail "an inapplicable property: exit $status; got: $out"
out=$("$locksim" check "$history" --lock rwlok --out r3 2>&1); status=$?
[[ $status -eq 2 && $out == *"--lock rwlok: expected rlock, fair"* ]] || fail "an unknown lock: exit $status; got: $out"

# An empty history has nothing to judge: an expectation of "holds" is not met by default.
: >empty.jsonl
for stream in --out=r4 --stream; do
  out=$("$locksim" check "$stream" empty.jsonl --expect mutual_exclusion=holds 2>&1); status=$?
  [[ $status -eq 2 && $out == *"has no events: there is nothing to judge"* ]] \
    || fail "check $stream of an empty history with --expect: exit $status, expected 2; got: $out"
done
# Other clients' histories are judged as a generic lock: a command that is not one of locksim's
# script files (go-redis sends evalsha_ro in lowercase) does not make it locksim's.
printf '%s\n' '{"i":0,"t":0,"type":"exec","p":"redis0","text":"conn1 evalsha_ro abc 1 k","reply":"nil","client":"conn1"}' \
  '{"i":1,"t":1,"type":"hold","p":"A","thread":1,"lock":"orders","f":"lock","value":1}' >other.jsonl
out=$("$locksim" check other.jsonl --out r7 2>&1); status=$?
[[ $status -eq 0 && $out == *"mutual_exclusion  -         holds"* ]] || fail "another client's history: exit $status; got: $out"

# A client's name may have a space: the script is read after the whole name.
sed 's/\bA\b/reader A/g; s/\bB\b/reader B/g; s/clients: \[reader A, reader B\]/clients: ["reader A", "reader B"]/' \
  "$source_dir/scenarios/rwlock-readers-share.yaml" >spaced.yaml
"$locksim" run spaced.yaml --out spaced >/dev/null 2>&1
spaced=$(ls spaced/*/history.jsonl 2>/dev/null | head -1)
grep -q '"client":"reader A"' "$spaced" || fail "the spaced scenario did not run with its clients: $(head -3 spaced.yaml)"
sed -i 's/"type":"end","p":"world","f":"rwlock"}$/"type":"end","p":"world"}/' "$spaced"
out=$("$locksim" check "$spaced" --out r8 2>&1); status=$?
[[ $status -eq 2 && $out == *"say which with --lock TYPE"* ]] || fail "a run with a spaced client name: exit $status; got: $out"

# A serve history (no client operations) with --lock gets what it has inputs for, resource included.
printf '%s\n' '{"i":0,"t":1,"type":"exec","p":"redis0","f":"resource_read","text":"B GET counter","reply":"\"0\"","client":"B"}' \
  '{"i":1,"t":2,"type":"exec","p":"redis0","f":"resource_read","text":"A GET counter","reply":"\"0\"","client":"A"}' \
  '{"i":2,"t":2,"type":"exec","p":"redis0","f":"resource_write","text":"A SET counter 1","reply":"OK","client":"A"}' \
  '{"i":3,"t":3,"type":"exec","p":"redis0","f":"resource_write","text":"B SET counter 1","reply":"OK","client":"B"}' >lost.jsonl
out=$("$locksim" check lost.jsonl --lock rlock --out r9 2>&1); status=$?
[[ $status -eq 1 && $out == *"resource  -         violated"* ]] || fail "a lost update with --lock rlock: exit $status; got: $out"
grep -qE "mutual_exclusion|liveness|watchdog|reentrancy" <<<"$out" && fail "properties without inputs judged: $out"

# A file that is not a history says so, and a field of the wrong type is named.
out=$("$locksim" check "$source_dir/examples/exhaustive/rlock-2x2.yaml" --out r5 2>&1); status=$?
[[ $status -eq 2 && $out == *"history line 1: not a JSON object"*"check --exhaustive"* ]] \
  || fail "check of a scenario file: exit $status; got: $out"
printf '{"i":0,"t":"x","type":"invoke","p":"A"}\n' >badfield.jsonl
out=$("$locksim" check badfield.jsonl --out r6 2>&1); status=$?
[[ $status -eq 2 && $out == *"history line 1: 't' must be an integer, not \"x\""* ]] || fail "a bad field: exit $status; got: $out"
((fails == 0)) && echo "ok: check judges a run's history as the lock it names (or --lock does), and refuses what it cannot judge"
exit $fails
