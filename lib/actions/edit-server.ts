"use server";
import { revalidatePath, updateTag } from "next/cache";
import { z } from "zod";
import { getDb } from "@/lib/database";
import { CATALOGUE_TAG } from "@/lib/listings/catalogue";
import { checkAfterResponse } from "@/lib/listings/checks/after-response";
import { checkEditAfterResponse } from "@/lib/listings/edits/after-response";
import { resubmitListing } from "@/lib/listings/submit/resubmit-listing";
import { serverSubmissionSchema, type ServerSubmissionValues } from "@/lib/validations/server-submission";
import { userAction } from "./result";

/**
 * The owner edits a listing, with the same rules as a new submission: an approved listing stays in the catalogue
 * while the edit waits for review; any other goes (back) to review itself.
 */
export async function editServer(listingId: string, values: ServerSubmissionValues) {
  return userAction("editServer", z.uuid("Unknown listing."), listingId, async (id, userId) => {
    const saved = await resubmitListing(await getDb(), userId, id, serverSubmissionSchema.parse(values));
    revalidatePath("/account");
    if (saved.kind === "pending-edit") {
      checkEditAfterResponse(saved.listingId);
      return { id: saved.listingId, status: "approved" as const, pendingEdit: true };
    }
    updateTag(CATALOGUE_TAG);
    checkAfterResponse(saved.listingId);
    return { id: saved.listingId, status: saved.listing.status, pendingEdit: false };
  });
}
