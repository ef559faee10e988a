// Requests Next mishandles, answered or straightened before it sees them (called first by server/overload.mjs, so
// every production start has it). What Next did before:
// - a method no route serves (TRACE, and any other Node parses) made Next's proxy throw "'TRACE' HTTP method is
//   unsupported": a 500 and a stack on every route. They are answered 405 with the methods the site serves;
// - a path with a percent-encoded letter (`/%72egister`, `/api/%68ealth`) made Next's router match the decoded
//   route and its renderer refuse the encoded one until "Attempted to handle request too many times": a 500 and
//   a stack. Escapes of unreserved characters (letters, digits, - _ ~; not the dot) are decoded first: RFC 3986 (6.2.2.2)
//   makes both spellings the same address. Any other escape that would make a static route of the build once
//   decoded (`/api%2Fhealth`) is not that route: 404;
// - a client that closes the connection before its request body has arrived made Next log "Error: aborted" with a
//   stack (the proxy's copy of the body fails). That is the client leaving, not a fault: counted instead, one log
//   line a second at most;
// - a path no URL parser can read as one (`//a%2541` is a host to `new URL`, `%C0%AF` no UTF-8), and a request
//   target that is no path (`*`), are answered 400 before anything else reads them; the absolute form
//   (`GET http://host/path`) is read as its path.
import fs from "node:fs";
import path from "node:path";
import { answerPlain, log } from "./plain-answer.mjs";

/** The methods the site's pages and route handlers serve. */
const SERVED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const SERVED = new Set(SERVED_METHODS);
// Letters, digits, - _ ~; not the dot, whose decoding could make `..` segments out of an escaped spelling.
const UNRESERVED_ESCAPE = /%(2[dD]|3[0-9]|[46][1-9a-fA-F]|[57][0-9aA]|5[fF]|7[eE])/g;
const LOG_EVERY_MS = 1000;

const staticRoutes = loadStaticRoutes(process.cwd());

/** Answers the request (405, 404) or straightens its path; true when it was answered. */
export function screenRequest(req, res) {
  if (!SERVED.has(req.method)) {
    req.resume();
    answerPlain(req, res, {
      code: "method_not_allowed",
      message: `${req.method} is not served here.`,
      headers: { Allow: SERVED_METHODS.join(", ") },
    });
    return true;
  }
  if (!(req.url ?? "/").startsWith("/") && !toOriginForm(req)) {
    req.resume();
    answerPlain(req, res, { code: "invalid_address", message: "This address cannot be read." });
    return true;
  }
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  const pathname = q === -1 ? url : url.slice(0, q);
  if (!pathname.includes("%")) return false;
  const straight = pathname.replace(UNRESERVED_ESCAPE, (escape) => String.fromCharCode(parseInt(escape.slice(1), 16)));
  if (straight !== pathname) req.url = straight + (q === -1 ? "" : url.slice(q));
  // As Next's router will see it: dot segments resolved (`%2e%2e` is `..` to a URL parser), then decoded. Joined
  // to an origin rather than resolved against one: `//a%2541` is then a path, not a host.
  const resolved = pathnameOf(straight);
  if (resolved === null || decoded(resolved) === null) {
    req.resume();
    // The proxy's words for the same fault (proxy.ts), so a client sees one message whichever layer answers.
    answerPlain(req, res, { code: "invalid_address", message: "The address contains malformed percent-encoding." });
    return true;
  }
  if (resolved.includes("%") && isStaticRoute(decoded(resolved))) {
    req.resume();
    answerPlain(req, res, { code: "not_found", message: "There is nothing at this address." });
    return true;
  }
  return false;
}

/**
 * A request target that is not a path: the absolute form (`GET http://host/path`, which HTTP/1.1 servers must
 * accept) becomes its path and query; anything else (`*`, a bare word) is not an address here. Next answered both
 * with a 500.
 */
function toOriginForm(req) {
  if (!/^https?:\/\//i.test(req.url)) return false;
  try {
    const url = new URL(req.url);
    req.url = url.pathname + url.search;
    return true;
  } catch {
    return false;
  }
}

/** The path as a URL parser reads it, or null when it cannot (an origin-form path should always parse). */
function pathnameOf(pathname) {
  if (!pathname.startsWith("/")) return null;
  try {
    return new URL(`http://localhost${pathname}`).pathname;
  } catch {
    return null;
  }
}

/** The path decoded, or null when an escape is not one (`%zz`, a lone `%`) or the bytes are not UTF-8 (`%C0%AF`). */
function decoded(pathname) {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return null;
  }
}

function isStaticRoute(pathname) {
  return staticRoutes.some((route) => route.test(pathname));
}

/** The build's static routes (`.next/routes-manifest.json`), as Next matches them; none without a build. */
function loadStaticRoutes(dir) {
  try {
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, ".next", "routes-manifest.json"), "utf8"));
    return (manifest.staticRoutes ?? []).map((route) => new RegExp(route.regex));
  } catch {
    return [];
  }
}

// Node's own error for a request whose client went away before the body arrived (node:_http_server abortIncoming).
const isClientAbort = (value) => value instanceof Error && value.message === "aborted" && value.code === "ECONNRESET";
let aborted = 0;
let lastLog = 0;
const error = console.error;
console.error = function errorUnlessClientLeft(...args) {
  if (args.length !== 1 || !isClientAbort(args[0])) return error.apply(this, args);
  aborted++;
  const now = Date.now();
  if (now - lastLog >= LOG_EVERY_MS) {
    lastLog = now;
    log("info", "clients left before their request body arrived", { count: aborted });
  }
};
