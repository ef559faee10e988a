import "server-only";
// Checks a listing (or an owner's pending edit of one) after the response is sent, so submitting, saving or approving
// never waits on a remote server.
import { after } from "next/server";
import { getDb } from "@/lib/database";
import type { Db } from "@/db/types";
import { logError } from "@/lib/log";
import { checkListing } from "./check-listings";

/** Runs `check` for a listing once the response is out; a failure is logged as `failure`, never thrown. */
export function afterResponse(
  listingId: string,
  check: (db: Db, listingId: string) => Promise<unknown>,
  failure: string,
): void {
  const run = async () => {
    try {
      await check(await getDb(), listingId);
    } catch (error) {
      logError(failure, error, { listingId });
    }
  };
  try {
    after(run);
  } catch {
    // Outside a request (scripts, direct handler calls in tests) there is no "after": check:all checks listings, and
    // a reviewer's approval checks an edit that has no check.
  }
}

export function checkAfterResponse(listingId: string): void {
  afterResponse(listingId, checkListing, "background probe failed");
}
