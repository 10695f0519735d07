# Sourced by the headless-Chromium tests (timeline_chromium.sh, index_chromium.sh, audit_index_chromium.sh): finds Chromium,
# skipping the test (exit 77) without it unless CI=true (then it fails), and runs it offline.
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

# chromium_offline <width> <url> <chromium args...>: one headless run in a fresh profile under $work
# (its log in $work/chromium.log). The flags keep Chromium from phoning home; the page itself must
# need nothing.
chromium_offline() {
  local width=$1 url=$2
  shift 2
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --disable-extensions \
    --user-data-dir="$(mktemp -d -p "$work")" --window-size="$width,1000" "$@" "$url" 2>>"$work/chromium.log"
}

# chrome <width> <url> <chromium args...>: a run that reads local files and lets the page's scripts
# finish (3 s of virtual time) before it is drawn or dumped.
chrome() {
  local width=$1 url=$2
  shift 2
  chromium_offline "$width" "$url" --allow-file-access-from-files --virtual-time-budget=3000 \
    --run-all-compositor-stages-before-draw "$@"
}

# dump_dom <page> <name> <url suffix>: the DOM of <page> (a file path) after its scripts ran, in
# $work/<name>.html.
dump_dom() {
  chrome 1400 "file://$1$3" --dump-dom >"$work/$2.html" ||
    { tail -20 "$work/chromium.log" >&2; echo "FAIL: chromium --dump-dom $3" >&2; exit 1; }
}

# measure_sideways_scroll <page>: loads <page> in a 1000 px frame and writes, into
# $work/frame-dom.html, a <p id="measure"> with its "scroll=<scrollWidth> client=<clientWidth>".
measure_sideways_scroll() {
  cat >"$work/frame.html" <<HTML
<!DOCTYPE html><html><body style="margin:0">
<iframe id="f" src="file://$1" style="width:1000px;height:900px;border:0"></iframe>
<script>
document.getElementById('f').addEventListener('load', function () {
  var d = this.contentDocument.documentElement;
  var p = document.createElement('p');
  p.id = 'measure';
  p.textContent = 'scroll=' + d.scrollWidth + ' client=' + d.clientWidth;
  document.body.appendChild(p);
});
</script></body></html>
HTML
  chrome 1000 "file://$work/frame.html" --dump-dom >"$work/frame-dom.html" ||
    { tail -20 "$work/chromium.log" >&2; echo "FAIL: chromium --dump-dom frame" >&2; exit 1; }
}
