"use server";
import { changedByAction } from "@/lib/cache/invalidate-action";
import { z } from "zod";
import { getDb } from "@/lib/database";
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
    changedByAction([], ["/account"]);
    if (saved.kind === "pending-edit") {
      checkEditAfterResponse(saved.listingId);
      return { id: saved.listingId, status: "approved" as const, pendingEdit: true };
    }
    changedByAction(["catalogue"]);
    checkAfterResponse(saved.listingId);
    return { id: saved.listingId, status: saved.listing.status, pendingEdit: false };
  });
}
