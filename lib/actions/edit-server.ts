"use server";
import { revalidatePath, updateTag } from "next/cache";
import { z } from "zod";
import { getDb } from "@/lib/database";
import { requireSessionUserId } from "@/lib/auth/current-user";
import { CATALOGUE_TAG } from "@/lib/listings/catalogue";
import { checkAfterResponse } from "@/lib/listings/checks/after-response";
import { resubmitListing } from "@/lib/listings/submit/resubmit-listing";
import { serverSubmissionSchema, type ServerSubmissionValues } from "@/lib/validations/server-submission";
import { actionResult } from "./result";

/** The owner edits a listing; it goes back to review with the same rules as a new submission. */
export async function editServer(listingId: string, values: ServerSubmissionValues) {
  return actionResult("editServer", async () => {
    const userId = await requireSessionUserId();
    const id = z.uuid("Unknown listing.").parse(listingId);
    const listing = await resubmitListing(await getDb(), userId, id, serverSubmissionSchema.parse(values));
    updateTag(CATALOGUE_TAG);
    revalidatePath("/account");
    checkAfterResponse(listing.id);
    return { id: listing.id, status: listing.status };
  });
}
