# The set-up a usage test (a command run as a user meets it) shares. Sourced as
#   source "$(dirname "$0")/../support/usage.sh" "$@"      with argument LOCKSIM
# it sets $locksim (an absolute path), $source_dir (the checkout), runs in a folder of its own that
# goes when the test ends, and gives fail() (the test then exits 1: `exit $fails` at its end).
set -uo pipefail
locksim=$(realpath "$1")
source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
fails=0
fail() { echo "FAIL: $*"; fails=1; }
