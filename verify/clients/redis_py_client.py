"""One fixed session of redis-py (Debian's python3-redis) against a server: plain commands, errors,
pipelines and transactions, WATCH, pub/sub, registered scripts (EVALSHA with SCRIPT LOAD on NOSCRIPT)
and redis.lock.Lock. It prints every reply it got, in order, and nothing that changes from run to run
(no lock tokens, ids, addresses or times), so that its output against redis-server and against
locksim serve can be compared line for line.

Each step uses keys of its own and catches what it raises, so that a step that goes wrong on one
server changes no other step's output (the test can then leave a known difference out by its name).

Usage: redis_py_client.py PORT
"""
import sys
import threading
import time

import redis

port = int(sys.argv[1])


def connect(name):
    return redis.Redis(host="127.0.0.1", port=port, client_name=name, decode_responses=True,
                       socket_timeout=10)


r = connect("py-a")
other = connect("py-b")
steps = []


def step(name):
    def register(fn):
        steps.append((name, fn))
        return fn
    return register


def show(label, fn):
    """Prints what fn() returned, or the exception the client raised (its class and message)."""
    try:
        value = fn()
    except Exception as e:  # noqa: BLE001 - the client's own exception is what is compared
        print("%s -> %s: %s" % (label, type(e).__name__, e))
        return None
    print("%s -> %r" % (label, value))
    return value


def results(values):
    """A pipeline's results, exceptions among them, as text."""
    return ["%s: %s" % (type(v).__name__, v) if isinstance(v, Exception) else v for v in values]


@step("connection")
def _():
    show("ping", r.ping)
    show("echo", lambda: r.echo("hello there"))
    show("client_getname", r.client_getname)
    show("client_setname", lambda: r.client_setname("py-a2"))
    show("client_getname", r.client_getname)
    show("info server redis_mode", lambda: r.info("server")["redis_mode"])
    show("info replication role", lambda: r.info("replication")["role"])
    show("config_get maxmemory-policy", lambda: r.config_get("maxmemory-policy"))
    show("dbsize", r.dbsize)


@step("connection: select")
def _():
    # redis-py sends SELECT when a client names a db other than 0.
    show("select 0", lambda: r.select(0))
    show("a client on db 1 (SELECT 1 as it connects)", lambda: redis.Redis(host="127.0.0.1", port=port, db=1).ping())


@step("strings")
def _():
    show("set", lambda: r.set("s", "v1"))
    show("get", lambda: r.get("s"))
    show("get missing", lambda: r.get("missing"))
    show("set nx", lambda: r.set("s", "v2", nx=True))
    show("set xx get", lambda: r.set("s", "v3", xx=True, get=True))
    show("set ex", lambda: r.set("e", "x", ex=100))
    show("ttl", lambda: r.ttl("e"))
    show("persist", lambda: r.persist("e"))
    show("ttl after persist", lambda: r.ttl("e"))
    show("ttl missing", lambda: r.ttl("missing"))
    show("expire", lambda: r.expire("e", 200))
    show("ttl", lambda: r.ttl("e"))
    show("setnx", lambda: r.setnx("s", "other"))
    show("exists", lambda: r.exists("s", "e", "e", "missing"))
    show("incr", lambda: r.incr("n"))
    show("incrby", lambda: r.incrby("n", 41))
    show("decrby", lambda: r.decrby("n", 2))
    show("append", lambda: r.append("a", "10"))
    show("append again", lambda: r.append("a", "00"))
    show("type", lambda: r.type("a"))
    show("delete", lambda: r.delete("a", "n", "missing"))
    show("set px then wait past it", lambda: r.set("short", "x", px=50))
    time.sleep(0.2)
    show("get expired", lambda: r.get("short"))
    show("exists expired", lambda: r.exists("short"))


@step("strings: more commands")
def _():
    show("set", lambda: r.set("s2", "v3"))
    show("getset", lambda: r.getset("s2", "v4"))
    show("getdel", lambda: r.getdel("s2"))
    show("mset", lambda: r.mset({"m1": "1", "m2": "2"}))
    show("mget", lambda: r.mget("m1", "missing", "m2"))
    show("incrbyfloat", lambda: r.incrbyfloat("f", 1.5))
    show("strlen", lambda: r.strlen("m1"))
    show("getrange", lambda: r.getrange("m1", 0, 1))
    show("rename", lambda: r.rename("m2", "m3"))
    show("keys sorted", lambda: sorted(r.keys("m*")))


@step("hashes")
def _():
    show("hset mapping", lambda: r.hset("h", mapping={"f1": "v1", "f2": "v2", "f3": "3"}))
    show("hget", lambda: r.hget("h", "f1"))
    show("hgetall", lambda: r.hgetall("h"))
    show("hincrby", lambda: r.hincrby("h", "f3", 4))
    show("hexists", lambda: r.hexists("h", "f2"))
    show("hdel", lambda: r.hdel("h", "f2", "nope"))
    show("hlen", lambda: r.hlen("h"))
    show("hkeys", lambda: r.hkeys("h"))
    show("hvals", lambda: r.hvals("h"))
    show("hsetnx", lambda: r.hsetnx("h", "f1", "again"))
    show("hgetall missing", lambda: r.hgetall("nohash"))


@step("hashes: hmget")
def _():
    r.hset("h2", mapping={"f1": "v1", "f3": "7"})
    show("hmget", lambda: r.hmget("h2", ["f1", "nope", "f3"]))


@step("lists and sorted sets")
def _():
    show("rpush", lambda: r.rpush("l", "a", "b", "c"))
    show("lpush", lambda: r.lpush("l", "z"))
    show("lrange", lambda: r.lrange("l", 0, -1))
    show("lpop", lambda: r.lpop("l"))
    show("rpop count", lambda: r.rpop("l", 2))
    show("llen", lambda: r.llen("l"))
    show("zadd", lambda: r.zadd("z", {"a": 1, "b": 2.5, "c": -1}))
    show("zrange withscores", lambda: r.zrange("z", 0, -1, withscores=True))
    show("zscore", lambda: r.zscore("z", "b"))
    show("zincrby", lambda: r.zincrby("z", 2, "a"))
    show("zrangebyscore", lambda: r.zrangebyscore("z", 0, "+inf"))
    show("zrank", lambda: r.zrank("z", "a"))
    show("zrem", lambda: r.zrem("z", "c"))
    show("zcard", lambda: r.zcard("z"))


@step("sets")
def _():
    show("sadd", lambda: r.sadd("set", "x", "y", "z", "x"))
    show("smembers sorted", lambda: sorted(r.smembers("set")))
    show("sismember", lambda: r.sismember("set", "y"))
    show("srem", lambda: r.srem("set", "y", "w"))
    show("scard", lambda: r.scard("set"))


@step("errors")
def _():
    r.set("str", "x")
    show("hget on a string", lambda: r.hget("str", "f"))
    show("incr on a non-integer", lambda: r.incr("str"))
    show("unknown command", lambda: r.execute_command("NOSUCHCOMMAND", "a", "b"))
    show("wrong arity", lambda: r.execute_command("GET"))
    show("set ex 0", lambda: r.set("k", "v", ex=0))
    show("syntax error", lambda: r.execute_command("SET", "k", "v", "NX", "XX"))
    show("expire not an integer", lambda: r.execute_command("EXPIRE", "str", "soon"))


@step("pipeline without a transaction")
def _():
    p = r.pipeline(transaction=False)
    p.set("p2", "a").append("p2", "b").get("p2").exists("p2", "nope").hset("ph", "f", "v").hgetall("ph")
    show("plain pipeline", p.execute)
    p = r.pipeline(transaction=False)
    p.get("p2").incr("p2").get("p2")
    show("error inside a plain pipeline", lambda: results(p.execute(raise_on_error=False)))


@step("pipeline with a transaction (MULTI/EXEC)")
def _():
    p = r.pipeline(transaction=True)
    p.set("p1", "1").incr("p1").get("p1").hset("ph1", "f", "v").hgetall("ph1")
    show("multi/exec pipeline", p.execute)
    p = r.pipeline(transaction=True)
    p.set("p3", "x").incr("p3").get("p3")
    show("runtime error inside exec", lambda: results(p.execute(raise_on_error=False)))
    p = r.pipeline(transaction=True)
    p.set("p4", "x").execute_command("SET").get("p4")
    show("queuing error aborts exec", p.execute)
    show("p4 was not set", lambda: r.exists("p4"))


@step("watch")
def _():
    with r.pipeline() as p:
        show("watch", lambda: p.watch("w"))
        show("watched get", lambda: p.get("w"))
        other.set("w", "changed by another client")
        p.multi()
        p.set("w", "mine")
        show("exec after a watched key changed", p.execute)
    show("w", lambda: r.get("w"))
    with r.pipeline() as p:
        show("watch", lambda: p.watch("w"))
        p.multi()
        p.set("w", "mine")
        show("exec with the watched key unchanged", p.execute)
    show("w", lambda: r.get("w"))

    def bump(pipe):
        value = int(pipe.get("tx") or 0)
        pipe.multi()
        pipe.set("tx", value + 1)

    show("transaction helper", lambda: r.transaction(bump, "tx"))
    show("tx", lambda: r.get("tx"))


@step("scripts")
def _():
    incr_by = r.register_script("return redis.call('INCRBY', KEYS[1], ARGV[1])")
    show("registered script sha", lambda: incr_by.sha)
    show("call (evalsha, NOSCRIPT, script load, evalsha)", lambda: incr_by(keys=["sc"], args=[5]))
    show("call again", lambda: incr_by(keys=["sc"], args=[5]))
    show("script_exists", lambda: r.script_exists(incr_by.sha, "0" * 40))
    show("script_flush", r.script_flush)
    show("script_exists after flush", lambda: r.script_exists(incr_by.sha))
    show("call after flush (loaded again)", lambda: incr_by(keys=["sc"], args=[1]))
    show("script_load", lambda: r.script_load("return ARGV[1]"))
    show("evalsha loaded", lambda: r.evalsha("098e0f0d1448c0a81dafe820f66d460eb09263da", 0, "back"))
    show("evalsha unknown", lambda: r.evalsha("0" * 40, 0))
    r.set("scs", "x")
    show("eval types", lambda: r.eval("return {1, 'two', {3, 'four'}, false, true, 3.99}", 0))
    show("eval nil", lambda: r.eval("return nil", 0))
    show("eval status", lambda: r.eval("return redis.status_reply('FINE')", 0))
    show("eval error_reply", lambda: r.eval("return redis.error_reply('MYERR something broke')", 0))
    show("eval pcall", lambda: r.eval(
        "local ok = redis.pcall('INCR', KEYS[1]); return type(ok) == 'table' and ok.err or 'no error'", 1, "scs"))
    show("eval call error", lambda: r.eval("return redis.call('INCR', KEYS[1])", 1, "scs"))
    show("eval runtime error", lambda: r.eval("return nosuchglobal.x", 0))
    show("eval syntax error", lambda: r.eval("return (", 0))
    show("eval unknown command", lambda: r.eval("return redis.call('NOSUCH')", 0))
    show("eval keys and argv", lambda: r.eval("return {KEYS[1], KEYS[2], ARGV[1], #ARGV}", 2, "k1", "k2", "a1", "a2"))


def next_message(sub):
    deadline = time.time() + 3
    while time.time() < deadline:
        m = sub.get_message(timeout=0.2)
        if m is not None:
            return m
    return "no message in 3 s"


@step("pubsub: channels")
def _():
    ps = r.pubsub()
    ps.subscribe("news", "sport")
    show("subscribe confirmation", lambda: next_message(ps))
    show("subscribe confirmation", lambda: next_message(ps))
    show("publish", lambda: other.publish("news", "hello"))
    show("message", lambda: next_message(ps))
    show("publish elsewhere", lambda: other.publish("weather", "rain"))
    show("publish to the other channel", lambda: other.publish("sport", "goal"))
    show("message", lambda: next_message(ps))
    ps.unsubscribe("news")
    show("unsubscribe confirmation", lambda: next_message(ps))
    show("publish to nobody", lambda: other.publish("news", "lost"))
    ps.unsubscribe()
    show("unsubscribe confirmation", lambda: next_message(ps))
    ps.close()


@step("pubsub: patterns")
def _():
    ps = r.pubsub()
    ps.psubscribe("n*")
    show("psubscribe confirmation", lambda: next_message(ps))
    show("publish", lambda: other.publish("nope", "p"))
    show("pmessage", lambda: next_message(ps))
    ps.punsubscribe()
    show("punsubscribe confirmation", lambda: next_message(ps))
    ps.close()


@step("pubsub: introspection")
def _():
    ps = r.pubsub()
    ps.subscribe("news")
    next_message(ps)
    show("numsub", lambda: other.pubsub_numsub("news", "nothing"))
    show("numpat", other.pubsub_numpat)
    show("channels", lambda: other.pubsub_channels())
    ps.close()


@step("lock")
def _():
    lock = r.lock("lk", timeout=5)
    show("acquire", lambda: lock.acquire(blocking=False))
    show("locked", lock.locked)
    show("owned", lock.owned)
    rival = other.lock("lk", timeout=5)
    show("rival acquire non-blocking", lambda: rival.acquire(blocking=False))
    started = time.monotonic()
    show("rival acquire blocking 0.3 s", lambda: rival.acquire(blocking_timeout=0.3))
    waited = time.monotonic() - started
    print("rival waited about its blocking_timeout ->", 0.15 <= waited < 2.0)
    show("rival owned", rival.owned)
    show("ttl", lambda: r.ttl("lk"))
    show("extend by 5", lambda: lock.extend(5))
    show("ttl after extend", lambda: r.ttl("lk"))
    show("extend replace_ttl 2", lambda: lock.extend(2, replace_ttl=True))
    show("ttl after replace", lambda: r.ttl("lk"))
    show("reacquire", lock.reacquire)
    show("ttl after reacquire", lambda: r.ttl("lk"))
    show("rival release", rival.release)
    show("rival extend", lambda: rival.extend(1))
    show("release", lock.release)
    show("locked after release", lock.locked)
    show("release again", lock.release)
    show("extend after release", lambda: lock.extend(1))
    show("rival acquire now", lambda: rival.acquire(blocking=False))
    show("rival release", rival.release)


@step("lock: lease runs out")
def _():
    short = r.lock("short-lock", timeout=0.2)
    show("acquire short lease", lambda: short.acquire(blocking=False))
    time.sleep(0.5)
    show("owned after its lease", short.owned)
    show("locked after its lease", short.locked)
    show("release after its lease", short.release)
    show("reacquire after its lease", short.reacquire)


@step("lock: a waiter takes it on release")
def _():
    holder = r.lock("handoff", timeout=5)
    # thread_local=False: the token the waiting thread got is the main thread's to release.
    waiter = other.lock("handoff", timeout=5, sleep=0.05, thread_local=False)
    show("holder acquire", lambda: holder.acquire(blocking=False))
    result = {}
    t = threading.Thread(target=lambda: result.update(got=waiter.acquire(blocking_timeout=5)))
    t.start()
    time.sleep(0.3)
    show("waiter still waiting", t.is_alive)
    show("holder release", holder.release)
    t.join(6)
    show("waiter got it", lambda: result.get("got"))
    show("waiter owned", waiter.owned)
    show("waiter release", waiter.release)
    with r.lock("ctx", timeout=2) as ctx:
        show("inside with: owned", ctx.owned)
    show("after with: locked", lambda: r.lock("ctx").locked())


@step("scan")
def _():
    for i in range(30):
        r.set("scan:%02d" % i, i)
    show("scan_iter sorted", lambda: sorted(r.scan_iter(match="scan:*", count=7)))
    r.hset("hs", mapping={"a": "1", "b": "2"})
    show("hscan_iter sorted", lambda: sorted(r.hscan_iter("hs")))


@step("flush: flushdb")
def _():
    r.set("fd", "1")
    show("flushdb", r.flushdb)
    show("exists after flushdb", lambda: r.exists("fd"))


@step("flush")
def _():
    show("flushall", r.flushall)
    show("dbsize", r.dbsize)


for name, fn in steps:
    print("== " + name, flush=True)
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        print("step raised %s: %s" % (type(e).__name__, e))
print("== done")
