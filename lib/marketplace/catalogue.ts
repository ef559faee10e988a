import "server-only";
// The marketplace's data entry for pages: browse results without a search text come from Next's
// data cache (a bounded set of keys), tagged so a new approval invalidates them at once.
import { unstable_cache } from "next/cache";
import { getDb } from "@/db";
import { findListingView, withProbeFacts } from "@/db/queries/listing-view";
import { listCategories, searchListings } from "@/db/queries/listings";
import { uptimeAndLatency } from "@/db/queries/probes";
import { searchListingViews } from "@/lib/listings/search";
import { PAGE_SIZE, type ListingFilters } from "@/lib/validations/marketplace";

export const CATALOGUE_TAG = "listings";
const REVALIDATE_SECONDS = 300;

// Browsing (no text) counts exactly, so the page links reach every listing; it runs once per key and approval.
async function runBrowse(filters: ListingFilters, page: number) {
  const db = await getDb();
  const result = await searchListings(db, filters, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }, { exactBrowseCount: true });
  return { ...result, items: await withProbeFacts(db, result.items) };
}

const cachedBrowse = unstable_cache(runBrowse, ["marketplace-browse"], { tags: [CATALOGUE_TAG], revalidate: REVALIDATE_SECONDS });

/**
 * One page of approved listings. Free-text searches skip Next's data cache (their keys are unbounded) and
 * use the search module's small in-memory one (lib/listings/search.ts), shared with the API and MCP tool.
 */
export async function browseListings(filters: ListingFilters, page: number) {
  return filters.q ? searchListingViews(await getDb(), filters, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE }) : cachedBrowse(filters, page);
}

export const getCategories = unstable_cache(async () => listCategories(await getDb()), ["marketplace-categories"], {
  tags: [CATALOGUE_TAG],
  revalidate: REVALIDATE_SECONDS,
});

export const getListing = unstable_cache(async (slug: string) => findListingView(await getDb(), slug), ["marketplace-listing"], {
  tags: [CATALOGUE_TAG],
  revalidate: REVALIDATE_SECONDS,
});

/** A listing's day-by-day check record for the status strip. */
export const getStatusHistory = unstable_cache(async (listingId: string) => uptimeAndLatency(await getDb(), listingId), ["marketplace-status-history"], {
  tags: [CATALOGUE_TAG],
  revalidate: REVALIDATE_SECONDS,
});
