// POST /api/buyer-reviews — a review signed (EIP-712) by the wallet that paid one of the listing's sales.
// Body and typed data: @agora-mcp/protocol's signedBuyerReviewSchema and BUYER_REVIEW_TYPES.
import { postBuyerReview } from "@/lib/buyer-reviews/routes";

export const POST = postBuyerReview;
