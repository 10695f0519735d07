"""Two redis-py clients, A and B, take the same redis.lock.Lock on `locksim serve --replica-lag-ms 300`,
whose in-process replica applies each write 300 ms after the master; the test fails the master over to
that replica (LOCKSIM.FAULT failover lag_ms 300) right after A has the lock.

  wait    A counts the lock as held only once `WAIT 1 2000` says the replica has it (about 300 ms):
          the failover promotes a replica that has A's key, and B is refused.
  nowait  A counts it as held at once: the failover promotes a replica without A's key, and B takes
          the lock while A still believes it holds it.

Each notes its belief with LOCKSIM.NOTE acquired/released. Prints what the clients saw.
Usage: story_redis_py_wait.py MODE PORT
"""
import sys
import time

import redis
from redis.exceptions import LockError

mode, port = sys.argv[1], int(sys.argv[2])
assert mode in ("wait", "nowait"), mode


def connect(name):
    return redis.Redis(host="127.0.0.1", port=port, client_name=name, decode_responses=True, socket_timeout=10)


def note(client, what):
    client.execute_command("LOCKSIM.NOTE", what, "lk")


A, test = connect("A"), connect("test")
lock_a = A.lock("lk", timeout=30, thread_local=False)
print("A: acquire -> %s" % lock_a.acquire(blocking=False))
if mode == "wait":
    started = time.monotonic()
    acked = A.execute_command("WAIT", 1, 2000)
    waited_ms = (time.monotonic() - started) * 1000
    print("A: WAIT 1 2000 -> %s, after the replica's lag: %s" % (acked, waited_ms >= 250))
note(A, "acquired")
token = lock_a.local.token
test.execute_command("LOCKSIM.FAULT", "failover", "lag_ms", "300")
# The failover closed the clients' connections: each takes a new one, under the same name.
A, B = connect("A"), connect("B")
lock_b = B.lock("lk", timeout=30, thread_local=False)
got = lock_b.acquire(blocking=False)
print("B: acquire -> %s" % got)
if got:
    note(B, "acquired")
    lock_b.release()
    note(B, "released")
lock_a = A.lock("lk", timeout=30, thread_local=False)
lock_a.local.token = token
try:
    lock_a.release()
    print("A: release -> ok")
except LockError as e:
    print("A: release -> %s: %s" % (type(e).__name__, e))
note(A, "released")
