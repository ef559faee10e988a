// Preloaded with `node --import ./server/dev-listeners.mjs` by the development starts (`npm run dev` and the
// sandbox's site, both `next dev`); never by a production start. Next adds up to ten 'close' listeners to a streamed
// response (compression, the stream writers, the request's abort signal), and its development server more of its
// own, so Node's default limit of ten printed "MaxListenersExceededWarning: … 11 close listeners added to
// [ServerResponse]" after a few requests, though nothing leaks: each response's listeners go with it. The production
// starts get the same headroom from server/overload.mjs and server/graceful-shutdown.mjs.
import http from "node:http";
import https from "node:https";
import { guardEmit } from "./emit-guard.mjs";

const MARKER = Symbol.for("agora.dev-listeners-preload");
/** Listeners a response may carry beyond Node's default before a warning means something. */
const DEV_RESPONSE_HEADROOM = 10;

if (!globalThis[MARKER]) {
  globalThis[MARKER] = true;
  for (const Server of [http.Server, https.Server]) {
    const emit = Server.prototype.emit;
    Server.prototype.emit = guardEmit("dev-listeners", function emitWithHeadroom(event, req, res, ...rest) {
      if (event === "request" && res && typeof res.setMaxListeners === "function") res.setMaxListeners(res.getMaxListeners() + DEV_RESPONSE_HEADROOM);
      return emit.call(this, event, req, res, ...rest);
    });
  }
}
