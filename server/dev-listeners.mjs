// Preloaded with `node --import ./server/dev-listeners.mjs` by the development starts (`npm run dev` and the
// sandbox's site, both `next dev`); never by a production start. Every request through `next dev` gets 8 'close'
// listeners on its response, none of them Agora's (the router's and the proxy's abort signals, the dev server's
// own, the render's). A path that matches nothing is routed a second time to
// render the not-found page, and each pass adds its listeners again: 11 on that one response, so Node's default
// limit of ten printed "MaxListenersExceededWarning: … 11 close listeners added to [ServerResponse]" at the first
// miss (a mistyped guide, a browser's icon request). Nothing leaks: each response's listeners go with it, and MCP
// calls (8 each) never add to another call's response. The production starts get the same headroom from
// server/overload.mjs and server/graceful-shutdown.mjs.
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
      if (event === "request" && res && typeof res.setMaxListeners === "function")
        res.setMaxListeners(res.getMaxListeners() + DEV_RESPONSE_HEADROOM);
      return emit.call(this, event, req, res, ...rest);
    });
  }
}
