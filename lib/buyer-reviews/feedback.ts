// Every visible review of one listing, for the detail page and the feedback endpoint.
import { recentBuyerReviews, visibleBuyerReviews } from "@/db/queries/buyer-reviews";
import type { Db } from "@/db/types";
import { findListingView } from "@/lib/listings/lookup";
import { registryName } from "@/lib/listings/presenters/server-details";
import { feedbackRecords, reputationSummary } from "@/lib/listings/presenters/reputation";
import { toBuyerReviewView, type BuyerReviewView } from "@/lib/listings/buyer-review-view";

/** Newest first, at most this many (the summary counts them all). */
const REVIEWS_SHOWN = 100;

export async function listingBuyerReviews(db: Db, listingId: string): Promise<BuyerReviewView[]> {
  return (await visibleBuyerReviews(db, listingId, REVIEWS_SHOWN)).map(toBuyerReviewView);
}

export async function listingFeedback(db: Db, key: string) {
  const listing = await findListingView(db, key);
  if (!listing) return null;
  const reviews = await listingBuyerReviews(db, listing.id);
  const { feedback: _latest, ...summary } = reputationSummary(listing, { withRecords: false });
  return {
    agentId: registryName(listing.slug),
    listingId: listing.id,
    summary,
    feedback: feedbackRecords(listing, reviews),
  };
}

/** Reviews for the owner's answer desk (their listings') or the admin's (every listing's), newest first. */
export async function reviewDesk(db: Db, scope: { ownerId: string } | { all: true }) {
  return (await recentBuyerReviews(db, scope)).map(({ review, listingName, listingSlug }) => ({
    ...toBuyerReviewView(review),
    listingName,
    listingSlug,
  }));
}

export type DeskReview = Awaited<ReturnType<typeof reviewDesk>>[number];
