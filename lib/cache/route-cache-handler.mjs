// Next's own file-system route cache, minus 404s, shared across instances. With ISR (revalidate + empty
// generateStaticParams) Next renders any path on first request and stores the result, notFound() included, so every
// invented slug or page number would add a file to .next/ and an entry to the in-memory cache. A 404 is never stored
// here: it is rendered again on the next request (cheap: one indexed lookup), while real pages stay cached.
// A tag revalidated here is also handed to lib/cache/shared-tags.ts, which tells the other instances on the same
// PostgreSQL database; their notices come back through `applyLocally`.
// Loaded by next.config.mjs `cacheHandler`; plain JavaScript because Next imports it at run time.
import FileSystemCacheModule from "next/dist/server/lib/incremental-cache/file-system-cache.js";

const FileSystemCache = FileSystemCacheModule.default ?? FileSystemCacheModule;

// Revalidation marks tags in a table shared by the whole process, so any instance of the class applies it.
const bridge = (globalThis[Symbol.for("agora.cache-tags")] ??= {});
bridge.applyLocally = (tags, durations) => FileSystemCache.prototype.revalidateTag.call(Object.create(FileSystemCache.prototype), tags, durations);

// Redirects are not stored either: a listing's id redirects to its slug, and each stored redirect would be one
// more entry per listing (and per spelling of the id).
export default class RouteCacheWithout404s extends FileSystemCache {
  async set(key, data, ctx) {
    const page = data && (data.kind === "APP_PAGE" || data.kind === "PAGES" || data.kind === "APP_ROUTE");
    if (page && (data.status === 404 || (data.status >= 300 && data.status < 400))) return;
    return super.set(key, data, ctx);
  }

  async revalidateTag(tags, durations) {
    await super.revalidateTag(tags, durations);
    await bridge.announce?.(typeof tags === "string" ? [tags] : tags, durations);
  }
}
