// One fixed session of ioredis against a server: its connect handshake (INFO ready check, CLIENT
// SETNAME, CLIENT SETINFO), plain commands, binary values, errors, pipelines, MULTI/EXEC, WATCH,
// defineCommand (EVALSHA, then EVAL on NOSCRIPT; SCRIPT LOAD in a pipeline), pub/sub and scanStream.
// Prints every reply, in order, and nothing that changes from run to run. Each step uses keys of its
// own, so that a step that goes wrong on one server changes no other step's output.
// Usage: node ioredis_client.js PORT
"use strict";
const Redis = require("ioredis");
const { show, sleep, waitFor, runSteps } = require("./common.js");

const port = Number(process.argv[2]);
const options = (name) => ({
  host: "127.0.0.1",
  port,
  connectionName: name,
  maxRetriesPerRequest: 0,
  retryStrategy: () => null, // a lost connection is an error here, not a reconnection
  lazyConnect: true,
});

const r = new Redis(options("io-a"));
const other = new Redis(options("io-b"));
const steps = [];
const step = (name, fn) => steps.push([name, fn]);

step("connection", async () => {
  await show("connect (INFO ready check, CLIENT SETNAME, CLIENT SETINFO)", () => r.connect());
  await other.connect();
  await show("status", () => r.status);
  await show("ping", () => r.ping());
  await show("ping message", () => r.ping("hi"));
  await show("echo", () => r.echo("hello there"));
  await show("client getname", () => r.client("GETNAME"));
  await show("client setinfo (a 7.2 command)", () => r.client("SETINFO", "LIB-NAME", "x"));
  await show("info has redis_mode", async () => /redis_mode:standalone/.test(await r.info("server")));
  await show("dbsize", () => r.dbsize());
});

step("connection: select", async () => {
  await show("select 0", () => r.select(0));
  const db1 = new Redis({ ...options("io-db1"), db: 1 });
  await show("a client on db 1 (SELECT 1 as it connects)", async () => (await db1.connect(), await db1.ping()));
  // ioredis does not report a SELECT that failed as it connected: only where the key went tells.
  await show("set on db 1", () => db1.set("db1key", "x"));
  await show("db 0 does not see it", () => r.get("db1key"));
  db1.disconnect();
});

step("strings", async () => {
  await show("set", () => r.set("s", "v1"));
  await show("get", () => r.get("s"));
  await show("get missing", () => r.get("missing"));
  await show("set nx", () => r.set("s", "v2", "NX"));
  await show("set xx get", () => r.set("s", "v3", "XX", "GET"));
  await show("set ex", () => r.set("e", "x", "EX", 100));
  await show("ttl", () => r.ttl("e"));
  await show("expire nx on a key with a ttl", () => r.expire("e", 300, "NX"));
  await show("expire gt", () => r.expire("e", 300, "GT"));
  await show("ttl", () => r.ttl("e"));
  await show("pexpire then pttl is at most it", async () => (await r.pexpire("e", 5000), (await r.pttl("e")) <= 5000));
  await show("incr", () => r.incr("n"));
  await show("incrby", () => r.incrby("n", 41));
  await show("decr", () => r.decr("n"));
  await show("set binary", () => r.set("bin", Buffer.from([0, 255, 10, 13, 32, 0x80])));
  await show("getBuffer binary", () => r.getBuffer("bin"));
  await show("append binary", () => r.append("bin", Buffer.from([0, 1])));
  await show("getBuffer after append", () => r.getBuffer("bin"));
  await show("exists", () => r.exists("s", "e", "missing"));
  await show("del", () => r.del("s", "bin", "missing"));
  await show("set px then wait past it", () => r.set("short", "x", "PX", 50));
  await sleep(200);
  await show("get expired", () => r.get("short"));
});

step("strings: more commands", async () => {
  await show("mset", () => r.mset({ m1: "1", m2: "2" }));
  await show("mget", () => r.mget("m1", "missing", "m2"));
  await show("strlen", () => r.strlen("m1"));
  await show("setrange", () => r.setrange("m1", 3, "x"));
  await show("get after setrange", () => r.getBuffer("m1"));
});

step("hashes", async () => {
  await show("hset object", () => r.hset("h", { f1: "v1", f2: "v2", f3: "3" }));
  await show("hgetall", () => r.hgetall("h"));
  await show("hincrby", () => r.hincrby("h", "f3", 4));
  await show("hdel", () => r.hdel("h", "f2"));
  await show("hkeys", () => r.hkeys("h"));
  await show("hgetall missing", () => r.hgetall("nohash"));
});

step("hashes: hmget", async () => {
  await r.hset("h2", { f1: "v1", f3: "7" });
  await show("hmget", () => r.hmget("h2", "f1", "nope", "f3"));
});

step("errors", async () => {
  await r.set("str", "x");
  await show("hget on a string", () => r.hget("str", "f"));
  await show("unknown command", () => r.call("NOSUCHCOMMAND", "a"));
  await show("wrong arity", () => r.call("GET"));
  await show("incr on a non-integer", () => r.incr("str"));
  await show("syntax error", () => r.set("k", "v", "NX", "XX"));
});

step("pipelines", async () => {
  await show("pipeline", () => r.pipeline().set("p1", "1").incr("p1").get("p1").hset("ph", "f", "v").hgetall("ph").exec());
  await show("pipeline with an error", () => r.pipeline().set("p2", "x").incr("p2").get("p2").exec());
  await show("auto-pipelined calls", () => Promise.all([r.incr("p3"), r.incr("p3"), r.get("p3")]));
});

step("multi/exec", async () => {
  await show("multi/exec", () => r.multi().set("t1", "1").incr("t1").get("t1").exec());
  await show("multi with a runtime error", () => r.multi().set("t2", "x").incr("t2").exec());
  await show("multi with a queuing error", () => r.multi().set("t3", "1").call("GET").exec());
  await show("t3 was not set", () => r.exists("t3"));
  await show("multi pipeline:false", async () => {
    await r.multi({ pipeline: false });
    await r.set("t4", "1");
    await r.incr("t4");
    return r.exec();
  });
});

step("watch", async () => {
  await show("watch", () => r.watch("w"));
  await show("another client sets it", () => other.set("w", "changed"));
  await show("exec after the watched key changed", () => r.multi().set("w", "mine").exec());
  await show("w", () => r.get("w"));
  await show("watch", () => r.watch("w"));
  await show("exec with it unchanged", () => r.multi().set("w", "mine").exec());
  await show("w", () => r.get("w"));
  await show("unwatch", () => r.unwatch());
});

step("scripts", async () => {
  r.defineCommand("bump", { numberOfKeys: 1, lua: "return redis.call('INCRBY', KEYS[1], ARGV[1])" });
  r.defineCommand("echoAll", { lua: "return {KEYS[1], ARGV[1], #KEYS, #ARGV}" });
  await show("custom command (EVALSHA, NOSCRIPT, EVAL)", () => r.bump("c", 5));
  await show("custom command again", () => r.bump("c", 5));
  await show("dynamic key count", () => r.echoAll(1, "k", "a"));
  await show("script flush", () => r.script("FLUSH"));
  await show("custom command in a pipeline (SCRIPT LOAD first)", () => r.pipeline().bump("c", 1).bump("c", 1).exec());
  await show("script exists", () => r.script("EXISTS", "0".repeat(40)));
  await show("script load", () => r.script("LOAD", "return 7"));
  await show("evalsha unknown", () => r.evalsha("0e3e9d0f26a7de5f5de8c6c9cd9fa63f4a4e2d9a", 0));
  await r.set("scs", "x");
  await show("eval types", () => r.eval("return {1, 'two', {3}, false, true, 2.5}", 0));
  await show("eval error", () => r.eval("return redis.call('INCR', KEYS[1])", 1, "scs"));
  await show("eval error_reply", () => r.eval("return redis.error_reply('MYERR broke')", 0));
  await show("eval status_reply", () => r.eval("return redis.status_reply('FINE')", 0));
  await show("evalBuffer binary", () => r.evalBuffer("return ARGV[1]", 0, Buffer.from([0, 200, 13, 10])));
});

step("pubsub: channels", async () => {
  const sub = new Redis(options("io-sub"));
  await sub.connect();
  const got = [];
  sub.on("message", (channel, message) => got.push(["message", channel, message]));
  await show("subscribe", () => sub.subscribe("news", "other"));
  await show("publish", () => r.publish("news", "hello"));
  await show("message", () => waitFor(() => got.shift()));
  await show("publish elsewhere", () => r.publish("weather", "rain"));
  await show("publish to the other channel", () => r.publish("other", "goal"));
  await show("message", () => waitFor(() => got.shift()));
  await show("command while subscribed", () => sub.get("x"));
  await show("unsubscribe", () => sub.unsubscribe("news", "other"));
  await show("publish to nobody", () => r.publish("news", "lost"));
  await show("command after unsubscribing", () => sub.set("after", "sub"));
  sub.disconnect();
});

step("pubsub: patterns", async () => {
  const sub = new Redis(options("io-psub"));
  await sub.connect();
  const got = [];
  sub.on("pmessage", (pattern, channel, message) => got.push(["pmessage", pattern, channel, message]));
  await show("psubscribe", () => sub.psubscribe("n*"));
  await show("publish", () => r.publish("nope", "p"));
  await show("pmessage", () => waitFor(() => got.shift(), 2000));
  await show("punsubscribe", () => sub.punsubscribe("n*"));
  sub.disconnect();
});

step("pubsub: introspection", async () => {
  const sub = new Redis(options("io-isub"));
  await sub.connect();
  await sub.subscribe("news");
  await show("pubsub numsub", () => r.pubsub("NUMSUB", "news", "none"));
  await show("pubsub numpat", () => r.pubsub("NUMPAT"));
  sub.disconnect();
});

step("scan", async () => {
  for (let i = 0; i < 25; i++) await r.set("scan:" + String(i).padStart(2, "0"), i);
  await show("scanStream sorted", async () => {
    const keys = [];
    for await (const batch of r.scanStream({ match: "scan:*", count: 7 })) keys.push(...batch);
    return keys.sort();
  });
});

step("flush: flushdb", async () => {
  await r.set("fd", "1");
  await show("flushdb", () => r.flushdb());
  await show("exists after flushdb", () => r.exists("fd"));
});

step("flush", async () => {
  await show("flushall", () => r.flushall());
  await show("dbsize", () => r.dbsize());
});

step("quit", async () => {
  await show("quit", () => r.quit());
  await show("status after quit", async () => (await sleep(50), r.status));
  other.disconnect();
});

runSteps(steps);
