import "server-only";
// The detail page's reviews, in Next's data cache under the catalogue tag: a new, revoked, hidden or answered
// review revalidates it (lib/buyer-reviews/routes.ts and the actions).
import { unstable_cache } from "next/cache";
import { getDb } from "@/lib/database";
import { CATALOGUE_TAG } from "@/lib/listings/catalogue";
import { listingBuyerReviews } from "./feedback";

export const getBuyerReviews = unstable_cache(async (listingId: string) => listingBuyerReviews(await getDb(), listingId), ["marketplace-buyer-reviews"], {
  tags: [CATALOGUE_TAG],
  revalidate: 300,
});
