// One fixed session of node-redis v4 against a server that requires a password: its connect handshake
// (AUTH, CLIENT SETINFO, CLIENT SETNAME, pipelined at once), plain commands, errors, MULTI/EXEC,
// WATCH in an isolated connection, scripts defined with defineScript (EVALSHA, then EVAL on
// NOSCRIPT), pub/sub on a duplicated connection and scanIterator. Prints every reply, in order, and
// nothing that changes from run to run. Each step uses keys of its own, so that a step that goes
// wrong on one server changes no other step's output.
// Usage: node node_redis_client.js PORT PASSWORD
"use strict";
const { createClient, defineScript } = require("redis");
const { show, sleep, waitFor, runSteps } = require("./common.js");

const port = Number(process.argv[2]);
const password = process.argv[3];

const scripts = {
  bump: defineScript({
    NUMBER_OF_KEYS: 1,
    SCRIPT: "return redis.call('INCRBY', KEYS[1], ARGV[1])",
    transformArguments: (key, by) => [key, String(by)],
    transformReply: (reply) => reply,
  }),
  fail: defineScript({
    NUMBER_OF_KEYS: 1,
    SCRIPT: "return redis.call('HGET', KEYS[1], 'f')",
    transformArguments: (key) => [key],
    transformReply: (reply) => reply,
  }),
};

const options = (name, pass) => ({
  socket: { host: "127.0.0.1", port, reconnectStrategy: false },
  name,
  password: pass,
  scripts,
});

const c = createClient(options("nr-a", password));
c.on("error", (e) => console.log("client error event: " + e.message));
const steps = [];
const step = (name, fn) => steps.push([name, fn]);
const connected = async (client) => (await client.connect(), "connected");

step("authentication", async () => {
  const wrong = createClient(options("nr-wrong", "not-the-password"));
  wrong.on("error", () => {});
  await show("connect with a wrong password", () => connected(wrong));
  await show("isReady", () => wrong.isReady);
  await wrong.disconnect().catch(() => {});
  const anonymous = createClient(options("nr-anon", undefined));
  anonymous.on("error", () => {});
  await show("connect without a password (CLIENT SETNAME answers NOAUTH)", () => connected(anonymous));
  await anonymous.disconnect().catch(() => {});
});

step("connection", async () => {
  await show("connect (AUTH, CLIENT SETINFO, CLIENT SETNAME)", () => connected(c));
  await show("isReady", () => c.isReady);
  await show("ping", () => c.ping());
  await show("client getname", () => c.clientGetName());
  await show("sendCommand", () => c.sendCommand(["ECHO", "raw"]));
  await show("client setinfo (a 7.2 command)", () => c.sendCommand(["CLIENT", "SETINFO", "LIB-NAME", "x"]));
});

step("connection: select", async () => {
  await show("select 0", () => c.select(0));
  const db1 = createClient({ ...options("nr-db1", password), database: 1 });
  db1.on("error", () => {});
  await show("a client on db 1 (SELECT 1 as it connects)", () => connected(db1));
  await show("set on db 1", () => db1.set("db1key", "x"));
  await show("db 0 does not see it", () => c.get("db1key"));
  await db1.disconnect().catch(() => {});
});

step("strings", async () => {
  await show("set", () => c.set("s", "v1"));
  await show("get", () => c.get("s"));
  await show("get missing", () => c.get("missing"));
  await show("set NX", () => c.set("s", "v2", { NX: true }));
  await show("set XX GET", () => c.set("s", "v3", { XX: true, GET: true }));
  await show("set EX", () => c.set("e", "x", { EX: 100 }));
  await show("ttl", () => c.ttl("e"));
  await show("incr", () => c.incr("n"));
  await show("incrBy", () => c.incrBy("n", 41));
  await show("exists", () => c.exists(["s", "e", "missing"]));
  await show("del", () => c.del(["s", "n", "missing"]));
  await show("set PX then wait past it", () => c.set("short", "x", { PX: 50 }));
  await sleep(200);
  await show("get expired", () => c.get("short"));
});

step("strings: more commands", async () => {
  await show("incrByFloat", () => c.incrByFloat("f", 0.5));
  await show("mSet", () => c.mSet({ m1: "1", m2: "2" }));
  await show("mGet", () => c.mGet(["m1", "missing", "m2"]));
});

step("hashes and lists", async () => {
  await show("hSet object", () => c.hSet("h", { f1: "v1", f2: "v2" }));
  await show("hGetAll", () => c.hGetAll("h"));
  await show("hIncrBy", () => c.hIncrBy("h", "n", 3));
  await show("hDel", () => c.hDel("h", "f2"));
  await show("hGetAll missing", () => c.hGetAll("nohash"));
  await show("rPush", () => c.rPush("l", ["a", "b", "c"]));
  await show("lRange", () => c.lRange("l", 0, -1));
  await show("lPop", () => c.lPop("l"));
});

step("errors", async () => {
  await c.set("str", "x");
  await show("hGet on a string", () => c.hGet("str", "f"));
  await show("unknown command", () => c.sendCommand(["NOSUCHCOMMAND", "a"]));
  await show("wrong arity", () => c.sendCommand(["GET"]));
  await show("incr on a non-integer", () => c.incr("str"));
});

step("pipelines", async () => {
  // Commands sent in the same tick go out together, as a pipeline.
  await show("concurrent commands", () => Promise.all([c.incr("p1"), c.incr("p1"), c.get("p1"), c.hGetAll("nohash")]));
  // execAsPipeline sends a multi()'s commands without MULTI/EXEC around them.
  await show("execAsPipeline", () => c.multi().set("p2", "1").incr("p2").incr("nonint-" + "x").execAsPipeline());
});

step("multi/exec", async () => {
  await show("multi/exec", () => c.multi().set("t1", "1").incr("t1").get("t1").exec());
  await show("multi with a runtime error", () => c.multi().set("t2", "x").incr("t2").get("t2").exec());
  await show("multi with a queuing error", () => c.multi().set("t3", "1").addCommand(["GET"]).exec());
  await show("t3 was not set", () => c.exists("t3"));
  await show("defined script in multi", () => c.multi().bump("t5", 1).get("t5").exec());
});

step("watch", async () => {
  await show("watch conflict (isolated connection)", () =>
    c.executeIsolated(async (iso) => {
      await iso.watch("w");
      await c.set("w", "changed by another connection");
      return iso.multi().set("w", "mine").exec();
    }));
  await show("w", () => c.get("w"));
  await show("watch, no conflict", () =>
    c.executeIsolated(async (iso) => {
      await iso.watch("w");
      return iso.multi().set("w", "mine").exec();
    }));
  await show("w", () => c.get("w"));
});

step("scripts", async () => {
  await c.set("scs", "x");
  await show("defined script (EVALSHA, NOSCRIPT, EVAL)", () => c.bump("c", 5));
  await show("defined script again", () => c.bump("c", 5));
  await show("script error", () => c.fail("scs"));
  await show("scriptFlush", () => c.scriptFlush());
  await show("defined script after a flush", () => c.bump("c", 1));
  await show("scriptLoad", () => c.scriptLoad("return ARGV[1]"));
  await show("evalSha", () =>
    c.evalSha("098e0f0d1448c0a81dafe820f66d460eb09263da", { keys: [], arguments: ["back"] }));
  await show("scriptExists", () => c.scriptExists(["098e0f0d1448c0a81dafe820f66d460eb09263da", "0".repeat(40)]));
  await show("eval types", () => c.eval("return {1, 'two', {3}, false, true, 2.5}"));
  await show("eval keys/arguments", () => c.eval("return {KEYS[1], ARGV[1]}", { keys: ["k"], arguments: ["a"] }));
});

step("pubsub: channels", async () => {
  const sub = c.duplicate({ name: "nr-sub" });
  sub.on("error", (e) => console.log("subscriber error event: " + e.message));
  await sub.connect();
  const got = [];
  await show("subscribe", () => sub.subscribe("news", (message, channel) => got.push(["message", channel, message])));
  await show("publish", () => c.publish("news", "hello"));
  await show("message", () => waitFor(() => got.shift()));
  await show("publish elsewhere", () => c.publish("weather", "rain"));
  await show("unsubscribe", () => sub.unsubscribe("news"));
  await show("publish to nobody", () => c.publish("news", "lost"));
  await show("command after unsubscribing", () => sub.get("c"));
  await sub.quit();
});

step("pubsub: patterns", async () => {
  const sub = c.duplicate({ name: "nr-psub" });
  sub.on("error", (e) => console.log("subscriber error event: " + e.message));
  await sub.connect();
  const got = [];
  await show("pSubscribe", () => sub.pSubscribe("n*", (message, channel) => got.push(["pmessage", channel, message])));
  await show("publish", () => c.publish("nope", "p"));
  await show("pmessage", () => waitFor(() => got.shift(), 2000));
  await show("pUnsubscribe", () => sub.pUnsubscribe("n*"));
  await sub.disconnect();
});

step("pubsub: introspection", async () => {
  const sub = c.duplicate({ name: "nr-isub" });
  sub.on("error", () => {});
  await sub.connect();
  await sub.subscribe("news", () => {});
  await show("pubSubNumSub", () => c.pubSubNumSub(["news", "none"]));
  await sub.disconnect();
});

step("scan", async () => {
  for (let i = 0; i < 25; i++) await c.set("scan:" + String(i).padStart(2, "0"), String(i));
  await show("scanIterator sorted", async () => {
    const keys = [];
    for await (const key of c.scanIterator({ MATCH: "scan:*", COUNT: 7 })) keys.push(key);
    return keys.sort();
  });
});

step("flush: flushDb", async () => {
  await c.set("fd", "1");
  await show("flushDb", () => c.flushDb());
  await show("exists after flushDb", () => c.exists("fd"));
});

step("flush", async () => {
  await show("flushAll", () => c.flushAll());
  await show("dbSize", () => c.dbSize());
});

step("quit", async () => {
  await show("quit", () => c.quit());
  await show("isOpen after quit", () => c.isOpen);
});

runSteps(steps);
