// Two node clients, A and B (ioredis connections named A and B, a Redlock each), contend for one
// resource with redlock.using(): a 1000 ms lease that redlock extends automatically 500 ms before it
// runs out. Inside, each increments the protected counter by GET then SET, and notes its belief with
// LOCKSIM.NOTE. A's routine is long (it waits between its GET and its SET); B waits in acquire's
// retries. 300 ms into A's routine, the test pauses the server (LOCKSIM.FAULT redis_pause):
//   short  for 400 ms, less than what is left of the lease: A's extension is answered late but in time;
//          A keeps the lock, B goes after A: the counter ends at 2.
//   long   for 1500 ms, past the lease: A's extension finds the lock gone, redlock aborts A's signal,
//          and A, which does not look at its signal, writes anyway after B's update: B's is lost.
// Prints what the clients saw (the order of A's and B's steps is the point, times are left out).
// Usage: node story_redlock_pause.js short|long PORT
"use strict";
const Redis = require("ioredis");
const Redlock = require("redlock").default;
const { sleep } = require("./common.js");

const mode = process.argv[2];
const port = Number(process.argv[3]);
if (mode !== "short" && mode !== "long") throw new Error("mode: short or long");
const pauseMs = mode === "short" ? 400 : 1500;
const routineMs = mode === "short" ? 1500 : 2500;

const connect = (name) =>
  new Redis({ host: "127.0.0.1", port, connectionName: name, maxRetriesPerRequest: 0, retryStrategy: () => null });
const lines = [];
const say = (who, text) => lines.push(who + ": " + text);

async function main() {
  const a = connect("A");
  const b = connect("B");
  const test = connect("test");
  await Promise.all([a.ping(), b.ping(), test.ping()]);
  const settings = { retryDelay: 100, retryJitter: 0, automaticExtensionThreshold: 500 };
  // A's extension gives up after 2 retries (redlock retries an extension with the instance's
  // retryCount before it aborts the routine's signal); B waits in up to 40 retries to acquire.
  const redlockA = new Redlock([a], { ...settings, retryCount: 2 });
  const redlockB = new Redlock([b], { ...settings, retryCount: 40 });
  let extensionsFailed = 0;
  redlockA.on("error", () => extensionsFailed++);
  // Which of A's automatic extensions the pause held up (answered more than 200 ms after it was sent).
  let extensionsHeld = 0;
  const extend = redlockA.extend.bind(redlockA);
  redlockA.extend = async (...args) => {
    const sent = Date.now();
    try {
      return await extend(...args);
    } finally {
      if (Date.now() - sent > 200) extensionsHeld++;
    }
  };

  let aInside;
  const aIsInside = new Promise((resolve) => (aInside = resolve));
  const runA = redlockA.using(["lk"], 1000, async (signal) => {
    await a.call("LOCKSIM.NOTE", "acquired", "lk");
    const value = Number((await a.get("counter")) || 0);
    say("A", "read " + value);
    aInside();
    await sleep(routineMs); // A's long work; it does not look at its signal
    say("A", "signal aborted before its write -> " + signal.aborted);
    await a.set("counter", value + 1);
    say("A", "wrote " + (value + 1));
    await a.call("LOCKSIM.NOTE", "released", "lk");
  });
  await aIsInside;
  const runB = (async () => {
    await sleep(100);
    await redlockB.using(["lk"], 1000, async () => {
      await b.call("LOCKSIM.NOTE", "acquired", "lk");
      const value = Number((await b.get("counter")) || 0);
      say("B", "read " + value);
      await b.set("counter", value + 1);
      say("B", "wrote " + (value + 1));
      await b.call("LOCKSIM.NOTE", "released", "lk");
    });
  })();
  await sleep(300);
  say("test", "LOCKSIM.FAULT redis_pause for_ms " + pauseMs + " -> " +
    (await test.call("LOCKSIM.FAULT", "redis_pause", "for_ms", String(pauseMs))));

  const [resultA, resultB] = await Promise.allSettled([runA, runB]);
  say("A", "using() -> " + (resultA.status === "fulfilled" ? "done" : "rejected: " + resultA.reason.message));
  say("B", "using() -> " + (resultB.status === "fulfilled" ? "done" : "rejected: " + resultB.reason.message));
  say("A", "an extension was held up by the pause -> " + (extensionsHeld > 0));
  say("A", "an extension failed -> " + (extensionsFailed > 0));
  for (const line of lines) console.log(line);
  console.log("counter at the end: " + (await test.get("counter")));
  for (const c of [a, b, test]) c.disconnect();
}

main().catch((e) => {
  console.log("unexpected: " + e.stack);
  process.exit(1);
});
