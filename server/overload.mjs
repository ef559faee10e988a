// Preloaded with `node --import ./server/overload.mjs` by the production starts (`npm start`, `npm run start:prod`,
// the Dockerfile's CMD), before the static fast path. Bounds the requests Next works on at once: past
// MAX_IN_FLIGHT_REQUESTS (default 64) a request is answered 503 at once, with Retry-After, instead of queueing.
//
// Why: when requests arrive faster than pages render (a detail page renders ~30 a second on two cores), each
// one waiting holds its render's memory; the backlog grew until the heap limit killed the process and every
// request failed (the search bench, 50 detail pages a second, issue 30). Refusing the excess keeps the server
// answering at the rate it can, with bounded memory, and tells clients and load balancers to come back.
//
// Not counted and never refused: the health and readiness checks (an orchestrator must not restart a busy
// instance), and what the static fast path answers from memory (it runs before this, costs no render).
// MAX_IN_FLIGHT_REQUESTS=0 turns it off.
import http from "node:http";

const MARKER = Symbol.for("agora.overload-preload");
const EXEMPT = new Set(["/api/health", "/api/ready"]);
const MESSAGE = "Agora is busy right now. Please try again in a moment.";
// One log line a second at most while shedding: the count, not a line per refused request.
const LOG_EVERY_MS = 1000;

const limit = parseLimit(process.env.MAX_IN_FLIGHT_REQUESTS);
let inFlight = 0;
let shed = 0;
let lastLog = 0;

if (!globalThis[MARKER] && limit > 0) {
  globalThis[MARKER] = true;
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function emitWithinLimit(event, req, res, ...rest) {
    if (event !== "request" || EXEMPT.has(pathOf(req.url))) return emit.call(this, event, req, res, ...rest);
    if (inFlight >= limit) {
      refuse(req, res);
      return true;
    }
    // Next adds up to ten 'close' listeners to a streamed page's response: one more is expected, not a leak.
    res.setMaxListeners(res.getMaxListeners() + 1);
    let counted = false;
    let closed = false;
    const count = () => {
      if (closed || counted) return;
      counted = true;
      inFlight++;
    };
    res.once("close", () => {
      closed = true;
      if (counted) inFlight--;
    });
    // A request counts once there is work to do: at once without a body, once its body has arrived with one. A
    // client that sends a body slowly (or never finishes it) holds a socket, never one of the limit's places, so
    // a few such connections cannot lock everyone else out.
    if (hasBody(req)) req.once("end", count);
    else count();
    return emit.call(this, event, req, res, ...rest);
  };
}

function parseLimit(value) {
  if (value === undefined || value.trim() === "") return 64;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`MAX_IN_FLIGHT_REQUESTS must be a whole number (0 turns the limit off), not ${JSON.stringify(value)}`);
  return n;
}

function hasBody(req) {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

function pathOf(url = "/") {
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

/** 503 in the shape the proxy answers while the database restarts: JSON-RPC for MCP, a short page for browsers, JSON otherwise. */
function refuse(req, res) {
  shed++;
  const now = Date.now();
  if (now - lastLog >= LOG_EVERY_MS) {
    lastLog = now;
    console.log(JSON.stringify({ level: "warn", time: new Date(now).toISOString(), msg: "overloaded: requests refused", refused: shed, inFlight, limit }));
  }
  const path = pathOf(req.url);
  const wantsHtml = req.method === "GET" && (req.headers.accept ?? "").includes("text/html");
  const body =
    path === "/api/mcp"
      ? JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: MESSAGE }, id: null })
      : wantsHtml
        ? `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Busy — Agora</title></head><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5"><h1>Busy</h1><p>${MESSAGE}</p><p><a href="${path.replace(/[^\w/.-]/g, "")}">Try again</a></p></body></html>`
        : JSON.stringify({ message: MESSAGE });
  res.writeHead(503, {
    "Content-Type": wantsHtml && path !== "/api/mcp" ? "text/html; charset=utf-8" : "application/json",
    "Content-Length": Buffer.byteLength(body),
    "Retry-After": "1",
    "Cache-Control": "no-store",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    // The request's body (if any) is never read: the connection cannot carry another request after it.
    Connection: "close",
  });
  res.end(req.method === "HEAD" ? undefined : body);
}
