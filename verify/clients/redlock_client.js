// One fixed session of node-redlock v5 (over ioredis) against one server: acquire, a rival refused
// after its retries, extend, release (and release again), multi-resource locks, an expired lease, and
// using() with automatic extension over a routine longer than the lease. Redlock's scripts go by
// EVALSHA and fall back to EVAL on NOSCRIPT. Prints what redlock returned or threw, in order, and
// nothing that changes from run to run (the lock's random value and its times are reduced to facts).
// Usage: node redlock_client.js PORT
"use strict";
const Redis = require("ioredis");
const Redlock = require("redlock").default;
const { ResourceLockedError, ExecutionError } = require("redlock");
const { step, show, sleep } = require("./common.js");

const port = Number(process.argv[2]);
const connect = (name) =>
  new Redis({ host: "127.0.0.1", port, connectionName: name, maxRetriesPerRequest: 0, retryStrategy: () => null });

// A lock, reduced to what does not change from run to run.
function describeLock(lock) {
  return {
    resources: lock.resources,
    valueIsRandomHex: /^[0-9a-f]{32}$/.test(lock.value),
    attempts: lock.attempts.length,
    expiresInFuture: lock.expiration > Date.now(),
  };
}

// What a failed operation reports: its message, and each attempt's votes against.
async function describeFailure(e) {
  if (!(e instanceof ExecutionError)) return "unexpected " + (e && e.stack);
  const attempts = await Promise.all(e.attempts.map((a) => a));
  return {
    error: e.name + ": " + e.message,
    attempts: attempts.length,
    against: attempts.map((a) =>
      [...a.votesAgainst.values()].map((err) => (err instanceof ResourceLockedError ? "locked: " : "") + err.message)),
  };
}

async function attempt(label, fn) {
  return show(label, async () => {
    try {
      return await fn();
    } catch (e) {
      return describeFailure(e);
    }
  });
}

async function main() {
  const a = connect("rl-a");
  const b = connect("rl-b");
  const settings = { retryCount: 2, retryDelay: 100, retryJitter: 0, automaticExtensionThreshold: 300 };
  const redlockA = new Redlock([a], settings);
  const redlockB = new Redlock([b], settings);

  step("acquire");
  let lock;
  await attempt("acquire", async () => describeLock((lock = await redlockA.acquire(["res"], 5000))));
  await show("ttl", () => a.ttl("res"));
  await show("key holds the lock's value", async () => (await a.get("res")) === lock.value);
  await attempt("rival acquire", async () => describeLock(await redlockB.acquire(["res"], 1000)));
  await show("the rival's failed acquire left the lock alone", async () => (await a.get("res")) === lock.value);

  step("extend");
  await attempt("extend", async () => describeLock((lock = await lock.extend(8000))));
  await show("ttl after extend", () => a.ttl("res"));
  await attempt("rival extend with a forged lock", async () => {
    const forged = new (require("redlock").Lock)(redlockB, ["res"], "0".repeat(32), [], Date.now() + 5000);
    return describeLock(await forged.extend(1000));
  });

  step("release");
  await attempt("release", async () => (await lock.release()).attempts.length);
  await show("key after release", () => a.exists("res"));
  await attempt("release again", async () => (await redlockA.release(lock, { retryCount: 0 })).attempts.length);
  await attempt("extend after release", async () => describeLock(await lock.extend(1000)));

  step("several resources");
  let ab;
  await attempt("acquire r1 r2", async () => describeLock((ab = await redlockA.acquire(["r1", "r2"], 5000))));
  await attempt("rival acquire r2 r3", async () => describeLock(await redlockB.acquire(["r2", "r3"], 1000)));
  await show("r3 untouched", () => a.exists("r3"));
  await attempt("release r1 r2", async () => (await ab.release()).attempts.length);
  await show("keys after release", () => a.exists("r1", "r2"));

  step("expired lease");
  let short;
  await attempt("acquire 200 ms", async () => describeLock((short = await redlockA.acquire(["short"], 200))));
  await sleep(400);
  await show("key after its lease", () => a.exists("short"));
  await attempt("rival acquire after the lease", async () => {
    const l = await redlockB.acquire(["short"], 1000);
    const described = describeLock(l);
    await l.release();
    return described;
  });
  await attempt("extend an expired lock", async () => describeLock(await short.extend(1000)));

  step("using");
  await attempt("using: a 1200 ms routine on a 700 ms lease", () =>
    redlockA.using(["job"], 700, async (signal) => {
      await sleep(1200);
      const ttl = await a.pttl("job");
      return { aborted: signal.aborted, stillLocked: ttl > 0 };
    }));
  await show("job released after using", () => a.exists("job"));
  const order = [];
  await attempt("two using() on one resource", async () => {
    const first = redlockA.using(["shared"], 1000, async () => {
      order.push("A in");
      await sleep(300);
      order.push("A out");
    });
    await sleep(50);
    const second = redlockB.using(["shared"], 1000, { retryCount: 20 }, async () => {
      order.push("B in");
      order.push("B out");
    });
    await Promise.all([first, second]);
    return order;
  });

  step("quit");
  await show("quit", () => redlockA.quit());
  await b.quit();
  step("done");
}

main().catch((e) => {
  console.log("unexpected: " + e.stack);
  process.exit(1);
});
