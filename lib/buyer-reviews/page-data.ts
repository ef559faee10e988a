import "server-only";
// The detail page's reviews, read per render: the page is kept whole in the route cache under the catalogue tag
// (lib/listings/catalogue.ts getListing), which a new, revoked, hidden or answered review revalidates
// (lib/buyer-reviews/routes.ts and the actions), so the page is rendered again with them.
import { getDb } from "@/lib/database";
import { listingBuyerReviews } from "./feedback";

export async function getBuyerReviews(listingId: string) {
  return listingBuyerReviews(await getDb(), listingId);
}
