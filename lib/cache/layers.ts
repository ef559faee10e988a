// Every cache a public read passes, outermost first, in one list: where it lives, what keys it, what empties it.
// A search of the marketplace (GET /marketplace?q=…) meets them in this order; a page of the unfiltered catalogue
// or a detail page stops at the first that holds it. What a write changes is said once, through
// lib/cache/invalidate.ts (the catalogue and sales tags). Change a cache and change its line here:
// tests/unit/cache-layers.test.ts checks that each line's construct is in its file, and that no cache construct in
// the code (unstable_cache, "use cache", cacheTag, React's cache, a result cache, an LRU, a module-level map of kept
// values) is missing from this list or PROCESS_MEMOS.

type CacheLayer = {
  name: string;
  /** The file that keeps or sets it. */
  file: string;
  /** The text in that file that makes it (a call, a header name), so the line cannot outlive the cache. */
  construct: string;
  keyedBy: string;
  /** What makes an entry stale or drops it. */
  emptiedBy: string;
};

export const CACHE_LAYERS: readonly CacheLayer[] = [
  {
    name: "browser and shared caches",
    file: "lib/http/cache-headers.ts",
    construct: "Cache-Control",
    keyedBy: "URL; private when a session cookie is sent",
    emptiedBy: "Cache-Control max-age and the ETag below",
  },
  {
    name: "filtered-page ETag (304)",
    file: "proxy.ts",
    construct: "renderedPageEtag(",
    keyedBy: "deployment, catalogue version, minute, URL",
    emptiedBy: "any catalogue write (the catalogue_version sequence)",
  },
  {
    name: "static fast path",
    file: "server/static-fast-path.mjs",
    construct: "x-next-cache-tags",
    keyedBy: "prerendered path",
    emptiedBy: "a new build: it serves only prerendered pages that read no tagged data",
  },
  {
    name: "route cache (ISR pages, no 404s)",
    file: "lib/cache/route-cache-handler.mjs",
    construct: "new LRUCache(",
    keyedBy: "path",
    emptiedBy: "revalidate seconds or a tag, shared across instances",
  },
  {
    name: "tag notices between instances",
    file: "lib/cache/shared-tags.ts",
    construct: "announceTagRevalidation(",
    keyedBy: "tag",
    emptiedBy: "a PostgreSQL notice from the instance that revalidated",
  },
  {
    name: "catalogue data (browse pages, a listing, categories; once per request by React's cache)",
    file: "lib/listings/catalogue.ts",
    construct: "unstable_cache(",
    keyedBy: "function and arguments",
    emptiedBy: "CATALOGUE_TAG, SALES_TAG (browse pages and a listing) or REVALIDATE_SECONDS",
  },
  {
    name: "search results",
    file: "lib/listings/search/search.ts",
    construct: "createResultCache(",
    keyedBy: "catalogue version and the filters",
    emptiedBy: "SEARCH_CACHE_TTL_SECONDS or a new catalogue version",
  },
  {
    name: "search planner's samples",
    file: "db/queries/search/plan.ts",
    construct: "new WeakMap<Db",
    keyedBy: "database, sample size and filter",
    emptiedBy: "SAMPLE_TTL_MS (60 s), or MAX_SAMPLES newer ones",
  },
  {
    name: "wallet page (balances, purchases)",
    file: "lib/wallet/page-data.ts",
    construct: "createResultCache<",
    keyedBy: "address (and network, for a balance)",
    emptiedBy: "BALANCE_TTL_MS (15 s) for balances, 10 s for purchases",
  },
  {
    name: "served downloads",
    file: "lib/downloads/served.ts",
    construct: "servedCache",
    keyedBy: "file, its hash and the site's origin",
    emptiedBy: "a new build (another hash) or a restart",
  },
  {
    name: "read APIs' ETag (304)",
    file: "lib/http/cached-json.ts",
    construct: "ETag",
    keyedBy: "the answer's bytes",
    emptiedBy: "a different answer",
  },
];

/** Kept values on no public read's way to data (their values never go stale while the process lives). */
export const PROCESS_MEMOS: readonly Pick<CacheLayer, "name" | "file" | "construct">[] = [
  {
    name: "RPC clients and chain checks, per network",
    file: "lib/chain/reader.ts",
    construct: "new Map<string, PublicClient>",
  },
  {
    name: "highlighted code blocks",
    file: "components/content/code-block.tsx",
    construct: "new Map<string, Promise<string>>",
  },
];
