// The search every surface calls (marketplace page, GET /api/mcp-agents, MCP search_servers): the words of
// the text, one query (db/queries/listings.ts searchListings) and the check facts of its page, behind a small cache.
//
// The cache: per database, at most MAX_ENTRIES keys for SEARCH_CACHE_TTL_SECONDS (default 10) each, least recently used out first, and a
// key includes the catalogue version (a sequence every write to listings, probes or drift bumps through
// statement triggers), so a listing approved, edited or re-probed is searchable at once, from any process.
// Concurrent identical requests share one query. Large pages (limit > MAX_CACHED_LIMIT) are not kept.
import { searchListingRecords } from "@/db/queries/listing-facts";
import { catalogueVersion, type SearchResult } from "@/db/queries/listings";
import type { Db } from "@/db/types";
import { env } from "@/lib/env";
import { toListingView } from "@/lib/listings/from-rows";
import type { ListingView } from "@/lib/listings/model";
import type { ListingFilters } from "./filters";
import { searchTerms } from "./terms";

export const MAX_ENTRIES = 300;
const MAX_CACHED_LIMIT = 50;

export type ViewSearchResult = Omit<SearchResult, "rows"> & { items: ListingView[] };
type Entry = { expires: number; value: Promise<ViewSearchResult> };

const caches = new WeakMap<Db, Map<string, Entry>>();

/**
 * Hits and misses since start (the memory log reports them; the bench reads them to show its queries were not
 * answered from the cache). On globalThis: instrumentation and route handlers are separate bundles.
 */
export function searchCacheStats(): { hits: number; misses: number } {
  const holder = globalThis as { __searchCacheStats?: { hits: number; misses: number } };
  return (holder.__searchCacheStats ??= { hits: 0, misses: 0 });
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
  const terms = searchTerms(filters.q);
  // Text without a letter or digit ("%%%", "?!") finds nothing, as it would in a person's eyes.
  if (!terms && filters.q.trim()) return { items: [], total: 0, capped: false };
  const { records, ...counts } = await searchListingRecords(db, { terms, category: filters.category, price: filters.price, source: filters.source, sort: filters.sort }, page, options);
  const now = new Date();
  return { ...counts, items: records.map((r) => toListingView(r, now)) };
}

/** A page of listing views for the filters, from the cache when the same search ran within the TTL. */
export async function searchListingViews(db: Db, filters: ListingFilters, page: { limit: number; offset: number }): Promise<ViewSearchResult> {
  const ttlMs = env().SEARCH_CACHE_TTL_SECONDS * 1000;
  if (page.limit > MAX_CACHED_LIMIT || ttlMs === 0) {
    searchCacheStats().misses++;
    return searchCatalogue(db, filters, page);
  }
  const version = await catalogueVersion(db);
  const key = JSON.stringify([version, filters.q, filters.category, filters.price, filters.source ?? "all", filters.sort, page.limit, page.offset]);
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && hit.expires > now) {
    searchCacheStats().hits++;
    cache.delete(key); // re-insert: Map order is the recency order
    cache.set(key, hit);
    return hit.value;
  }
  searchCacheStats().misses++;
  const value = searchCatalogue(db, filters, page);
  cache.set(key, { expires: now + ttlMs, value });
  value.catch(() => cache.get(key)?.value === value && cache.delete(key)); // a failed query is not remembered
  while (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  return value;
}

/** Whether a page is followed by another: past a capped count, a full page means more may follow. */
export function hasMore(result: { total: number; capped: boolean }, offset: number, count: number, limit: number): boolean {
  if (count === 0) return false;
  return result.capped ? count === limit : offset + count < result.total;
}
