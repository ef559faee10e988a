// Preloaded with `node --import ./server/graceful-shutdown.mjs` by `npm start` and the production start (docs/production.md,
// Production). On SIGTERM or SIGINT the server answers every request it had accepted, then runs the app's shutdown
// hooks (lib/shutdown.ts: stop the verification schedule and release its lease, close the database pool) and exits.
//
// Answering what was accepted means (an instance going away must cost its clients a retry, never a reset):
// - requests are counted from the moment they arrive, before any other preload sees them: a sign-in waiting in the
//   sign-in door (server/overload.mjs) is one too, though Next has not seen it yet;
// - the listening socket stays open while the requests in flight finish (at most DRAIN_MS), and then until no
//   connection has arrived for QUIET_MS (at most ACCEPT_MS more): closing it at the signal reset every connection
//   the kernel had accepted and a busy event loop had not yet taken (under load, dozens). Every request that
//   arrives after the signal, on such a connection, a new one or a kept-alive one, is answered 503 with Retry-After
//   and Connection: close, and every answer still to be written closes its connection after it;
// - a request still unanswered after DRAIN_MS is answered 503 before its connection is closed. Only an answer
//   already being streamed is cut (logged, exit status 1).
// The hooks each get HOOK_MS; one that does not finish in time (a database that does not answer) is logged as a
// warning and abandoned: every request was answered, and exiting closes its connections (PostgreSQL rolls back
// whatever was not committed), so the exit status is still 0. A hook that fails with an error exits 1.
//
// Next's own handler (next/dist/server/lib/start-server.js) also closes the server, but it waits for open
// requests without a bound, knows nothing of the app's lease and pool, and exits 143. NEXT_MANUAL_SIG_HANDLE,
// read when the server has started, turns it off so this one is the only handler.
import http from "node:http";
import net from "node:net";
import { guardEmit } from "./emit-guard.mjs";
import { answerPlain, log } from "./plain-answer.mjs";

process.env.NEXT_MANUAL_SIG_HANDLE = "true";

const DRAIN_MS = 10_000;
// Longer than the database driver's own bound on closing (db/connect.ts: 5 s, then it ends the connections).
const HOOK_MS = 8_000;
// How long the last answers (503s) get to leave before every connection is closed.
const FLUSH_MS = 1_000;
// After the drain, the listening socket closes once no connection has arrived for QUIET_MS (ACCEPT_MS at most).
const QUIET_MS = 100;
const ACCEPT_MS = 2_000;
const HOOKS = Symbol.for("agora.shutdown-hooks");
const MARKER = Symbol.for("agora.graceful-shutdown-preload");
const MESSAGE = "This server is restarting. Please try again in a moment.";

/** @type {Set<http.Server>} */
const servers = new Set();
/** Responses of the requests accepted and not yet answered. @type {Set<http.ServerResponse>} */
const open = new Set();
let shuttingDown = false;
let lastConnection = 0;
/** @type {(() => void) | undefined} */
let drained;

if (!globalThis[MARKER]) {
  globalThis[MARKER] = true;
  globalThis[HOOKS] ??= [];
  const listen = http.Server.prototype.listen;
  http.Server.prototype.listen = function listenAndTrack(...args) {
    if (!servers.has(this)) {
      servers.add(this);
      countRequests(this);
    }
    return listen.apply(this, args);
  };
  process.once("SIGTERM", () => void shutDown("SIGTERM"));
  process.once("SIGINT", () => void shutDown("SIGINT"));
}

/**
 * Counts the server's requests as they arrive. An own emit, set when the server listens (after every preload has
 * wrapped the prototype's), so it sees each request before any of them: those another preload answers or holds too.
 */
function countRequests(server) {
  const proto = Object.getPrototypeOf(server);
  server.on("connection", () => (lastConnection = performance.now()));
  server.emit = guardEmit("graceful-shutdown", function emitCounted(event, req, res, ...rest) {
    if (event !== "request") return proto.emit.call(this, event, req, res, ...rest);
    if (shuttingDown) {
      req.resume();
      answerPlain(req, res, { code: "restarting", message: MESSAGE, headers: { "Retry-After": "2" } });
      return true;
    }
    open.add(res);
    // Next itself adds up to ten 'close' listeners to a streamed page's response: one more is expected, not a leak.
    res.setMaxListeners(res.getMaxListeners() + 1);
    res.once("close", () => {
      open.delete(res);
      if (open.size === 0) drained?.();
    });
    return proto.emit.call(this, event, req, res, ...rest);
  });
}

async function shutDown(signal) {
  const started = performance.now();
  shuttingDown = true;
  log("info", "shutting down", { signal, inFlight: open.size });
  // Each answer still to be written closes its connection: the client sends its next request elsewhere.
  for (const res of open) if (!res.headersSent) res.setHeader("Connection", "close");
  if (open.size > 0) await Promise.race([new Promise((resolve) => (drained = resolve)), sleep(DRAIN_MS)]);
  // Takes what the kernel had accepted before closing the listening socket (net's close: connections stay open).
  const accepting = performance.now();
  do await sleep(QUIET_MS / 4);
  while (performance.now() - lastConnection < QUIET_MS && performance.now() - accepting < ACCEPT_MS);
  const closed = [...servers].map(
    (server) => new Promise((resolve) => net.Server.prototype.close.call(server, () => resolve())),
  );
  let cut = 0;
  for (const res of [...open]) {
    if (res.headersSent) cut++;
    else answerLate(res);
  }
  // Kept-alive connections with no request close now; the rest after their answer (Connection: close).
  for (const server of servers) server.closeIdleConnections();
  await Promise.race([Promise.all(closed), sleep(FLUSH_MS)]);
  for (const server of servers) server.closeAllConnections();
  let failed = cut > 0;
  // Last added first: what the app opened first (the database) is what the later hooks still use.
  for (const { name, run } of [...globalThis[HOOKS]].reverse()) {
    const outcome = await Promise.race([
      Promise.resolve()
        .then(run)
        .then(
          () => "done",
          (error) => error,
        ),
      sleep(HOOK_MS).then(() => "late"),
    ]);
    if (outcome === "late") log("warn", `shutdown hook ${name} did not finish in ${HOOK_MS} ms; left to the exit`);
    else if (outcome !== "done") {
      failed = true;
      log("error", `shutdown hook ${name} failed`, { error: String(outcome) });
    }
  }
  log("info", "shut down", { signal, cutAnswers: cut, ms: Math.round(performance.now() - started) });
  process.exit(failed ? 1 : 0);
}

/** A request still unanswered when the drain ran out: 503, so its client retries rather than sees a reset. */
function answerLate(res) {
  const req = res.req;
  // Whatever the app still writes to this answer goes nowhere; its error must not become an uncaught exception.
  res.on("error", () => {});
  try {
    req.resume();
    answerPlain(req, res, { code: "restarting", message: MESSAGE, headers: { "Retry-After": "2" } });
  } catch {
    res.destroy();
  }
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
