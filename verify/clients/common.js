// What the node client scripts share: printing a step and what a call gave back (its value, or the
// client's error: class and message), deterministically, so that a run against redis-server and one
// against locksim serve can be compared line for line.
"use strict";
const util = require("util");

function step(name) {
  process.stdout.write("== " + name + "\n");
}

function render(value) {
  if (Buffer.isBuffer(value)) return "<Buffer " + value.toString("hex") + ">";
  if (Array.isArray(value)) return "[" + value.map(render).join(", ") + "]";
  if (value instanceof Error) return describeError(value);
  return util.inspect(value, { depth: 6, breakLength: Infinity, sorted: false });
}

function describeError(e) {
  let text = (e.constructor && e.constructor.name ? e.constructor.name : "Error") + ": " + e.message;
  // ioredis attaches the errors that aborted a transaction; node-redis its replies.
  if (Array.isArray(e.previousErrors)) text += " (previous: " + e.previousErrors.map((p) => p.message).join(" | ") + ")";
  // node-redis attaches a transaction's replies, errors among them, to its MultiErrorReply.
  if (Array.isArray(e.replies)) text += " (replies: " + render(e.replies) + ")";
  return text;
}

async function show(label, fn) {
  try {
    const value = await fn();
    process.stdout.write(label + " -> " + render(value) + "\n");
    return value;
  } catch (e) {
    process.stdout.write(label + " -> " + describeError(e) + "\n");
    return undefined;
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Resolves with the first value `take()` returns that is not undefined, polling; "timed out" after `ms`.
async function waitFor(take, ms = 5000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const v = take();
    if (v !== undefined) return v;
    await sleep(10);
  }
  return "timed out after " + ms + " ms";
}

// Runs [name, async fn] steps in order: '== name', what the step prints, and a line for anything it
// threw; '== done' last. Exits when done, so that a connection a failed step left open cannot hang it.
async function runSteps(steps) {
  for (const [name, fn] of steps) {
    step(name);
    try {
      await fn();
    } catch (e) {
      process.stdout.write("step raised " + describeError(e) + "\n");
    }
  }
  step("done");
  process.exit(0);
}

module.exports = { step, show, render, sleep, waitFor, runSteps };
