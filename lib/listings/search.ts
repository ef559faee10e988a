// The search every surface calls (marketplace page, GET /api/mcp-agents, MCP search_servers): one query
// (db/queries/listings.ts searchListings) and the probe facts of its page, behind a small cache.
//
// The cache: per database, at most MAX_ENTRIES keys for SEARCH_CACHE_TTL_SECONDS (default 10) each, least recently used out first, and a
// key includes the catalogue version (a sequence every write to listings, probes or drift bumps through
// statement triggers), so a listing approved, edited or re-probed is searchable at once, from any process.
// Concurrent identical requests share one query. Large pages (limit > MAX_CACHED_LIMIT) are not kept.
import { sql } from "drizzle-orm";
import { searchListings, type SearchResult } from "@/db/queries/listings";
import { rowsOf } from "@/db/queries/listing-search";
import { withProbeFacts, type ListingView } from "@/db/queries/listing-view";
import type { Db } from "@/db/types";
import { env } from "@/lib/env";
import type { ListingFilters } from "@/lib/marketplace/filters";

export const MAX_ENTRIES = 300;
const MAX_CACHED_LIMIT = 50;

export type ViewSearchResult = Omit<SearchResult, "items"> & { items: ListingView[] };
type Entry = { expires: number; value: Promise<ViewSearchResult> };

const caches = new WeakMap<Db, Map<string, Entry>>();

async function catalogueVersion(db: Db): Promise<string> {
  const [row] = rowsOf<{ v: string }>(await db.execute(sql`select last_value::text as v from catalogue_version`));
  return row?.v ?? "0";
}

async function run(db: Db, filters: ListingFilters, page: { limit: number; offset: number }): Promise<ViewSearchResult> {
  const result = await searchListings(db, filters, page);
  return { ...result, items: await withProbeFacts(db, result.items) };
}

/** A page of listing views for the filters, from the cache when the same search ran within the TTL. */
export async function searchListingViews(db: Db, filters: ListingFilters, page: { limit: number; offset: number }): Promise<ViewSearchResult> {
  const ttlMs = env().SEARCH_CACHE_TTL_SECONDS * 1000;
  if (page.limit > MAX_CACHED_LIMIT || ttlMs === 0) return run(db, filters, page);
  const version = await catalogueVersion(db);
  const key = JSON.stringify([version, filters.q, filters.category, filters.price, filters.sort, page.limit, page.offset]);
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && hit.expires > now) {
    cache.delete(key); // re-insert: Map order is the recency order
    cache.set(key, hit);
    return hit.value;
  }
  const value = run(db, filters, page);
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
