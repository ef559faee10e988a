import "server-only";
// The marketplace's data entry for pages: browse results without a search text come from Next's
// data cache (a bounded set of keys), tagged so a new approval invalidates them at once.
import { unstable_cache } from "next/cache";
import { getDb } from "@/db";
import { findPublicListing, listCategories, searchListings } from "@/db/queries/listings";
import { latestProbes, uptimeAndLatency } from "@/db/queries/probes";
import type { AcceptedPayment, PricedItem, ProbedTool } from "@/lib/probe/types";
import { PAGE_SIZE, type ListingFilters } from "@/lib/validations/marketplace";

export const CATALOGUE_TAG = "listings";
const REVALIDATE_SECONDS = 300;

async function runSearch(filters: ListingFilters, page: number) {
  return searchListings(await getDb(), filters, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
}

const cachedBrowse = unstable_cache(runSearch, ["marketplace-browse"], { tags: [CATALOGUE_TAG], revalidate: REVALIDATE_SECONDS });

/** One page of approved listings. Free-text searches skip the cache: their keys are unbounded. */
export function browseListings(filters: ListingFilters, page: number) {
  return filters.q ? runSearch(filters, page) : cachedBrowse(filters, page);
}

export const getCategories = unstable_cache(async () => listCategories(await getDb()), ["marketplace-categories"], {
  tags: [CATALOGUE_TAG],
  revalidate: REVALIDATE_SECONDS,
});

export const getListing = unstable_cache(async (slug: string) => findPublicListing(await getDb(), slug), ["marketplace-listing"], {
  tags: [CATALOGUE_TAG],
  revalidate: REVALIDATE_SECONDS,
});

/** What the verifier knows about a listing: its latest probe and a 30-day status summary. */
export const getListingHealth = unstable_cache(
  async (listingId: string) => {
    const db = await getDb();
    const [latest, uptime] = await Promise.all([latestProbes(db, [listingId]), uptimeAndLatency(db, listingId)]);
    const probe = latest.get(listingId);
    return {
      uptime,
      probe: probe
        ? {
            checkedAt: probe.checkedAt.toISOString(),
            reachable: probe.reachable,
            verifiable: probe.verifiable,
            tools: (probe.tools ?? []) as ProbedTool[],
            pricedItems: (probe.pricedItems ?? []) as PricedItem[],
            paymentMethods: (probe.paymentMethods ?? []) as AcceptedPayment[],
          }
        : null,
    };
  },
  ["marketplace-listing-health"],
  { tags: [CATALOGUE_TAG], revalidate: REVALIDATE_SECONDS },
);
