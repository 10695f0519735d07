#!/usr/bin/env bash
# The timeline's legend against every mark the pages draw: `locksim run` writes the timelines of
# the whole scenario library and of the checkers' stories (every fault kind, queues, renewals,
# writes, restarts, lost messages, pending waits, ...), `locksim check` one of a serve history, and
# headless Chromium opens them all (one page of frames); in each, the page's script lists in the
# body's data-unexplained every drawn mark that no legend entry it shows explains. Every list must
# be empty, and together the pages must have shown every entry the legend has but the few no
# library story draws (named below, with why).
#
# usage: timeline_legend_chromium.sh <locksim binary>
# Without Chromium the test is skipped (exit 77), unless CI=true: then it fails.
set -euo pipefail

locksim=${1:?usage: timeline_legend_chromium.sh <locksim binary>}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
source "$here/chromium.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$locksim" run "$root/scenarios" "$root/verify/stories" --out "$work/run" >"$work/run.log" 2>&1 ||
  { tail -20 "$work/run.log" >&2; echo "FAIL: locksim run of the library and the stories" >&2; exit 1; }
# A serve history: clients known only by the commands they sent.
cat >"$work/serve.jsonl" <<'JSONL'
{"i":0,"t":0,"type":"exec","p":"redis0","lock":"orders","text":"A SET orders t-a PX 30000 NX","reply":"+OK","after":"t-a","client":"A","ttl":30000}
{"i":1,"t":10,"type":"exec","p":"redis0","lock":"orders","text":"B SET orders t-b PX 30000 NX","reply":"(nil)","before":"t-a","after":"t-a","client":"B","ttl":29990}
{"i":2,"t":20,"type":"exec","p":"redis0","lock":"orders","text":"B EVALSHA ab 1 orders t-b","reply":"-NOSCRIPT No matching script. Please use EVAL.","before":"t-a","after":"t-a","client":"B","ttl":29980}
{"i":3,"t":30,"type":"exec","p":"redis0","lock":"counter","f":"resource_read","text":"A GET counter","reply":"\"0\"","client":"A"}
{"i":4,"t":35,"type":"exec","p":"redis0","lock":"counter","f":"resource_write","value":1,"text":"A SET counter 1","reply":"+OK","client":"A"}
{"i":5,"t":40,"type":"end","p":"world"}
JSONL
"$locksim" check "$work/serve.jsonl" --out "$work/serve" >"$work/check.log" 2>&1 || true
[[ -s $work/serve/serve/timeline.html ]] || { cat "$work/check.log" >&2; echo "FAIL: no serve timeline" >&2; exit 1; }

mapfile -t pages < <(find "$work/run" "$work/serve" -name timeline.html | sort)
((${#pages[@]} > 50)) || { echo "FAIL: only ${#pages[@]} timelines" >&2; exit 1; }
{
  echo '<!DOCTYPE html><html><body><pre id="out"></pre><script>'
  echo 'const pages=['
  for p in "${pages[@]}"; do echo "\"file://$p\","; done
  echo '];'
  cat <<'JS'
const out=document.getElementById('out');let left=pages.length;const lines=[];
for(const src of pages){
  const f=document.createElement('iframe');f.style.width='1400px';f.style.height='600px';
  f.onload=()=>{const b=f.contentDocument.body;
    const shown=Array.from(f.contentDocument.querySelectorAll('#legend [data-for]')).filter(i=>!i.hidden).map(i=>i.dataset.for);
    lines.push(JSON.stringify({page:src,unexplained:b.getAttribute('data-unexplained'),shown:shown,
      all:Array.from(f.contentDocument.querySelectorAll('#legend [data-for]')).map(i=>i.dataset.for)}));
    if(--left===0)out.textContent=lines.join('\n');};
  f.src=src;document.body.appendChild(f);
}
JS
  echo '</script></body></html>'
} >"$work/frames.html"

chromium_offline 1400 "file://$work/frames.html" --allow-file-access-from-files --virtual-time-budget=60000 \
  --dump-dom >"$work/frames-dom.html" || { tail -20 "$work/chromium.log" >&2; echo "FAIL: chromium --dump-dom" >&2; exit 1; }

python3 - "$work/frames-dom.html" "${#pages[@]}" <<'PY'
import html, json, re, sys

dom, expected = open(sys.argv[1], encoding="utf-8").read(), int(sys.argv[2])
m = re.search(r'<pre id="out">(.*?)</pre>', dom, re.S)
reports = [json.loads(l) for l in html.unescape(m.group(1)).splitlines() if l.strip()] if m else []
failures = []
if len(reports) != expected:
    failures.append(f"{len(reports)} of {expected} pages reported")
shown, every = set(), set()
for r in reports:
    if r["unexplained"] is None:
        failures.append(f"{r['page']}: the legend's check did not run")
    elif r["unexplained"]:
        failures.append(f"{r['page']}: marks the legend does not explain: {r['unexplained']}")
    shown.update(r["shown"])
    every.update(r["all"])
# Entries no story of the library draws today, each with why it stays in the legend.
never = {
    ".mark.world-event": "the world records no event of its own in these runs, only its end",
    ".mark.qunknown": "every waiter in the stories leaves the queue in a way the facts know",
    ".mark.score.told": "drawn where the page does not know threadWaitTime, as for a FairLock history `check` "
                        "judges; a run always knows it (the unit test Timeline.AFairLocksQueue... draws it)",
}
missing = sorted(every - shown - set(never))
if missing:
    failures.append(f"legend entries no page showed (a mark nothing draws, or a selector that matches nothing): {missing}")
for f in failures:
    print("FAIL:", f, file=sys.stderr)
print(f"{len(reports)} timelines, {len(shown)} of {len(every)} legend entries shown, every mark explained"
      if not failures else f"{len(failures)} problem(s)")
sys.exit(1 if failures else 0)
PY
echo "timeline_legend_chromium: ok"
