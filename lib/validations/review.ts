import { z } from "zod";

export const reviewDecisionSchema = z.discriminatedUnion("decision", [
  z.object({ listingId: z.uuid("Unknown listing."), decision: z.literal("approved") }),
  z.object({
    listingId: z.uuid("Unknown listing."),
    decision: z.literal("rejected"),
    reason: z
      .string()
      .trim()
      .min(5, "Please give the provider a reason (at least 5 characters).")
      .max(500, "Keep the reason under 500 characters."),
  }),
]);

export type ReviewDecisionInput = z.infer<typeof reviewDecisionSchema>;
