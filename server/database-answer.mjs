// Loaded by server/overload.mjs (so by every production start: `npm start`, `npm run start:prod`, the image). A
// response Next is about to send as a 500 while the database has just been unreachable is sent as the 503 with
// Retry-After the proxy's database gate gives, instead.
//
// Why: the gate (proxy.ts, db/health.ts) closes only when a ping cannot reach the database. When the database's
// connections are terminated (pg_terminate_backend, a fail-over) the server itself answers pings, so the gate
// stays open, and each request that meets a dead connection fails on its own: route handlers, the MCP endpoint and
// server actions classify that failure as "unavailable" (lib/errors.ts), but a page that fails while rendering can
// only throw, and Next answers a page that threw with 500. Only here, where the answer is written, can its status
// still change. The app notes every query that failed for want of a connection (db/health.ts, lastUnavailableAt);
// a 500 within RECENT_MS of such a failure is taken to be one (a request's failure is written within milliseconds
// of its query's), and a genuine bug that happens to fail within that window is answered 503 too: the client
// retries it, and the log still has its stack.
import http from "node:http";
import { log, plainResponse } from "./plain-answer.mjs";

const MARKER = Symbol.for("agora.database-answer");
const TAKEN = Symbol("agora.database-answer.taken");
const RECENT_MS = 10_000;
// The proxy's and lib/errors.ts's own: the client comes back once the pool has new connections.
const RETRY_AFTER = "5";
const MESSAGE = "Agora is briefly unavailable while its database reconnects. Please try again in a few seconds.";

/** Whether the app's last "database unreachable" query failure was within RECENT_MS. */
function databaseJustFailed() {
  const at = globalThis[Symbol.for("agora.db-health")]?.lastUnavailableAt ?? 0;
  return Date.now() - at < RECENT_MS;
}

export function installDatabaseAnswer() {
  if (globalThis[MARKER]) return;
  globalThis[MARKER] = true;
  const proto = http.ServerResponse.prototype;
  const { writeHead, write, end } = proto;

  // Next either sets statusCode and writes (the head goes out with the first write or end) or calls writeHead(500,
  // headers) first: the latter is held until its first write or end, where the 503 replaces it.
  proto.writeHead = function writeHeadUnlessUnavailable(status, ...rest) {
    if (status === 500 && !this.headersSent && databaseJustFailed()) {
      this.statusCode = 500;
      this[TAKEN] = "held";
      return this;
    }
    return writeHead.call(this, status, ...rest);
  };
  proto.write = function writeUnlessUnavailable(...args) {
    if (takeOver(this)) return true;
    return write.apply(this, args);
  };
  proto.end = function endUnlessUnavailable(...args) {
    if (takeOver(this)) {
      const callback = args.find((a) => typeof a === "function");
      if (callback) this.once("finish", callback);
      return this;
    }
    return end.apply(this, args);
  };

  /** Sends the 503 in place of the 500 (once); true when this response is, or was, answered so. */
  function takeOver(res) {
    if (res[TAKEN] === "answered") return true;
    if (res.headersSent || !res.req) return false;
    if (res[TAKEN] !== "held" && !(res.statusCode === 500 && databaseJustFailed())) return false;
    res[TAKEN] = "answered";
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    const answer = plainResponse(res.req, {
      code: "unavailable",
      message: MESSAGE,
      retry: true,
      headers: { "Retry-After": RETRY_AFTER },
    });
    writeHead.call(res, answer.status, answer.headers);
    end.call(res, answer.body);
    log("warn", "answered 503: the database was unreachable", {
      method: res.req.method,
      path: res.req.url?.split("?")[0],
    });
    return true;
  }
}
