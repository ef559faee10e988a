"use server";
import { revalidatePath, updateTag } from "next/cache";
import { z } from "zod";
import { getDb } from "@/lib/database";
import { CATALOGUE_TAG } from "@/lib/listings/catalogue";
import { checkAfterResponse } from "@/lib/listings/checks/after-response";
import { resubmitListing } from "@/lib/listings/submit/resubmit-listing";
import { serverSubmissionSchema, type ServerSubmissionValues } from "@/lib/validations/server-submission";
import { userAction } from "./result";

/** The owner edits a listing; it goes back to review with the same rules as a new submission. */
export async function editServer(listingId: string, values: ServerSubmissionValues) {
  return userAction("editServer", z.uuid("Unknown listing."), listingId, async (id, userId) => {
    const listing = await resubmitListing(await getDb(), userId, id, serverSubmissionSchema.parse(values));
    updateTag(CATALOGUE_TAG);
    revalidatePath("/account");
    checkAfterResponse(listing.id);
    return { id: listing.id, status: listing.status };
  });
}
