import "server-only";
// The marketplace's data entry for pages: browse results without a search text come from Next's
// data cache (a bounded set of keys), tagged so a new approval invalidates them at once. Listings carry their sales
// figures, so their entries also carry the sales tag, which the indexer revalidates after each run that added or
// removed a sale (lib/jobs/start-jobs.ts, through lib/cache/invalidate.ts): pages show a sale within a run, with no query of their own per render.
import { cache } from "react";
import { unstable_cache } from "next/cache";
import { listCategories } from "@/db/queries/listings";
import { dailySales } from "@/db/queries/sales";
import { uptimeAndLatency } from "@/db/queries/probes";
import { listingProvenance } from "@/db/queries/ingest";
import { getDb } from "@/lib/database";
import { findListingSlug, findListingView } from "./lookup";
import { PAGE_SIZE, type ListingFilters } from "./search/filters";
import { searchCatalogue, searchListingViews } from "./search/search";
import { CATALOGUE_TAG, SALES_TAG } from "@/lib/cache/invalidate";
const REVALIDATE_SECONDS = 300;

// Browsing (no text) counts exactly, so the page links reach every listing; it runs once per key and approval.
async function runBrowse(filters: ListingFilters, page: number) {
  return searchCatalogue(
    await getDb(),
    filters,
    { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE },
    { exactBrowseCount: true },
  );
}

/**
 * unstable_cache stores whatever its function returns, and a key anyone can invent (an unknown slug, a
 * category nobody uses, page 99999) would be written to the cache for each value. Its function throws
 * this instead of returning an empty answer, which is never stored; the caller turns it back into one.
 */
class NotCached<T> extends Error {
  constructor(readonly value: T) {
    super("empty answer, not cached");
  }
}

async function uncachedEmpty<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof NotCached) return error.value as T;
    throw error;
  }
}

const cachedBrowse = unstable_cache(
  async (filters: ListingFilters, page: number) => {
    const result = await runBrowse(filters, page);
    if (result.items.length === 0) throw new NotCached(result);
    return result;
  },
  ["marketplace-browse"],
  { tags: [CATALOGUE_TAG, SALES_TAG], revalidate: REVALIDATE_SECONDS },
);

// React's cache: one read per request, however many parts of the page ask (a category filter and the chips both do).
const getCategories = cache(
  unstable_cache(async () => listCategories(await getDb()), ["marketplace-categories"], {
    tags: [CATALOGUE_TAG],
    revalidate: REVALIDATE_SECONDS,
  }),
);

/**
 * One page of approved listings. Free-text searches skip Next's data cache (their keys are unbounded) and use
 * the search module's small in-memory one (lib/listings/search/search.ts), shared with the API and MCP tool. Only
 * browse keys with an answer are cached: categories no listing carries and pages past the last are not.
 */
async function browseListings(filters: ListingFilters, page: number, catalogueVersion: string | null = null) {
  if (filters.q)
    return searchListingViews(
      await getDb(),
      filters,
      { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE },
      catalogueVersion,
    );
  if (filters.category && !(await getCategories()).some((c) => c.name === filters.category))
    return runBrowse(filters, page);
  return uncachedEmpty(() => cachedBrowse(filters, page));
}

export type MarketplacePage = Awaited<ReturnType<typeof browseListings>> & {
  categories: { name: string; count: number }[];
};

/**
 * What the marketplace screen shows for one filter state: a page of listings and every category in use.
 * `catalogueVersion`: the version the proxy already read for this request, if any.
 */
export async function getMarketplacePage(
  filters: ListingFilters,
  page: number,
  catalogueVersion: string | null = null,
): Promise<MarketplacePage> {
  const [result, categories] = await Promise.all([browseListings(filters, page, catalogueVersion), getCategories()]);
  return { ...result, categories };
}

const cachedListing = unstable_cache(
  async (slug: string) => {
    const listing = await findListingView(await getDb(), slug);
    if (!listing) throw new NotCached(null);
    return listing;
  },
  ["marketplace-listing"],
  { tags: [CATALOGUE_TAG, SALES_TAG], revalidate: REVALIDATE_SECONDS },
);

/**
 * An approved listing by slug or id; unknown keys are looked up every time, never cached. Once per request (React's
 * cache): the page's metadata and its body ask for the same listing.
 */
export const getListing = cache(async (slug: string) => uncachedEmpty(() => cachedListing(slug)));

// The detail page's other reads run per render, not through Next's data cache: the page itself is kept whole in the
// route cache, so a cached copy of each part was only ever read again when the page was rendered again, and on a
// first render each was a file looked for, missed and written. The page carries the catalogue and sales tags
// through getListing (above), so an approval, a check, a claim, a review or a sale still renders it again.

/** A listing's sales per day for the last 30 days. */
export async function getDailySales(listingId: string) {
  return dailySales(await getDb(), listingId, 30);
}

/** A listing's day-by-day check record for the status strip. */
export async function getStatusHistory(listingId: string) {
  return uptimeAndLatency(await getDb(), listingId);
}

/** Where a listing came from (the detail page names an imported listing's upstream entry). */
export async function getProvenance(listingId: string) {
  return listingProvenance(await getDb(), listingId);
}

/** The slug of the approved listing with this id, looked up uncached (one indexed row); null when there is none. */
export async function getCanonicalSlug(id: string): Promise<string | null> {
  return findListingSlug(await getDb(), id);
}
