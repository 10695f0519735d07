#!/usr/bin/env bash
# The HTML timeline in a real browser: the unit tests write the showcase run's timeline
# (Timeline.WritesTheShowcaseWhereLocksimTimelineOutSays, via LOCKSIM_TIMELINE_OUT), headless
# Chromium renders it offline, and we check the DOM after the page's script ran (every lane there,
# tooltips wired, the axis redrawn) and that the screenshot is not blank.
#
# usage: timeline_chromium.sh <locksim_unit_tests binary> [screenshot.png to keep]
# Without Chromium the test is skipped (exit 77), unless CI=true: then it fails.
set -euo pipefail

unit_tests=${1:?usage: timeline_chromium.sh <locksim_unit_tests binary> [screenshot.png]}
keep_png=${2:-}

browser=""
for candidate in chromium chromium-browser; do
  if command -v "$candidate" >/dev/null 2>&1; then browser=$(command -v "$candidate"); break; fi
done
if [[ -z $browser ]]; then
  if [[ ${CI:-} == true ]]; then
    echo "FAIL: chromium is not installed (tools/install-deps installs it) and CI=true" >&2
    exit 1
  fi
  echo "SKIP: chromium is not installed; run tools/install-deps (or apt-get install chromium)" >&2
  exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
html="$work/timeline.html"

LOCKSIM_TIMELINE_OUT="$html" "$unit_tests" --gtest_filter='Timeline*Writes*' >"$work/gtest.log" 2>&1 ||
  { cat "$work/gtest.log" >&2; echo "FAIL: the unit test did not write the timeline" >&2; exit 1; }
[[ -s $html ]] || { cat "$work/gtest.log" >&2; echo "FAIL: $html was not written" >&2; exit 1; }

# No network: the flags keep Chromium from phoning home; the page itself must need nothing.
chrome() {
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --disable-extensions \
    --user-data-dir="$(mktemp -d -p "$work")" --window-size=1400,900 "$@" "file://$html" 2>>"$work/chromium.log"
}

chrome --dump-dom >"$work/dom.html" || { tail -20 "$work/chromium.log" >&2; echo "FAIL: chromium --dump-dom" >&2; exit 1; }
failures=0
expect() {  # expect <what> <fixed string>
  if ! grep -qF -- "$2" "$work/dom.html"; then
    echo "FAIL: the rendered DOM lacks $1 ($2)" >&2
    failures=$((failures + 1))
  fi
}
for lane in A:1 B:1 C:1 redis0; do expect "lane $lane" "data-lane=\"$lane\""; done
expect "the violation box" 'class="violations"'
expect "the jump link" 'jump to first violation'
expect "tooltips (the script turns <title>s into data-tip)" 'data-tip="'
expect "the redrawn axis" 'class="tick-label"'
if grep -q '<title>[^<]' <(sed -n '/<body/,$p' "$work/dom.html"); then
  echo "FAIL: SVG <title>s left in the DOM: the page's script did not run" >&2
  failures=$((failures + 1))
fi

chrome --screenshot="$work/shot.png" >/dev/null || { tail -20 "$work/chromium.log" >&2; echo "FAIL: chromium --screenshot" >&2; exit 1; }

# Not blank: decode the PNG (zlib only, no imaging package) and count its colours.
python3 - "$work/shot.png" <<'PY' || failures=$((failures + 1))
import struct, sys, zlib

data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, header = 8, b"", None
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        header = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
        idat += body
    pos += 12 + length
width, height, depth, colour, _, _, interlace = header
channels = {2: 3, 6: 4}.get(colour)
if depth != 8 or channels is None or interlace:
    sys.exit(f"unexpected PNG format: depth {depth}, colour type {colour}, interlace {interlace}")
raw = zlib.decompress(idat)
stride = width * channels
prev = bytearray(stride)
colours = set()
for y in range(height):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - channels] if i >= channels else 0
        b = prev[i]
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + ((a + b) >> 1)) & 255
        elif f == 4:
            c = prev[i - channels] if i >= channels else 0
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    if y % 4 == 0:
        colours.update(bytes(line[i:i + 3]) for i in range(0, stride, channels * 2))
    prev = line
print(f"screenshot {width}x{height}: {len(colours)} distinct colours (sampled)")
if len(colours) < 20:
    sys.exit("FAIL: the screenshot looks blank")
PY

if [[ -n $keep_png ]]; then cp "$work/shot.png" "$keep_png"; fi
if ((failures)); then
  echo "timeline_chromium: $failures check(s) failed" >&2
  exit 1
fi
echo "timeline_chromium: ok"
