// Next's own route cache, minus 404s, with tags shared across instances. Run-time entries live in Next's in-memory LRU
// only (next.config.mjs turns off writing them to disk). With ISR (revalidate + empty generateStaticParams) Next
// renders any path on first request and stores the result, notFound() included, so every invented slug or page
// number would take an entry. A 404 is never stored here: it is rendered again on the next request (cheap: one
// indexed lookup), while real pages stay cached.
// A tag revalidated here is also handed to lib/cache/shared-tags.ts, which tells the other instances on the same
// PostgreSQL database; their notices come back through `applyLocally`.
// Entries the build prerendered name the build's SITE_URL and CONTACT_EMAIL: `get` rewrites them to the server's
// (server/deployment-rewrite.mjs), once per entry, so the pages, their RSC payloads and robots.txt name the origin
// the server was started with.
// Loaded by next.config.mjs `cacheHandler`; plain JavaScript because Next imports it at run time.
import FileSystemCacheModule from "next/dist/server/lib/incremental-cache/file-system-cache.js";
import LruCacheModule from "next/dist/server/lib/lru-cache.js";
import { deploymentRewriter } from "../../server/deployment-rewrite.mjs";
import { entryBytes, ROUTE_CACHE_BYTES } from "../../server/memory-budget.mjs";

const FileSystemCache = FileSystemCacheModule.default ?? FileSystemCacheModule;
const { LRUCache } = LruCacheModule;

// Revalidation marks tags in a table shared by the whole process, so any instance of the class applies it.
const bridge = (globalThis[Symbol.for("agora.cache-tags")] ??= {});
bridge.applyLocally = (tags, durations) =>
  FileSystemCache.prototype.revalidateTag.call(Object.create(FileSystemCache.prototype), tags, durations);

// Entries already rewritten (the file-system cache keeps one object per entry in memory, so this is once each).
const rewritten = new WeakSet();
const TEXT_BODY = /^(?:text\/|application\/(?:json|xml|manifest\+json|[a-z.+-]*\+xml))/;

/** A page's HTML, RSC payload and prefetch segments, or a text route body, in place; as built if it cannot be read. */
function rewriteEntry(value, key) {
  const rewriter = deploymentRewriter();
  if (!rewriter) return;
  try {
    if (value.kind === "APP_PAGE") {
      const html = typeof value.html === "string" ? rewriter.html(value.html) : undefined;
      const rscData = value.rscData ? rewriter.flight(value.rscData) : undefined;
      const segments = value.segmentData
        ? new Map([...value.segmentData].map(([k, v]) => [k, rewriter.flight(v)]))
        : undefined;
      if (html !== undefined) value.html = html;
      if (rscData !== undefined) value.rscData = rscData;
      if (segments !== undefined) value.segmentData = segments;
    } else if (
      value.kind === "APP_ROUTE" &&
      Buffer.isBuffer(value.body) &&
      TEXT_BODY.test(String(value.headers?.["content-type"] ?? ""))
    ) {
      value.body = Buffer.from(rewriter.text(value.body.toString("utf8")), "utf8");
    }
  } catch (error) {
    console.error(
      JSON.stringify({
        level: "error",
        time: new Date().toISOString(),
        msg: "a prerendered entry still names the build's SITE_URL: it could not be rewritten",
        key,
        error: String(error),
      }),
    );
  }
}

// A render that read the database before a tag was revalidated, and finished after, must not be stored as fresh:
// Next stamps an entry with the time it is *stored*, so a page rendered from data read just before the sales indexer
// wrote (and revalidated `sales`) would pass as newer than the revalidation and be served, stale, for its whole
// revalidate period. Next makes one handler per request, and a render's lookup and its store go through the same
// one: each entry is stamped instead with the time this handler first looked its key up (the lookup that missed and
// started the render). The times live on the handler, so they go with the request.

// Redirects are not stored either: a listing's id redirects to its slug, and each stored redirect would be one
// more entry per listing (and per spelling of the id).
// The in-memory store every instance shares (FileSystemCache keeps it in a static field and creates it only when
// none exists): sized by the server's memory plan and measured in the bytes entries take (server/memory-budget.mjs),
// instead of Next's 50 MB counted in characters.
export default class RouteCacheWithout404s extends FileSystemCache {
  constructor(ctx) {
    FileSystemCache.memoryCache ??= new LRUCache(ROUTE_CACHE_BYTES, ({ value }, key) => entryBytes(value, key));
    super(ctx);
    /** Key → when this request first looked it up. */
    this.firstReadAt = new Map();
  }

  async get(key, ctx) {
    if (!this.firstReadAt.has(key)) this.firstReadAt.set(key, Date.now());
    const data = await super.get(key, ctx);
    if (data?.value && !rewritten.has(data.value)) {
      rewritten.add(data.value);
      rewriteEntry(data.value, key);
    }
    return data;
  }

  async set(key, data, ctx) {
    const page = data && (data.kind === "APP_PAGE" || data.kind === "PAGES" || data.kind === "APP_ROUTE");
    const renderStarted = this.firstReadAt.get(key);
    this.firstReadAt.delete(key);
    if (page && (data.status === 404 || (data.status >= 300 && data.status < 400))) return;
    await super.set(key, data, ctx);
    // Pages only: their figures are what a revalidation in flight leaves stale (data-cache and route entries keep Next's stamp).
    const stored =
      renderStarted === undefined || data?.kind !== "APP_PAGE" ? undefined : FileSystemCache.memoryCache?.get(key);
    if (stored && renderStarted < stored.lastModified) stored.lastModified = renderStarted;
  }

  async revalidateTag(tags, durations) {
    await super.revalidateTag(tags, durations);
    await bridge.announce?.(typeof tags === "string" ? [tags] : tags, durations);
  }
}
