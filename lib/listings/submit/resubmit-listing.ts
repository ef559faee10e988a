// An owner's edit: a new submission for review of an existing listing, with the same rules and limits. An approved
// listing stays in the catalogue as approved while the edit waits for review beside it (db/queries/listing-edits).
import type { Db } from "@/db/types";
import { saveOwnerEdit, type SavedEdit } from "@/db/queries/listing-edits";
import { ApiError } from "@/lib/errors";
import { splitCategories } from "@/lib/categories";
import { enforceLimit, limits } from "@/lib/rate-limit";
import {
  admitSubmission,
  asDuplicateServer,
  ownerPaidTools,
  refuseListedServer,
  type Submission,
} from "./submit-server";
import { normalizeServerUrl } from "./server-url";

/**
 * Sends the owner's edit for review: beside an approved listing as a pending edit (replacing an earlier one), or as
 * the listing itself when it is not approved; 404 when `userId` owns no such listing.
 */
export async function resubmitListing(
  db: Db,
  userId: string,
  listingId: string,
  input: Submission,
): Promise<SavedEdit> {
  // An edit is a new check of the owner's host and a new review: it counts against the daily submission
  // limit, and one listing changes at most once a minute.
  await admitSubmission(db, userId, input);
  await enforceLimit(db, limits.editCooldownPerListing, listingId);
  await refuseListedServer(db, input.mcpServerUrl, listingId);
  let saved: SavedEdit | null;
  try {
    saved = await saveOwnerEdit(db, listingId, userId, {
      name: input.name,
      description: input.description,
      categories: splitCategories(input.categories),
      serverUrl: normalizeServerUrl(input.mcpServerUrl),
      websiteUrl: input.websiteUrl ?? null,
      ...ownerPaidTools(input),
    });
  } catch (error) {
    throw asDuplicateServer(error);
  }
  if (!saved) throw new ApiError(404, "You have no server with that id.");
  return saved;
}
