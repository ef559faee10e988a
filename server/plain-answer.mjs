// The short answers the preloads give before Next sees a request (overload.mjs, request-hygiene.mjs), in the shape
// the proxy answers while the database restarts: a JSON-RPC error on /api/mcp, a short page for a browser asking
// for HTML, JSON `{message}` otherwise; never cached, and with the site's security headers.

/** The path of a request URL, without its query. */
export function pathOf(url = "/") {
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

/**
 * Answers `status` with `message`. `title` heads the browser's page; `retry` adds a link to try the address again. The request's body (if any) is never read, so
 * the connection closes after the answer: it cannot carry another request.
 */
export function answerPlain(req, res, options) {
  const { status, headers, body } = plainResponse(req, options);
  res.writeHead(status, headers);
  res.end(body);
}

/** The status, headers and body (none for HEAD) answerPlain sends, for a caller that writes them itself. */
export function plainResponse(req, { status, title, message, headers = {}, retry = false }) {
  const path = pathOf(req.url);
  const wantsHtml = req.method === "GET" && (req.headers.accept ?? "").includes("text/html") && path !== "/api/mcp";
  const body =
    path === "/api/mcp"
      ? JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message }, id: null })
      : wantsHtml
        ? `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title} — Agora</title></head><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5"><h1>${title}</h1><p>${message}</p>${retry ? `<p><a href="${path.replace(/[^\w/.-]/g, "")}">Try again</a></p>` : ""}</body></html>`
        : JSON.stringify({ message });
  const allHeaders = {
    "Content-Type": wantsHtml ? "text/html; charset=utf-8" : "application/json",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    Connection: "close",
    ...headers,
  };
  return { status, headers: allHeaders, body: req.method === "HEAD" ? undefined : body };
}

// The app's log shape (lib/log.ts), which these plain modules cannot import.
export function log(level, msg, fields = {}) {
  const line = JSON.stringify({ level, time: new Date().toISOString(), msg, ...fields });
  if (level === "error") console.error(line);
  else console.log(line);
}
