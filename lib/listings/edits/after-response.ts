import "server-only";
// Checks a pending edit after the response is sent, so saving never waits on a remote server.
import { after } from "next/server";
import { getDb } from "@/lib/database";
import { logError } from "@/lib/log";
import { checkListingEdit } from "./check-edit";

export function checkEditAfterResponse(listingId: string): void {
  const run = async () => {
    try {
      await checkListingEdit(await getDb(), listingId);
    } catch (error) {
      logError("background probe of an edit failed", error, { listingId });
    }
  };
  try {
    after(run);
  } catch {
    // Outside a request there is no "after": the reviewer's approval checks the edit when it has no check.
  }
}
