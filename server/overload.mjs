// Preloaded with `node --import ./server/overload.mjs` by the production starts (`npm start`, `npm run start:prod`,
// the Dockerfile's CMD), before the static fast path. Bounds what Next works on at once: past a bound, a request
// is answered 503 at once, with Retry-After, instead of queueing.
//
// Why: when requests arrive faster than pages render (a detail page renders ~30 a second on two cores), each
// one waiting holds its render's memory; the backlog grew until the heap limit killed the process and every
// request failed (the search bench, 50 detail pages a second). Refusing the excess keeps the server
// answering at the rate it can, with bounded memory, and tells clients and load balancers to come back.
//
// The bounds (no single kind of slow work, and no single client, can take every place):
// - MAX_IN_FLIGHT_REQUESTS (default 64) places for everything Next works on, counted from the moment a request
//   arrives, body or not (a GET with a 1-byte body was never counted: 1,000 of them exhausted the heap);
// - of those, renders (pages) and API calls may each hold at most three quarters (renders also no more than the
//   memory plan's RENDER_PLACES, server/memory-budget.mjs), and requests whose body is still
//   arriving at most half; a body must arrive within REQUEST_BODY_TIMEOUT_SECONDS (default 15) or the connection
//   is closed (a slow upload holds a place for that long at most);
// - MAX_IN_FLIGHT_PER_CLIENT (default 16) at once per client: its address as lib/http/client-address.ts reads it, an IPv6
//   client per /64 (server/client-address.mjs); no header a client writes changes it;
// - sign-ins (the password checks: JSON sign-in, registration, password reset, Auth.js credentials, and the
//   server actions that check a password, whatever page they are posted to) have MAX_IN_FLIGHT_SIGN_INS (default 8)
//   places of their own, queued fairly before Next (server/sign-in-door.mjs), taken from no one else. Next runs an
//   action posted to any page, so the door knows one by its id (server/sign-in-actions.mjs), not by the page, and
//   hands it to a page that has it (Next would forward it there over HTTP while the first request held a render
//   place); the password hashing itself (lib/auth/hash-slots.ts) refuses a check that did not come through the door.
// Not counted and never refused: the health and readiness checks (an orchestrator must not restart a busy
// instance), and what the static fast path answers from memory (it runs before this, costs no render). Requests
// no route serves are answered first (server/request-hygiene.mjs). MAX_IN_FLIGHT_REQUESTS=0 turns the bounds off.
import { AsyncLocalStorage } from "node:async_hooks";
import http from "node:http";
import { clientKey } from "./client-address.mjs";
import { installDatabaseAnswer } from "./database-answer.mjs";
import { guardEmit } from "./emit-guard.mjs";
import { RENDER_PLACES } from "./memory-budget.mjs";
import { answerPlain, log, pathOf } from "./plain-answer.mjs";
import { screenRequest } from "./request-hygiene.mjs";
import { signInActions } from "./sign-in-actions.mjs";
import { createSignInDoor } from "./sign-in-door.mjs";

const MARKER = Symbol.for("agora.overload-preload");
const EXEMPT = new Set(["/api/health", "/api/ready"]);
const MESSAGE = "Agora is busy right now. Please try again in a moment.";
const SIGN_IN_MESSAGE = "Too many sign-ins are being checked right now. Please try again in a moment.";
// Route handlers that check a password, and the pages whose server actions do (a POST with Next-Action).
const SIGN_IN_ROUTES = new Set([
  "/api/auth/login",
  "/api/auth/register",
  "/api/auth/reset-password",
  "/api/nextauth/callback/password",
]);
const SIGN_IN_PAGES = new Set(["/login", "/login/email", "/register", "/reset-password"]);
// The server actions that check a password (id → the paths of the pages that have it), read from the build:
// posted to any page, they are sign-ins.
const SIGN_IN_ACTIONS = signInActions(process.cwd());
// Whether the work running now came in through the door: lib/auth/hash-slots.ts asks before hashing a password.
const DOOR = Symbol.for("agora.sign-in-door");
const throughDoor = new AsyncLocalStorage();
// One log line a second at most while shedding: the counts, not a line per refused request.
const LOG_EVERY_MS = 1000;

const limit = parseCount("MAX_IN_FLIGHT_REQUESTS", 64);
const perClient = parseCount("MAX_IN_FLIGHT_PER_CLIENT", 16);
const signInPlaces = parseCount("MAX_IN_FLIGHT_SIGN_INS", 8);
const bodyTimeoutMs = parseCount("REQUEST_BODY_TIMEOUT_SECONDS", 15) * 1000;
// Renders also fit the memory plan: each holds its working memory until its answer is sent (server/memory-budget.mjs).
const shares = {
  render: Math.max(1, Math.min(Math.floor((limit * 3) / 4), RENDER_PLACES)),
  api: Math.max(1, Math.floor((limit * 3) / 4)),
  upload: Math.max(1, Math.floor(limit / 2)),
};

let inFlight = 0;
const byKind = { render: 0, api: 0, upload: 0 };
const byClient = new Map();
const refused = {};
let lastLog = 0;

const door = createSignInDoor({
  places: signInPlaces,
  canStart: (key) => perClient === 0 || (byClient.get(key) ?? 0) < perClient,
  start: ({ server, key, req, res, rest }) => {
    holdClient(key, res);
    throughDoor.run(true, () => server[MARKER].call(server, "request", req, res, ...rest));
  },
  refuse: ({ req, res }) => refuse(req, res, "sign-ins", "busy", SIGN_IN_MESSAGE, "2"),
});

// A page that fails on a lost database connection answers 503, not 500 (server/database-answer.mjs); here so that
// every start that bounds requests (all production ones) loads it, whatever MAX_IN_FLIGHT_REQUESTS says.
installDatabaseAnswer();

if (!globalThis[MARKER]) {
  globalThis[MARKER] = true;
  if (limit > 0) globalThis[DOOR] = { entered: () => throughDoor.getStore() === true };
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = guardEmit("overload", function emitWithinLimits(event, req, res, ...rest) {
    if (event !== "request") return emit.call(this, event, req, res, ...rest);
    if (screenRequest(req, res)) return true;
    if (limit === 0 || EXEMPT.has(pathOf(req.url))) return emit.call(this, event, req, res, ...rest);
    // Next adds up to ten 'close' listeners to a streamed page's response: a few more are expected, not a leak.
    res.setMaxListeners(res.getMaxListeners() + 4);
    const key = clientKey(req);
    if (isSignIn(req)) {
      toOwnPage(req);
      this[MARKER] ??= emit;
      door.admit({ server: this, key, req, res, rest });
      return true;
    }
    const kind = hasBody(req) ? "upload" : isApi(pathOf(req.url)) ? "api" : "render";
    const full = refusal(kind, key);
    if (full) {
      refuse(req, res, full, "overloaded", MESSAGE, "1");
      return true;
    }
    hold(kind, key, req, res);
    return emit.call(this, event, req, res, ...rest);
  });
}

/** Why a request of `kind` from `key` cannot have a place now, or null when it can. */
function refusal(kind, key) {
  if (inFlight >= limit) return "busy";
  if (byKind[kind] >= shares[kind]) return kind;
  if (perClient > 0 && (byClient.get(key) ?? 0) >= perClient) return "client";
  return null;
}

function hold(kind, key, req, res) {
  inFlight++;
  byKind[kind]++;
  holdClient(key, res);
  let current = kind;
  let timer;
  let closed = false;
  if (kind === "upload") {
    // Once the body is in, the request is the work it asked for; until then a slow sender gets bodyTimeoutMs.
    // (A body nobody read is drained after the answer: its end may come after the close, and changes nothing then.)
    req.once("end", () => {
      clearTimeout(timer);
      if (closed) return;
      byKind[current]--;
      current = isApi(pathOf(req.url)) ? "api" : "render";
      byKind[current]++;
    });
    if (bodyTimeoutMs > 0) {
      timer = setTimeout(() => {
        if (!req.complete) req.socket?.destroy();
      }, bodyTimeoutMs);
      timer.unref();
    }
  }
  res.once("close", () => {
    closed = true;
    clearTimeout(timer);
    inFlight--;
    byKind[current]--;
  });
}

function holdClient(key, res) {
  byClient.set(key, (byClient.get(key) ?? 0) + 1);
  res.once("close", () => {
    const n = byClient.get(key) - 1;
    if (n > 0) byClient.set(key, n);
    else byClient.delete(key);
  });
}

function isSignIn(req) {
  if (req.method !== "POST") return false;
  const path = pathOf(req.url);
  const action = req.headers["next-action"];
  if (action !== undefined && (SIGN_IN_PAGES.has(path) || (!isApi(path) && SIGN_IN_ACTIONS.has(String(action).trim()))))
    return true;
  return SIGN_IN_ROUTES.has(path);
}

/**
 * A password-checking action posted to a page that does not have it goes to one that does: Next would otherwise
 * forward it there over HTTP, a second request counted against the server's own address while the first holds
 * its place (server/sign-in-actions.mjs).
 */
function toOwnPage(req) {
  const pages =
    req.headers["next-action"] === undefined
      ? undefined
      : SIGN_IN_ACTIONS.get(String(req.headers["next-action"]).trim());
  if (!pages || pages.length === 0) return;
  const path = pathOf(req.url);
  if (!pages.includes(path)) req.url = pages[0] + req.url.slice(path.length);
}

function isApi(path) {
  return (
    path.startsWith("/api/") ||
    path.startsWith("/v0/") ||
    path.startsWith("/v0.1/") ||
    path === "/v0" ||
    path === "/v0.1"
  );
}

function hasBody(req) {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

function parseCount(name, fallback) {
  const value = process.env[name];
  if (value === undefined || value.trim() === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`${name} must be a whole number (0 turns it off), not ${JSON.stringify(value)}`);
  return n;
}

/** 503 with Retry-After (`busy` for a sign-in, `overloaded` otherwise), counted by reason (one log line a second at most). */
function refuse(req, res, reason, code, message, retryAfter) {
  refused[reason] = (refused[reason] ?? 0) + 1;
  const now = Date.now();
  if (now - lastLog >= LOG_EVERY_MS) {
    lastLog = now;
    const total = Object.values(refused).reduce((a, b) => a + b, 0);
    log("warn", "overloaded: requests refused", {
      refused: total,
      byReason: { ...refused },
      inFlight,
      limit,
      signIns: door.running,
      signInsWaiting: door.waiting,
    });
  }
  answerPlain(req, res, { code, message, retry: true, headers: { "Retry-After": retryAfter } });
}
