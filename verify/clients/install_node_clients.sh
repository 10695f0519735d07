#!/usr/bin/env bash
# The clients tests' fixture: installs the node clients (ioredis, node-redlock v5, node-redis v4,
# redis-lock, redlock-universal and redis-semaphore, at the versions node/package-lock.json pins) into
# the build tree, CLIENTS_DIR/node, with `npm ci`.
# Nothing goes outside the build tree but npm's own cache. Installs again only when the lock file
# changed. Without npm, or when the registry cannot be reached, it skips (77) on a developer's machine,
# and fails in CI, where every client must be there.
# Usage: install_node_clients.sh CLIENTS_DIR
set -uo pipefail
clients_dir=${1:?usage: install_node_clients.sh CLIENTS_DIR}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
dest=$clients_dir/node

skip() {
  if [[ ${CI:-} == true ]]; then
    echo "FAIL: $* (in CI every client must be there)" >&2
    exit 1
  fi
  echo "SKIP: $*"
  exit 77
}

command -v node >/dev/null && command -v npm >/dev/null ||
  skip "node and npm are not installed (tools/install-deps installs them)"

mkdir -p "$dest"
stamp=$dest/installed-lock.json
if [[ -f $stamp ]] && cmp -s "$stamp" "$here/node/package-lock.json" && [[ -d $dest/node_modules ]]; then
  echo "up to date: $dest"
  exit 0
fi
cp "$here/node/package.json" "$here/node/package-lock.json" "$dest/"
rm -f "$stamp"
if ! timeout 300 npm ci --prefix "$dest" --no-audit --no-fund --loglevel=error >"$dest/npm.log" 2>&1; then
  cat "$dest/npm.log" >&2
  skip "npm ci could not install the node clients into $dest (log above)"
fi
for m in ioredis redis redlock redis-lock redlock-universal redis-semaphore; do
  [[ -f $dest/node_modules/$m/package.json ]] || skip "npm ci ran but left no $m in $dest"
done
cp "$here/node/package-lock.json" "$stamp"
echo "installed into $dest: $(cd "$dest" && npm ls --depth=0 --parseable 2>/dev/null | sed -n 's|.*/node_modules/||p' | tr '\n' ' ')"
