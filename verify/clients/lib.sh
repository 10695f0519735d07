# Shared by the clients tests (sourced, not run): starting a private redis-server and a `locksim serve`
# on free loopback ports, stopping every process it started when the test exits (pass, fail or signal),
# the differential comparison, and skipping when a client cannot be had.
#
# A test sources it as:   source "$(dirname "$0")/lib.sh" "$@"    with arguments LOCKSIM CLIENTS_DIR
#   LOCKSIM      the locksim binary
#   CLIENTS_DIR  where the node clients are installed (<build>/clients; see install_node_clients.sh)
set -uo pipefail

locksim=${1:?usage: $0 LOCKSIM CLIENTS_DIR}
clients_dir=${2:?usage: $0 LOCKSIM CLIENTS_DIR}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
node_dir=$clients_dir/node
# Debian's redis-py (python3-redis) is on Debian's python only, whatever python3 comes first on PATH.
python=/usr/bin/python3
work=$(mktemp -d "/tmp/locksim-clients-$(basename "$0" .sh)-XXXXXX")
started=()  # pids of the servers this test started, stopped at exit

cleanup() {
  local pid
  for pid in "${started[@]}"; do
    kill -0 "$pid" 2>/dev/null || continue
    kill -TERM "$pid" 2>/dev/null
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    kill -9 "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  done
  if [[ -n ${KEEP_WORK:-} ]]; then echo "work files kept in $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# A client that cannot be had: a skip (77) on a developer's machine, a failure in CI.
skip() {
  if [[ ${CI:-} == true ]]; then fail "$* (in CI every client must be there)"; fi
  echo "SKIP: $*"
  exit 77
}

need_redis_server() {
  command -v redis-server >/dev/null && command -v redis-cli >/dev/null ||
    skip "redis-server / redis-cli not installed (tools/install-deps installs redis-server and redis-tools)"
}

need_redis_py() {
  [[ -x $python ]] && "$python" -c 'import redis' 2>/dev/null ||
    skip "Debian's redis-py is not installed for $python (tools/install-deps installs python3-redis)"
}

# need_node_module NAME...: the npm packages install_node_clients.sh put into the build tree.
need_node_module() {
  command -v node >/dev/null || skip "node is not installed (tools/install-deps installs nodejs)"
  local m
  for m in "$@"; do
    [[ -f $node_dir/node_modules/$m/package.json ]] ||
      skip "npm package $m is not installed in $node_dir (the clients_node_install test installs it)"
  done
}

run_node() { NODE_PATH=$node_dir/node_modules node "$@"; }

free_port() {
  "$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# start_redis NAME [redis-server options...]: a fresh redis-server on 127.0.0.1; sets REDIS_PORT.
start_redis() {
  local name=$1
  shift
  local dir=$work/redis-$name pid port
  mkdir -p "$dir"
  for _ in 1 2 3 4 5; do
    port=$(free_port)
    redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no --dir "$dir" --daemonize no \
      --loglevel warning --logfile "$dir/redis.log" "$@" &
    pid=$!
    started+=("$pid")
    for _ in $(seq 1 100); do
      # Any answer (PONG, or NOAUTH under requirepass) says it is up.
      [[ -n $(timeout 5 redis-cli -p "$port" ping 2>/dev/null) ]] && { REDIS_PORT=$port; return 0; }
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.05
    done
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  done
  fail "could not start redis-server: $(cat "$dir/redis.log" 2>/dev/null)"
}

# start_serve NAME [serve options...]: `locksim serve --port 0` writing its port to a file; sets
# SERVE_PORT and SERVE_PID. Its stderr goes to $work/serve-NAME.err.
start_serve() {
  local name=$1
  shift
  local port_file=$work/serve-$name.port
  rm -f "$port_file"
  "$locksim" serve --port 0 --port-file "$port_file" "$@" 2>"$work/serve-$name.err" &
  SERVE_PID=$!
  started+=("$SERVE_PID")
  for _ in $(seq 1 200); do
    if [[ -s $port_file ]] && [[ $(cat "$port_file") =~ ^[0-9]+$ ]]; then
      SERVE_PORT=$(cat "$port_file")
      return 0
    fi
    kill -0 "$SERVE_PID" 2>/dev/null || fail "locksim serve exited at start: $(cat "$work/serve-$name.err")"
    sleep 0.05
  done
  fail "locksim serve wrote no port file in 10 s: $(cat "$work/serve-$name.err")"
}

# stop_serve PORT PID [PASSWORD]: LOCKSIM.SHUTDOWN, then wait for the process (it writes its history on
# the way out).
stop_serve() {
  local port=$1 pid=$2
  REDISCLI_AUTH=${3:-} timeout 10 redis-cli -p "$port" LOCKSIM.SHUTDOWN >/dev/null 2>&1
  for _ in $(seq 1 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  kill -0 "$pid" 2>/dev/null && fail "locksim serve did not stop after LOCKSIM.SHUTDOWN"
  wait "$pid" 2>/dev/null
  return 0
}

# run_both [SERVER_OPTION...]: the test's `session PORT` (what one client prints against one server)
# against a fresh redis-server and then against a fresh `locksim serve`, both given the options
# (--requirepass P is the one both understand); outputs in $work/redis.out and $work/serve.out.
run_both() {
  local password="" i args=("$@")
  for ((i = 0; i < ${#args[@]}; i++)); do
    [[ ${args[i]} == --requirepass ]] && password=${args[i + 1]}
  done
  start_redis reference "$@"
  session "$REDIS_PORT" >"$work/redis.out" 2>"$work/redis.err" ||
    fail "the client failed against redis-server (exit $?): $(tail -n 20 "$work/redis.out" "$work/redis.err")"
  start_serve clients "$@"
  session "$SERVE_PORT" >"$work/serve.out" 2>"$work/serve.err" ||
    echo "the client exited with $? against locksim serve: $(tail -n 20 "$work/serve.err")" >&2
  stop_serve "$SERVE_PORT" "$SERVE_PID" "$password"
}

# Differential comparison. A client script prints '== <step>' before each step's replies and
# '== done' last. compare_outputs REFERENCE SERVE [KNOWN_STEP...] compares the two outputs step by
# step; the steps named as known differences are left out of the verdict but their diff is printed, so
# that a known difference stays visible. A mark on a step that now agrees fails the test: a stale mark
# would hide that step's next regression.
compare_outputs() {
  local ref=$1 got=$2
  shift 2
  local known=" $* "
  for f in "$ref" "$got"; do
    [[ $(tail -n 1 "$f") == "== done" ]] || { echo "--- $f:" >&2; tail -n 20 "$f" >&2; fail "the client script did not run through ($f)"; }
  done
  local steps
  steps=$(grep -c '^== ' "$ref")
  ((steps >= 5)) || fail "only $steps steps in $ref: the client script did not run"
  local s
  for s in "$@"; do
    grep -qx "== $s" "$ref" || fail "known difference '$s' names no step of the client script"
  done
  split_steps() {  # FILE OUT_COMPARED OUT_KNOWN
    awk -v known="$known" -v cmp="$2" -v kn="$3" '
      /^== / { name = substr($0, 4); skip = index(known, " " name " ") > 0 }
      { print > (skip ? kn : cmp) }' "$1"
    touch "$2" "$3"
  }
  split_steps "$ref" "$work/ref.cmp" "$work/ref.known"
  split_steps "$got" "$work/got.cmp" "$work/got.known"
  step_block() {  # FILE STEP: that step's lines, from its '== STEP' to the next '== '
    awk -v name="$2" '/^== / { inside = (substr($0, 4) == name) } inside' "$1"
  }
  if (($#)); then
    local agree=()
    for s in "$@"; do
      cmp -s <(step_block "$ref" "$s") <(step_block "$got" "$s") && agree+=("'$s'")
    done
    ((${#agree[@]} == 0)) ||
      fail "the steps marked as known differences ${agree[*]} now agree with redis-server: remove their marks"
    echo "known differences (not judged; each is commented in the test):"
    diff -u --label redis-server --label "locksim serve" "$work/ref.known" "$work/got.known" >"$work/known.diff"
    head -n 80 "$work/known.diff" | sed 's/^/    /'
    local more=$(($(wc -l <"$work/known.diff") - 80))
    ((more > 0)) && echo "    ... $more more lines"
  fi
  if ! diff -u --label redis-server --label "locksim serve" "$work/ref.cmp" "$work/got.cmp"; then
    fail "the client saw locksim serve answer differently from redis-server (diff above: - redis-server, + serve)"
  fi
  echo "PASS $steps steps, $(wc -l <"$ref") lines of replies: the client saw the same from redis-server and locksim serve"
}
