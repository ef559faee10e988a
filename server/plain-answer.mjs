// The short answers given before a route handler runs: by the preloads before Next sees a request (overload.mjs,
// request-hygiene.mjs, graceful-shutdown.mjs, database-answer.mjs, emit-guard.mjs) and by the proxy
// (lib/http/plain-answer.ts), which imports this file so that both speak alike: a JSON-RPC error on /api/mcp (the
// code as `error.data.code`), a short page for a browser asking for HTML, JSON `{code, message}` otherwise; never
// cached, and with the site's security headers. Plain JavaScript: `node --import` loads the preloads without a build.

/**
 * Every code these answers carry, with its status and the title of a browser's page. The same codes, with the same
 * statuses, are in lib/errors.ts (which cannot be imported here); tests/unit/plain-answer.test.ts checks both agree.
 */
export const PLAIN_CODES = {
  invalid_address: { status: 400, title: "Bad request" },
  invalid_form: { status: 400, title: "Bad request" },
  unknown_action: { status: 400, title: "Bad request" },
  cross_site_request: { status: 403, title: "Forbidden" },
  not_found: { status: 404, title: "Not found" },
  method_not_allowed: { status: 405, title: "Method not allowed" },
  stale_action: { status: 409, title: "Out of date" },
  body_too_large: { status: 413, title: "Too large" },
  unsupported_media_type: { status: 415, title: "Unsupported form" },
  internal_error: { status: 500, title: "Something went wrong" },
  unavailable: { status: 503, title: "Briefly unavailable" },
  overloaded: { status: 503, title: "Busy" },
  busy: { status: 503, title: "Busy" },
  restarting: { status: 503, title: "Restarting" },
};

const SECURITY_HEADERS = {
  "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "strict-origin-when-cross-origin",
};

/** The path of a request URL, without its query. */
export function pathOf(url = "/") {
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

/**
 * The answer to a request (its method, path and Accept header) refused with `code`: status, headers and body (none
 * for HEAD). `retry` adds a link to try the address again to the browser's page.
 */
export function plainAnswer(request, options) {
  const answer = withBody(request, options);
  return request.method === "HEAD" ? { ...answer, body: undefined } : answer;
}

/**
 * Answers a Node request with `plainAnswer`. The request's body (if any) is never read, so the connection closes
 * after the answer: it cannot carry another request.
 */
export function answerPlain(req, res, options) {
  const { status, headers, body } = plainResponse(req, options);
  res.writeHead(status, headers);
  res.end(body);
}

/** What answerPlain sends (with its length, and the connection closed), for a caller that writes it itself. */
export function plainResponse(req, options) {
  const answer = withBody({ method: req.method, path: pathOf(req.url), accept: req.headers.accept }, options);
  const headers = {
    ...answer.headers,
    "Content-Length": Buffer.byteLength(answer.body),
    Connection: "close",
    ...options.headers,
  };
  return { status: answer.status, headers, body: req.method === "HEAD" ? undefined : answer.body };
}

function withBody({ method, path, accept }, { code, message, headers = {}, retry = false }) {
  const known = PLAIN_CODES[code];
  if (!known) throw new Error(`plainAnswer: ${code} is not in PLAIN_CODES`);
  const mcp = path === "/api/mcp";
  const wantsHtml = method === "GET" && (accept ?? "").includes("text/html") && !mcp;
  const body = mcp
    ? JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message, data: { code } }, id: null })
    : wantsHtml
      ? `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${known.title} — Agora</title></head><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5"><h1>${known.title}</h1><p>${message}</p>${retry ? `<p><a href="${path.replace(/[^\w/.-]/g, "")}">Try again</a></p>` : ""}</body></html>`
      : JSON.stringify({ code, message });
  const allHeaders = {
    "Content-Type": wantsHtml ? "text/html; charset=utf-8" : "application/json",
    "Cache-Control": "no-store",
    ...SECURITY_HEADERS,
    ...headers,
  };
  return { status: known.status, headers: allHeaders, body };
}

// The app's log shape (lib/log.ts), which these plain modules cannot import.
export function log(level, msg, fields = {}) {
  const line = JSON.stringify({ level, time: new Date().toISOString(), msg, ...fields });
  if (level === "error") console.error(line);
  else console.log(line);
}
