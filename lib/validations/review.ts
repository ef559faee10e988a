import { z } from "zod";

// The revision the reviewer's page showed: a decision never applies to text the reviewer did not see.
const revision = z.number({ message: "Reload the review queue and decide again." }).int().min(1).max(2_147_483_647);

export const reviewDecisionSchema = z.discriminatedUnion("decision", [
  z.object({ listingId: z.uuid("Unknown listing."), revision, decision: z.literal("approved") }),
  z.object({
    listingId: z.uuid("Unknown listing."),
    revision,
    decision: z.literal("rejected"),
    reason: z
      .string()
      .trim()
      .min(5, "Please give the provider a reason (at least 5 characters).")
      .max(500, "Keep the reason under 500 characters."),
  }),
]);

export type ReviewDecisionInput = z.infer<typeof reviewDecisionSchema>;
