#!/usr/bin/env bash
# The run index in a real browser: `locksim run` on a few library scenarios (one whose violation is
# expected, one turned into a regression, a fair lock, one skipped because it refuses --time-scale,
# and verify/scenario/pending-lock-waiter.yaml, whose run ends with a lock() still waiting) writes
# index.html; headless Chromium renders it offline, and we check the DOM after the page's
# script ran: a row per check with its links, the pending badge on the scenario that left a call
# waiting and on no other, and the filters (set from the URL's hash) hiding exactly the rows they
# should. Screenshots at 1000 and 1600 px must not be blank, and at 1000 px
# the page must not scroll sideways (nothing clipped).
#
# usage: index_chromium.sh <locksim binary> [folder to keep the screenshots and the report in]
# Without Chromium the test is skipped (exit 77), unless CI=true: then it fails.
set -euo pipefail

locksim=${1:?usage: index_chromium.sh <locksim binary> [folder to keep]}
keep=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
library="$here/../../scenarios"

source "$here/chromium.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/scenarios"
for name in explicit-lease-no-renewal pubsub-wakeup fair-fifo-head redis-restart-aof; do
  cp "$library/$name.yaml" "$work/scenarios/"
done
cp "$here/pending-lock-waiter.yaml" "$work/scenarios/"
# The same story expecting the lock to hold: a regression the page must show as one.
sed -e 's/^name: explicit-lease-no-renewal/name: explicit-lease-regressed/' -e 's/mutual_exclusion: violated/mutual_exclusion: holds/' \
  "$library/explicit-lease-no-renewal.yaml" >"$work/scenarios/regressed.yaml"
grep -q 'mutual_exclusion: holds' "$work/scenarios/regressed.yaml" || { echo "FAIL: could not write the regression" >&2; exit 1; }

out="$work/out"
code=0
"$locksim" run "$work/scenarios" --time-scale 0.1 --out "$out" >"$work/run.log" 2>&1 || code=$?
if [[ $code != 1 ]]; then
  cat "$work/run.log" >&2
  echo "FAIL: locksim run exited $code, expected 1 (the regression)" >&2
  exit 1
fi
if grep -q 'skipped *pass' "$work/run.log"; then echo "FAIL: the table says 'skipped pass'" >&2; exit 1; fi
[[ -s $out/index.html ]] || { echo "FAIL: $out/index.html was not written" >&2; exit 1; }

dump() { dump_dom "$out/index.html" "$1" "$2"; }  # dump <name> <url suffix>
dump all ""
dump failed "#failed"
dump fair "#lock=fair"
dump violated-rlock "#violated&lock=rlock"
dump pending "#pending"

# At 1000 px, in a frame of that width: does the page scroll sideways?
measure_sideways_scroll "$out/index.html"

python3 - "$work" "$out/results.json" <<'PY'
import html.parser, json, re, sys

work, results_path = sys.argv[1], sys.argv[2]
results = json.load(open(results_path))
failures = []

def check(ok, what):
    if not ok:
        failures.append(what)

class Page(html.parser.HTMLParser):
    """The scenarios' groups (<tbody>: hidden or not, the heading's links) and their rows."""
    def __init__(self):
        super().__init__()
        self.groups, self.rows, self.shown = [], [], ""
        self._in_shown = self._in_pending = self._in_name = False
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tbody" and a.get("class") == "scenario":
            self.groups.append(dict(a, links=[], rows=[], pending=None, name=""))
        if tag == "div" and a.get("class") == "pending":
            self.groups[-1]["pending"] = ""
            self._in_pending = True
        if tag == "span" and a.get("class") == "name":
            self._in_name = True
        if tag == "tr" and "row" in a.get("class", "").split():
            self.groups[-1]["rows"].append(a)
            self.rows.append(a)
        if tag == "a" and self.groups and "href" in a:
            self.groups[-1]["links"].append(a["href"])
        if a.get("id") == "shown":
            self._in_shown = True
    def handle_endtag(self, tag):
        if tag == "span":
            self._in_shown = False
            self._in_name = False
        if tag == "div":
            self._in_pending = False
    def handle_data(self, data):
        if self._in_shown:
            self.shown += data
        if self._in_pending:
            self.groups[-1]["pending"] += data
        if self._in_name:
            self.groups[-1]["name"] += data

def parse(name):
    p = Page()
    p.feed(open(f"{work}/{name}.html").read())
    return p

everything = parse("all")
rows = everything.rows
# A row per check and per observed verdict; a skipped scenario is one row; a heading per scenario.
expected_rows = sum(max(1, len(r["checks"])) for r in results["results"])
check(len(rows) == expected_rows, f"{len(rows)} rows, expected {expected_rows}")
check(len(everything.groups) == len(results["results"]), f"{len(everything.groups)} scenario headings")
check(not any("hidden" in r for r in rows + everything.groups), "no filter in the hash, yet something is hidden")
check(everything.shown.strip() == f"{len(rows)} of {len(rows)} rows shown",
      f"the script did not count the rows: {everything.shown!r}")
outcomes = [r["data-outcome"] for r in rows]
for outcome in ("expected", "unexpected", "skipped", "pass"):
    check(outcome in outcomes, f"no {outcome} row")
check(outcomes.count("unexpected") == 1, f"one unexpected violation expected: {outcomes}")
for g in everything.groups:
    if [r["data-outcome"] for r in g["rows"]] == ["skipped"]:
        check(g["links"] == [], "a skipped scenario links to files")
        continue
    names = [l.rsplit("/", 1)[-1] for l in g["links"]]
    check(names == ["timeline.html", "history.jsonl"], f"scenario links: {g['links']}")
    check(all(not l.startswith(("/", "file:", "http")) for l in g["links"]), f"links not relative: {g['links']}")
check("pubsub-wakeup/timeline.html" in sum((g["links"] for g in everything.groups), []), "no link to pubsub-wakeup's timeline")
check(any(r["data-lock"] == "fair" for r in rows) and any(r["data-lock"] == "rlock" for r in rows), "lock types")

def filtered(name, keep):
    p = parse(name)
    visible = [r for r in p.rows if "hidden" not in r]
    check(len(p.rows) == len(rows), f"{name}: the filter removed rows instead of hiding them")
    check(visible and all(keep(r) for r in visible), f"{name}: a visible row does not match the filter")
    check(all(not keep(r) for r in p.rows if "hidden" in r), f"{name}: a matching row is hidden")
    for g in p.groups:
        check(("hidden" in g) == all("hidden" in r for r in g["rows"]), f"{name}: a heading shown without rows, or hidden with")
    check(p.shown.strip() == f"{len(visible)} of {len(rows)} rows shown", f"{name}: counter says {p.shown!r}")
    return len(visible)

# The pending badge: on the scenarios whose results.json lists pending operations, naming each
# owner, and on no other; its rows are what #pending keeps.
by_name = {g["name"]: g for g in everything.groups}
for r in results["results"]:
    g = by_name.get(r["name"])
    check(g is not None, f"no heading for {r['name']}")
    if g is None:
        continue
    if r["pending"]:
        text = g["pending"] or ""
        check(text.startswith("pending ") and "still waiting at the end" in text, f"{r['name']}: pending badge reads {text!r}")
        for op in r["pending"]:
            check(f"{op['owner']} since {op['since_ms']} ms" in text, f"{r['name']}: the badge does not name {op['owner']}: {text!r}")
        check(all(row["data-pending"] == "1" for row in g["rows"]), f"{r['name']}: a row without data-pending")
    else:
        check(g["pending"] is None, f"{r['name']} has nothing pending, yet a badge: {g['pending']!r}")
        check(all(row["data-pending"] == "0" for row in g["rows"]), f"{r['name']}: a row marked pending")
check(sum(1 for r in results["results"] if r["pending"]) == 1, "pending-lock-waiter alone should leave a call waiting")
check(results["scenarios_with_pending"] == 1, f"scenarios_with_pending: {results['scenarios_with_pending']}")
n_pending = filtered("pending", lambda r: r["data-pending"] == "1")
check(n_pending >= 1, "#pending shows no row")

n_failed = filtered("failed", lambda r: r["data-failed"] == "1")
check(n_failed == 1, f"#failed shows {n_failed} rows, expected the regression alone")
filtered("fair", lambda r: r["data-lock"] == "fair")
filtered("violated-rlock", lambda r: r["data-violated"] == "1" and r["data-lock"] == "rlock")

frame = open(f"{work}/frame-dom.html").read()
m = re.search(r"scroll=(\d+) client=(\d+)", frame)
check(m is not None, "the frame did not measure the page")
if m:
    check(int(m.group(1)) <= int(m.group(2)), f"at 1000 px the page scrolls sideways ({m.group(0)})")

for f in failures:
    print("FAIL:", f, file=sys.stderr)
print(f"{len(rows)} rows; filters hide what they should" if not failures else f"{len(failures)} check(s) failed")
sys.exit(1 if failures else 0)
PY

for width in 1000 1600; do
  (cd "$work" && chrome "$width" "file://$out/index.html" --screenshot="$work/index-$width.png" >/dev/null) ||
    { tail -20 "$work/chromium.log" >&2; echo "FAIL: chromium --screenshot at $width px" >&2; exit 1; }
  python3 "$here/screenshot_check.py" "$work/index-$width.png"
done

if [[ -n $keep ]]; then
  mkdir -p "$keep"
  cp "$work"/index-*.png "$keep/"
  cp -r "$out" "$keep/report"
fi
echo "index_chromium: ok"
