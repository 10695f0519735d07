"""Two redis-py clients, A and B, each with its own connection (named A and B), take the same
redis.lock.Lock and, inside the critical section, increment the protected counter by GET then SET.
Each notes its belief with LOCKSIM.NOTE acquired/released (for the mutual_exclusion checker).

  control  A holds the lock, updates the counter and releases; B waits in acquire() and goes next.
  pause    A is paused after its GET (as by a long GC pause or a stopped process) past its lease of
           1 s; B, waiting in acquire(), takes the lock when the lease runs out and updates the
           counter; A then wakes and writes the value it read before: B's update is lost.
  virtual  (serve --clock virtual) A takes the lock with a 30 s lease; B cannot take it; the test
           moves serve's clock 31 s on (LOCKSIM.CLOCK ADVANCE 31000) while A holds it; B takes it and
           updates the counter; A writes the value it read before. In well under a second of real time.

Prints what the clients saw, and the counter at the end. Usage: story_redis_py_lock.py MODE PORT
"""
import sys
import threading
import time

import redis
from redis.exceptions import LockError

mode, port = sys.argv[1], int(sys.argv[2])
assert mode in ("control", "pause", "virtual"), mode
started = time.monotonic()


def connect(name):
    return redis.Redis(host="127.0.0.1", port=port, client_name=name, decode_responses=True, socket_timeout=10)


A, B, test = connect("A"), connect("B"), connect("test")
lease_s = 30 if mode == "virtual" else 1.0
# thread_local=False: each lock is used by one thread only; its token stays visible to the prints.
lock_a = A.lock("lk", timeout=lease_s, thread_local=False)
lock_b = B.lock("lk", timeout=lease_s, sleep=0.02, blocking_timeout=5, thread_local=False)
a_has_read = threading.Event()
b_is_done = threading.Event()
lines = []


def say(who, text):
    lines.append("%s: %s" % (who, text))


def note(client, what):
    client.execute_command("LOCKSIM.NOTE", what, "lk")


def client_a():
    say("A", "acquire -> %s" % lock_a.acquire(blocking=False))
    note(A, "acquired")
    value = int(A.get("counter") or 0)
    say("A", "read %d" % value)
    a_has_read.set()
    if mode in ("pause", "virtual"):
        # A's pause: it does nothing until B has updated the counter, which B can only do once A's lease
        # is over (at most 10 s).
        say("A", "paused until B is done -> %s" % b_is_done.wait(10))
    A.set("counter", value + 1)
    say("A", "wrote %d" % (value + 1))
    note(A, "released")
    try:
        lock_a.release()
        say("A", "release -> ok")
    except LockError as e:
        say("A", "release -> %s: %s" % (type(e).__name__, e))


def client_b():
    a_has_read.wait(10)
    if mode == "virtual":
        say("B", "acquire while A's 30 s lease runs -> %s" % lock_b.acquire(blocking=False))
        say("test", "LOCKSIM.CLOCK ADVANCE 31000 -> moved %d ms" % (
            test.execute_command("LOCKSIM.CLOCK", "ADVANCE", "31000") - clock_at_start))
        got = lock_b.acquire(blocking=False)
    else:
        got = lock_b.acquire()  # blocks until A releases (control) or A's lease runs out (pause)
    say("B", "acquire -> %s" % got)
    if got:
        note(B, "acquired")
        value = int(B.get("counter") or 0)
        say("B", "read %d" % value)
        B.set("counter", value + 1)
        say("B", "wrote %d" % (value + 1))
        note(B, "released")
        lock_b.release()
        say("B", "release -> ok")
    b_is_done.set()


clock_at_start = test.execute_command("LOCKSIM.CLOCK", "GET")
threads = [threading.Thread(target=client_a), threading.Thread(target=client_b)]
for t in threads:
    t.start()
for t in threads:
    t.join(20)
elapsed = time.monotonic() - started
for line in lines:
    print(line)
print("counter at the end: %s" % test.get("counter"))
print("real seconds: %.2f" % elapsed)
