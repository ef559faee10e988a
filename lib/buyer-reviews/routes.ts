// The JSON endpoints' work, shared by the review, revoke and receipt routes: the limit per client address (before the
// body is read; the one per wallet is counted once the signature proves the wallet, in ./submit), the
// check-and-store, and the catalogue caches refreshed on a change.
import { NextResponse } from "next/server";
import {
  signedBuyerReceiptSchema,
  signedBuyerReviewRevokeSchema,
  signedBuyerReviewSchema,
  taskRefOf,
} from "@agora-mcp/protocol";
import { route } from "@/lib/http/route";
import { configuredOrigin } from "@/lib/public-origin";
import { changed } from "@/lib/cache/invalidate";
import { limits } from "@/lib/rate-limit";
import { acceptBuyerReceipt } from "./receipts";
import { acceptBuyerReview, revokeOwnBuyerReview } from "./submit";
import { toBuyerReviewView } from "@/lib/listings/buyer-review-view";

/**
 * The origin a review must be signed for: the configured public origin (required in production), else, in
 * development, the request's own.
 */
const thisSite = (request: Request) => configuredOrigin() ?? new URL(request.url).origin;

export const postBuyerReview = route(
  { name: "POST /api/buyer-reviews", rateLimit: limits.buyerReviewsPerIp, body: signedBuyerReviewSchema },
  async ({ body: signed, db, request }) => {
    const review = await acceptBuyerReview(db, signed, thisSite(request));
    // Pages and cached listings carry the count and average: they show the change at once.
    await changed("catalogue");
    return NextResponse.json({ review: toBuyerReviewView(review) }, { status: 201 });
  },
);

export const postBuyerReviewRevoke = route(
  { name: "POST /api/buyer-reviews/revoke", rateLimit: limits.buyerReviewsPerIp, body: signedBuyerReviewRevokeSchema },
  async ({ body: signed, db, request }) => {
    const review = await revokeOwnBuyerReview(db, signed, thisSite(request));
    // Pages and cached listings carry the count and average: they show the change at once.
    await changed("catalogue");
    return NextResponse.json({ revoked: true, id: review.id, taskRef: toBuyerReviewView(review).taskRef });
  },
);

export const postBuyerReceipt = route(
  { name: "POST /api/buyer-reviews/receipts", rateLimit: limits.buyerReceiptsPerIp, body: signedBuyerReceiptSchema },
  async ({ body: signed, db, request }) => {
    const receipt = await acceptBuyerReceipt(db, signed, thisSite(request));
    // Pages and cached listings carry the delivery counts: they show the change at once.
    await changed("catalogue");
    const view = {
      id: receipt.id,
      listingId: receipt.listingId,
      taskRef: taskRefOf(receipt.chainId, receipt.txHash),
      logIndex: receipt.logIndex,
      delivered: receipt.delivered,
      paidAt: receipt.paidAt.toISOString(),
    };
    return NextResponse.json({ receipt: view }, { status: 201 });
  },
);
