#!/usr/bin/env bash
# The locksim command line as a user meets it: --version, help, a mistyped command, and `locksim redis`
# with redis-cli's own flags. Where redis-cli is the reference, the same words go to `locksim redis`
# and to `redis-cli -p PORT` against a private redis-server (flushed before each), and both must print
# the same bytes and exit alike. The prompt is checked on a pseudo-terminal (`script`, util-linux).
# Usage: bash cli.sh LOCKSIM CLIENTS_DIR (verify/clients/lib.sh starts and stops the server)
source "$(dirname "$0")/../clients/lib.sh" "$@"
need_redis_server
source_dir=$(cd "$here/../.." && pwd)

checks=0
# expect WHAT EXPECTED ACTUAL
expect() {
  checks=$((checks + 1))
  [[ $2 == "$3" ]] || fail "$1:
--- expected
$2
--- got
$3"
}
# run_locksim ARGS...: sets out, err, code.
run_locksim() {
  "$locksim" "$@" >"$work/out" 2>"$work/err" </dev/null
  code=$?
  out=$(cat "$work/out")
  err=$(cat "$work/err")
}

# --- version: project(... VERSION) in CMakeLists.txt, through the build's define
version=$(sed -n 's/^project(locksim VERSION \([0-9.]*\) .*/\1/p' "$source_dir/CMakeLists.txt")
[[ -n $version ]] || fail "no VERSION in $source_dir/CMakeLists.txt's project()"
for flag in --version -V; do
  run_locksim "$flag"
  expect "locksim $flag exit code" 0 "$code"
  expect "locksim $flag first line" "locksim $version" "$(head -1 <<<"$out")"
  [[ $(sed -n 2p <<<"$out") =~ ^fake\ Redis\ 7\.0\.[0-9]+,\ Redisson\ [0-9]+\.[0-9]+\.[0-9]+\ by\ default$ ]] ||
    fail "locksim $flag second line: $(sed -n 2p <<<"$out")"
done

# --- help: every command listed, one line each; help COMMAND is COMMAND --help
commands=(run redis demo explore audit serve check merge help)
run_locksim help
expect "locksim help exit code" 0 "$code"
help_text=$out
for c in "${commands[@]}"; do
  expect "locksim help lists $c on one line" 1 "$(grep -c "^  $c  " <<<"$help_text")"
done
grep -q "^Usage: locksim " <<<"$help_text" || fail "locksim help has no usage line: $help_text"
for c in run redis explore; do
  run_locksim help "$c"
  expect "locksim help $c exit code" 0 "$code"
  from_help=$out
  run_locksim "$c" --help
  expect "locksim help $c and locksim $c --help" "$out" "$from_help"
  grep -q "^Usage: locksim $c " <<<"$from_help" || fail "locksim help $c has no usage line: $from_help"
done
# --- help fits: into a pipe, 100 columns (or $COLUMNS); no description runs past the edge
for c in "" "${commands[@]}"; do
  [[ $c == help ]] && continue
  run_locksim $c --help
  expect "locksim $c --help: lines over 100 columns" "" "$(awk 'length > 100' <<<"$out")"
  out=$(COLUMNS=80 "$locksim" $c --help </dev/null 2>&1)
  expect "COLUMNS=80 locksim $c --help: lines over 80 columns" "" "$(awk 'length > 80' <<<"$out")"
done
run_locksim
expect "bare locksim exit code" 2 "$code"
expect "bare locksim prints the help on stderr" "$help_text" "$err"

# --- numbers out of range: refused (exit 2) naming the flag and the range, never wrapped or clamped
# (-1 read into an unsigned count was 2^64 - 1; -i 1e300 overflowed the clock)
refused_number() {  # refused_number EXPECTED_TEXT ARGS...
  local text=$1
  shift
  run_locksim "$@"
  expect "locksim $* exit code" 2 "$code"
  [[ $err == *"$text"* ]] || fail "locksim $*: expected '$text' on stderr, got: $err"
}
refused_number "--count: an integer in 1..100000000, not -1" explore --count -1
refused_number "--count: an integer in 1..100000000, not 99999999999999999999" explore --count 99999999999999999999
refused_number "--seed: an integer in 0..18446744073709551615, not -1" explore --seed -1
refused_number "--shrink-runs: an integer in 1..1000000000, not 0" explore --shrink-runs 0
refused_number "-i: a number of seconds from 0 to 1000000000, not 1e300" redis -i 1e300 -r 2 TIME
refused_number "-i: a number of seconds from 0 to 1000000000, not nan" redis -i nan TIME
refused_number "--start-ms: an integer in 0..253402300799999, not -1" redis --start-ms -1 TIME
refused_number "--slow-max: an integer in -1..1000000, not -2" check --exhaustive "$source_dir/examples/exhaustive/rlock-2x2.yaml" --slow-max -2
refused_number "--random: an integer in 0..1000000000, not -1" check --exhaustive "$source_dir/examples/exhaustive/rlock-2x2.yaml" --random -1
refused_number "--max-schedules: an integer in 0..18446744073709551615, not -1" check --exhaustive "$source_dir/examples/exhaustive/rlock-2x2.yaml" --max-schedules -1
refused_number "--maxclients: an integer in 1..1000000, not 0" serve --maxclients 0
refused_number "--proto-max-bulk-len: an integer in 1..9223372036854775807, not -1" serve --proto-max-bulk-len -1
refused_number "--replica-lag-ms: an integer in -1..86400000, not -5" serve --replica-lag-ms -5

# --- a mistyped command: the closest one, when close; exit code 2
for pair in runn:run exlpore:explore rdis:redis sever:serve chek:check; do
  run_locksim "${pair%%:*}"
  expect "locksim ${pair%%:*} exit code" 2 "$code"
  expect "locksim ${pair%%:*}" "locksim: unknown command '${pair%%:*}'; did you mean '${pair##*:}'?" "$(head -1 <<<"$err")"
  expect "locksim ${pair%%:*} prints nothing on stdout" "" "$out"
done
for word in xyzzy r serveall; do
  run_locksim "$word"
  expect "locksim $word exit code" 2 "$code"
  expect "locksim $word (too far from every command)" "locksim: unknown command '$word'" "$(head -1 <<<"$err")"
done
run_locksim help runn
expect "locksim help runn exit code" 2 "$code"
expect "locksim help runn" "locksim: unknown command 'runn'; did you mean 'run'?" "$(head -1 <<<"$err")"
run_locksim run --nosuch
expect "an unknown option keeps CLI11's message" "The following argument was not expected: --nosuch" "$(head -1 <<<"$err")"
expect "locksim run --nosuch exit code" 2 "$code"

# --- locksim redis: redis-cli's connection options are refused, with the way to get them
for words in "-h localhost GET a" "-h" "-p 6379 GET a" "-a secret PING"; do
  # shellcheck disable=SC2086
  run_locksim redis $words
  expect "locksim redis $words exit code" 2 "$code"
  expect "locksim redis $words prints nothing on stdout" "" "$out"
  [[ $err == *"runs inside this process"* && $err == *"locksim serve"* && $err == *"redis-cli -h 127.0.0.1 -p"* &&
    $err == *docs/serve.md* ]] || fail "locksim redis $words: the refusal does not say why and what to do instead: $err"
done
for words in "-r 3" "-x" "-e"; do
  # shellcheck disable=SC2086
  run_locksim redis $words
  expect "locksim redis $words without a command exit code" 2 "$code"
  [[ $err == *"applies to a command given as arguments"* ]] || fail "locksim redis $words: $err"
done
run_locksim redis --raw --no-raw GET a
expect "locksim redis --raw --no-raw exit code" 2 "$code"

# --- one command from the arguments, against redis-cli: the same stdout, stderr and exit code
start_redis cli --enable-debug-command yes
printf 'return {KEYS[1], ARGV[1], #KEYS, #ARGV, {1, false, "x"}}' >"$work/script.lua"
printf 'return redis.error_reply("boom")' >"$work/error.lua"
compare() {  # compare STDIN_TEXT WORDS...
  local input=$1
  shift
  redis-cli -p "$REDIS_PORT" flushall >/dev/null
  local fake real fake_err real_err fake_code real_code
  fake=$(printf '%s' "$input" | "$locksim" redis "$@" 2>"$work/fake.err"; echo "exit $?")
  real=$(printf '%s' "$input" | timeout 20 redis-cli -p "$REDIS_PORT" "$@" 2>"$work/real.err"; echo "exit $?")
  expect "locksim redis $* (stdout and exit code, as redis-cli's)" "$real" "$fake"
  expect "locksim redis $* (stderr, as redis-cli's)" "$(cat "$work/real.err")" "$(cat "$work/fake.err")"
}
compare "" GET a
compare "" --no-raw GET a
compare "" SET a 1 PX 100
compare "" ECHO "hello world"
compare "" --no-raw ECHO $'tab\there "quoted" \x01'
compare "" ECHO -n
compare "" ECHO --help
compare "" RPUSH l a b "" c
compare "" -r 3 INCR c
compare "" --no-raw -r 3 INCR c
compare "" -r 0 INCR c
compare "" -n 2 MOVE k 2
compare "" --no-raw -n 2 MOVE k 2
compare "" -n 5 MOVE k 2
compare "" NOSUCH a
compare "" --no-raw NOSUCH a
compare "" -e NOSUCH a
compare "" -e -r 3 NOSUCH a
compare "" -e --no-raw GET a
compare $'hello\nworld\n' -x ECHO
compare $'hello\nworld\n' --no-raw -x ECHO
compare "" --eval "$work/script.lua" k1 k2 , a1 , a3
compare "" --no-raw --eval "$work/script.lua" k1 k2 , a1 , a3
compare "" --no-raw --eval "$work/script.lua" k1
compare "" --no-raw --eval "$work/script.lua"
compare "" -r 2 --eval "$work/error.lua"
compare "" -e --eval "$work/error.lua"

# Lines from a pipe with --raw: as redis-cli prints them into a pipe (its default there).
lines=$'SET a 1\nGET a\nGET missing\nRPUSH l x "" y\nLRANGE l 0 -1\nNOSUCH\n2 INCR n\n0 PING\nECHO "unbalanced\nSELECT 3\nGET a\n'
redis-cli -p "$REDIS_PORT" flushall >/dev/null
expect "locksim redis --raw on lines, as redis-cli into a pipe" \
  "$(printf '%s' "$lines" | timeout 20 redis-cli -p "$REDIS_PORT"; echo "exit $?")" \
  "$(printf '%s' "$lines" | "$locksim" redis --raw; echo "exit $?")"

# What differs from redis-cli, by design: a database the fake has not is an error, not database 0;
# -i moves the simulated clock instead of sleeping.
run_locksim redis -n 16 GET a
expect "locksim redis -n 16 exit code" 2 "$code"
expect "locksim redis -n 16" "SELECT 16 failed: ERR DB index is out of range" "$err"
run_locksim redis --start-ms 1700000000000 -r 3 -i 1.5 TIME
expect "locksim redis -r 3 -i 1.5 TIME" $'1700000000\n0\n1700000001\n500000\n1700000003\n0' "$out"
out=$(printf 'SET k v PX 10000\nPTTL k\n3 PTTL k\n' | "$locksim" redis -i 2)
expect "locksim redis -i 2 on lines" $'OK\n(integer) 8000\n(integer) 6000\n(integer) 4000\n(integer) 2000' "$out"
run_locksim redis --eval "$work/nosuch.lua"
expect "locksim redis --eval of a missing file exit code" 2 "$code"
expect "locksim redis --eval of a missing file" "locksim redis: can't open file '$work/nosuch.lua': No such file or directory" "$err"

# --- the prompt, on a pseudo-terminal: shown, following SELECT and MULTI; absent from a pipe
if command -v script >/dev/null; then
  typed=$'SET a 1\nSELECT 2\nMULTI\nPING\nDISCARD\nSELECT 0\nGET a\nquit\n'
  screen=$(printf '%s' "$typed" | TERM=dumb timeout 20 script -qec "$locksim redis" /dev/null | tr -d '\r')
  for prompt in 'locksim> SET a 1' 'locksim> SELECT 2' 'locksim[2]> MULTI' 'locksim[2](TX)> PING' \
    'locksim[2](TX)> DISCARD' 'locksim[2]> SELECT 0' 'locksim> GET a'; do
    [[ $screen == *"$prompt"* ]] || fail "on a terminal, no \"$prompt\" in:
$screen"
    checks=$((checks + 1))
  done
  [[ $screen == *'"1"'* ]] || fail "on a terminal, GET a did not print \"1\": $screen"
  # History: the up arrow (ESC [ A) brings back the line before, and Enter runs it again.
  screen=$(printf 'ECHO first\n\033[A\nquit\n' | TERM=xterm timeout 20 script -qec "$locksim redis" /dev/null | tr -d '\r')
  expect "on a terminal, the up arrow repeats the last line" 2 "$(grep -c '^"first"$' <<<"$screen")"
else
  echo "note: no script(1) (bsdutils): the prompt on a terminal is not checked"
fi
piped=$(printf '%s' "SET a 1"$'\n'"GET a"$'\n' | "$locksim" redis)
expect "from a pipe: no prompt" $'OK\n"1"' "$piped"

echo "PASS $checks checks"
