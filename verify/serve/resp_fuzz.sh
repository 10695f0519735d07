#!/usr/bin/env bash
# The RESP fuzzer, briefly: every replay kept in fuzz-corpus/, then 25 rounds of 400 random and
# mutated requests from seed 1 (resp_fuzz.py says what a round checks). The long run is by hand:
#   verify/serve/resp_fuzz.py build/locksim --seconds 600 --seed N
# Usage: resp_fuzz.sh <locksim binary>
here=$(dirname "$0")
exec python3 "$here/resp_fuzz.py" "$1" --replay "$here"/fuzz-corpus/*.jsonl --rounds "${FUZZ_ROUNDS:-25}" --seed 1
