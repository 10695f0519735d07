// One fixed session of redis-semaphore v5 (npm, over ioredis) against one server. Its Mutex is a key
// `mutex:<name>` taken with `SET ... PX ... NX`, refreshed and released by Lua scripts; its Semaphore
// and MultiSemaphore are a sorted set `semaphore:<name>` of holder ids scored by the client's clock,
// which Lua scripts sweep (ZREMRANGEBYSCORE), count (ZCARD), join (ZADD, PEXPIRE), refresh (ZSCORE,
// ZADD) and leave (ZREM). Scripts go by EVALSHA, then EVAL on NOSCRIPT. Waiters poll.
// The session: a mutex with a refused and a waiting rival, automatic refresh, a lost lock, an expired
// lease, a lock acquired elsewhere; a semaphore filled up to its limit, a refused and a waiting holder
// that gets in when one leaves, refresh, the sweep of a holder whose lease ran out; a multi-permit
// semaphore sharing the set; RedlockMutex and RedlockSemaphore over three prefixed "nodes".
// Prints what the library returned or threw and what the keys hold, reduced to facts that do not change
// from run to run (ids are random UUIDs, scores are times).
// Usage: node redis_semaphore_client.js PORT
"use strict";
const Redis = require("ioredis");
const {
  Mutex, Semaphore, MultiSemaphore, RedlockMutex, RedlockSemaphore,
} = require("redis-semaphore");
const { show, sleep, runSteps } = require("./common.js");

const port = Number(process.argv[2]);
const connect = (name, extra = {}) =>
  new Redis({
    host: "127.0.0.1", port, connectionName: name, maxRetriesPerRequest: 0, retryStrategy: () => null, ...extra,
  });

// A pending promise's state, without waiting for it.
async function settled(promise) {
  const marker = Symbol("pending");
  const v = await Promise.race([promise.then(() => true, () => true), Promise.resolve(marker)]);
  return v === true;
}

function describeError(e) {
  return (e && e.constructor ? e.constructor.name : "Error") + ": " + (e && e.message);
}

// The semaphore's set, reduced: how many members, and whether they are exactly these holders' ids
// (a MultiSemaphore holds `<id>_0` .. `<id>_<permits-1>`).
async function members(c, key, holders) {
  const got = (await c.zrange(key, 0, -1)).sort();
  const want = holders.flatMap((h) =>
    h instanceof MultiSemaphore ? [...Array(h._permits).keys()].map((i) => h.identifier + "_" + i) : [h.identifier]).sort();
  return { count: got.length, areTheHolders: JSON.stringify(got) === JSON.stringify(want) };
}

async function pttlBetween(c, key, lo, hi) {
  const t = await c.pttl(key);
  return t > lo && t <= hi;
}

async function main() {
  const a = connect("rs-a");
  const b = connect("rs-b");
  const lost = [];
  const onLockLost = (err) => lost.push(describeError(err));
  const quick = { acquireTimeout: 300, retryInterval: 20 };

  await runSteps([
    ["mutex", async () => {
      const m = new Mutex(a, "res", { lockTimeout: 3000, refreshInterval: 0, ...quick });
      await show("acquire", () => m.acquire());
      await show("isAcquired", () => m.isAcquired);
      await show("key holds the identifier", async () => (await a.get("mutex:res")) === m.identifier);
      await show("pttl in (2000, 3000]", () => pttlBetween(a, "mutex:res", 2000, 3000));
      const once = new Mutex(b, "res", { acquireAttemptsLimit: 1 });
      await show("rival tryAcquire, one attempt", () => once.tryAcquire());
      await show("rival acquire, 300 ms", async () => {
        try {
          await new Mutex(b, "res", quick).acquire();
          return "acquired";
        } catch (e) {
          return describeError(e);
        }
      });
      const order = [];
      const waiter = new Mutex(b, "res", { lockTimeout: 3000, refreshInterval: 0, acquireTimeout: 3000, retryInterval: 20 });
      const waiting = waiter.acquire().then(() => order.push("B in"));
      waiting.catch(() => {});
      await sleep(200);
      await show("waiter in while held", () => settled(waiting));
      order.push("A out");
      await show("release", () => m.release());
      await show("waiter in after release", async () => {
        await waiting;
        return waiter.isAcquired;
      });
      await show("order", () => order);
      await show("key holds the waiter's identifier", async () => (await a.get("mutex:res")) === waiter.identifier);
      await show("release again (not held: sends nothing)", () => m.release());
      await show("isAcquired after release", () => m.isAcquired);
      await show("waiter release", () => waiter.release());
      await show("key after release", () => a.exists("mutex:res"));
    }],
    ["mutex refresh", async () => {
      const m = new Mutex(a, "ref", { lockTimeout: 600, refreshInterval: 200, onLockLost, ...quick });
      await show("acquire", () => m.acquire());
      await sleep(1300);
      await show("held past two lock timeouts", async () => (await a.get("mutex:ref")) === m.identifier);
      await show("isAcquired", () => m.isAcquired);
      await show("release", () => m.release());
      await show("key after release", () => a.exists("mutex:ref"));
      await show("lost", () => lost.splice(0));
    }],
    ["mutex lost", async () => {
      const m = new Mutex(a, "lost", { lockTimeout: 2000, refreshInterval: 200, onLockLost, ...quick });
      await show("acquire", () => m.acquire());
      await show("someone else overwrites the key", () => b.set("mutex:lost", "thief"));
      await sleep(600);
      await show("lost", () => lost.splice(0));
      await show("isAcquired", () => m.isAcquired);
      await show("release (not held: sends nothing)", () => m.release());
      await show("the thief's key is left", () => a.get("mutex:lost"));
    }],
    ["mutex expiry", async () => {
      const m = new Mutex(a, "exp", { lockTimeout: 300, refreshInterval: 0, ...quick });
      await show("acquire 300 ms", () => m.acquire());
      await sleep(500);
      await show("key after its lease", () => a.exists("mutex:exp"));
      await show("isAcquired (the library does not know)", () => m.isAcquired);
      const rival = new Mutex(b, "exp", { lockTimeout: 3000, refreshInterval: 0, ...quick });
      await show("rival tryAcquire", () => rival.tryAcquire());
      await show("release the expired one (its script leaves the rival's key)", () => m.release());
      await show("key holds the rival's identifier", async () => (await a.get("mutex:exp")) === rival.identifier);
      await show("rival release", () => rival.release());
    }],
    ["mutex acquired elsewhere", async () => {
      const first = new Mutex(a, "ext", { lockTimeout: 3000, refreshInterval: 0, ...quick });
      await show("acquire", () => first.acquire());
      const handler = new Mutex(b, "ext", {
        identifier: first.identifier, acquiredExternally: true, lockTimeout: 6000, refreshInterval: 0, ...quick,
      });
      await show("handler acquire (a refresh to 6000 ms)", () => handler.acquire());
      await show("pttl in (5000, 6000]", () => pttlBetween(a, "mutex:ext", 5000, 6000));
      await show("handler release", () => handler.release());
      await show("key after release", () => a.exists("mutex:ext"));
      const stale = new Mutex(b, "ext", { identifier: first.identifier, acquiredExternally: true, ...quick });
      await show("acquiredExternally on a free key", () => stale.tryAcquire());
      await show("with no identifier", () => {
        try {
          return new Mutex(b, "ext", { acquiredExternally: true });
        } catch (e) {
          return describeError(e);
        }
      });
    }],
    ["semaphore", async () => {
      const opts = { lockTimeout: 3000, refreshInterval: 0, ...quick };
      const conns = [a, b, a];
      const holders = conns.map((c) => new Semaphore(c, "pool", 3, opts));
      for (const [i, s] of holders.entries()) await show("holder " + (i + 1) + " acquire", () => s.acquire());
      await show("set", () => members(a, "semaphore:pool", holders));
      await show("type", () => a.type("semaphore:pool"));
      await show("pttl in (2000, 3000]", () => pttlBetween(a, "semaphore:pool", 2000, 3000));
      const fourth = new Semaphore(b, "pool", 3, { ...opts, acquireAttemptsLimit: 1 });
      await show("a fourth, tryAcquire", () => fourth.tryAcquire());
      await show("a fourth, acquire 300 ms", async () => {
        try {
          await new Semaphore(b, "pool", 3, opts).acquire();
          return "acquired";
        } catch (e) {
          return describeError(e);
        }
      });
      await show("set after the refusals", () => members(a, "semaphore:pool", holders));
      const waiter = new Semaphore(b, "pool", 3, { ...opts, acquireTimeout: 3000 });
      const waiting = waiter.acquire();
      waiting.catch(() => {});
      await sleep(200);
      await show("waiter in while full", () => settled(waiting));
      await show("holder 2 release", () => holders[1].release());
      await show("waiter in after holder 2 left", async () => {
        await waiting;
        return waiter.isAcquired;
      });
      await show("set", () => members(a, "semaphore:pool", [holders[0], holders[2], waiter]));
      for (const s of [holders[0], holders[2], waiter]) await s.release();
      await show("key after all released", () => a.exists("semaphore:pool"));
    }],
    ["semaphore waiters queue", async () => {
      // Limit 2, four takers, each holding 150 ms: never more than two inside at once.
      let inside = 0;
      let most = 0;
      const takers = [0, 1, 2, 3].map((i) =>
        new Semaphore(i % 2 ? b : a, "queue", 2, { lockTimeout: 3000, refreshInterval: 0, acquireTimeout: 5000, retryInterval: 20 }));
      const runs = takers.map(async (s) => {
        await s.acquire();
        inside++;
        most = Math.max(most, inside);
        await sleep(150);
        inside--;
        await s.release();
        return true;
      });
      await show("all got in", () => Promise.all(runs));
      await show("most inside at once", () => most);
      await show("key after all", () => a.exists("semaphore:queue"));
    }],
    ["semaphore refresh", async () => {
      const s1 = new Semaphore(a, "fresh", 2, { lockTimeout: 600, refreshInterval: 200, onLockLost, ...quick });
      const s2 = new Semaphore(b, "fresh", 2, { lockTimeout: 600, refreshInterval: 200, onLockLost, ...quick });
      await show("acquire 1", () => s1.acquire());
      await show("acquire 2", () => s2.acquire());
      await sleep(1300);
      await show("both still in the set past two lock timeouts", () => members(a, "semaphore:fresh", [s1, s2]));
      await show("scores are recent", async () => {
        const scores = await a.zrange("semaphore:fresh", 0, -1, "WITHSCORES");
        const now = Date.now();
        return scores.filter((_, i) => i % 2 === 1).map((t) => now - Number(t) < 600);
      });
      await show("release 1", () => s1.release());
      await show("release 2", () => s2.release());
      await show("lost", () => lost.splice(0));
      await show("key after release", () => a.exists("semaphore:fresh"));
    }],
    ["semaphore sweep", async () => {
      // No refresh, lease 1000 ms: the first holder's entry is swept by the acquire that comes after its
      // lease, while the set itself lives on (each acquire sets its PEXPIRE again).
      const opts = { lockTimeout: 1000, refreshInterval: 0, ...quick };
      const s1 = new Semaphore(a, "sweep", 2, opts);
      const s2 = new Semaphore(b, "sweep", 2, opts);
      const s3 = new Semaphore(a, "sweep", 2, { ...opts, acquireAttemptsLimit: 1 });
      await show("acquire 1", () => s1.acquire());
      await sleep(500);
      await show("acquire 2", () => s2.acquire());
      await show("a third, tryAcquire (full)", () => s3.tryAcquire());
      await sleep(600);
      await show("set before the sweep", () => members(a, "semaphore:sweep", [s1, s2, s3].filter((s) => s.isAcquired)));
      const s4 = new Semaphore(b, "sweep", 2, { ...opts, acquireAttemptsLimit: 1 });
      await show("a fourth, tryAcquire (holder 1's lease is over)", () => s4.tryAcquire());
      await show("set after the sweep", () => members(a, "semaphore:sweep", [s2, s4]));
      await show("holder 1's entry", () => a.zscore("semaphore:sweep", s1.identifier));
      await show("holder 1 release (ZREM of a gone member)", () => s1.release());
      await show("set", () => members(a, "semaphore:sweep", [s2, s4]));
      await sleep(1200);
      await show("the set's own expiry", () => a.exists("semaphore:sweep"));
    }],
    ["multi semaphore", async () => {
      const opts = { lockTimeout: 3000, refreshInterval: 0, ...quick };
      const m1 = new MultiSemaphore(a, "multi", 5, 3, opts);
      await show("3 of 5 permits", () => m1.acquire());
      await show("set", () => members(a, "semaphore:multi", [m1]));
      const m2 = new MultiSemaphore(b, "multi", 5, 3, { ...opts, acquireAttemptsLimit: 1 });
      await show("3 more, tryAcquire", () => m2.tryAcquire());
      const one = new Semaphore(b, "multi", 5, opts);
      await show("1 more (a Semaphore on the same set)", () => one.acquire());
      await show("set", () => members(a, "semaphore:multi", [m1, one]));
      const m3 = new MultiSemaphore(b, "multi", 5, 3, { ...opts, acquireTimeout: 3000 });
      const waiting = m3.acquire();
      waiting.catch(() => {});
      await sleep(100);
      await show("3 more, waiting", () => settled(waiting));
      await show("release the 3", () => m1.release());
      await show("the 3 more got in", async () => {
        await waiting;
        return m3.isAcquired;
      });
      await show("set", () => members(a, "semaphore:multi", [m3, one]));
      await show("release all", async () => {
        await m3.release();
        await one.release();
        return a.exists("semaphore:multi");
      });
    }],
    ["redlock mutex and semaphore", async () => {
      // Three "nodes" on the one server, told apart by ioredis's keyPrefix.
      const nodes = (tag) => ["n1:", "n2:", "n3:"].map((keyPrefix, i) => connect(tag + i, { keyPrefix }));
      const na = nodes("rs-na");
      const nb = nodes("rs-nb");
      const opts = { lockTimeout: 3000, refreshInterval: 0, ...quick };
      const m = new RedlockMutex(na, "rm", opts);
      await show("acquire", () => m.acquire());
      await show("keys on the three nodes", () => a.exists("n1:mutex:rm", "n2:mutex:rm", "n3:mutex:rm"));
      await show("rival tryAcquire", () => new RedlockMutex(nb, "rm", { ...opts, acquireAttemptsLimit: 1 }).tryAcquire());
      await show("release", () => m.release());
      await show("keys after release", () => a.exists("n1:mutex:rm", "n2:mutex:rm", "n3:mutex:rm"));
      await show("SET n3:mutex:rm2 foreign", () => a.set("n3:mutex:rm2", "foreign"));
      const m2 = new RedlockMutex(na, "rm2", opts);
      await show("acquire with one node taken (quorum 2 of 3)", () => m2.acquire());
      await show("release", () => m2.release());
      await show("the foreign key is left", () => a.get("n3:mutex:rm2"));
      const s = [0, 1].map(() => new RedlockSemaphore(na, "rsem", 2, opts));
      for (const x of s) await x.acquire();
      await show("redlock semaphore: two of two", () => Promise.all(["n1:", "n2:", "n3:"].map((p) => a.zcard(p + "semaphore:rsem"))));
      const third = new RedlockSemaphore(nb, "rsem", 2, { ...opts, acquireAttemptsLimit: 1 });
      await show("a third, tryAcquire", () => third.tryAcquire());
      await show("release one", () => s[0].release());
      await show("a third, tryAcquire again", () => third.tryAcquire());
      await s[1].release();
      await third.release();
      await show("keys after all", () => a.exists("n1:semaphore:rsem", "n2:semaphore:rsem", "n3:semaphore:rsem"));
      for (const c of [...na, ...nb]) await c.quit();
    }],
    ["quit", async () => {
      await show("quit a", () => a.quit());
      await show("quit b", () => b.quit());
    }],
  ]);
}

main().catch((e) => {
  console.log("unexpected: " + e.stack);
  process.exit(1);
});
