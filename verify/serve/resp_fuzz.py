#!/usr/bin/env python3
"""RESP fuzzer for `locksim serve`: random and mutated requests, and every command serve knows,
from three connections at once; after each round serve must still answer, stop on SIGTERM, and
have printed no sanitizer report, assertion or crash.

A round starts serve with options drawn for it (real or virtual clock, a lagging replica, the AOF
copy, a history with a lock key and a resource), sends ROUND_REQUESTS requests, then probes: a PING
on a fresh connection must be answered within 30 s (unless the round sent a fault that silences
the server on purpose: a pause, a partition, a loss, an error window; runaway scripts may keep it busy for
seconds, so it is a while), and SIGTERM must end serve
within 30 s with status 0. Every request is drawn from random.Random("<seed>:<round>"), so a
round's requests are the same on every machine; what serve answers may vary with the real clock.

The vocabulary comes from serve itself: COMMAND for the engine's commands, LOCKSIM.FAULT's
errors for the fault kinds and their parameters; the connection and control commands are listed
here. Arguments mix the keys of a small keyspace, option words, numbers at every edge (durations
up to 2^63 and past it), random bytes and long strings. About one request in ten is a mutation
of the wire bytes (flipped, cut, doubled, or lengths that lie), and some run inside MULTI or
through EVAL's redis.pcall. Runaway scripts are in the corpus, not in the rounds, which they
would slow down tenfold: the rounds' loops are bounded. Under a virtual clock the instruction
budget stops a runaway script; under the real one it keeps serve BUSY until the probe ends it with
SCRIPT KILL or FUNCTION KILL (SHUTDOWN NOSAVE if it wrote), as a Redis user would. DEBUG SLEEP is kept under a second: a longer one blocks serve on
purpose, as it blocks Redis, and would read as a hang.

A failing round leaves its requests in OUT/round-<seed>-<n>.jsonl (its serve options, then each
request's connection and wire bytes) and serve's standard error beside it; --replay FILE sends such
a file again. verify/serve/fuzz-corpus/ keeps replays worth running every time (lines starting
with # are comments).

Usage:
  resp_fuzz.py LOCKSIM [--seed S] [--seconds T | --rounds N] [--out DIR] [--replay FILE ...]
"""
import argparse
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

from local_resp import encode, free_port

ROUND_REQUESTS = 400
CONNECTIONS = 3

CONNECTION_COMMANDS = [
    ["PING"], ["ECHO"], ["QUIT"], ["RESET"], ["HELLO"], ["HELLO", "2"], ["HELLO", "3"], ["AUTH"],
    ["CLIENT", "ID"], ["CLIENT", "GETNAME"], ["CLIENT", "SETNAME"], ["CLIENT", "INFO"], ["CLIENT", "LIST"],
    ["CLIENT", "KILL"], ["CLIENT", "UNBLOCK"], ["CLIENT", "NO-EVICT"], ["CLIENT", "REPLY"], ["INFO"],
    ["CONFIG", "GET"], ["CONFIG", "SET"], ["COMMAND"], ["COMMAND", "INFO"], ["COMMAND", "COUNT"], ["WAIT"],
    ["LOCKSIM.CLOCK", "GET"], ["LOCKSIM.CLOCK", "ADVANCE"], ["LOCKSIM.CLOCK", "JUMP"], ["LOCKSIM.NOTE", "acquired"],
    ["LOCKSIM.NOTE", "released"], ["LOCKSIM.HISTORY", "LEN"], ["LOCKSIM.FAULT"], ["LOCKSIM.NOPE"],
]
# Stop serve on purpose: sent only at the end of a round, where the probe expects it.
STOPPING = [["SHUTDOWN"], ["LOCKSIM.SHUTDOWN"]]
SILENCING_FAULTS = {"redis_pause", "partition", "loss", "error_reply", "delay", "pause", "crash"}

KEYS = ["k0", "k1", "k2", "lk", "{t}x", "counter", ""]
WORDS = ["NX", "XX", "GT", "LT", "CH", "INCR", "PX", "EX", "EXAT", "PXAT", "KEEPTTL", "GET", "PERSIST", "COUNT",
         "MATCH", "TYPE", "WITHSCORES", "LIMIT", "BYSCORE", "BYLEX", "REV", "LEFT", "RIGHT", "BEFORE", "AFTER",
         "RANK", "MAXLEN", "REPLACE", "DB", "FLUSH", "SYNC", "ASYNC", "LOAD", "EXISTS", "HELP", "LIST",
         "WITHCODE", "LIBRARYNAME", "APPEND", "ENCODING", "REFCOUNT", "FREQ", "IDLETIME", "STATS", "DUMP",
         "RESTORE", "DELETE", "KILL", "NUMSUB", "NUMPAT", "CHANNELS", "SLEEP", "TIMEOUT", "ERROR", "ON", "OFF",
         "SKIP", "thread", "lease_ms", "for_ms", "client", "by_ms", "extra_ms", "per_thousand", "SAVE", "LEN",
         "AGGREGATE", "SUM", "MIN", "MAX", "WEIGHTS", "BYTE", "BIT", "IDX", "LEN", "SAMPLES", "USAGE"]
NUMBERS = ["0", "1", "-1", "2", "3", "10", "100", "1000", "-100", "0.5", "1.5", "-0", "0.001", "inf", "-inf", "+inf",
           "nan", "1e400", "1e-400", "0x10", " 1", "1 ", "", "4294967296", "2147483648", "4848378279948546481",
           "9223372036854775807", "-9223372036854775808", "9223372036854775808", "18446744073709551615",
           "9223372036854775.807", "99999999999999999999999", "536870912", "-4848378279948546481"]
SCRIPTS = [
    "return redis.pcall(unpack(ARGV))",
    "return redis.call('set', KEYS[1], ARGV[1])",
    "for i = 1, math.min(tonumber(ARGV[1]) or 1, 1000) do redis.call('rpush', KEYS[1], i) end "
    "return redis.call('llen', KEYS[1])",
    "return {pcall(redis.call, unpack(ARGV))}",
    "local t = {} for i = 1, 100 do t[i] = i end return t",
    "return redis.sha1hex(ARGV[1] or '')",
    "return string.rep('x', math.min(tonumber(ARGV[1]) or 0, 100000))",
    "return cjson.decode(ARGV[1] or 'null')",
    "return cmsgpack.unpack(ARGV[1] or '')",
    "return struct.unpack(ARGV[1] or 'b', ARGV[2] or '')",
    "#!lua flags=no-writes\nreturn redis.pcall(unpack(ARGV))",
    "redis.setresp(3) return redis.pcall(unpack(ARGV))",
    "return loadstring(ARGV[1] or '')",
    "return os and os.getenv('HOME')",
    "return io and io.open('/etc/passwd')",
]


class Vocabulary:
    def __init__(self, commands, faults):
        self.commands = commands  # [(name, arity)]
        self.faults = faults      # {kind: [param, ...]}


class Generator:
    def __init__(self, rng, vocab):
        self.rng, self.vocab = rng, vocab
        self.silencing = False

    def arg(self):
        r = self.rng.random()
        if r < 0.30:
            return self.rng.choice(KEYS)
        if r < 0.55:
            return self.rng.choice(NUMBERS)
        if r < 0.75:
            return self.rng.choice(WORDS)
        if r < 0.85:
            return str(self.rng.randint(-5, 200))
        if r < 0.97:
            return bytes(self.rng.getrandbits(8) for _ in range(self.rng.randint(0, 12)))
        return b"x" * self.rng.choice([100, 5000, 70000, 600000])

    def args(self, n):
        return [self.arg() for _ in range(n)]

    def fault(self):
        kind = self.rng.choice(sorted(self.vocab.faults) + ["nosuch"])
        words = ["LOCKSIM.FAULT", kind]
        for param in self.vocab.faults.get(kind, []):
            if self.rng.random() < 0.8:
                words += [param, self.rng.choice(NUMBERS + ["50", "200", "A", "*"])]
        if self.rng.random() < 0.3:
            words += ["client", self.rng.choice(["A", "B", "*", "conn1"])]
        if kind in SILENCING_FAULTS:
            self.silencing = True
        return words

    def command(self):
        r = self.rng.random()
        if r < 0.08:
            return self.fault()
        if r < 0.20:
            words = list(self.rng.choice(CONNECTION_COMMANDS)) + self.args(self.rng.randint(0, 3))
            if words[0] == "CLIENT" and len(words) > 1 and words[1] == "KILL":
                words = ["CLIENT", "KILL", "ID", self.rng.choice(["1", "2", "3", "99"])]
            return words
        if r < 0.28:
            script = self.rng.choice(SCRIPTS)
            nkeys = self.rng.randint(0, 2)
            name, _ = self.rng.choice(self.vocab.commands)
            return (["EVAL", script, str(nkeys)] + [self.rng.choice(KEYS) for _ in range(nkeys)] + [name] +
                    self.args(self.rng.randint(0, 4)))
        name, arity = self.rng.choice(self.vocab.commands)
        n = abs(arity) - 1 if self.rng.random() < 0.6 else self.rng.randint(0, 6)
        n = max(0, n + (self.rng.randint(0, 3) if arity < 0 else 0))
        words = [name if self.rng.random() < 0.8 else name.upper()] + self.args(n)
        if name == "debug":
            words = ["DEBUG", "SLEEP", self.rng.choice(["0", "0.01", "0.2", "-1", "x"])]
        return words

    def mutate(self, data):
        r = self.rng.random()
        data = bytearray(data)
        if r < 0.25 and data:
            for _ in range(self.rng.randint(1, 4)):
                data[self.rng.randrange(len(data))] = self.rng.getrandbits(8)
        elif r < 0.45 and data:
            data = data[: self.rng.randrange(len(data))]
        elif r < 0.60:
            data = data * self.rng.randint(2, 5)
        elif r < 0.75:
            data = b"*%d\r\n" % self.rng.choice([-5, 0, 1, 1024 * 1024, 2 ** 31, 2 ** 62]) + bytes(data)
        elif r < 0.90:
            data = b"*1\r\n$%d\r\n" % self.rng.choice([-2, 0, 512 * 1024 * 1024, 2 ** 40, 2 ** 63]) + bytes(data)
        else:
            data = b" ".join(str(a).encode() if not isinstance(a, bytes) else a for a in self.command()) + b"\r\n"
        return bytes(data)

    def requests(self, count):
        """[(connection, bytes)]: MULTI blocks and mutations among the plain requests."""
        out = []
        while len(out) < count:
            conn = self.rng.randrange(CONNECTIONS)
            r = self.rng.random()
            if r < 0.05:
                block = [["MULTI"]] + [self.command() for _ in range(self.rng.randint(0, 4))]
                block.append(self.rng.choice([["EXEC"], ["DISCARD"], ["EXEC"]]))
                out += [(conn, encode(w)) for w in block]
            elif r < 0.15:
                out.append((conn, self.mutate(encode(self.command()))))
            else:
                out.append((conn, encode(self.command())))
        return out[:count]


def connect(port, timeout=5.0):
    deadline = time.time() + timeout
    while True:
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=1.0)
        except OSError:
            if time.time() > deadline:
                raise
            time.sleep(0.02)


def command_reply(sock, words, timeout=5.0):
    sock.settimeout(timeout)
    sock.sendall(encode(words))
    data = b""
    end = time.time() + timeout
    while time.time() < end:
        try:
            chunk = sock.recv(1 << 20)
        except socket.timeout:
            break
        if not chunk:
            break
        data += chunk
        if data.endswith(b"\r\n") and (not data.startswith(b"*") or data.count(b"\r\n") > 2):
            sock.settimeout(0.2)
    return data


def end_busy_script(sock, proc):
    """A script the round left running (real clock: no instruction budget) keeps serve BUSY, as it
    keeps Redis: SCRIPT KILL or FUNCTION KILL ends it, SHUTDOWN NOSAVE one that wrote (and serve).
    Returns PING's answer after, and whether serve was shut down."""
    for kill in (["SCRIPT", "KILL"], ["FUNCTION", "KILL"]):
        if command_reply(sock, kill, timeout=10.0).startswith(b"+OK"):
            for _ in range(100):
                answer = command_reply(sock, ["PING"], timeout=10.0)
                if not answer.startswith(b"-BUSY"):
                    return answer, False
                time.sleep(0.05)
    command_reply(sock, ["SHUTDOWN", "NOSAVE"], timeout=10.0)
    return b"", True


def learn(locksim, work):
    """The engine's commands and the faults with their parameters, as serve states them."""
    port = free_port()
    proc = subprocess.Popen([locksim, "serve", "--port", str(port), "--quiet"], stdout=subprocess.DEVNULL)
    try:
        sock = connect(port)
        commands = []
        raw = command_reply(sock, ["COMMAND"], timeout=5.0).split(b"\r\n")
        # Each entry: *10, $len, name, :arity, ... (the name follows its length line).
        for i, line in enumerate(raw):
            if line.startswith(b"$") and i + 2 < len(raw) and raw[i + 2].startswith(b":"):
                name = raw[i + 1].decode()
                # COMMAND lists SHUTDOWN too; a round sends it only at its end (STOPPING).
                if [name.upper()] not in STOPPING:
                    commands.append((name, int(raw[i + 2][1:])))
        faults = {}
        listing = command_reply(sock, ["LOCKSIM.FAULT", "nosuch"]).decode()
        kinds = listing[listing.index("(expected ") + 10: listing.rindex(")")].replace(" or ", ", ").split(", ")
        for kind in kinds:
            said = command_reply(sock, ["LOCKSIM.FAULT", kind, "zz_nosuch", "1"]).decode()
            params = []
            if "(expected " in said:
                params = [p for p in said[said.index("(expected ") + 10: said.rindex(")")].split(", ")
                          if p and p != "none" and p != "client"]
            faults[kind] = params
        sock.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    if len(commands) < 50 or len(faults) < 5:
        raise RuntimeError("could not learn serve's vocabulary (%d commands, %d faults)" % (len(commands), len(faults)))
    return Vocabulary(commands, faults)


def serve_options(rng, work):
    opts = ["--quiet", "--seed", str(rng.randint(1, 10 ** 6))]
    if rng.random() < 0.5:
        opts += ["--clock", "virtual"]
    if rng.random() < 0.4:
        opts += ["--replica-lag-ms", rng.choice(["0", "20", "500"])]
    if rng.random() < 0.3:
        opts += ["--appendonly"]
    if rng.random() < 0.4:
        opts += ["--history", os.path.join(work, "history.jsonl"), "--lock", "lk", "--resource", "counter",
                 "--history-limit", rng.choice(["50", "100000"])]
    if rng.random() < 0.2:
        opts += ["--client-query-buffer-limit", "65536", "--proto-max-bulk-len", "10000"]
    return opts


BAD_SIGNS = ["runtime error", "AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer", "Assertion",
             "assertion", "terminate called", "Segmentation", "LS_ASSERT"]


def run_round(locksim, requests, options, work, silencing, stopping):
    """Sends the requests; returns None when serve held, else what went wrong."""
    port = free_port()
    err_path = os.path.join(work, "stderr.txt")
    with open(err_path, "wb") as err:
        proc = subprocess.Popen([locksim, "serve", "--port", str(port)] + options, stdout=subprocess.DEVNULL,
                                stderr=err)
    problem = None
    conns = {}
    try:
        connect(port).close()
        for conn, data in requests:
            sock = conns.get(conn)
            if sock is None:
                try:
                    sock = conns[conn] = connect(port, timeout=2.0)
                    sock.setblocking(False)
                except OSError:
                    break  # serve is gone or paused for good: the probe below tells which
            try:
                sock.sendall(data)
            except (BlockingIOError, OSError):
                sock.close()
                conns.pop(conn, None)
                continue
            try:
                while sock.recv(1 << 20):
                    pass
            except (BlockingIOError, OSError):
                pass
            if proc.poll() is not None:
                break
        if stopping:
            try:
                proc.wait(timeout=30)  # the round ended with SHUTDOWN: serve stops by itself
            except subprocess.TimeoutExpired:
                pass
        if proc.poll() is not None:
            if not stopping:
                problem = "serve exited (status %s) during the round" % proc.returncode
            elif proc.returncode != 0:
                problem = "serve stopped on SHUTDOWN with status %s" % proc.returncode
        elif proc.poll() is None:
            # Probe: a fresh connection answers PING, unless a fault silenced serve on purpose
            # (then only SIGTERM below tells a hang).
            if not silencing:
                try:
                    sock = connect(port, timeout=2.0)
                    answer = command_reply(sock, ["PING"], timeout=30.0)
                    if answer.startswith(b"-BUSY"):
                        answer, stopped = end_busy_script(sock, proc)
                        if stopped:
                            proc.wait(timeout=30)
                    sock.close()
                    if b"PONG" not in answer and b"NOAUTH" not in answer and proc.poll() is None:
                        problem = "no answer to PING within 30 s (got %r)" % answer[:80]
                except OSError as e:
                    problem = "cannot connect after the round: %s" % e
            proc.send_signal(signal.SIGTERM)
            try:
                status = proc.wait(timeout=30)
                if status != 0 and problem is None:
                    problem = "serve stopped on SIGTERM with status %s" % status
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
                problem = problem or "serve did not stop within 30 s of SIGTERM (a hang)"
    finally:
        for s in conns.values():
            s.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    with open(err_path, "rb") as f:
        stderr = f.read().decode(errors="replace")
    for sign in BAD_SIGNS:
        if sign in stderr:
            problem = (problem + "; " if problem else "") + "serve's stderr says %r" % sign
            break
    return problem, stderr


def save_round(path, options, requests):
    """JSON lines: the options, then each request's connection and wire bytes (latin-1, so any byte)."""
    with open(path, "w") as f:
        f.write(json.dumps({"options": options}) + "\n")
        for conn, data in requests:
            f.write(json.dumps({"conn": conn, "bytes": data.decode("latin-1")}) + "\n")


def load_round(path):
    with open(path) as f:
        lines = [json.loads(line) for line in f if line.strip() and not line.startswith("#")]
    return lines[0]["options"], [(r["conn"], r["bytes"].encode("latin-1")) for r in lines[1:]]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("locksim")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=0)
    ap.add_argument("--rounds", type=int, default=0)
    ap.add_argument("--out", default="")
    ap.add_argument("--replay", nargs="*", default=[])
    args = ap.parse_args()
    if not os.access(args.locksim, os.X_OK):
        print("resp_fuzz: %s is not an executable" % args.locksim, file=sys.stderr)
        return 2
    work = tempfile.mkdtemp(prefix="locksim-fuzz-")
    out = args.out or work
    os.makedirs(out, exist_ok=True)
    failures = total = 0
    try:
        for path in args.replay:
            options, requests = load_round(path)
            options = [o.replace("@WORK@", work) for o in options]
            problem, stderr = run_round(args.locksim, requests, options, work, silencing=True, stopping=False)
            total += len(requests)
            print("%s %s (%d requests)" % ("FAIL" if problem else "ok", path, len(requests)))
            if problem:
                failures += 1
                print("  " + problem)
                print("  " + stderr[-2000:].replace("\n", "\n  "))
        if args.seconds or args.rounds:
            vocab = learn(args.locksim, work)
            print("vocabulary: %d commands, %d faults; seed %d" % (len(vocab.commands), len(vocab.faults), args.seed))
            started = time.time()
            n = 0
            while (args.rounds and n < args.rounds) or (args.seconds and time.time() - started < args.seconds):
                rng = random.Random("%d:%d" % (args.seed, n))
                gen = Generator(rng, vocab)
                options = serve_options(rng, work)
                requests = gen.requests(ROUND_REQUESTS)
                stopping = rng.random() < 0.05
                if stopping:
                    requests.append((0, encode(rng.choice(STOPPING))))
                problem, stderr = run_round(args.locksim, requests, options, work, gen.silencing, stopping)
                total += len(requests)
                if problem:
                    failures += 1
                    path = os.path.join(out, "round-%d-%d.jsonl" % (args.seed, n))
                    save_round(path, [o.replace(work, "@WORK@") for o in options], requests)
                    with open(path + ".stderr", "w") as f:
                        f.write("locksim serve %s\n%s\n---- serve's standard error\n%s" % (" ".join(options), problem, stderr))
                    print("FAIL round %d: %s\n  replay: %s --replay %s" % (n, problem, sys.argv[0], path))
                n += 1
                if n % 25 == 0:
                    print("  %d rounds, %d requests, %.0f s, %d failing" % (n, total, time.time() - started, failures),
                          flush=True)
            print("%d rounds of %d requests from seed %d: %d failing" % (n, ROUND_REQUESTS, args.seed, failures))
    finally:
        if failures and not args.out:
            print("failing rounds kept in %s" % work)
        elif not args.out:
            shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
