// Preloaded with `node --import ./server/graceful-shutdown.mjs` by `npm start` and the production start (docs/production.md,
// Production). On SIGTERM or SIGINT the server stops accepting connections, lets the requests in flight finish
// (at most DRAIN_MS), runs the app's shutdown hooks (lib/shutdown.ts: stop the verification schedule and release
// its lease, close the database pool) and exits 0.
//
// Next's own handler (next/dist/server/lib/start-server.js) also closes the server, but it waits for open
// requests without a bound, knows nothing of the app's lease and pool, and exits 143. NEXT_MANUAL_SIG_HANDLE,
// read when the server has started, turns it off so this one is the only handler.
import http from "node:http";

process.env.NEXT_MANUAL_SIG_HANDLE = "true";

const DRAIN_MS = 10_000;
// Each hook gets this long; a hook that hangs (a database that does not answer) cannot keep the process alive.
const HOOK_MS = 5_000;
const HOOKS = Symbol.for("agora.shutdown-hooks");
const MARKER = Symbol.for("agora.graceful-shutdown-preload");

/** @type {Set<http.Server>} */
const servers = new Set();
let inFlight = 0;
/** @type {(() => void) | undefined} */
let drained;

if (!globalThis[MARKER]) {
  globalThis[MARKER] = true;
  globalThis[HOOKS] ??= [];
  const listen = http.Server.prototype.listen;
  http.Server.prototype.listen = function listenAndTrack(...args) {
    if (!servers.has(this)) {
      servers.add(this);
      this.on("request", countRequest);
    }
    return listen.apply(this, args);
  };
  process.once("SIGTERM", () => void shutDown("SIGTERM"));
  process.once("SIGINT", () => void shutDown("SIGINT"));
}

function countRequest(_req, res) {
  inFlight++;
  // Next itself adds up to ten 'close' listeners to a streamed page's response: one more is expected, not a leak.
  res.setMaxListeners(res.getMaxListeners() + 1);
  res.once("close", () => {
    inFlight--;
    if (inFlight === 0) drained?.();
  });
}

// The app's log shape (lib/log.ts), which this plain module cannot import.
function log(level, msg, fields = {}) {
  const line = JSON.stringify({ level, time: new Date().toISOString(), msg, ...fields });
  if (level === "error") console.error(line);
  else console.log(line);
}

async function shutDown(signal) {
  const started = Date.now();
  log("info", "shutting down", { signal, inFlight });
  // close() stops accepting and drops idle keep-alive connections; busy ones finish their request first.
  for (const server of servers) server.close();
  if (inFlight > 0) {
    await Promise.race([new Promise((resolve) => (drained = resolve)), sleep(DRAIN_MS)]);
  }
  const unfinished = inFlight;
  for (const server of servers) server.closeAllConnections();
  let failed = false;
  // Last added first: what the app opened first (the database) is what the later hooks still use.
  for (const { name, run } of [...globalThis[HOOKS]].reverse()) {
    try {
      await Promise.race([run(), sleep(HOOK_MS).then(() => Promise.reject(new Error(`did not finish in ${HOOK_MS} ms`)))]);
    } catch (error) {
      failed = true;
      log("error", `shutdown hook ${name} failed`, { error: String(error) });
    }
  }
  log("info", "shut down", { signal, unfinishedRequests: unfinished, ms: Date.now() - started });
  process.exit(failed ? 1 : 0);
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
