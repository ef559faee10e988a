"use server";
import { getDb } from "@/lib/database";
import { requireSessionUserId } from "@/lib/auth/current-user";
import { checkAfterResponse } from "@/lib/listings/checks/after-response";
import { submitServer } from "@/lib/listings/submit/submit-server";
import { serverSubmissionSchema, type ServerSubmissionValues } from "@/lib/validations/server-submission";
import { actionResult } from "./result";

/** The submit form's action: signed-in users only, the shared schema again, then saved as pending. */
export async function submitServerForReview(values: ServerSubmissionValues) {
  return actionResult("submitServerForReview", async () => {
    const userId = await requireSessionUserId();
    const input = serverSubmissionSchema.parse(values);
    const listing = await submitServer(await getDb(), userId, input);
    // The reviewer (and the provider's servers page) see the probe's evidence shortly after.
    checkAfterResponse(listing.id);
    return { id: listing.id, name: listing.name, status: listing.status };
  });
}
