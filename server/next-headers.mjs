// The headers of a page the static fast path answers (server/static-fast-path.mjs), in the order and spelling
// Next writes them, so an answer from memory carries exactly Next's headers.

/**
 * A page's headers as Next writes them (router-server, app-page-runtime.js, send-payload.js): next.config headers,
 * Vary, its cache headers, the page's own from .meta appended (a name already set keeps its place), then
 * Cache-Control, ETag. Flat: name, value, name, value.
 */
export function pageHeaders({ configHeaders, vary, meta, poweredBy, cacheControl, etag }) {
  const headers = new OutgoingHeaders();
  for (let i = 0; i < configHeaders.length; i += 2) headers.set(configHeaders[i], configHeaders[i + 1]);
  headers.set("Vary", vary);
  headers.set("x-nextjs-cache", "HIT");
  headers.set("x-nextjs-prerender", "1");
  for (const [name, value] of Object.entries(meta.headers ?? {})) {
    if (name.toLowerCase() === "x-next-cache-tags") continue; // dropped outside minimal mode
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, String(v));
  }
  if (poweredBy) headers.set("X-Powered-By", "Next.js");
  headers.set("Cache-Control", cacheControl);
  headers.set("ETag", etag);
  return headers.flat();
}

/** Node's outgoing header table: setHeader replaces, appendHeader adds a value, and a name keeps its first place. */
class OutgoingHeaders {
  #byName = new Map();
  set(name, value) {
    this.#byName.set(name.toLowerCase(), [name, [value]]);
  }
  append(name, value) {
    const entry = this.#byName.get(name.toLowerCase());
    if (entry) entry[1].push(value);
    else this.set(name, value);
  }
  /** The flat [name, value, …] list res.writeHead takes, one pair per value. */
  flat() {
    return [...this.#byName.values()].flatMap(([name, values]) => values.flatMap((v) => [name, v]));
  }
}
