// Every cache a public read passes, outermost first, in one list: where it lives, what keys it, what empties it.
// A search of the marketplace (GET /marketplace?q=…) meets them in this order; a page of the unfiltered catalogue
// or a detail page stops at the first that holds it. Change a cache and change its line here (docs/architecture.md
// draws the walk; tests/unit/cache-layers.test.ts checks that each named file exists).

export type CacheLayer = {
  name: string;
  /** The file that keeps or sets it. */
  file: string;
  keyedBy: string;
  /** What makes an entry stale or drops it. */
  emptiedBy: string;
};

export const CACHE_LAYERS: readonly CacheLayer[] = [
  { name: "browser and shared caches", file: "lib/http-cache.ts", keyedBy: "URL; private when a session cookie is sent", emptiedBy: "Cache-Control max-age and the ETag below" },
  { name: "filtered-page ETag (304)", file: "proxy.ts", keyedBy: "deployment, catalogue version, minute, URL", emptiedBy: "any catalogue write (the catalogue_version sequence)" },
  { name: "static fast path", file: "server/static-fast-path.mjs", keyedBy: "prerendered path", emptiedBy: "a revalidated tag the page read" },
  { name: "route cache (ISR pages, no 404s)", file: "lib/cache/route-cache-handler.mjs", keyedBy: "path", emptiedBy: "revalidate seconds or a tag, shared across instances" },
  { name: "tag notices between instances", file: "lib/cache/shared-tags.ts", keyedBy: "tag", emptiedBy: "a PostgreSQL notice from the instance that revalidated" },
  { name: "catalogue data (browse, listing, categories, sales, status, provenance)", file: "lib/listings/catalogue.ts", keyedBy: "function and arguments", emptiedBy: "CATALOGUE_TAG, SALES_TAG or REVALIDATE_SECONDS" },
  { name: "buyer reviews", file: "lib/buyer-reviews/page-data.ts", keyedBy: "listing id", emptiedBy: "its tag or 300 s" },
  { name: "claim offer", file: "lib/claims/offer.ts", keyedBy: "listing id", emptiedBy: "CATALOGUE_TAG or 300 s" },
  { name: "search results", file: "lib/listings/search/search.ts", keyedBy: "catalogue version and the filters", emptiedBy: "SEARCH_CACHE_TTL_SECONDS or a new catalogue version" },
  { name: "read APIs' ETag (304)", file: "lib/cached-json.ts", keyedBy: "the answer's bytes", emptiedBy: "a different answer" },
];
