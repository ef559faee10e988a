"use server";
import { changedByAction } from "@/lib/cache/invalidate-action";
import { getDb } from "@/lib/database";
import { decideListing } from "@/db/queries/reviews";
import { ApiError } from "@/lib/errors";
import { logError } from "@/lib/log";
import { checkListing } from "@/lib/listings/checks/check-listings";
import { reviewDecisionSchema, type ReviewDecisionInput } from "@/lib/validations/review";
import { adminAction } from "./result";

const EDITED_SINCE_OPENED =
  "The owner changed this listing after you opened the queue. Review the new version below, then decide again.";
const NO_LONGER_PENDING = "This listing is no longer waiting for review.";
const NOT_REACHED =
  "Agora could not reach this server at its current address, so there are no prices or payee to approve. Make sure it is up, check it again, then approve.";
const REFUSALS = { edited: EDITED_SINCE_OPENED, not_pending: NO_LONGER_PENDING, unprobed: NOT_REACHED } as const;

/** An admin approves or rejects a pending listing, at the revision the review page showed; the public catalogue changes at once. */
export async function reviewListing(input: ReviewDecisionInput) {
  return adminAction("reviewListing", reviewDecisionSchema, input, async (parsed, admin) => {
    const reason = parsed.decision === "rejected" ? parsed.reason : null;
    const db = await getDb();
    const decision = { decision: parsed.decision, reason, revision: parsed.revision };
    let outcome = await decideListing(db, parsed.listingId, admin.id, decision);
    // No probe of this revision reached the server yet (its check after submission may still be running):
    // check it now, once, and approve what that probe reads.
    if (!outcome.ok && outcome.reason === "unprobed") {
      await checkListing(db, parsed.listingId);
      outcome = await decideListing(db, parsed.listingId, admin.id, decision);
    }
    if (!outcome.ok) {
      changedByAction([], ["/admin/review"]);
      throw new ApiError(409, REFUSALS[outcome.reason]);
    }
    const { listing } = outcome;
    // Verified needs a fresh probe of the approved listing (bounded by the probe's own timeout), so the
    // listing enters the catalogue with its real price and badge. The decision is already committed: a
    // probe that cannot be stored leaves the listing approved without the badge (the scheduler retries).
    let verified = false;
    if (listing.status === "approved") {
      try {
        verified = (await checkListing(db, listing.id))?.listing?.verified ?? false;
      } catch (error) {
        logError("probe after approval failed", error, { listingId: listing.id });
      }
    }
    changedByAction(["catalogue"], ["/admin/review"]);
    return { id: listing.id, status: listing.status, verified };
  });
}
