"use server";
import { revalidatePath, updateTag } from "next/cache";
import { getDb } from "@/db";
import { findListingOwner } from "@/db/queries/reviews";
import { isAdmin } from "@/lib/auth/admin";
import { currentUser, requireSessionUserId } from "@/lib/auth/current-user";
import { ApiError } from "@/lib/errors";
import { enforceLimit, limits } from "@/lib/rate-limit";
import { CATALOGUE_TAG } from "@/lib/marketplace/catalogue";
import { verifyListing } from "@/lib/probe";
import { z } from "zod";
import { actionResult } from "./result";

/** 'Re-check': the listing's owner or an admin probes its server now and sees the result. */
export async function recheckListing(listingId: string) {
  return actionResult("recheckListing", async () => {
    await requireSessionUserId();
    const id = z.uuid("Unknown listing.").parse(listingId);
    const user = await currentUser();
    const db = await getDb();
    const owner = await findListingOwner(db, id);
    if (owner === undefined) throw new ApiError(404, "Unknown listing.");
    if (!isAdmin(user) && owner !== user?.id) throw new ApiError(403, "Only the listing's owner or an admin can re-check it.");
    // Each check reaches the owner's host and stores a row: bounded per person, and once a minute per listing.
    await enforceLimit(db, limits.rechecksPerUser, user!.id);
    await enforceLimit(db, limits.recheckCooldownPerListing, id);
    const recorded = await verifyListing(db, id);
    if (!recorded) throw new ApiError(404, "Unknown listing.");
    updateTag(CATALOGUE_TAG);
    revalidatePath("/admin/review");
    revalidatePath("/account");
    const { result } = recorded;
    return { reachable: result.reachable, error: result.error, errorClass: result.errorClass, tools: result.tools.length, verified: recorded.listing?.verified ?? false };
  });
}
