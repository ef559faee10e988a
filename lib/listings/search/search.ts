// The search every surface calls (marketplace page, GET /api/mcp-agents, MCP search_servers): the words of
// the text, one query (db/queries/search searchListings) and the check facts of its page, behind a small cache.
//
// The cache (lib/cache/result-cache.ts): per database, at most MAX_ENTRIES results and MAX_CACHED_BYTES of them,
// each for SEARCH_CACHE_TTL_SECONDS (default 10), oldest out first; it keeps results, never a request's promise.
// A key includes the catalogue version (a sequence every write to listings, probes or drift bumps through
// statement triggers), so a listing approved, edited or re-probed is searchable at once, from any process.
// Concurrent identical requests share one query. Large pages (limit > MAX_CACHED_LIMIT) are not kept.
import { searchListingRecords } from "@/db/queries/listing-facts";
import { catalogueVersion } from "@/db/queries/listings";
import type { SearchResult } from "@/db/queries/search";
import type { Db } from "@/db/types";
import { createResultCache, type ResultCache } from "@/lib/cache/result-cache";
import { env } from "@/lib/env";
import { toListingView } from "@/lib/listings/from-rows";
import type { ListingView } from "@/lib/listings/model";
import type { ListingFilters } from "./filters";
import { catalogueQuery } from "@/db/queries/search/terms";
import { processState } from "@/db/process-state";

const MAX_ENTRIES = 300;
// A page of 50 listing views is ~60 KB of JSON at most (descriptions are capped at 1,000 characters).
const MAX_CACHED_BYTES = 16 * 1024 * 1024;
const MAX_CACHED_LIMIT = 50;

type ViewSearchResult = Omit<SearchResult, "rows"> & { items: ListingView[] };

const caches = new WeakMap<Db, { ttlMs: number; cache: ResultCache<ViewSearchResult> }>();

function cacheFor(db: Db, ttlMs: number): ResultCache<ViewSearchResult> {
  let held = caches.get(db);
  if (!held || held.ttlMs !== ttlMs)
    caches.set(
      db,
      (held = { ttlMs, cache: createResultCache({ maxEntries: MAX_ENTRIES, maxBytes: MAX_CACHED_BYTES, ttlMs }) }),
    );
  return held.cache;
}

/**
 * Hits and misses since start (the memory log reports them; the bench reads them to show its queries were not
 * answered from the cache). On globalThis: instrumentation and route handlers are separate bundles.
 */
export function searchCacheStats(): { hits: number; misses: number } {
  return processState("search-cache-stats", () => ({ hits: 0, misses: 0 }));
}

/**
 * One page of listing views, uncached. `exactBrowseCount`: the marketplace's cached browse pages count every
 * listing (lib/listings/catalogue.ts); every other caller counts up to the search window.
 */
export async function searchCatalogue(
  db: Db,
  filters: ListingFilters,
  page: { limit: number; offset: number },
  options: { exactBrowseCount?: boolean } = {},
): Promise<ViewSearchResult> {
  const query = catalogueQuery(filters);
  // Text without a letter or digit ("%%%", "?!") finds nothing, as it would in a person's eyes.
  if (!query.terms && filters.q.trim()) return { items: [], total: 0, capped: false };
  const { records, ...counts } = await searchListingRecords(db, query, page, options);
  const now = new Date();
  return { ...counts, items: records.map((r) => toListingView(r, now)) };
}

/**
 * A page of listing views for the filters, from the cache when the same search ran within the TTL. `knownVersion`:
 * the catalogue version this request already read (the marketplace page gets the proxy's), instead of reading it again.
 */
export async function searchListingViews(
  db: Db,
  filters: ListingFilters,
  page: { limit: number; offset: number },
  knownVersion: string | null = null,
): Promise<ViewSearchResult> {
  const ttlMs = env().SEARCH_CACHE_TTL_SECONDS * 1000;
  if (page.limit > MAX_CACHED_LIMIT || ttlMs === 0) {
    searchCacheStats().misses++;
    return searchCatalogue(db, filters, page);
  }
  const version = knownVersion ?? (await catalogueVersion(db));
  const key = JSON.stringify([
    version,
    filters.q,
    filters.category,
    filters.price,
    filters.source ?? "all",
    filters.sort,
    page.limit,
    page.offset,
  ]);
  // A failed query is not remembered: the next caller runs it again.
  const { value, hit } = await cacheFor(db, ttlMs).get(key, () => searchCatalogue(db, filters, page));
  searchCacheStats()[hit ? "hits" : "misses"]++;
  return value;
}

/** Whether a page is followed by another: past a capped count, a full page means more may follow. */
export function hasMore(
  result: { total: number; capped: boolean },
  offset: number,
  count: number,
  limit: number,
): boolean {
  if (count === 0) return false;
  return result.capped ? count === limit : offset + count < result.total;
}
