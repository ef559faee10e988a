import "server-only";
// Checks a listing after the response is sent, so submitting or approving never waits on a remote server.
import { after } from "next/server";
import { getDb } from "@/lib/database";
import { logError } from "@/lib/log";
import { checkListing } from "./check-listings";

export function checkAfterResponse(listingId: string): void {
  const run = async () => {
    try {
      await checkListing(await getDb(), listingId);
    } catch (error) {
      logError("background probe failed", error, { listingId });
    }
  };
  try {
    after(run);
  } catch {
    // Outside a request (scripts, direct handler calls in tests) there is no "after": leave it to verify:all.
  }
}
