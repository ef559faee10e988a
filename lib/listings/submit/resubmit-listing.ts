// An owner's edit: a new submission for review of an existing listing, with the same rules and limits.
import type { Db } from "@/db/types";
import type { Listing } from "@/db/schema";
import { updateListingForReview } from "@/db/queries/listing-write";
import { ApiError } from "@/lib/errors";
import { splitCategories } from "@/lib/categories";
import { enforceLimit, limits } from "@/lib/rate-limit";
import type { ServerSubmission } from "@/lib/validations/server-submission";
import { admitSubmission, asDuplicateServer, refuseListedServer } from "./submit-server";
import { normalizeServerUrl } from "./server-url";

/** Puts the owner's listing back to `pending` with the new text; 404 when `userId` owns no such listing. */
export async function resubmitListing(db: Db, userId: string, listingId: string, input: ServerSubmission): Promise<Listing> {
  // An edit is a new check of the owner's host and a new review: it counts against the daily submission
  // limit, and one listing changes at most once a minute.
  await admitSubmission(db, userId, input);
  await enforceLimit(db, limits.editCooldownPerListing, listingId);
  await refuseListedServer(db, input.mcpServerUrl, listingId);
  let listing: Listing | null;
  try {
    listing = await updateListingForReview(db, listingId, userId, {
      name: input.name,
      description: input.description,
      categories: splitCategories(input.categories),
      serverUrl: normalizeServerUrl(input.mcpServerUrl),
      websiteUrl: input.websiteUrl ?? null,
    });
  } catch (error) {
    throw asDuplicateServer(error);
  }
  if (!listing) throw new ApiError(404, "You have no server with that id.");
  return listing;
}
