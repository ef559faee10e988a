import "server-only";
// Probes a listing after the response is sent, so submitting or approving never waits on a remote server.
import { after } from "next/server";
import { getDb } from "@/db";
import { logError } from "@/lib/log";
import { verifyListing } from "./verify";

export function probeAfterResponse(listingId: string): void {
  const run = async () => {
    try {
      await verifyListing(await getDb(), listingId);
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
