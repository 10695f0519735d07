#!/usr/bin/env bash
# An installed locksim works away from its checkout: `cmake --install` into a temporary prefix puts
# the binary, the lock scripts and the scenario library in place; run from another temporary folder
# it runs an installed scenario and writes the reports there; LOCKSIM_SCRIPTS takes the place of the
# installed scripts (and a folder without scripts is refused by name); a `locksim run` with no path
# and no ./scenarios exits 2 saying what it needs, and with a ./scenarios runs that; `locksim audit`
# runs the installed Redisson library whatever ./scenarios holds.
#   install_prefix.sh CMAKE BUILD_DIR
set -euo pipefail
cmake=$1
build=$2
work=$(cd "$(mktemp -d /tmp/locksim-install-XXXXXX)" && pwd -P)  # as /proc/self/exe will say it
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
unset LOCKSIM_SCRIPTS
scenario=rlock-reentrancy-counts.yaml

# --- the layout
prefix=$work/prefix
"$cmake" --install "$build" --prefix "$prefix" >"$work/install.log" || fail "cmake --install failed: $(cat "$work/install.log")"
locksim=$prefix/bin/locksim
[[ -x $locksim ]] || fail "no $locksim"
[[ -f $prefix/share/locksim/scripts/rlock_unlock.lua ]] || fail "no lock scripts in $prefix/share/locksim/scripts"
[[ -f $prefix/share/locksim/scenarios/$scenario ]] || fail "no scenario library in $prefix/share/locksim/scenarios"
[[ -f $prefix/share/locksim/scenarios/redisson/4871-resent-unlock-runs-twice.yaml ]] ||
  fail "the library's subfolders are not installed"
[[ -f $prefix/share/doc/locksim/README.md && -f $prefix/share/doc/locksim/docs/live.md ]] || fail "no docs in $prefix/share/doc/locksim"

# --- an installed scenario, run from elsewhere: the reports land where it runs
mkdir "$work/elsewhere"
cd "$work/elsewhere"
"$locksim" run "$prefix/share/locksim/scenarios/$scenario" >"$work/run.out" 2>"$work/run.err" ||
  fail "the installed locksim failed: $(cat "$work/run.out" "$work/run.err")"
grep -q "rlock-reentrancy-counts" "$work/run.out" || fail "the verdict table lacks the scenario: $(cat "$work/run.out")"
[[ -s $work/elsewhere/reports/latest/summary.md ]] || fail "no reports in ./reports/latest of the folder it ran in"
[[ -s $work/elsewhere/reports/latest/rlock-reentrancy-counts/timeline.html ]] || fail "no timeline in ./reports/latest"

# --- the installed scripts are the ones it uses: without them it says where it looked (and does not
# fall back on the checkout it was built from)
mv "$prefix/share/locksim/scripts" "$work/scripts"
set +e
"$locksim" run "$prefix/share/locksim/scenarios/$scenario" --out "$work/none" >"$work/none.out" 2>"$work/none.err"
code=$?
set -e
[[ $code == 2 ]] || fail "without scripts: expected exit code 2, got $code: $(cat "$work/none.out" "$work/none.err")"
grep -q "cannot find locksim's lock scripts" "$work/none.err" || fail "unclear error: $(cat "$work/none.err")"
grep -qF "$prefix/share/locksim/scripts" "$work/none.err" || fail "the error does not say where it looked: $(cat "$work/none.err")"
grep -q "set LOCKSIM_SCRIPTS" "$work/none.err" || fail "the error does not say how to set LOCKSIM_SCRIPTS: $(cat "$work/none.err")"

# --- LOCKSIM_SCRIPTS names them instead
LOCKSIM_SCRIPTS=$work/scripts "$locksim" run "$prefix/share/locksim/scenarios/$scenario" --out "$work/env" \
  >"$work/env.out" 2>"$work/env.err" || fail "LOCKSIM_SCRIPTS was not used: $(cat "$work/env.out" "$work/env.err")"
[[ -s $work/env/summary.md ]] || fail "no reports with LOCKSIM_SCRIPTS"
mv "$work/scripts" "$prefix/share/locksim/scripts"
# ... and it wins over the installed ones: a folder without the scripts is refused, by name
mkdir "$work/not-scripts"
set +e
LOCKSIM_SCRIPTS=$work/not-scripts "$locksim" run "$prefix/share/locksim/scenarios/$scenario" --out "$work/bad" \
  >"$work/bad.out" 2>"$work/bad.err"
code=$?
set -e
[[ $code == 2 ]] || fail "a bad LOCKSIM_SCRIPTS: expected exit code 2, got $code: $(cat "$work/bad.out" "$work/bad.err")"
grep -qF "LOCKSIM_SCRIPTS=$work/not-scripts" "$work/bad.err" || fail "the error does not name LOCKSIM_SCRIPTS: $(cat "$work/bad.err")"

# --- no path: ./scenarios or a clear refusal
set +e
"$locksim" run >"$work/nopath.out" 2>"$work/nopath.err"
code=$?
set -e
[[ $code == 2 ]] || fail "no path, no ./scenarios: expected exit code 2, got $code: $(cat "$work/nopath.out" "$work/nopath.err")"
grep -qF "no scenarios/ here: name scenario files or folders, e.g. locksim run $prefix/share/locksim/scenarios" "$work/nopath.err" ||
  fail "unclear message: $(cat "$work/nopath.err")"
mkdir "$work/mine" "$work/mine/scenarios"
cp "$prefix/share/locksim/scenarios/$scenario" "$work/mine/scenarios/"
cd "$work/mine"
"$locksim" run >"$work/mine.out" 2>"$work/mine.err" || fail "./scenarios was not run: $(cat "$work/mine.out" "$work/mine.err")"
grep -q "^1 scenarios" "$work/mine.out" || fail "expected the one scenario of ./scenarios: $(cat "$work/mine.out")"
[[ -s $work/mine/reports/latest/summary.md ]] || fail "no reports in ./reports/latest"
# The audit runs the installed Redisson library, not the scenarios/ of the folder it runs from (here
# one unrelated file): a user's own scenarios are theirs.
code=0
"$locksim" audit --redisson 3.23.0 --lock rlock >"$work/audit.out" 2>"$work/audit.err" || code=$?
[[ $code != 2 ]] || fail "audit beside a scenarios/ of one's own: exit 2: $(cat "$work/audit.err")"
grep -q "#4871" "$work/audit.out" || fail "the audit did not run the installed library: $(cat "$work/audit.out")"
[[ -s $work/mine/reports/audit/index.html ]] || fail "the audit wrote no reports/audit/index.html"

# tools/install-deps knows two sets, `run` and all; anything else is a usage error before any apt-get.
deps=$(cd "$(dirname "$0")/../.." && pwd)/tools/install-deps
code=0
usage=$("$deps" tests 2>&1) || code=$?
[[ $code == 2 && $usage == *"usage: tools/install-deps [run]"* ]] || fail "install-deps tests: exit $code, $usage"

echo "install_prefix: ok"
