// A provider's own listings, whatever their review status, with what their latest checks found (the account
// page and its edit form). Never shown publicly from here.
import { recentDrift } from "@/db/queries/drift";
import { ownEdits } from "@/db/queries/listing-edits";
import { latestProbes } from "@/db/queries/probes";
import { findOwnListing as findOwnRow, listSubmittedListings } from "@/db/queries/submissions";
import type { Db } from "@/db/types";
import { isListingId } from "./keys";

/** The owner's listings, newest first, with the latest check, recent drift and any pending or rejected edit of each. */
export async function listOwnListings(db: Db, ownerId: string) {
  const listings = await listSubmittedListings(db, ownerId);
  const ids = listings.map((l) => l.id);
  const [checks, drift, edits] = await Promise.all([
    latestProbes(db, ids),
    recentDrift(db, ids),
    ownEdits(db, ownerId),
  ]);
  return { listings, checks, drift, edits };
}

/**
 * One of the owner's listings for its edit form, with its pending or rejected edit (the form starts from a pending
 * edit, which saving replaces); undefined for a malformed id or someone else's listing.
 */
export async function findOwnListing(db: Db, ownerId: string, listingId: string) {
  if (!isListingId(listingId)) return undefined;
  const [listing, edits] = await Promise.all([findOwnRow(db, ownerId, listingId), ownEdits(db, ownerId, listingId)]);
  return listing && { ...listing, edit: edits.get(listing.id) ?? null };
}
