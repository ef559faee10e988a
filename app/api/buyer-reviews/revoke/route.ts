// POST /api/buyer-reviews/revoke — the reviewer withdraws their review, signed again (RevokeReview).
import { postBuyerReviewRevoke } from "@/lib/buyer-reviews/routes";

export const POST = postBuyerReviewRevoke;
