"use server";
import { changedByAction } from "@/lib/cache/invalidate-action";
import { decideListingEdit } from "@/db/queries/listing-edits";
import { getDb } from "@/lib/database";
import { ApiError } from "@/lib/errors";
import { logError } from "@/lib/log";
import { checkListing } from "@/lib/listings/checks/check-listings";
import { checkListingEdit } from "@/lib/listings/edits/check-edit";
import { reviewDecisionSchema, type ReviewDecisionInput } from "@/lib/validations/review";
import { adminAction } from "./result";

const REFUSALS = {
  edited: "The owner changed this edit after you opened the queue. Review the new version below, then decide again.",
  not_pending: "This edit is no longer waiting for review.",
  unprobed:
    "Agora could not reach the edited server at its address, so there are no prices or payee to approve. Make sure it is up, then approve again.",
  taken: "Another listing now has this MCP server URL, so the edit cannot be applied. Reject it with that reason.",
} as const;

/**
 * An admin approves or rejects an owner's pending edit of an approved listing, at the revision the review page
 * showed. The listing stayed in the catalogue meanwhile; an approval changes it at once.
 */
export async function reviewListingEdit(input: ReviewDecisionInput) {
  return adminAction("reviewListingEdit", reviewDecisionSchema, input, async (parsed, admin) => {
    const db = await getDb();
    const decision = {
      decision: parsed.decision,
      reason: parsed.decision === "rejected" ? parsed.reason : null,
      revision: parsed.revision,
    };
    let outcome = await decideListingEdit(db, parsed.listingId, admin.id, decision);
    // The edit's check after saving has not reached its server yet (it may still be running): check it now, once.
    if (!outcome.ok && outcome.reason === "unprobed") {
      await checkListingEdit(db, parsed.listingId);
      outcome = await decideListingEdit(db, parsed.listingId, admin.id, decision);
    }
    if (!outcome.ok) {
      changedByAction([], ["/admin/review"]);
      throw new ApiError(409, REFUSALS[outcome.reason]);
    }
    let verified = outcome.listing.verified;
    if (parsed.decision === "approved") {
      // The applied version's price and badge come from a fresh check of its server (the decision is committed:
      // a check that cannot be stored leaves it without the badge until the scheduler's next run).
      try {
        verified = (await checkListing(db, parsed.listingId))?.listing?.verified ?? false;
      } catch (error) {
        logError("probe after approving an edit failed", error, { listingId: parsed.listingId });
      }
      changedByAction(["catalogue"]);
    }
    changedByAction([], ["/admin/review", "/account"]);
    return { id: outcome.listing.id, status: outcome.listing.status, verified };
  });
}
