"use server";
import { revalidatePath, updateTag } from "next/cache";
import { z } from "zod";
import { getDb } from "@/db";
import { updateListingForReview } from "@/db/queries/listing-write";
import { violatedUniqueConstraint } from "@/db/unique-violation";
import { requireSessionUserId } from "@/lib/auth/current-user";
import { ApiError } from "@/lib/errors";
import { enforceLimit, limits } from "@/lib/rate-limit";
import { CATALOGUE_TAG } from "@/lib/marketplace/catalogue";
import { probeAfterResponse } from "@/lib/probe/schedule";
import { DUPLICATE_SERVER_MESSAGE } from "@/lib/listings/submit/submit-server";
import { normalizeServerUrl, serverUrlProblem } from "@/lib/listings/submit/server-url";
import { serverSubmissionSchema, type ServerSubmissionValues } from "@/lib/validations/server-submission";
import { actionResult } from "./result";

/** The owner edits a listing; it goes back to review with the same rules as a new submission. */
export async function editServer(listingId: string, values: ServerSubmissionValues) {
  return actionResult("editServer", async () => {
    const userId = await requireSessionUserId();
    const id = z.uuid("Unknown listing.").parse(listingId);
    const input = serverSubmissionSchema.parse(values);
    const problem = serverUrlProblem(input.mcpServerUrl);
    if (problem) throw new ApiError(400, problem, { mcpServerUrl: [problem] });
    const db = await getDb();
    // An edit is a new submission for review (and a new probe of the owner's host): it counts against the
    // daily submission limit, and one listing changes at most once a minute.
    await enforceLimit(db, limits.submissionsPerUser, userId);
    await enforceLimit(db, limits.editCooldownPerListing, id);
    let listing;
    try {
      listing = await updateListingForReview(db, id, userId, {
        name: input.name,
        description: input.description,
        categories: input.categories,
        serverUrl: normalizeServerUrl(input.mcpServerUrl),
        websiteUrl: input.websiteUrl ?? null,
      });
    } catch (error) {
      if (violatedUniqueConstraint(error) === "listings_server_url_key") throw new ApiError(409, DUPLICATE_SERVER_MESSAGE, { mcpServerUrl: [DUPLICATE_SERVER_MESSAGE] });
      throw error;
    }
    if (!listing) throw new ApiError(404, "You have no server with that id.");
    updateTag(CATALOGUE_TAG);
    revalidatePath("/account");
    probeAfterResponse(listing.id);
    return { id: listing.id, status: listing.status };
  });
}
