"use server";
import { revalidatePath, updateTag } from "next/cache";
import { z } from "zod";
import { getDb } from "@/db";
import { requireSessionUserId } from "@/lib/auth/current-user";
import { CATALOGUE_TAG } from "@/lib/marketplace/catalogue";
import { probeAfterResponse } from "@/lib/probe/schedule";
import { editServer as edit } from "@/lib/listings/submit/edit-server";
import { serverSubmissionSchema, type ServerSubmissionValues } from "@/lib/validations/server-submission";
import { actionResult } from "./result";

/** The owner edits a listing; it goes back to review with the same rules as a new submission. */
export async function editServer(listingId: string, values: ServerSubmissionValues) {
  return actionResult("editServer", async () => {
    const userId = await requireSessionUserId();
    const id = z.uuid("Unknown listing.").parse(listingId);
    const listing = await edit(await getDb(), userId, id, serverSubmissionSchema.parse(values));
    updateTag(CATALOGUE_TAG);
    revalidatePath("/account");
    probeAfterResponse(listing.id);
    return { id: listing.id, status: listing.status };
  });
}
