// Preloaded with `node --import ./server/client-address.mjs` for `next start` and `next dev` (see package.json).
//
// Next's route handlers and server actions never see the TCP peer's address, and Next only fills in
// X-Forwarded-For when the client did not send one, so a header is all the app can read. This wraps every
// http.Server's request events so that, before Next sees a request, the internal header below holds the
// socket's remote address and nothing the client sent under that name survives. lib/http/client-address.ts clientIp()
// reads only this header (and X-Forwarded-For only when TRUSTED_PROXY_HOPS says a proxy wrote it).
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { guardEmit } from "./emit-guard.mjs";

export const CLIENT_ADDRESS_HEADER = "x-agora-client-address";
const MARKER = Symbol.for("agora.client-address-preload");

if (!globalThis[MARKER]) {
  globalThis[MARKER] = true;
  // 'checkContinue' and 'checkExpectation' replace 'request' for Expect: headers; 'upgrade' carries websockets.
  const REQUEST_EVENTS = new Set(["request", "checkContinue", "checkExpectation", "upgrade"]);
  // https.Server does not inherit from http.Server (`next dev --experimental-https`), so both are wrapped.
  for (const Server of [http.Server, https.Server]) {
    const emit = Server.prototype.emit;
    Server.prototype.emit = guardEmit("client-address", function emitWithClientAddress(event, req, ...rest) {
      if (REQUEST_EVENTS.has(event) && req && req.headers) stampClientAddress(req);
      return emit.call(this, event, req, ...rest);
    });
  }
}

/** Replaces any client-sent copy of the header with the connection's own remote address. */
function stampClientAddress(req) {
  const raw = req.rawHeaders;
  if (Array.isArray(raw)) {
    for (let i = raw.length - 2; i >= 0; i -= 2) {
      if (String(raw[i]).toLowerCase() === CLIENT_ADDRESS_HEADER) raw.splice(i, 2);
    }
  }
  delete req.headers[CLIENT_ADDRESS_HEADER];
  const address = req.socket?.remoteAddress;
  if (address) {
    req.headers[CLIENT_ADDRESS_HEADER] = address;
    if (Array.isArray(raw)) raw.push(CLIENT_ADDRESS_HEADER, address);
  }
}

/**
 * The client a request counts against (server/overload.mjs), read as lib/http/client-address.ts clientIp() reads it: the TCP
 * peer, or behind TRUSTED_PROXY_HOPS proxies the entry the outermost trusted one appended to X-Forwarded-For
 * (counted from the right: what a client writes further left never counts). IPv6 clients count per /64, the block
 * one customer holds; "unknown" when there is no address at all.
 */
export function clientKey(req) {
  const peer = normalizeIp(req.socket?.remoteAddress);
  const hops = proxyHops();
  let address = peer;
  if (hops > 0) {
    const chain = String(req.headers["x-forwarded-for"] ?? "")
      .split(",")
      .map((part) => part.trim())
      .filter(Boolean);
    const entry = chain.length > 0 ? normalizeIp(chain[Math.max(0, chain.length - hops)]) : undefined;
    if (entry) address = entry;
  }
  return address ? blockOf(address) : "unknown";
}

let hopsRead;
function proxyHops() {
  if (hopsRead === undefined) {
    const n = Number(process.env.TRUSTED_PROXY_HOPS ?? 0);
    hopsRead = Number.isInteger(n) && n >= 0 && n <= 10 ? n : 0;
  }
  return hopsRead;
}

/** A bare IP address (IPv4-mapped IPv6 as IPv4), or undefined: lib/http/client-address.ts normalizeIp. */
function normalizeIp(value) {
  if (!value) return undefined;
  let ip = String(value).trim().slice(0, 64);
  if (ip.startsWith("[") && ip.includes("]")) ip = ip.slice(1, ip.indexOf("]"));
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) ip = mapped[1];
  const version = isIP(ip);
  if (version === 0) return undefined;
  return version === 6 ? ip.toLowerCase() : ip;
}

/** An IPv4 address as it is; an IPv6 one as its /64 (lib/rate-limit.ts counts the same way). */
function blockOf(address) {
  if (isIP(address) !== 6 || address.includes(".")) return address;
  const [head, tail] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const fill = tail === undefined ? [] : Array(8 - left.length - right.length).fill("0");
  const groups = [...left, ...fill, ...right].map((g) => g.replace(/^0+(?=.)/, ""));
  return `${groups.slice(0, 4).join(":")}::/64`;
}
