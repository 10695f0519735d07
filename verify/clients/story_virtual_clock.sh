#!/usr/bin/env bash
# Fault story c: a lease that runs out on serve's virtual clock. `locksim serve --clock virtual`; a
# redis-py client A takes Lock(timeout=30 s) and reads the counter; B cannot take the lock; the test
# sends LOCKSIM.CLOCK ADVANCE 31000 while A holds it; B takes it and updates the counter; A writes the
# value it read. check must FIND the lost update and the overlap, and the story must take well under a
# second of real time for its 31 s of lease.
# Usage: story_virtual_clock.sh LOCKSIM CLIENTS_DIR
source "$(dirname "$0")/lib.sh" "$@"
need_redis_server  # redis-cli talks to serve
need_redis_py

start_serve virtual --clock virtual --history "$work/virtual.jsonl" --lock lk --resource counter
timeout 60 "$python" "$here/story_redis_py_lock.py" virtual "$SERVE_PORT" >"$work/virtual.out" 2>&1 ||
  fail "the clients failed: $(cat "$work/virtual.out")"
stop_serve "$SERVE_PORT" "$SERVE_PID"
echo "--- what the clients saw"
cat "$work/virtual.out"
for line in "A: acquire -> True" "B: acquire while A's 30 s lease runs -> False" \
  "test: LOCKSIM.CLOCK ADVANCE 31000 -> moved 31000 ms" "B: acquire -> True" "B: read 0" "counter at the end: 1" \
  "A: release -> LockNotOwnedError: Cannot release a lock that's no longer owned"; do
  grep -qxF "$line" "$work/virtual.out" || fail "expected the line '$line'"
done
seconds=$(sed -n 's/^real seconds: //p' "$work/virtual.out")
awk -v s="$seconds" 'BEGIN { exit !(s < 1.0) }' || fail "31 s of lease took $seconds s of real time (expected < 1 s)"

"$locksim" check "$work/virtual.jsonl" --out "$work/reports" --expect resource=violated \
  --expect mutual_exclusion=violated >"$work/check.out" 2>&1
code=$?
echo "--- locksim check (exit $code)"
cat "$work/check.out"
((code == 0)) || fail "check did not find the lost update and the overlap the clock advance made"
grep -q "acquired lk at 31000 ms while A:0 still believed it held lk" "$work/check.out" ||
  fail "the overlap should be at the virtual 31000 ms"
echo "PASS 31 s of lease ran out in $seconds s of real time; the lost update and the overlap are found"
