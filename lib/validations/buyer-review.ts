import { buyerReviewTextSchema } from "@agora-mcp/protocol";
import { z } from "zod";

export const hideBuyerReviewSchema = z.object({
  reviewId: z.uuid("Unknown review."),
  reason: z
    .string()
    .trim()
    .min(5, "Say why the review is hidden (at least 5 characters).")
    .max(500, "Keep the reason under 500 characters."),
});

export const answerBuyerReviewSchema = z.object({
  reviewId: z.uuid("Unknown review."),
  text: buyerReviewTextSchema.pipe(z.string().trim().min(2, "Write an answer (at least 2 characters).")),
});

export type HideBuyerReviewInput = z.infer<typeof hideBuyerReviewSchema>;
export type AnswerBuyerReviewInput = z.infer<typeof answerBuyerReviewSchema>;
