"use server";
import { changedByAction } from "@/lib/cache/invalidate-action";
import { hideBuyerReview as hide } from "@/db/queries/buyer-reviews";
import { getDb } from "@/lib/database";
import { ApiError } from "@/lib/errors";
import { hideBuyerReviewSchema, type HideBuyerReviewInput } from "@/lib/validations/buyer-review";
import { adminAction } from "./result";

/** An admin hides a buyer review: it stays stored, and the moderation history records who hid it and why. */
export async function hideBuyerReview(input: HideBuyerReviewInput) {
  return adminAction("hideBuyerReview", hideBuyerReviewSchema, input, async ({ reviewId, reason }, admin) => {
    const outcome = await hide(await getDb(), reviewId, admin.id, reason);
    if (outcome === "missing") throw new ApiError(404, "This review no longer exists.");
    if (outcome === "already") throw new ApiError(409, "This review is already hidden.");
    changedByAction(["catalogue"], ["/admin/review"]);
    return { id: reviewId };
  });
}
