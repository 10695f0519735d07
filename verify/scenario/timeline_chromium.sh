#!/usr/bin/env bash
# The HTML timeline in a real browser: the unit tests write the showcase run's timeline, a FairLock
# scenario's, one of a run that ends with a lock() still waiting and one of a serve history
# (Timeline.Writes*, via LOCKSIM_TIMELINE_OUT), headless Chromium renders them offline at two widths
# (1000 and 1600 px), and we check the DOM after the page's script ran: every lane there, tooltips
# wired, the axis redrawn in seconds, the view fitted to the action, the side panel pinned by
# #select=<n>, the fair queue's lane, the open wait in view up to the run's end where the page opens,
# the serve clients' commands on their lanes, every drawn mark explained by a legend entry shown (the
# script lists any other in the body's data-unexplained) and nothing cut off (data-overflow); and
# that the screenshots are not blank.
#
# usage: timeline_chromium.sh <locksim_unit_tests binary> [directory to keep the screenshots in]
# Without Chromium the test is skipped (exit 77), unless CI=true: then it fails.
set -euo pipefail

unit_tests=${1:?usage: timeline_chromium.sh <locksim_unit_tests binary> [screenshot directory]}
keep_dir=${2:-}

here=$(cd "$(dirname "$0")" && pwd)
source "$here/chromium.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
html="$work/timeline.html"

LOCKSIM_TIMELINE_OUT="$html" "$unit_tests" --gtest_filter='Timeline*Writes*' >"$work/gtest.log" 2>&1 ||
  { cat "$work/gtest.log" >&2; echo "FAIL: the unit test did not write the timeline" >&2; exit 1; }
fair="$html.fair.html"
pending="$html.pending.html"
serve="$html.serve.html"
for f in "$html" "$fair" "$pending" "$serve"; do
  [[ -s $f ]] || { cat "$work/gtest.log" >&2; echo "FAIL: $f was not written" >&2; exit 1; }
done

chrome() {  # chrome <width> <page url> <chromium args...>
  local width=$1 url=$2
  shift 2
  chromium_offline "$width" "$url" --hide-scrollbars "$@"
}

failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# A witness of the showcase's violation: the event #select= pins.
selected=$(grep -o 'data-select="[0-9]*"' "$html" | head -1 | grep -o '[0-9]*') || true
[[ -n $selected ]] || fail "the showcase has no witness link (data-select)"

for width in 1000 1600; do
  for page in showcase fair pending serve; do
    file=$html
    [[ $page == fair ]] && file=$fair
    [[ $page == pending ]] && file=$pending
    [[ $page == serve ]] && file=$serve
    url="file://$file"
    [[ $page == showcase && -n $selected ]] && url="$url#select=$selected"
    dom="$work/$page-$width.html"
    chrome "$width" "$url" --dump-dom >"$dom" || { tail -20 "$work/chromium.log" >&2; fail "chromium --dump-dom $page at $width px"; continue; }
    # The DOM after the page's script ran, checked by what the page must show.
    python3 - "$dom" "$page" "$width" "$selected" <<'PY' || failures=$((failures + 1))
import re, sys

dom, page, width, selected = open(sys.argv[1], encoding="utf-8").read(), sys.argv[2], sys.argv[3], sys.argv[4]
problems = []
def expect(what, pattern):
    if not re.search(pattern, dom, re.S):
        problems.append(f"the DOM lacks {what} ({pattern})")

body = dom[dom.find("<body"):]
if re.search(r"<title>[^<]", body):
    problems.append("SVG <title>s left in the DOM: the page's script did not run")
expect("tooltips (the script turns <title>s into data-tip)", r'data-tip="')
expect("the redrawn axis", r'class="tick-label"')
expect("the side panel", r'id="panel"')
unexplained = re.search(r'<body[^>]*data-unexplained="([^"]*)"', dom)
if not unexplained:
    problems.append("no data-unexplained on the body: the legend's check did not run")
elif unexplained.group(1):
    problems.append(f"marks the legend does not explain: {unexplained.group(1)}")
labels = re.findall(r'class="tick-label" data-tip="(\d+) ms">([^<]*)<', dom)
if not labels:
    problems.append("no tick labels with their ms on hover")
for ms, text in labels:
    m = re.fullmatch(r"(\d+(?:\.\d+)?) s", text)
    if not m or abs(float(m.group(1)) * 1000 - int(ms)) > 0.5:
        problems.append(f"tick {ms} ms reads {text!r}, not in seconds")
        break
shown_items = [i for i in re.findall(r'<span class="key-item"([^>]*)>', dom) if "hidden" not in i]
if not shown_items:
    problems.append("the legend shows no entry")
overflow = re.search(r'<body[^>]*data-overflow="([^"]*)"', dom)
if not overflow:
    problems.append("no data-overflow on the body: the overflow check did not run")
elif overflow.group(1):
    problems.append(f"cut off at {width} px: {overflow.group(1)}")
plot = re.search(r'<svg id="plot"[^>]*>', dom).group(0)
attr = lambda name: re.search(name + r'="([^"]*)"', plot).group(1)
end, view0, view1 = int(attr("data-end")), int(attr("data-view0")), int(attr("data-view1"))
shown = re.fullmatch(r"(\d+)\.\.(\d+)", attr("data-shown"))
if not shown:
    problems.append("no data-shown on the plot")
else:
    s0, s1 = int(shown.group(1)), int(shown.group(2))
    slack = max(2, end // 100)
    if page in ("fair", "pending") and (abs(s0 - view0) > slack or abs(s1 - view1) > slack):
        problems.append(f"the page opened on {s0}..{s1}, not the action's {view0}..{view1}")
    if page == "pending":
        # B's lock() is still waiting at the end: the view it opens on shows the wait from its invoke
        # to the run's end, the arrow at its head included.
        wait = re.search(r'<rect [^>]*data-t0="(\d+)" data-t1="(\d+)"[^>]*class="op wait open pending"', dom)
        if not wait:
            problems.append("no open wait (class op wait open pending) on the plot")
        elif not (s0 <= int(wait.group(1)) and int(wait.group(2)) == end and s1 >= end - slack):
            problems.append(f"the page opened on {s0}..{s1}, which hides part of the open wait {wait.group(1)}..{wait.group(2)}")
if page == "showcase":
    for lane in ["A:1", "B:1", "C:1", "redis0"]:
        expect(f"lane {lane}", f'data-lane="{lane}"')
    expect("the violation box, calm: the story expects it", r'class="violations expected"')
    expect("the expectations at the top", r'class="standings met"')
    expect("the jump link", "jump to first violation")
    expect(f"event #{selected} pinned (body data-selected)", rf'<body[^>]*data-selected="{selected}"')
    expect(f"the panel naming #{selected}", rf'id="panel-body"[^>]*>.*?data-select="{selected}"')
    expect("the selection's ring", r'<g id="rings"><rect [^>]*class="ring"')
elif page == "pending":
    expect("the header's note", r'id="pending"[^>]*><b>pending at the end:</b> 1 lock\(\) call still waiting at the end \(B:1 since 100 ms\)')
    expect("the arrow at the open wait's head", r'class="mark pending-end"')
    expect("the legend's entry, shown", r'<span class="key-item" data-for="\.op\.pending,\.mark\.pending-end">')
elif page == "serve":
    for lane in ["A", "B"]:
        lane_dom = re.search(rf'data-lane="{lane}">(.*?)</g><g class="lane', dom, re.S)
        if not lane_dom or 'class="mark sent' not in lane_dom.group(1):
            problems.append(f"client {lane}'s lane shows none of the commands it sent")
    expect("the command lanes' row name", r">commands</text>")
    expect("the legend's entry for a command sent, shown", r'<span class="key-item" data-for="\.mark\.sent:not\(\.error\)">')
else:
    if view1 >= end:
        problems.append(f"the fair run's action ({view0}..{view1}) should end before the run does ({end})")
    expect("the queue lane", r'class="lane queue" data-lane="queue orders"')
    expect("a pruned waiter", r'class="mark qpruned"')
    expect("a timeout score", r'class="mark score')
    expect("queue places", r">1st</text>")
    expect("the expectations at the top", r'class="standings met"')
for p in problems:
    print(f"FAIL [{page} at {width} px]: {p}", file=sys.stderr)
sys.exit(1 if problems else 0)
PY
    chrome "$width" "$url" --screenshot="$work/$page-$width.png" >/dev/null ||
      { tail -20 "$work/chromium.log" >&2; fail "chromium --screenshot $page at $width px"; continue; }
    python3 "$here/screenshot_check.py" "$work/$page-$width.png" || failures=$((failures + 1))
  done
done


if [[ -n $keep_dir ]]; then mkdir -p "$keep_dir" && cp "$work"/*.png "$keep_dir"/; fi
if ((failures)); then
  echo "timeline_chromium: $failures check(s) failed" >&2
  exit 1
fi
echo "timeline_chromium: ok"
