// One fixed session of redis-lock v1 (npm `redis-lock`, over node-redis v4) against one server.
// redis-lock takes a lock with `SET lock.<name> <expiry time> PX <timeout> NX` and, while the key is
// there, tries again every `retryDelay` ms, for ever; its `done()` is a plain DEL, sent only while the
// lease has not run out by the client's clock. It has no extend. The session: acquire, a rival waiting
// until the holder lets go, release, locks on different names, a short lease running out under a
// waiting rival (and the first holder's late `done()` leaving the rival's key alone), the default
// timeout, and a holder whose connection quits. Prints what the library gave back and what the keys
// hold, reduced to facts that do not change from run to run (the key's value is a time).
// Usage: node redis_lock_client.js PORT
"use strict";
const { createClient } = require("redis");
const redisLock = require("redis-lock");
const { show, sleep, runSteps } = require("./common.js");

const port = Number(process.argv[2]);
const connect = async (name) => {
  const c = createClient({ name, socket: { host: "127.0.0.1", port, reconnectStrategy: false } });
  c.on("error", () => {});
  await c.connect();
  return c;
};

// redis-lock retries for ever, on a refusal and on an error alike: a lock that is never granted would
// hang the session, so every wait is bounded.
function bounded(promise, ms) {
  return Promise.race([promise, sleep(ms).then(() => "still waiting after " + ms + " ms")]);
}

// A pending promise's state, without waiting for it.
async function settled(promise) {
  const marker = Symbol("pending");
  const v = await Promise.race([promise.then(() => true, () => true), Promise.resolve(marker)]);
  return v === true;
}

// What the key of a held lock says: redis-lock stores its expiry time (ms since the epoch, plus 1).
async function describeKey(c, key, timeout) {
  const [value, pttl] = await Promise.all([c.get(key), c.pTTL(key)]);
  if (value === null) return { exists: false, pttl };
  const expiry = Number(value);
  const now = Date.now();
  return {
    exists: true,
    valueIsExpiryTime: /^[0-9]+$/.test(value) && expiry > now && expiry <= now + timeout + 1,
    pttlWithinTimeout: pttl > 0 && pttl <= timeout,
  };
}

async function main() {
  const a = await connect("rlk-a");
  const b = await connect("rlk-b");
  const lockA = redisLock(a, 20);
  const lockB = redisLock(b, 20);

  await runSteps([
    ["acquire", async () => {
      const done = await bounded(lockA("res", 5000), 3000);
      await show("lock res 5000 gives a done() function", () => typeof done);
      await show("key lock.res", () => describeKey(a, "lock.res", 5000));
      await show("type", () => a.type("lock.res"));
      const doneA = await bounded(lockA("res2", 5000), 3000);
      await show("lock res2 while holding res (another name, not blocked)", () => typeof doneA);
      await show("release res2", () => doneA());
      await show("key lock.res2 after release", () => a.exists("lock.res2"));
      await show("release res", () => done());
      await show("key lock.res after release", () => a.exists("lock.res"));
    }],
    ["rival waits", async () => {
      const order = [];
      const doneA = await bounded(lockA("turns", 5000), 3000);
      order.push("A in");
      const rival = lockB("turns", 5000).then((done) => {
        order.push("B in");
        return done;
      });
      await sleep(300);
      await show("rival granted while A holds it", () => settled(rival));
      order.push("A out");
      await show("A's done()", () => doneA());
      const doneB = await bounded(rival, 3000);
      await show("rival granted after A's done()", () => typeof doneB);
      await show("order", () => order);
      await show("key lock.turns", () => describeKey(a, "lock.turns", 5000));
      await show("B's done()", () => doneB());
      await show("key after B's done()", () => a.exists("lock.turns"));
      await show("A's done() again, after B took and let go", () => doneA());
    }],
    ["many waiters", async () => {
      const order = [];
      const doneA = await bounded(lockA("crowd", 5000), 3000);
      const waiters = [1, 2, 3].map((i) =>
        (i % 2 ? lockA : lockB)("crowd", 5000).then(async (done) => {
          order.push("in");
          const held = await a.exists("lock.crowd");
          await sleep(50);
          order.push("out");
          await done();
          return held;
        }));
      await sleep(200);
      await show("granted while held", async () => Promise.all(waiters.map(settled)));
      await doneA();
      await show("each waiter saw the key while it held the lock", () => bounded(Promise.all(waiters), 5000));
      await show("order (never two inside at once)", () => order);
      await show("key after all", () => a.exists("lock.crowd"));
    }],
    ["lease runs out", async () => {
      const doneA = await bounded(lockA("short", 300), 3000);
      await show("key lock.short", () => describeKey(a, "lock.short", 300));
      const started = Date.now();
      const rival = lockB("short", 2000);
      await show("rival granted at once", () => settled(rival));
      const doneB = await bounded(rival, 3000);
      await show("rival granted once the lease ran out", () => typeof doneB);
      await show("rival waited for the lease (>= 150 ms)", () => Date.now() - started >= 150);
      await show("key lock.short now", () => describeKey(a, "lock.short", 2000));
      await show("A's late done() (sends nothing: its lease is over)", () => doneA());
      await show("key still there (the rival's)", () => a.exists("lock.short"));
      await show("B's done()", () => doneB());
      await show("key after B's done()", () => a.exists("lock.short"));
    }],
    ["default timeout", async () => {
      const done = await bounded(lockA("dflt"), 3000);
      await show("key lock.dflt (5000 ms)", () => describeKey(a, "lock.dflt", 5000));
      await show("pttl above 4000", async () => (await a.pTTL("lock.dflt")) > 4000);
      await show("done()", () => done());
    }],
    ["key taken by someone else", async () => {
      // A key set outside redis-lock (no expiry) blocks it until it is deleted.
      await show("SET lock.foreign x", () => a.set("lock.foreign", "x"));
      const waiting = lockA("foreign", 1000);
      await sleep(200);
      await show("granted while the foreign key is there", () => settled(waiting));
      await show("DEL lock.foreign", () => b.del("lock.foreign"));
      const done = await bounded(waiting, 3000);
      await show("granted after the DEL", () => typeof done);
      await show("done()", () => done());
    }],
    ["no name", async () => {
      await show("lock('')", () => bounded(lockA(""), 500));
    }],
    ["holder quits", async () => {
      const c = await connect("rlk-c");
      const lockC = redisLock(c, 20);
      await bounded(lockC("gone", 400), 3000);
      await show("quit", () => c.quit());
      await show("key outlives the connection", () => a.exists("lock.gone"));
      const done = await bounded(lockA("gone", 1000), 3000);
      await show("rival granted after the lease", () => typeof done);
      await show("done()", () => done());
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
