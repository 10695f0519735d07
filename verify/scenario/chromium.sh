# Sourced by the headless-Chromium tests (timeline_chromium.sh, index_chromium.sh): finds Chromium,
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
