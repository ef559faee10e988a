"use server";
import { changedByAction } from "@/lib/cache/invalidate-action";
import { answerBuyerReview as answer } from "@/db/queries/buyer-reviews";
import { getDb } from "@/lib/database";
import { ApiError } from "@/lib/errors";
import { answerBuyerReviewSchema, type AnswerBuyerReviewInput } from "@/lib/validations/buyer-review";
import { userAction } from "./result";

/** The listing's owner answers a buyer review, once. */
export async function answerBuyerReview(input: AnswerBuyerReviewInput) {
  return userAction("answerBuyerReview", answerBuyerReviewSchema, input, async ({ reviewId, text }, userId) => {
    const outcome = await answer(await getDb(), reviewId, userId, text);
    if (outcome === "missing") throw new ApiError(404, "No review of one of your listings has this id.");
    if (outcome === "taken") throw new ApiError(409, "You have already answered this review.");
    changedByAction(["catalogue"], ["/account"]);
    return { id: reviewId };
  });
}
