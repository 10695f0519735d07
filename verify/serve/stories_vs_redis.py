#!/usr/bin/env python3
"""Stories of several connections over RESP (blocking commands and CLIENT UNBLOCK, CLIENT REPLY,
RESP3 subscribers, busy scripts and SCRIPT KILL): the same stories told to a private redis-server and to `locksim serve`, each on
fresh servers, and what every connection saw must be the same.

A story is a list of steps on named connections: send a command (its reply read at once, or
`wait=True`: none may come within a short while), read a reply that a blocked command owes, sleep,
or close a connection. Replies are compared as RESP values; a null bulk and a null array are both
None (locksim's Reply has one nil: docs/fidelity.md says so).

Usage: stories_vs_redis.py LOCKSIM      (exit 77 when redis-server is missing)
"""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from local_resp import encode, free_port

QUIET = 0.25   # how long a blocked command must stay silent
READ = 5.0     # how long a reply may take


class Conn:
    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=READ)
        self.buf = b""

    def send(self, *words):
        self.sock.sendall(encode(words))

    def _fill(self, timeout):
        self.sock.settimeout(timeout)
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed by the server")
        self.buf += chunk

    def _line(self, timeout):
        while b"\r\n" not in self.buf:
            self._fill(timeout)
        line, self.buf = self.buf.split(b"\r\n", 1)
        return line

    def _value(self, timeout):
        line = self._line(timeout)
        kind, rest = line[:1], line[1:]
        if kind in (b"+", b"-"):
            return (kind.decode(), rest.decode(errors="replace"))
        if kind == b":":
            return int(rest)
        if kind == b"_":
            return None
        if kind == b",":
            return ("double", rest.decode())
        if kind == b"$":
            n = int(rest)
            if n < 0:
                return None
            while len(self.buf) < n + 2:
                self._fill(timeout)
            data, self.buf = self.buf[:n], self.buf[n + 2:]
            return data.decode(errors="replace")
        if kind in (b"*", b">", b"~"):
            n = int(rest)
            # RESP2's two nulls differ on the wire ($-1, *-1): clients that tell them apart see that.
            return ("null array",) if n < 0 else [self._value(timeout) for _ in range(n)]
        if kind == b"%":
            return {"map": [(self._value(timeout), self._value(timeout)) for _ in range(int(rest))]}
        raise ValueError("unexpected RESP line %r" % line)

    def read(self, timeout=READ):
        try:
            return self._value(timeout)
        except socket.timeout:
            return "(no reply within %.1f s)" % timeout

    def silent(self):
        """Nothing arrives within QUIET seconds."""
        if self.buf:
            return "(had: %r)" % self.buf
        self.sock.settimeout(QUIET)
        try:
            chunk = self.sock.recv(65536)
        except socket.timeout:
            return "(silent)"
        self.buf += chunk
        return "(answered: %r)" % chunk

    def close(self):
        self.sock.close()


def blocked_clients(info):
    for line in info.splitlines():
        if line.startswith("blocked_clients:"):
            return line
    return "(no blocked_clients line)"


# Steps: (conn, "cmd", words) reads its reply (a fourth item "skip": not compared, "no reply": expects
# none); (conn, "send", words) only sends; (conn, "block", words) sends and expects silence;
# (conn, "read") reads what a blocked command owes; (conn, "eof") reads, expecting the server to close
# the connection; ("sleep", s); (conn, "close");
# (conn, "info") records INFO's blocked_clients line; (conn, "infolines", section, prefix) the lines
# of INFO <section> that start with prefix; (conn, "id") records nothing but remembers
# the connection's CLIENT ID, which ("unblock", conn, how) then names from another connection.
STORIES = {
    "blpop waits and a push serves it": [
        ("a", "block", ["BLPOP", "k", "0"]),
        ("c", "info"),
        ("c", "cmd", ["LPUSH", "k", "x", "y"]),
        ("a", "read"),
        ("c", "cmd", ["LRANGE", "k", "0", "-1"]),
        ("c", "info"),
    ],
    "first blocked, first served, while the list lasts": [
        ("b", "block", ["BRPOP", "k", "0"]),
        ("a", "block", ["BLPOP", "other", "k", "0"]),
        ("d", "block", ["BLPOP", "k", "0"]),
        ("c", "cmd", ["RPUSH", "k", "1", "2"]),
        ("b", "read"),
        ("a", "read"),
        ("d", "silent"),
        ("c", "cmd", ["EXISTS", "k"]),
        ("c", "cmd", ["RPUSH", "other", "o"]),
        ("c", "cmd", ["LLEN", "other"]),
        ("c", "cmd", ["RPUSH", "k", "last"]),
        ("d", "read"),
    ],
    "a key made and gone in one transaction wakes nobody; another type neither": [
        ("a", "block", ["BLPOP", "k", "0"]),
        ("c", "cmd", ["MULTI"]),
        ("c", "cmd", ["LPUSH", "k", "x"]),
        ("c", "cmd", ["DEL", "k"]),
        ("c", "cmd", ["EXEC"]),
        ("a", "silent"),
        ("c", "cmd", ["SET", "k", "v"]),
        ("a", "silent"),
        ("c", "cmd", ["DEL", "k"]),
        ("c", "cmd", ["RPUSH", "k", "z"]),
        ("a", "read"),
    ],
    "a script's pushes wake the waiter after the script": [
        ("a", "block", ["BLPOP", "k", "0"]),
        ("c", "cmd", ["EVAL", "redis.call('lpush', KEYS[1], 'a'); redis.call('lpush', KEYS[1], 'b'); "
                              "return redis.call('llen', KEYS[1])", "1", "k"]),
        ("a", "read"),
        ("c", "cmd", ["LLEN", "k"]),
    ],
    "what a blocked client pipelined runs after it is served": [
        ("a", "pipeline", [["BLPOP", "k", "0"], ["PING"], ["LLEN", "k"]]),
        ("c", "cmd", ["RPUSH", "k", "v", "w"]),
        ("a", "read"),
        ("a", "read"),
        ("a", "read"),
    ],
    "timeouts, fractional and whole": [
        ("a", "cmd", ["BLPOP", "k", "0.1"]),
        ("a", "cmd", ["BRPOPLPUSH", "k", "d", "0.05"]),
        ("a", "cmd", ["BLMOVE", "k", "d", "LEFT", "LEFT", "0.05"]),
        ("a", "cmd", ["BLMPOP", "0.05", "1", "k", "LEFT"]),
        ("a", "cmd", ["HELLO", "3"], "skip"),
        ("a", "cmd", ["BLPOP", "k", "0.05"]),
        ("a", "cmd", ["BLMOVE", "k", "d", "LEFT", "LEFT", "0.05"]),
    ],
    "the null array and the null bulk, as each command answers nothing": [
        ("a", "cmd", ["LPOP", "none"]),
        ("a", "cmd", ["LPOP", "none", "2"]),
        ("a", "cmd", ["RPOP", "none", "2"]),
        ("a", "cmd", ["LMPOP", "1", "none", "LEFT"]),
        ("a", "cmd", ["ZMPOP", "1", "none", "MIN"]),
        ("a", "cmd", ["ZPOPMIN", "none"]),
        ("a", "cmd", ["LMOVE", "none", "d", "LEFT", "LEFT"]),
        ("a", "cmd", ["BLPOP", "none", "0.05"]),
        ("a", "cmd", ["BZPOPMIN", "none", "0.05"]),
        ("a", "cmd", ["BZMPOP", "0.05", "1", "none", "MAX"]),
        ("a", "cmd", ["BLMOVE", "none", "d", "LEFT", "LEFT", "0.05"]),
        ("a", "cmd", ["MULTI"]),
        ("a", "cmd", ["BLPOP", "none", "0"]),
        ("a", "cmd", ["BZPOPMAX", "none", "0"]),
        ("a", "cmd", ["BLMOVE", "none", "d", "LEFT", "LEFT", "0"]),
        ("a", "cmd", ["BLMPOP", "0", "1", "none", "LEFT"]),
        ("a", "cmd", ["EXEC"]),
        ("a", "cmd", ["WATCH", "w"]),
        ("c", "cmd", ["SET", "w", "1"]),
        ("a", "cmd", ["MULTI"]),
        ("a", "cmd", ["PING"]),
        ("a", "cmd", ["EXEC"]),
        ("a", "cmd", ["EVAL", "return redis.call('lpop', KEYS[1], 2)", "1", "none"]),
        ("a", "cmd", ["HELLO", "3"], "skip"),
        ("a", "cmd", ["LPOP", "none", "2"]),
        ("a", "cmd", ["BLPOP", "none", "0.05"]),
    ],
    "the server layer's commands are rows of the one table: queued in MULTI, checked like any other": [
        ("a", "cmd", ["MULTI"]),
        ("a", "cmd", ["CLIENT", "SETNAME", "x"]),
        ("a", "cmd", ["CLIENT", "GETNAME"]),
        ("a", "cmd", ["CONFIG", "GET", "maxmemory"]),
        ("a", "cmd", ["WAIT", "0", "0"]),
        ("a", "cmd", ["EXEC"]),
        ("a", "cmd", ["MULTI"]),
        ("a", "cmd", ["SHUTDOWN"]),
        ("a", "cmd", ["PING"]),
        ("a", "cmd", ["EXEC"]),
        ("a", "cmd", ["MULTI"]),
        ("a", "cmd", ["CLIENT", "NOSUCH"]),
        ("a", "cmd", ["EXEC"]),
        ("a", "cmd", ["CLIENT", "ID", "extra"]),
        ("a", "cmd", ["CLIENT", "UNBLOCK", "1", "TIMEOUT", "more"]),
        ("a", "cmd", ["CONFIG", "GET"]),
        ("a", "cmd", ["CONFIG", "SET", "maxmemory"]),
        ("a", "cmd", ["WAIT", "0"]),
        ("a", "cmd", ["AUTH", "a", "b", "c"]),
        ("a", "cmd", ["RESET", "now"]),
        ("a", "cmd", ["EVAL", "return redis.call('client', 'id')", "0"]),
        ("a", "cmd", ["EVAL", "return redis.call('wait', '0', '0')", "0"]),
        ("a", "cmd", ["EVAL", "return type(redis.call('info', 'server'))", "0"]),
        ("a", "cmd", ["EVAL", "return redis.call('command', 'count') > 0", "0"]),
        ("b", "cmd", ["SUBSCRIBE", "ch"]),
        ("b", "cmd", ["CLIENT", "ID"]),
        ("b", "cmd", ["INFO"]),
        ("b", "cmd", ["PING"]),
        ("b", "cmd", ["RESET"]),
        ("b", "cmd", ["CLIENT", "GETNAME"]),
    ],
    "encoding thresholds are server config": [
        ("a", "cmd", ["CONFIG", "SET", "hz", "10", "HZ", "11"]),
        ("a", "cmd", ["CONFIG", "SET", "zset-max-ziplist-entries", "abc"]),
        ("a", "cmd", ["CONFIG", "SET", "zset-max-listpack-entries", "-1"]),
        ("a", "cmd", ["CONFIG", "SET", "zset-max-listpack-entries", "0128"]),
        ("a", "cmd", ["CONFIG", "SET", "zset-max-listpack-entries", "+5"]),
        ("a", "cmd", ["CONFIG", "SET", "zset-max-listpack-value", "-1"]),
        ("a", "cmd", ["CONFIG", "SET", "zset-max-listpack-value", "1.5"]),
        ("a", "cmd", ["CONFIG", "SET", "hash-max-ziplist-value", "99999999999999999999"]),
        ("a", "cmd", ["CONFIG", "SET", "set-max-intset-entries", "5", "zset-max-ziplist-value", "x"]),
        ("a", "cmd", ["CONFIG", "GET", "set-max-intset-entries"]),
        ("a", "cmd", ["CONFIG", "SET", "zset-max-listpack-value", "1K"]),
        ("a", "cmd", ["CONFIG", "GET", "zset-max-ziplist-value"]),
        ("a", "cmd", ["CONFIG", "SET", "zset-max-ziplist-entries", "1", "set-max-intset-entries", "1"]),
        ("a", "cmd", ["ZADD", "z", "1", "a"]),
        ("a", "cmd", ["OBJECT", "ENCODING", "z"]),
        ("a", "cmd", ["ZADD", "z", "2", "b"]),
        ("a", "cmd", ["OBJECT", "ENCODING", "z"]),
        ("a", "cmd", ["SADD", "s", "1", "2"]),
        ("a", "cmd", ["OBJECT", "ENCODING", "s"]),
        ("a", "cmd", ["CONFIG", "GET", "zset-max-listpack-entries"]),
        ("a", "cmd", ["CONFIG", "GET", "hash-max-ziplist-value"]),
        ("a", "cmd", ["CONFIG", "SET", "zset-max-ziplist-entries", "128", "set-max-intset-entries", "512",
                      "zset-max-listpack-value", "64"]),
    ],
    "errors and immediate answers": [
        ("a", "cmd", ["BLPOP", "k", "-1"]),
        ("a", "cmd", ["BLPOP", "k", "abc"]),
        ("a", "cmd", ["BLPOP", "k", "inf"]),
        ("a", "cmd", ["BLMPOP", "0", "0", "k", "LEFT"]),
        ("a", "cmd", ["BLMPOP", "0", "1", "k", "UP"]),
        ("a", "cmd", ["BLMPOP", "0", "1", "k", "LEFT", "COUNT", "0"]),
        ("a", "cmd", ["BLMPOP", "x", "1", "k", "LEFT"]),
        ("a", "cmd", ["BLMOVE", "k", "d", "UP", "LEFT", "0"]),
        ("a", "cmd", ["SET", "s", "v"]),
        ("a", "cmd", ["BLPOP", "nothing", "s", "0"]),
        ("a", "cmd", ["BRPOPLPUSH", "s", "d", "0"]),
        ("a", "cmd", ["RPUSH", "k", "1", "2", "3"]),
        ("a", "cmd", ["BLPOP", "nothing", "k", "0"]),
        ("a", "cmd", ["BLMPOP", "0", "2", "nothing", "k", "RIGHT", "COUNT", "5"]),
        ("a", "cmd", ["EXISTS", "k"]),
        ("a", "cmd", ["MULTI"]),
        ("a", "cmd", ["BLPOP", "k", "0"]),
        ("a", "cmd", ["BRPOPLPUSH", "k", "d", "0"]),
        ("a", "cmd", ["BLMPOP", "0", "1", "k", "LEFT"]),
        ("a", "cmd", ["EXEC"]),
        ("a", "cmd", ["EVAL", "return redis.pcall('blpop', 'k', 0)", "0"]),
        ("a", "cmd", ["EVAL", "return redis.call('blmpop', 0, 1, 'k', 'left')", "0"]),
    ],
    "blmove serves on, in the same turn": [
        ("a", "block", ["BLMOVE", "src", "dst", "LEFT", "RIGHT", "0"]),
        ("b", "block", ["BLPOP", "dst", "0"]),
        ("c", "cmd", ["RPUSH", "src", "x"]),
        ("a", "read"),
        ("b", "read"),
        ("c", "cmd", ["EXISTS", "src", "dst"]),
    ],
    "a blmove whose destination is no list": [
        ("a", "block", ["BRPOPLPUSH", "src", "dst", "0"]),
        ("c", "cmd", ["SET", "dst", "string"]),
        ("c", "cmd", ["RPUSH", "src", "x"]),
        ("a", "read"),
        ("c", "cmd", ["LRANGE", "src", "0", "-1"]),
    ],
    "blmpop served its count": [
        ("a", "block", ["BLMPOP", "0", "2", "k1", "k2", "RIGHT", "COUNT", "2"]),
        ("c", "cmd", ["RPUSH", "k2", "a", "b", "c"]),
        ("a", "read"),
        ("c", "cmd", ["LRANGE", "k2", "0", "-1"]),
    ],
    "client unblock": [
        ("a", "id"),
        ("a", "block", ["BLPOP", "k", "0"]),
        ("unblock", "a", "TIMEOUT"),
        ("a", "read"),
        ("a", "block", ["BLPOP", "k", "0"]),
        ("unblock", "a", "ERROR"),
        ("a", "read"),
        ("unblock", "a", None),
        ("c", "cmd", ["CLIENT", "UNBLOCK", "999999"]),
        ("c", "cmd", ["CLIENT", "UNBLOCK", "1", "NOW"]),
        ("c", "cmd", ["CLIENT", "UNBLOCK", "x"]),
    ],
    "a closed waiter takes nothing": [
        ("a", "block", ["BLPOP", "k", "0"]),
        ("a", "close"),
        ("sleep", 0.1),
        ("c", "cmd", ["LPUSH", "k", "v"]),
        ("c", "cmd", ["LLEN", "k"]),
        ("c", "info"),
    ],
    "swapdb readies what the other db holds": [
        ("a", "cmd", ["SELECT", "1"]),
        ("a", "block", ["BLPOP", "k", "0"]),
        ("c", "cmd", ["RPUSH", "k", "v"]),
        ("a", "silent"),
        ("c", "cmd", ["SWAPDB", "0", "1"]),
        ("a", "read"),
    ],
    "a timed-out waiter is gone": [
        ("a", "cmd", ["BLPOP", "k", "0.05"]),
        ("c", "cmd", ["RPUSH", "k", "v"]),
        ("c", "cmd", ["LLEN", "k"]),
    ],
    "sorted-set waiters": [
        ("a", "block", ["BZPOPMIN", "z", "other", "0"]),
        ("b", "block", ["BZMPOP", "0", "2", "other", "z", "MAX", "COUNT", "2"]),
        ("d", "block", ["BZPOPMAX", "z", "0"]),
        ("c", "cmd", ["RPUSH", "other", "x"]),
        ("a", "silent"),
        ("c", "cmd", ["ZADD", "z", "1", "a", "2", "b", "3", "c"]),
        ("a", "read"),
        ("b", "read"),
        ("d", "silent"),
        ("c", "cmd", ["EXISTS", "z"]),
        ("c", "cmd", ["ZADD", "z", "5", "e"]),
        ("d", "read"),
        ("a", "cmd", ["BZPOPMIN", "z", "0.05"]),
        ("a", "cmd", ["BZMPOP", "0.05", "1", "z", "MIN"]),
        ("a", "cmd", ["BZPOPMIN", "z", "-1"]),
        ("a", "cmd", ["BZMPOP", "0", "1", "z", "UP"]),
        ("a", "cmd", ["MULTI"]),
        ("a", "cmd", ["BZPOPMAX", "z", "0"]),
        ("a", "cmd", ["BZMPOP", "0", "1", "z", "MIN"]),
        ("a", "cmd", ["EXEC"]),
        ("a", "cmd", ["EVAL", "return redis.pcall('bzpopmin', 'z', 0)", "0"]),
        ("a", "cmd", ["EVAL", "return redis.call('bzmpop', 0, 1, 'z', 'min')", "0"]),
        ("a", "cmd", ["BZPOPMIN", "nothing", "other", "0"]),
    ],
    "client reply off and skip leave pushes alone": [
        ("a", "cmd", ["HELLO", "3"], "skip"),
        ("a", "send", ["CLIENT", "REPLY", "OFF"]),
        ("a", "send", ["SUBSCRIBE", "ch"]),
        ("a", "read"),
        ("a", "send", ["PUBLISH", "ch", "hi"]),
        ("a", "read"),
        ("a", "send", ["PING"]),
        ("a", "silent"),
        ("b", "cmd", ["CLIENT", "REPLY", "SKIP"], "no reply"),
        ("b", "send", ["ECHO", "skipped"]),
        ("b", "cmd", ["ECHO", "sent"]),
    ],
    "a resp3 subscriber runs any command": [
        ("a", "cmd", ["HELLO", "3"], "skip"),
        ("a", "cmd", ["SUBSCRIBE", "ch"]),
        ("a", "cmd", ["SET", "k", "v"]),
        ("a", "cmd", ["PING"]),
        ("a", "cmd", ["PUBLISH", "ch", "self"]),
        ("a", "read"),
        ("b", "cmd", ["SUBSCRIBE", "ch"]),
        ("b", "cmd", ["GET", "k"]),
        ("b", "cmd", ["PING"]),
    ],
    "resp3 scores": [
        ("a", "cmd", ["HELLO", "3"], "skip"),
        ("a", "cmd", ["ZADD", "z", "0", "a", "1.5", "b", "2", "c", "3", "d", "4", "e", "5", "f", "inf", "g"]),
        ("a", "cmd", ["ZADD", "y", "1", "a", "2", "x"]),
        ("a", "cmd", ["ZSCORE", "z", "b"]),
        ("a", "cmd", ["ZMSCORE", "z", "a", "nope", "g"]),
        ("a", "cmd", ["ZRANGE", "z", "0", "1", "WITHSCORES"]),
        ("a", "cmd", ["ZUNION", "2", "z", "y", "WITHSCORES"]),
        ("a", "cmd", ["ZINTER", "2", "z", "y", "WITHSCORES"]),
        ("a", "cmd", ["ZDIFF", "2", "z", "y", "WITHSCORES"]),
        ("a", "cmd", ["ZRANDMEMBER", "y", "5", "WITHSCORES"]),
        ("a", "cmd", ["ZPOPMIN", "z"]),
        ("a", "cmd", ["ZPOPMAX", "z", "2"]),
        ("a", "cmd", ["ZMPOP", "1", "z", "MIN", "COUNT", "2"]),
        ("a", "cmd", ["BZPOPMIN", "z", "0"]),
        ("a", "cmd", ["BZMPOP", "0", "1", "z", "MAX"]),
        ("a", "cmd", ["HSET", "h", "f", "v", "g", "w"]),
        ("a", "cmd", ["HRANDFIELD", "h", "2", "WITHVALUES"]),
        ("a", "cmd", ["HRANDFIELD", "h", "2"]),
        ("a", "cmd", ["ZPOPMIN", "missing"]),
        ("a", "cmd", ["ZMPOP", "1", "missing", "MIN"]),
        ("b", "block", ["BZPOPMIN", "w", "0"]),
        ("b", "cmd", ["HELLO", "3"], "no reply"),
        ("c", "cmd", ["ZADD", "w", "7", "m"]),
        ("b", "read"),
    ],
    "error stats and cached scripts in INFO": [
        ("c", "cmd", ["CONFIG", "RESETSTAT"]),
        ("c", "cmd", ["EVAL", "return redis.error_reply('MY_ERR_CODE custom msg')", "0"]),
        ("c", "cmd", ["EVAL", "return redis.error_reply('')", "0"]),
        ("c", "cmd", ["GET"]),
        ("c", "cmd", ["SET", "s", "v"]),
        ("c", "cmd", ["INCR", "s"]),
        ("c", "cmd", ["LPUSH", "s", "x"]),
        ("c", "cmd", ["NOSUCHCOMMAND"]),
        ("c", "infolines", "errorstats", "errorstat_"),
        ("c", "cmd", ["CONFIG", "RESETSTAT"]),
        ("c", "infolines", "errorstats", "errorstat_"),
        ("c", "cmd", ["SCRIPT", "FLUSH"]),
        ("c", "cmd", ["SCRIPT", "LOAD", "return 1"]),
        ("c", "cmd", ["EVAL", "return 2", "0"]),
        ("c", "cmd", ["EVAL", "return 2", "0"]),
        ("c", "infolines", "memory", "number_of_cached_scripts"),
    ],
    "linsert and lmpop": [
        ("a", "cmd", ["RPUSH", "l", "a", "b", "c"]),
        ("a", "cmd", ["LINSERT", "l", "BEFORE", "b", "x"]),
        ("a", "cmd", ["LINSERT", "l", "after", "c", "y"]),
        ("a", "cmd", ["LINSERT", "l", "AFTER", "zz", "y"]),
        ("a", "cmd", ["LINSERT", "l", "middle", "a", "y"]),
        ("a", "cmd", ["LINSERT", "missing", "BEFORE", "a", "y"]),
        ("a", "cmd", ["LRANGE", "l", "0", "-1"]),
        ("a", "cmd", ["LMPOP", "2", "missing", "l", "LEFT", "COUNT", "2"]),
        ("a", "cmd", ["LMPOP", "1", "missing", "RIGHT"]),
    ],
    "keyspace notifications of clients served later, in the order Redis sends them": [
        ("c", "cmd", ["CONFIG", "SET", "notify-keyspace-events", "KEA"]),
        ("s", "cmd", ["PSUBSCRIBE", "*"]),
        ("a", "block", ["BLMOVE", "src", "dst", "LEFT", "RIGHT", "0"]),
        ("b", "block", ["BLPOP", "dst", "0"]),
        ("d", "block", ["BZPOPMIN", "z", "0"]),
        ("c", "cmd", ["RPUSH", "src", "x"]),
        ("a", "read"),
        ("b", "read"),
        ("c", "cmd", ["ZADD", "z", "1", "m"]),
        ("d", "read"),
    ] + [("s", "read")] * 18 + [
        ("s", "silent"),
        ("c", "cmd", ["CONFIG", "GET", "notify-keyspace-events"]),
    ],
    "an expiry found by the active cycle is announced": [
        ("c", "cmd", ["CONFIG", "SET", "notify-keyspace-events", "Ex"]),
        ("s", "cmd", ["PSUBSCRIBE", "*"]),
        ("c", "cmd", ["PSETEX", "foo", "100", "1"]),
        ("s", "read"),
        ("s", "silent"),
        ("c", "cmd", ["CONFIG", "SET", "notify-keyspace-events", "KEAq"]),
        ("c", "cmd", ["CONFIG", "GET", "notify-keyspace-events"]),
    ],
    # Busy scripts (Redis's scriptInterrupt): past busy-reply-threshold (lua-time-limit) a running
    # script lets other clients in, answers most commands BUSY, and SCRIPT KILL, FUNCTION KILL or
    # SHUTDOWN NOSAVE end it. Each as multi.tcl's and scripting.tcl's "script timeout" tests tell it.
    "a busy read-only script: BUSY for others, and SCRIPT KILL ends it": [
        ("c", "cmd", ["SCRIPT", "KILL"]),
        ("c", "cmd", ["FUNCTION", "KILL"]),
        ("c", "cmd", ["CONFIG", "SET", "lua-time-limit", "10"]),
        ("c", "cmd", ["CONFIG", "GET", "busy-reply-threshold"]),
        ("c", "cmd", ["CONFIG", "SET", "busy-reply-threshold", "-1"]),
        ("c", "cmd", ["CONFIG", "SET", "lua-time-limit", "ten"]),
        ("c", "cmd", ["CONFIG", "GET", "lua-time-limit"]),
        ("a", "send", ["EVAL", "while true do end", "0"]),
        ("sleep", 0.3),
        ("c", "cmd", ["PING"]),
        ("c", "cmd", ["GET", "x"]),
        ("c", "cmd", ["EVAL", "return 1", "0"]),
        ("c", "cmd", ["NOSUCHCOMMAND", "x"]),
        ("c", "cmd", ["GET"]),
        ("c", "cmd", ["CLIENT", "ID"]),
        ("c", "cmd", ["INFO", "server"]),
        ("c", "cmd", ["CONFIG", "GET", "lua-time-limit"]),
        ("c", "cmd", ["SHUTDOWN"]),
        ("c", "cmd", ["AUTH", "pass"]),
        ("c", "cmd", ["WATCH", "x"]),
        ("c", "cmd", ["UNWATCH"]),
        ("c", "cmd", ["DISCARD"]),
        ("c", "cmd", ["FUNCTION", "KILL"]),
        ("c", "cmd", ["FUNCTION", "STATS"]),
        ("d", "cmd", ["PING"]),  # a connection made while the script is busy
        ("c", "cmd", ["SCRIPT", "KILL"]),
        ("a", "read"),
        ("c", "cmd", ["PING"]),
        ("a", "cmd", ["PING"]),
        ("c", "cmd", ["SCRIPT", "KILL"]),
    ],
    "a pcall in the script cannot catch SCRIPT KILL; pipelined commands run after it": [
        ("c", "cmd", ["CONFIG", "SET", "lua-time-limit", "10"]),
        ("a", "pipeline", [["EVAL", "local f = function() while 1 do redis.call('ping') end end "
                            "while 1 do pcall(f) end", "0"], ["PING", "after"]]),
        ("sleep", 0.3),
        ("c", "cmd", ["PING"]),
        ("c", "cmd", ["SCRIPT", "KILL"]),
        ("a", "read"),
        ("a", "read"),
    ],
    "MULTI while a script is busy: the transaction is spoiled": [
        ("b", "cmd", ["PING"]),
        ("c", "cmd", ["CONFIG", "SET", "lua-time-limit", "10"]),
        ("c", "cmd", ["SET", "xx", "1"]),
        ("a", "send", ["EVAL", "while true do end", "0"]),
        ("sleep", 0.3),
        ("b", "cmd", ["MULTI"]),
        ("b", "cmd", ["INCR", "xx"]),
        ("c", "cmd", ["SCRIPT", "KILL"]),
        ("a", "read"),
        ("b", "cmd", ["INCR", "xx"]),
        ("b", "cmd", ["EXEC"]),
        ("c", "cmd", ["GET", "xx"]),
        ("b", "cmd", ["PING", "asdf"]),
    ],
    "EXEC while a script is busy aborts the transaction": [
        ("c", "cmd", ["CONFIG", "SET", "lua-time-limit", "10"]),
        ("c", "cmd", ["SET", "xx", "1"]),
        ("b", "cmd", ["MULTI"]),
        ("b", "cmd", ["INCR", "xx"]),
        ("a", "send", ["EVAL", "while true do end", "0"]),
        ("sleep", 0.3),
        ("b", "cmd", ["INCR", "xx"]),
        ("b", "cmd", ["EXEC"]),
        ("b", "cmd", ["EXEC"]),
        ("c", "cmd", ["SCRIPT", "KILL"]),
        ("a", "read"),
        ("c", "cmd", ["GET", "xx"]),
        ("b", "cmd", ["PING", "asdf"]),
    ],
    "a busy function: FUNCTION KILL, not SCRIPT KILL": [
        ("c", "cmd", ["CONFIG", "SET", "busy-reply-threshold", "10"]),
        ("c", "cmd", ["FUNCTION", "LOAD", "#!lua name=test\n"
                      "redis.register_function('test', function(keys, args)\n  while true do end\nend)"]),
        ("a", "send", ["FCALL", "test", "0"]),
        ("sleep", 0.3),
        ("c", "cmd", ["PING"]),
        ("c", "cmd", ["SCRIPT", "KILL"]),
        ("c", "cmd", ["FUNCTION", "KILL"]),
        ("a", "read"),
        ("c", "cmd", ["FUNCTION", "KILL"]),
        ("c", "cmd", ["PING"]),
    ],
    "a busy script that wrote: UNKILLABLE, and SHUTDOWN NOSAVE ends it with the server": [
        ("c", "cmd", ["CONFIG", "SET", "lua-time-limit", "10"]),
        ("a", "send", ["EVAL", "redis.call('set', KEYS[1], 'y') while true do end", "1", "x"]),
        ("sleep", 0.3),
        ("c", "cmd", ["PING"]),
        ("c", "cmd", ["SCRIPT", "KILL"]),
        ("c", "cmd", ["PING"]),
        ("c", "cmd", ["SHUTDOWN", "NOSAVE"], "no reply"),
        ("c", "eof"),
        ("a", "eof"),
        ("sleep", 0.5),
    ],
}


def tell(story, port):
    conns, ids, seen = {}, {}, []

    def conn(name):
        if name not in conns:
            conns[name] = Conn(port)
        return conns[name]

    for step in story:
        if step[0] == "sleep":
            time.sleep(step[1])
            continue
        if step[0] == "unblock":
            words = ["CLIENT", "UNBLOCK", ids[step[1]]] + ([step[2]] if step[2] else [])
            conn("c").send(*words)
            seen.append(("unblock %s %s" % (step[1], step[2]), conn("c").read()))
            continue
        name, what = step[0], step[1]
        c = conn(name)
        if what == "cmd":
            c.send(*step[2])
            if len(step) > 3 and step[3] == "no reply":
                seen.append((name, " ".join(step[2]), c.silent()))
                continue
            reply = c.read()
            if len(step) < 4:  # "skip": a reply whose text differs by design (HELLO's server fields)
                seen.append((name, " ".join(step[2]), reply))
        elif what == "send":
            c.send(*step[2])
        elif what == "block":
            c.send(*step[2])
            seen.append((name, " ".join(step[2]), c.silent()))
        elif what == "pipeline":
            for words in step[2]:
                c.send(*words)
            seen.append((name, "pipeline", c.silent()))
        elif what == "read":
            seen.append((name, "read", c.read()))
        elif what == "silent":
            seen.append((name, "silent", c.silent()))
        elif what == "eof":
            try:
                seen.append((name, "eof", c.read()))
            except (ConnectionError, OSError):
                seen.append((name, "eof", "(closed)"))
        elif what == "close":
            c.close()
            del conns[name]
        elif what == "infolines":
            c.send("INFO", step[2])
            lines = [l for l in c.read().splitlines() if l.startswith(step[3])]
            seen.append((name, "info " + step[2], lines))
        elif what == "info":
            c.send("INFO", "clients")
            seen.append((name, "info", blocked_clients(c.read())))
        elif what == "id":
            c.send("CLIENT", "ID")
            ids[name] = str(c.read())
        else:
            raise ValueError(what)
    for c in conns.values():
        c.close()
    return seen


def wait_for(port, proc):
    for _ in range(200):
        if proc.poll() is not None:
            raise RuntimeError("the server exited with %s" % proc.returncode)
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("the server did not listen on %d" % port)


def start_redis(work):
    port = free_port()
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", work], stdout=subprocess.DEVNULL)
    return port, proc


def start_serve(locksim):
    port = free_port()
    proc = subprocess.Popen([locksim, "serve", "--port", str(port), "--quiet"], stdout=subprocess.DEVNULL)
    return port, proc


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    locksim = sys.argv[1]
    if not shutil.which("redis-server"):
        print("SKIP: redis-server is not installed")
        return 77
    work = tempfile.mkdtemp(prefix="locksim-blocking-")
    failures = 0
    try:
        for title, story in STORIES.items():
            seen = {}
            for side, start in (("redis-server", lambda: start_redis(work)), ("serve", lambda: start_serve(locksim))):
                port, proc = start()
                try:
                    wait_for(port, proc)
                    seen[side] = tell(story, port)
                    if proc.poll() is not None:
                        seen[side].append(("server", "exited", proc.returncode))
                finally:
                    proc.terminate()
                    try:
                        proc.wait(timeout=10)
                    except subprocess.TimeoutExpired:
                        proc.kill()
                        proc.wait()
            if seen["redis-server"] == seen["serve"]:
                print("ok: %s" % title)
                continue
            failures += 1
            print("FAIL: %s" % title)
            for live, fake in zip(seen["redis-server"], seen["serve"]):
                mark = "  " if live == fake else "!!"
                print("  %s redis-server %r\n  %s serve        %r" % (mark, live, mark, fake))
            if len(seen["redis-server"]) != len(seen["serve"]):
                print("  (different lengths: %d against %d)" % (len(seen["redis-server"]), len(seen["serve"])))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("%d of %d stories differ" % (failures, len(STORIES)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
