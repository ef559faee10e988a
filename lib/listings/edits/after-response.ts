import "server-only";
// Checks a pending edit after the response is sent (the shared mechanism: lib/listings/checks/after-response.ts).
import { afterResponse } from "@/lib/listings/checks/after-response";
import { checkListingEdit } from "./check-edit";

export function checkEditAfterResponse(listingId: string): void {
  afterResponse(listingId, checkListingEdit, "background probe of an edit failed");
}
