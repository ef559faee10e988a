// A listing's buyer reviews in the reputation shape (ERC-8004 reputation registry's getSummary and feedback
// records, x402 `reputation` extension draft tags), for `/v0.1` `_meta` and the feedback endpoint.
import { ratingToScore } from "@agora-mcp/protocol";
import type { ListingView } from "@/lib/listings/model";
import { detailUrl, registryName } from "@/lib/listings/presenters/server-details";
import { siteUrl } from "@/lib/site";
import {
  NO_BUYER_REVIEWS,
  toFeedbackRecord,
  type BuyerReviewView,
  type FeedbackRecord,
} from "@/lib/listings/buyer-review-view";

type ReputationSummary = {
  /** ERC-8004 getSummary: how many feedback records and their average value (0–100). */
  count: number;
  averageScore: number | null;
  averageRating: number | null;
  tag1: "starred";
  tag2: "x402";
  /** Every record of the listing: GET this URL. */
  feedbackUrl: string;
  feedback: FeedbackRecord[];
};

function feedbackUrl(listingId: string): string {
  return `${siteUrl()}/api/buyer-reviews/${listingId}/feedback`;
}

export function feedbackRecords(
  listing: Pick<ListingView, "slug" | "serverUrl">,
  reviews: BuyerReviewView[],
): FeedbackRecord[] {
  const target = {
    registryName: registryName(listing.slug),
    serverUrl: listing.serverUrl,
    detailUrl: detailUrl(listing.slug),
  };
  return reviews.map((r) => toFeedbackRecord(r, target));
}

/** The summary with the newest records; `withRecords: false` leaves only the pointer (a tight metadata budget). */
export function reputationSummary(listing: ListingView, { withRecords = true } = {}): ReputationSummary {
  // A view cached before buyer reviews existed has none.
  const { count, average, latest } = listing.buyerReviews ?? NO_BUYER_REVIEWS;
  return {
    count,
    averageScore: average === null ? null : Math.round(ratingToScore(average) * 100) / 100,
    averageRating: average,
    tag1: "starred",
    tag2: "x402",
    feedbackUrl: feedbackUrl(listing.id),
    feedback: withRecords ? feedbackRecords(listing, latest) : [],
  };
}
