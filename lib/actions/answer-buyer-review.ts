"use server";
import { revalidatePath, updateTag } from "next/cache";
import { answerBuyerReview as answer } from "@/db/queries/buyer-reviews";
import { getDb } from "@/lib/database";
import { ApiError } from "@/lib/errors";
import { CATALOGUE_TAG } from "@/lib/listings/catalogue";
import { answerBuyerReviewSchema, type AnswerBuyerReviewInput } from "@/lib/validations/buyer-review";
import { userAction } from "./result";

/** The listing's owner answers a buyer review, once. */
export async function answerBuyerReview(input: AnswerBuyerReviewInput) {
  return userAction("answerBuyerReview", answerBuyerReviewSchema, input, async ({ reviewId, text }, userId) => {
    const outcome = await answer(await getDb(), reviewId, userId, text);
    if (outcome === "missing") throw new ApiError(404, "No review of one of your listings has this id.");
    if (outcome === "taken") throw new ApiError(409, "You have already answered this review.");
    updateTag(CATALOGUE_TAG);
    revalidatePath("/account");
    return { id: reviewId };
  });
}
