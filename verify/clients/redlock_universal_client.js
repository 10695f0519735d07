// One fixed session of redlock-universal (npm) against one server, through both of its adapters:
// IoredisAdapter (ioredis) and NodeRedisAdapter (node-redis v4). It takes a lock with
// `SET key value PX ttl NX`, and releases, extends, auto-extends, batch-acquires and inspects it with
// Lua scripts it loads once with SCRIPT LOAD and then runs by EVALSHA (loading again on NOSCRIPT).
// The session: acquire, a rival refused after its retries, isLocked, inspect, extend (its own and a
// forged handle), release (and again), an expired lease, using() auto-extending over a routine longer
// than the lease, two using() taking turns, a batch of keys all-or-nothing (LockManager), the scripts
// flushed under it (NOSCRIPT), and RedLock over three prefixed "nodes" of the one server (quorum).
// Prints what the library returned or threw, reduced to facts that do not change from run to run (the
// lock's random value, ids and times).
// Usage: node redlock_universal_client.js PORT
"use strict";
const Redis = require("ioredis");
const { createClient } = require("redis");
const {
  createLock, createRedlock, IoredisAdapter, NodeRedisAdapter, LockManager,
} = require("redlock-universal");
const { show, sleep, runSteps } = require("./common.js");

const port = Number(process.argv[2]);
const ioredis = (name) =>
  new Redis({ host: "127.0.0.1", port, connectionName: name, maxRetriesPerRequest: 0, retryStrategy: () => null });
const nodeRedis = async (name) => {
  const c = createClient({ name, socket: { host: "127.0.0.1", port, reconnectStrategy: false } });
  c.on("error", () => {});
  await c.connect();
  return c;
};

// A handle, reduced to what does not change from run to run.
function describeHandle(h) {
  return {
    key: h.key,
    valueIsRandomHex: /^[0-9a-f]{32}$/.test(h.value),
    ttl: h.ttl,
    attempts: h.metadata && h.metadata.attempts,
    strategy: h.metadata && h.metadata.strategy,
    nodes: h.metadata && h.metadata.nodes,
  };
}

// An error and the chain of its causes: class, message (these carry no random values) and code.
function describeError(e) {
  const parts = [];
  for (let cur = e, depth = 0; cur && depth < 4; cur = cur.cause, depth++) {
    parts.push((cur.constructor ? cur.constructor.name : "Error") + (cur.code ? "[" + cur.code + "]" : "") +
      ": " + cur.message);
  }
  return parts.join(" <- ");
}

// show(), with a thrown error described with its causes.
function attempt(label, fn) {
  return show(label, async () => {
    try {
      return await fn();
    } catch (e) {
      return describeError(e);
    }
  });
}

async function pttlBetween(c, key, lo, hi) {
  const t = await c.pttl(key);
  return t > lo && t <= hi;
}

// The session against one adapter: `tag` names its keys, `raw` is an ioredis connection to look.
async function lockSteps(tag, adapterA, adapterB, raw) {
  const key = tag + ":res";
  const opts = { retryAttempts: 2, retryDelay: 50 };
  const lockA = createLock({ adapter: adapterA, key, ttl: 5000, ...opts });
  const lockB = createLock({ adapter: adapterB, key, ttl: 1000, ...opts });
  let handle;
  await attempt("acquire", async () => describeHandle((handle = await lockA.acquire())));
  await show("pttl in (4000, 5000]", () => pttlBetween(raw, key, 4000, 5000));
  await show("key holds the handle's value", async () => (await raw.get(key)) === handle.value);
  await attempt("isLocked", () => lockA.isLocked(key));
  await attempt("inspect", async () => {
    const i = await adapterA.inspect(key);
    return { valueIsHandle: i.value === handle.value, ttlPositive: i.ttl > 0 && i.ttl <= 5000 };
  });
  await attempt("inspect a missing key", () => adapterA.inspect(tag + ":missing"));
  await attempt("rival acquire", async () => describeHandle(await lockB.acquire()));
  await show("the rival left the key alone", async () => (await raw.get(key)) === handle.value);

  await attempt("extend to 8000", () => lockA.extend(handle, 8000));
  await show("pttl in (7000, 8000]", () => pttlBetween(raw, key, 7000, 8000));
  const forged = { ...handle, id: "forged", value: "0".repeat(32) };
  await attempt("rival extend with a forged handle", () => lockA.extend(forged, 1000));
  await attempt("rival release with a forged handle", () => lockA.release(forged));
  await show("pttl still above 7000", () => pttlBetween(raw, key, 6000, 8000));
  await attempt("extend with a bad ttl", () => lockA.extend(handle, 0));
  await attempt("release with another key's handle", () => lockA.release({ ...handle, key: tag + ":other" }));

  await attempt("release", () => lockA.release(handle));
  await show("key after release", () => raw.exists(key));
  await attempt("release again", () => lockA.release(handle));
  await attempt("extend after release", () => lockA.extend(handle, 1000));
  await attempt("isLocked after release", () => lockA.isLocked(key));
  let rival;
  await attempt("rival acquire now", async () => describeHandle((rival = await lockB.acquire())));
  await attempt("rival release", () => lockB.release(rival));
}

async function main() {
  const a = ioredis("ru-a");
  const b = ioredis("ru-b");
  const na = await nodeRedis("ru-na");
  const nb = await nodeRedis("ru-nb");
  const ia = new IoredisAdapter(a);
  const ib = new IoredisAdapter(b);

  await runSteps([
    ["ioredis adapter", () => lockSteps("io", ia, ib, a)],
    ["node-redis adapter", () => lockSteps("nr", new NodeRedisAdapter(na), new NodeRedisAdapter(nb), a)],
    ["expired lease", async () => {
      const short = createLock({ adapter: ia, key: "short", ttl: 200, retryAttempts: 0 });
      let h;
      await attempt("acquire 200 ms", async () => describeHandle((h = await short.acquire())));
      await sleep(400);
      await show("key after its lease", () => a.exists("short"));
      await attempt("extend the expired lock", () => short.extend(h, 1000));
      const rival = createLock({ adapter: ib, key: "short", ttl: 2000, retryAttempts: 0 });
      let r;
      await attempt("rival acquire after the lease", async () => describeHandle((r = await rival.acquire())));
      await attempt("release the expired lock (the rival's key is left alone)", () => short.release(h));
      await show("the rival's key", async () => (await a.get("short")) === r.value);
      await attempt("rival release", () => rival.release(r));
    }],
    ["using", async () => {
      // The extension (the ATOMIC_EXTEND script) is sent when 20% of the lease is left, and refused if
      // under 10% is: a 2000 ms lease leaves the timer 200 ms of slack.
      const lock = createLock({ adapter: ia, key: "job", ttl: 2000, retryAttempts: 0 });
      await attempt("using: a 2600 ms routine on a 2000 ms lease", () =>
        lock.using(async (signal) => {
          await sleep(2600);
          return { aborted: signal.aborted, stillLocked: (await a.pttl("job")) > 0 };
        }));
      await show("job released after using", () => a.exists("job"));
      const order = [];
      const first = createLock({ adapter: ia, key: "shared", ttl: 2000, retryAttempts: 0 });
      const second = createLock({ adapter: ib, key: "shared", ttl: 2000, retryAttempts: 40, retryDelay: 25 });
      await attempt("two using() on one resource", async () => {
        const p1 = first.using(async () => {
          order.push("A in");
          await sleep(300);
          order.push("A out");
        });
        await sleep(50);
        const p2 = second.using(async () => {
          order.push("B in");
          order.push("B out");
        });
        await Promise.all([p1, p2]);
        return order;
      });
      await attempt("using whose routine throws", () =>
        first.using(async () => {
          throw new Error("routine failed");
        }));
      await show("shared released after the throw", () => a.exists("shared"));
    }],
    ["batch", async () => {
      const m = new LockManager({ nodes: [ia], defaultTTL: 5000, defaultRetryAttempts: 1, defaultRetryDelay: 50 });
      let hs;
      await attempt("acquireBatch b3 b1 b2", async () => (hs = await m.acquireBatch(["b3", "b1", "b2"])).map(describeHandle));
      await show("pttls", async () => Promise.all(["b1", "b2", "b3"].map((k) => pttlBetween(a, k, 4000, 5000))));
      const m2 = new LockManager({ nodes: [ib], defaultTTL: 5000, defaultRetryAttempts: 1, defaultRetryDelay: 50 });
      await attempt("rival acquireBatch b4 b2", async () => (await m2.acquireBatch(["b4", "b2"])).map(describeHandle));
      await show("b4 untouched (all or nothing)", () => a.exists("b4"));
      await attempt("acquireBatch with a duplicate key", () => m.acquireBatch(["d", "d"]));
      await attempt("releaseBatch", () => m.releaseBatch(hs));
      await show("keys after releaseBatch", () => a.exists("b1", "b2", "b3"));
      await attempt("usingBatch c1 c2", () =>
        m.usingBatch(["c2", "c1"], async () => a.exists("c1", "c2"), { ttl: 2000 }));
      await show("keys after usingBatch", () => a.exists("c1", "c2"));
    }],
    ["scripts flushed", async () => {
      // The adapter keeps the SHA1s it loaded; after SCRIPT FLUSH its EVALSHA gets NOSCRIPT, and it loads
      // the script again.
      const lock = createLock({ adapter: ia, key: "fl", ttl: 5000, retryAttempts: 0 });
      let h;
      await attempt("acquire", async () => describeHandle((h = await lock.acquire())));
      await show("SCRIPT FLUSH", () => a.script("FLUSH"));
      await attempt("extend after the flush", () => lock.extend(h, 6000));
      await show("SCRIPT FLUSH", () => a.script("FLUSH"));
      await attempt("release after the flush", () => lock.release(h));
      await show("key after release", () => a.exists("fl"));
      // The same through node-redis, whose error for NOSCRIPT is its own class.
      const nlock = createLock({ adapter: new NodeRedisAdapter(na), key: "fl2", ttl: 5000, retryAttempts: 0 });
      await attempt("node-redis: acquire", async () => describeHandle((h = await nlock.acquire())));
      await attempt("node-redis: extend (loads the script)", () => nlock.extend(h, 6000));
      await show("SCRIPT FLUSH", () => a.script("FLUSH"));
      await attempt("node-redis: extend after the flush", () => nlock.extend(h, 7000));
      await show("pttl in (6000, 7000]", () => pttlBetween(a, "fl2", 6000, 7000));
      await attempt("node-redis: release", () => nlock.release(h));
      await show("key after release", () => a.exists("fl2"));
    }],
    ["redlock over three nodes", async () => {
      // Three "nodes" on the one server, told apart by their key prefixes.
      const nodes = (c) => ["n1:", "n2:", "n3:"].map((keyPrefix) => new IoredisAdapter(c, { keyPrefix }));
      const rlA = createRedlock({ adapters: nodes(a), key: "rl", ttl: 5000, retryAttempts: 1, retryDelay: 50 });
      const rlB = createRedlock({ adapters: nodes(b), key: "rl", ttl: 5000, retryAttempts: 1, retryDelay: 50 });
      let h;
      await attempt("acquire", async () => describeHandle((h = await rlA.acquire())));
      await show("keys n1:rl n2:rl n3:rl", () => a.exists("n1:rl", "n2:rl", "n3:rl"));
      await attempt("rival acquire", async () => describeHandle(await rlB.acquire()));
      await attempt("extend", () => rlA.extend(h, 8000));
      await show("pttls", async () => Promise.all(["n1:rl", "n2:rl", "n3:rl"].map((k) => pttlBetween(a, k, 7000, 8000))));
      await attempt("release", () => rlA.release(h));
      await show("keys after release", () => a.exists("n1:rl", "n2:rl", "n3:rl"));
      // One node taken by someone else: a quorum of 2 out of 3 still holds.
      await show("SET n2:rl2 foreign", () => a.set("n2:rl2", "foreign"));
      const rl2 = createRedlock({ adapters: nodes(a), key: "rl2", ttl: 5000, retryAttempts: 0 });
      await attempt("acquire with one node taken", async () => describeHandle((h = await rl2.acquire())));
      await attempt("isLocked", () => rl2.isLocked("rl2"));
      await attempt("release", () => rl2.release(h));
      await show("the foreign key is left", () => a.get("n2:rl2"));
      // Two nodes taken: no quorum, and the one node it got is given back.
      await show("SET n3:rl2 foreign", () => a.set("n3:rl2", "foreign"));
      await attempt("acquire with two nodes taken", async () => describeHandle(await rl2.acquire()));
      await show("n1:rl2 given back", () => a.exists("n1:rl2"));
    }],
    ["quit", async () => {
      await show("quit a", () => a.quit());
      await show("quit b", () => b.quit());
      await show("quit na", () => na.quit());
      await show("quit nb", () => nb.quit());
    }],
  ]);
}

main().catch((e) => {
  console.log("unexpected: " + e.stack);
  process.exit(1);
});
