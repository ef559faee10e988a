"use server";
import { getDb } from "@/lib/database";
import { checkAfterResponse } from "@/lib/listings/checks/after-response";
import { submitServer } from "@/lib/listings/submit/submit-server";
import { serverSubmissionSchema, type ServerSubmissionValues } from "@/lib/validations/server-submission";
import { userAction } from "./result";

/** The submit form's action: signed-in users only, the shared schema again, then saved as pending. */
export async function submitServerForReview(values: ServerSubmissionValues) {
  return userAction("submitServerForReview", serverSubmissionSchema, values, async (input, userId) => {
    const listing = await submitServer(await getDb(), userId, input);
    // The reviewer (and the provider's servers page) see the probe's evidence shortly after.
    checkAfterResponse(listing.id);
    return { id: listing.id, name: listing.name, status: listing.status };
  });
}
