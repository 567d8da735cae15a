// Loaded first by the standalone server (.next/standalone/server.js: scripts/copy-standalone-assets.mjs
// puts this file beside it and a require of it at its top), before Next.js prints anything.
//
// With JSON logs (LOG_FORMAT=json, or LOG_FORMAT unset outside development: the rule of
// lib/env.ts's logSettings), every line the process writes to stdout and stderr must be one JSON
// object, for a log drain. The portal's own lines are (lib/log.ts, pino); Next.js's are not: its
// banner ("▲ Next.js 16…", "- Local:", "✓ Ready in…", printed before instrumentation.ts runs) and
// its console.error of a failed request ("⨯ Error [...]" and a stack, one line each). So:
// - each write that is not already JSON lines becomes ONE object
//   `{"level","time","event":"next.output","msg"}`: its first line is the message, stack frames
//   ("    at …") are dropped, the other lines are kept short in `detail`;
// - an error that instrumentation.ts's onRequestError logs (with its route, class and code) is not
//   printed a second time by Next (lib/http/request-errors.ts marks it in a WeakSet on globalThis);
// - LOG_LEVEL holds for these lines as for the portal's (info lines go under LOG_LEVEL=warn).
// Plain CommonJS with no dependencies: it runs before anything is loaded, outside Next's bundles.
"use strict";

const LEVELS = ["debug", "info", "warn", "error", "silent"];
const DETAIL_MAX = 500;
/** How long an error printed by Next waits for onRequestError to log it (a few microtasks later). */
const HOLD_ERROR_MS = 100;
const REPORTED_ERRORS = Symbol.for("ems-portal.errors-logged-by-instrumentation");
const INSTALLED = Symbol.for("ems-portal.json-output");
// Colours and other terminal escapes, which Next adds even when the output is not a terminal.
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;
const STACK_FRAME = /^\s+at\s/;
// An inspected object's field that may hold a secret (a pg client's `secretKey`, a `password`, a
// token): the line is dropped, as lib/log.ts drops such fields from the portal's own lines.
const SECRET_FIELD = /(secret|password|token|authorization|cookie|apikey)\w*['"]?\s*:/i;

function jsonMode(env) {
  return env.LOG_FORMAT ? env.LOG_FORMAT === "json" : env.NODE_ENV !== "development";
}

function minimumLevel(env) {
  const raw = (env.LOG_LEVEL || "").trim().toLowerCase();
  return LEVELS.includes(raw) ? raw : env.NODE_ENV === "test" ? "silent" : "info";
}

function isJsonLine(line) {
  if (!line.startsWith("{") || !line.endsWith("}")) return false;
  try {
    return typeof JSON.parse(line) === "object";
  } catch {
    return false;
  }
}

/** The level of a line Next.js printed: by its symbol, else by the stream. */
function levelOf(firstLine, stream) {
  if (/^\s*⨯/.test(firstLine)) return "error";
  if (/^\s*⚠/.test(firstLine)) return "warn";
  return stream === "stderr" ? "warn" : "info";
}

/** One write's lines (not JSON) as one JSON line. */
function toJsonLine(lines, stream) {
  const kept = lines.map((line) => line.replace(ANSI, "").trimEnd()).filter((line) => line.trim() !== "" && !STACK_FRAME.test(line) && !SECRET_FIELD.test(line));
  if (kept.length === 0) return null;
  const entry = { level: levelOf(kept[0], stream), time: new Date().toISOString(), event: "next.output", msg: kept[0].trim() };
  if (kept.length > 1) entry.detail = kept.slice(1).join("\n").slice(0, DETAIL_MAX);
  return entry;
}

function install(env) {
  if (globalThis[INSTALLED] || !jsonMode(env)) return;
  globalThis[INSTALLED] = true;
  const threshold = LEVELS.indexOf(minimumLevel(env));
  const reported = (globalThis[REPORTED_ERRORS] ??= new WeakSet());

  for (const name of ["stdout", "stderr"]) {
    const stream = process[name];
    const write = stream.write.bind(stream);
    let partial = "";
    stream.write = function writeJsonLines(chunk, encoding, callback) {
      const done = typeof encoding === "function" ? encoding : callback;
      const text = partial + (typeof chunk === "string" ? chunk : Buffer.from(chunk).toString(typeof encoding === "string" ? encoding : "utf8"));
      const end = text.lastIndexOf("\n");
      // A line still being written waits for its end (pino and console write whole lines).
      partial = end < 0 ? text : text.slice(end + 1);
      const lines = end < 0 ? [] : text.slice(0, end).split("\n");
      if (lines.length === 0 || lines.every(isJsonLine)) {
        return lines.length === 0 ? (done && process.nextTick(done), true) : write(lines.join("\n") + "\n", done);
      }
      const entry = toJsonLine(lines, name);
      if (!entry || LEVELS.indexOf(entry.level) < threshold) {
        if (done) process.nextTick(done);
        return true;
      }
      return write(JSON.stringify(entry) + "\n", done);
    };
  }

  // Next.js prints a failed request's error itself (console.error) just BEFORE it calls
  // onRequestError, which logs it properly: an error is held back a moment and dropped if by then
  // it was logged. What is still held when the process exits is printed then.
  const consoleError = console.error;
  const held = new Set();
  const loggedAlready = (args) => args.some((arg) => typeof arg === "object" && arg !== null && reported.has(arg));
  console.error = function errorUnlessLogged(...args) {
    if (!args.some((arg) => arg instanceof Error)) return consoleError.apply(this, args);
    if (loggedAlready(args)) return;
    const call = { self: this, args };
    held.add(call);
    setTimeout(() => {
      if (held.delete(call) && !loggedAlready(args)) consoleError.apply(call.self, args);
    }, HOLD_ERROR_MS).unref();
  };
  process.on("exit", () => {
    for (const call of held) if (!loggedAlready(call.args)) consoleError.apply(call.self, call.args);
    held.clear();
  });
}

install(process.env);

module.exports = { install, jsonMode, toJsonLine };
