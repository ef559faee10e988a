// Preloaded with `node --import ./server/client-address.mjs` for `next start` and `next dev` (see package.json).
//
// Next's route handlers and server actions never see the TCP peer's address, and Next only fills in
// X-Forwarded-For when the client did not send one, so a header is all the app can read. This wraps every
// http.Server's request events so that, before Next sees a request, the internal header below holds the
// socket's remote address and nothing the client sent under that name survives. lib/http.ts clientIp()
// reads only this header (and X-Forwarded-For only when TRUSTED_PROXY_HOPS says a proxy wrote it).
import http from "node:http";
import https from "node:https";

export const CLIENT_ADDRESS_HEADER = "x-agora-client-address";
const MARKER = Symbol.for("agora.client-address-preload");

if (!globalThis[MARKER]) {
  globalThis[MARKER] = true;
  // 'checkContinue' and 'checkExpectation' replace 'request' for Expect: headers; 'upgrade' carries websockets.
  const REQUEST_EVENTS = new Set(["request", "checkContinue", "checkExpectation", "upgrade"]);
  // https.Server does not inherit from http.Server (`next dev --experimental-https`), so both are wrapped.
  for (const Server of [http.Server, https.Server]) {
    const emit = Server.prototype.emit;
    Server.prototype.emit = function emitWithClientAddress(event, req, ...rest) {
      if (REQUEST_EVENTS.has(event) && req && req.headers) stampClientAddress(req);
      return emit.call(this, event, req, ...rest);
    };
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
