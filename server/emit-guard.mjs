// The boundary every preload's wrapper of http.Server's emit runs inside. A preload reads what a client wrote
// (the request line, the headers) before Next does; whatever it gets wrong about a hostile spelling must not
// escape as an uncaught exception: thrown from a 'request' listener, it left the request unanswered, its socket
// held with no timeout, and a stack in the log for each one. Here a fault answers the request plainly (500, or
// the socket is closed when the answer had begun) and logs one line a second at most, without a stack.
import { answerPlain, log } from "./plain-answer.mjs";

const LOG_EVERY_MS = 1000;
const faults = {};
let lastLog = 0;

/** `wrapper` (an emit replacement), made safe: a fault while handling a request answers it instead of escaping. */
export function guardEmit(preload, wrapper) {
  return function guardedEmit(event, req, res, ...rest) {
    try {
      return wrapper.call(this, event, req, res, ...rest);
    } catch (error) {
      if (!req || typeof req !== "object" || !("headers" in req)) throw error;
      answerFault(preload, event, req, res, error);
      return true;
    }
  };
}

function answerFault(preload, event, req, res, error) {
  const key = `${preload}: ${error instanceof Error ? error.message : String(error)}`;
  faults[key] = (faults[key] ?? 0) + 1;
  const now = Date.now();
  if (now - lastLog >= LOG_EVERY_MS) {
    lastLog = now;
    log("error", "a request could not be handled before the app", {
      preload,
      event,
      error: key,
      faults: { ...faults },
    });
  }
  try {
    // 'upgrade' hands over the socket, not a response.
    if (res && typeof res.writeHead === "function" && !res.headersSent) {
      req.resume();
      answerPlain(req, res, {
        code: "internal_error",
        message: "This request could not be handled. Please try again.",
      });
    } else {
      (res?.socket ?? res ?? req.socket)?.destroy?.();
    }
  } catch {
    req.socket?.destroy();
  }
}
