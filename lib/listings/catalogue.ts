import "server-only";
// The marketplace's data entry for pages: browse results without a search text come from Next's
// data cache (a bounded set of keys), tagged so a new approval invalidates them at once. Listings carry their sales
// figures, so their entries also carry the sales tag, which the indexer revalidates after each run that added or
// removed a sale (lib/sales/revalidate.ts): pages show a sale within a run, with no query of their own per render.
import { unstable_cache } from "next/cache";
import { listCategories, listSitemapEntries } from "@/db/queries/listings";
import { dailySales } from "@/db/queries/sales";
import { uptimeAndLatency } from "@/db/queries/probes";
import { listingProvenance } from "@/db/queries/ingest";
import { getDb } from "@/lib/database";
import { findListingSlug, findListingView } from "./lookup";
import { SALES_TAG } from "@/lib/sales/revalidate";
import { PAGE_SIZE, type ListingFilters } from "./search/filters";
import { searchCatalogue, searchListingViews } from "./search/search";
import { CATALOGUE_TAG } from "./cache-tag";

export { CATALOGUE_TAG } from "./cache-tag";
const REVALIDATE_SECONDS = 300;

// Browsing (no text) counts exactly, so the page links reach every listing; it runs once per key and approval.
async function runBrowse(filters: ListingFilters, page: number) {
  return searchCatalogue(await getDb(), filters, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }, { exactBrowseCount: true });
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

export const getCategories = unstable_cache(async () => listCategories(await getDb()), ["marketplace-categories"], {
  tags: [CATALOGUE_TAG],
  revalidate: REVALIDATE_SECONDS,
});

/**
 * One page of approved listings. Free-text searches skip Next's data cache (their keys are unbounded) and use
 * the search module's small in-memory one (lib/listings/search/search.ts), shared with the API and MCP tool. Only
 * browse keys with an answer are cached: categories no listing carries and pages past the last are not.
 */
export async function browseListings(filters: ListingFilters, page: number) {
  if (filters.q) return searchListingViews(await getDb(), filters, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  if (filters.category && !(await getCategories()).some((c) => c.name === filters.category)) return runBrowse(filters, page);
  return uncachedEmpty(() => cachedBrowse(filters, page));
}

export type MarketplacePage = Awaited<ReturnType<typeof browseListings>> & { categories: { name: string; count: number }[] };

/** What the marketplace screen shows for one filter state: a page of listings and every category in use. */
export async function getMarketplacePage(filters: ListingFilters, page: number): Promise<MarketplacePage> {
  const [result, categories] = await Promise.all([browseListings(filters, page), getCategories()]);
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

/** An approved listing by slug or id; unknown keys are looked up every time, never cached. */
export async function getListing(slug: string) {
  return uncachedEmpty(() => cachedListing(slug));
}

/**
 * A listing's sales per day for the last 30 days. Cached under the sales tag, which the indexer revalidates when it
 * wrote any (lib/sales/revalidate.ts): the detail page that shows them carries the tag too and is rendered again.
 */
export const getDailySales = unstable_cache(async (listingId: string) => dailySales(await getDb(), listingId, 30), ["listing-daily-sales"], {
  tags: [SALES_TAG],
  revalidate: REVALIDATE_SECONDS,
});

/** A listing's day-by-day check record for the status strip. */
export const getStatusHistory = unstable_cache(async (listingId: string) => uptimeAndLatency(await getDb(), listingId), ["marketplace-status-history"], {
  tags: [CATALOGUE_TAG],
  revalidate: REVALIDATE_SECONDS,
});

/** Where a listing came from (the detail page names an imported listing's upstream entry). */
export const getProvenance = unstable_cache(async (listingId: string) => listingProvenance(await getDb(), listingId), ["marketplace-provenance"], {
  tags: [CATALOGUE_TAG],
  revalidate: REVALIDATE_SECONDS,
});

/** Slugs and update times of up to `limit` approved listings, for the sitemap (uncached: it renders per request). */
export async function listSitemapListings(limit: number) {
  return listSitemapEntries(await getDb(), { limit, offset: 0 });
}

/** The slug of the approved listing with this id, looked up uncached (one indexed row); null when there is none. */
export async function getCanonicalSlug(id: string): Promise<string | null> {
  return findListingSlug(await getDb(), id);
}
