"""Two workers share a counter under redis-py's Lock, pointed at `locksim serve --clock virtual`.

Worker A stalls inside its critical section (a GC pause, a slow disk) for longer than the lock's
30 s timeout: the test moves the server's virtual clock 31 s on, so this takes no real time. Worker
B then gets the lock, and both write the counter. Nothing here tells locksim what the lock is: the
server's own log of GETs and SETs of `counter` is enough for `locksim check` to find the lost update.

Usage: /usr/bin/python3 examples/redis-py-lock.py PORT   (any Python 3 with redis-py)
"""
import sys

try:
    import redis
except ImportError:
    # Debian puts its python3-redis on Debian's own python; a python3 earlier on PATH (pyenv, a
    # virtualenv) does not see it.
    sys.exit(f"{sys.executable} has no redis-py: run this with /usr/bin/python3 after "
             "`apt-get install python3-redis`, or `pip install redis` into this Python")

port = int(sys.argv[1])
a = redis.Redis(port=port, client_name="A")
b = redis.Redis(port=port, client_name="B")
a.set("counter", 0)

lock_a = a.lock("orders", timeout=30)
lock_b = b.lock("orders", timeout=30)

lock_a.acquire()
seen = int(a.get("counter"))
a.execute_command("LOCKSIM.CLOCK", "ADVANCE", 31000)  # A stalls past its lease

lock_b.acquire()
b.set("counter", int(b.get("counter")) + 1)
lock_b.release()

a.set("counter", seen + 1)  # A, back, writes from what it read before the stall
try:
    lock_a.release()
except redis.exceptions.LockNotOwnedError:
    print("A: LockNotOwnedError on release (its lease had run out)")
print("counter:", int(a.get("counter")), "after two increments")
