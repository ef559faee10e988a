// A provider's own listings, whatever their review status, with what their latest checks found (the account
// page and its edit form). Never shown publicly from here.
import { recentDrift } from "@/db/queries/drift";
import { latestProbes } from "@/db/queries/probes";
import { findOwnListing as findOwnRow, listSubmittedListings } from "@/db/queries/submissions";
import type { Db } from "@/db/types";
import { isListingId } from "./keys";

/** The owner's listings, newest first, with the latest check and recent drift of each. */
export async function listOwnListings(db: Db, ownerId: string) {
  const listings = await listSubmittedListings(db, ownerId);
  const ids = listings.map((l) => l.id);
  const [checks, drift] = await Promise.all([latestProbes(db, ids), recentDrift(db, ids)]);
  return { listings, checks, drift };
}

/** One of the owner's listings for its edit form; undefined for a malformed id or someone else's listing. */
export async function findOwnListing(db: Db, ownerId: string, listingId: string) {
  return isListingId(listingId) ? findOwnRow(db, ownerId, listingId) : undefined;
}
