"use server";
import { revalidatePath, updateTag } from "next/cache";
import { getDb } from "@/db";
import { decideListing } from "@/db/queries/reviews";
import { requireAdmin } from "@/lib/auth/admin";
import { ApiError } from "@/lib/errors";
import { CATALOGUE_TAG } from "@/lib/marketplace/catalogue";
import { verifyListing } from "@/lib/probe";
import { reviewDecisionSchema, type ReviewDecisionInput } from "@/lib/validations/review";
import { actionResult } from "./result";

/** An admin approves or rejects a pending listing; the public catalogue changes at once. */
export async function reviewListing(input: ReviewDecisionInput) {
  return actionResult("reviewListing", async () => {
    const admin = await requireAdmin();
    const parsed = reviewDecisionSchema.parse(input);
    const reason = parsed.decision === "rejected" ? parsed.reason : null;
    const db = await getDb();
    const listing = await decideListing(db, parsed.listingId, admin.id, { decision: parsed.decision, reason });
    if (!listing) throw new ApiError(409, "This listing is no longer waiting for review.");
    // Verified needs a fresh probe of the approved listing (bounded by the probe's own timeout), so the
    // listing enters the catalogue with its real price and badge.
    const probe = listing.status === "approved" ? await verifyListing(db, listing.id) : null;
    updateTag(CATALOGUE_TAG);
    revalidatePath("/admin/review");
    return { id: listing.id, status: listing.status, verified: probe?.listing?.verified ?? false };
  });
}
