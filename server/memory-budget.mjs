// The server's memory plan, derived from the heap limit its start command set (`--max-old-space-size`:
// NODE_HEAP_MB in `npm start` and `npm run start:prod`, NODE_OPTIONS in the container image; 256 MB by default).
// Everything the process keeps between requests has a byte budget here, and renders in progress have a number of
// places, so that together they fit in the heap whatever a client asks for (docs/production.md, Memory, gives the
// arithmetic). Read by the route cache (lib/cache/route-cache-handler.mjs) and the overload limit (overload.mjs).
//
// Why derived, not fixed: Next's own default (a 50 MB route cache, counted in characters) was set for a heap of
// gigabytes. Under a 256 MB cap a crawler filled it with pages whose HTML V8 stores two bytes a character (~145 KB
// each, counted as ~72 KB), and 48 renders at once each held several MB of working memory: the heap ran out.
import v8 from "node:v8";

const MB = 1024 * 1024;

/**
 * The old-space cap the start command set, in bytes: where long-lived data lives and what runs out. V8's
 * heap_size_limit adds the young generation (304 MB for a 256 MB cap with the start commands' 16 MB semi-spaces; 448
 * MB without them on Node 24, which sizes the young generation from the machine's memory), so the flag itself is read
 * first.
 */
const HEAP_LIMIT_BYTES = (oldSpaceFlagMb() ?? v8.getHeapStatistics().heap_size_limit / MB) * MB;

/**
 * Bytes Next's route cache may hold (rendered pages, their RSC payloads and data-cache entries share one LRU):
 * ROUTE_CACHE_MB when set, else an eighth of the heap (32 MB under a 256 MB cap). A crawler walking distinct pages
 * gains nothing from a larger one; the pages people ask for again stay in it.
 */
export const ROUTE_CACHE_BYTES = megabytes("ROUTE_CACHE_MB") ?? Math.floor(HEAP_LIMIT_BYTES / 8);

/**
 * Pages rendering at once (the overload limit's render places): MAX_RENDERS when set, else one per 16 MB of heap
 * (16 under a 256 MB cap, as many as one client may hold). A page's render holds about 4 MB until its answer is sent
 * (16 at once under a crawler kept the heap in use near 160 MB: bench/RESULTS.md); more places only hold more memory.
 */
export const RENDER_PLACES = count("MAX_RENDERS") ?? Math.max(2, Math.floor(HEAP_LIMIT_BYTES / (16 * MB)));

function oldSpaceFlagMb() {
  const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)];
  const last = flags
    .map((flag) => /^--max[-_]old[-_]space[-_]size=(\d+)$/.exec(flag)?.[1])
    .filter(Boolean)
    .at(-1);
  return last === undefined ? undefined : Number(last);
}

function megabytes(name) {
  const n = count(name);
  return n === undefined ? undefined : n * MB;
}

function count(name) {
  const value = process.env[name];
  if (value === undefined || value.trim() === "") return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`${name} must be a whole number above 0, not ${JSON.stringify(value)}`);
  return n;
}

/**
 * The bytes a route-cache entry takes: strings two bytes a character when V8 stores them so (any character past
 * U+00FF, as an em dash in a title), buffers their length, plus a fixed cost for the objects around them. Next's own
 * estimate counts characters, which halved the true size of every page with a non-Latin-1 character.
 */
export function entryBytes(value, key) {
  const ENTRY_OVERHEAD = 1024;
  let bytes = ENTRY_OVERHEAD + stringBytes(key);
  if (!value) return bytes;
  switch (value.kind) {
    case "APP_PAGE":
      bytes += stringBytes(value.html) + bufferBytes(value.rscData) + stringBytes(value.postponed);
      for (const [path, buffer] of value.segmentData ?? []) bytes += stringBytes(path) + bufferBytes(buffer);
      return bytes;
    case "APP_ROUTE":
      return bytes + bufferBytes(value.body);
    case "FETCH":
      return bytes + stringBytes(value.data?.body) + stringBytes(JSON.stringify(value.data?.headers ?? {}));
    case "REDIRECT":
      return bytes + stringBytes(JSON.stringify(value.props ?? {}));
    default:
      return bytes + stringBytes(value.html) + stringBytes(JSON.stringify(value.pageData ?? null));
  }
}

const WIDE = /[^\u0000-\u00ff]/;

function stringBytes(text) {
  if (typeof text !== "string") return 0;
  return WIDE.test(text) ? text.length * 2 : text.length;
}

function bufferBytes(buffer) {
  return buffer?.length ?? 0;
}
