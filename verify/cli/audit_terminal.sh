#!/usr/bin/env bash
# `locksim audit` on a terminal: run under a pseudo-terminal 100 columns wide from a folder with a
# scenarios/ of its own, it advises the upgrade in its first lines, colours what affects the version
# and fits every line in the 100 columns; on a terminal 160 wide it takes the room.
#   audit_terminal.sh <locksim binary>
# Skips (77) only when there is no Python to open the pseudo-terminal with.
set -euo pipefail
locksim=${1:?usage: audit_terminal.sh <locksim binary>}
python=$(command -v python3 || true)
if [[ -z $python ]]; then
  echo "SKIP: no python3 to open a pseudo-terminal with" >&2
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/project/scenarios"
echo "not: [a scenario" >"$work/project/scenarios/mine.yaml"

"$python" - "$locksim" "$work" <<'PY'
import fcntl, os, re, struct, subprocess, sys, termios

locksim, work = sys.argv[1], sys.argv[2]

def on_terminal(columns, out):
    """The audit's standard output as a terminal `columns` wide shows it, and its exit code."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    env = dict(os.environ, TERM="xterm-256color")
    env.pop("NO_COLOR", None)
    env.pop("COLUMNS", None)
    child = subprocess.Popen([locksim, "audit", "--redisson", "3.23.0", "--out", out], cwd=f"{work}/project",
                             stdin=slave, stdout=slave, stderr=subprocess.DEVNULL, env=env)
    os.close(slave)
    data = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the terminal's other end is closed
            break
        if not chunk:
            break
        data += chunk
    os.close(master)
    return data.decode("utf-8").replace("\r\n", "\n"), child.wait()

failures = []
text, code = on_terminal(100, f"{work}/out100")
plain = re.sub(r"\x1b\[[0-9;]*m", "", text)
lines = plain.splitlines()
if code != 1:
    failures.append(f"exit code {code}, expected 1 (bugs affect 3.23.0)")
if "\x1b[31m" not in text:
    failures.append("no colour on a terminal")
wide = [l for l in lines if len(l) > 100]
if wide:
    failures.append("lines wider than the terminal's 100 columns:\n" + "\n".join(wide))
head = "\n".join(lines[:6])
# Every lock type: 4.7.0 is the first without the read renewal entry's leak (#7251, 3.37.0 - 4.6.x),
# and 4.4.0 the first without the ReadWriteLock's renewal of dead readers (#1458).
if not re.search(r"^  Upgrade to 4\.7\.0: it fixes #4871, #3194, #5761, #1458\b", head, re.M):
    failures.append("the first lines do not advise 4.7.0 for #4871, #3194, #5761, #1458:\n" + head)
if not lines or not lines[0].startswith("Redisson 3.23.0 "):
    failures.append(f"the first line is not the audit's headline: {lines[:1]}")

text, code = on_terminal(160, f"{work}/out160")
widest = max(len(l) for l in re.sub(r"\x1b\[[0-9;]*m", "", text).splitlines())
if not 100 < widest <= 160:
    failures.append(f"on a terminal 160 wide the widest line is {widest} columns")

for f in failures:
    print("FAIL:", f, file=sys.stderr)
sys.exit(1 if failures else 0)
PY
echo "audit_terminal: ok"
