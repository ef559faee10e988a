// A provider's own submissions, whatever their review status (never shown publicly from here).
import { and, desc, eq } from "drizzle-orm";
import { listings, type ListingRow } from "../schema";
import type { Db } from "../types";

export type SubmittedListing = Pick<
  ListingRow,
  "id" | "name" | "serverUrl" | "status" | "rejectionReason" | "categories" | "createdAt"
>;

export async function listSubmittedListings(db: Db, submitterId: string): Promise<SubmittedListing[]> {
  return db
    .select({
      id: listings.id,
      name: listings.name,
      serverUrl: listings.serverUrl,
      status: listings.status,
      rejectionReason: listings.rejectionReason,
      categories: listings.categories,
      createdAt: listings.createdAt,
    })
    .from(listings)
    .where(eq(listings.submitterId, submitterId))
    .orderBy(desc(listings.createdAt), desc(listings.id));
}

/** One of the provider's own listings, for its edit form; undefined when it is someone else's. */
export async function findOwnListing(db: Db, submitterId: string, listingId: string) {
  const [row] = await db
    .select({
      id: listings.id,
      name: listings.name,
      description: listings.description,
      categories: listings.categories,
      serverUrl: listings.serverUrl,
      websiteUrl: listings.websiteUrl,
      paidTools: listings.paidTools,
      status: listings.status,
    })
    .from(listings)
    .where(and(eq(listings.id, listingId), eq(listings.submitterId, submitterId)));
  return row;
}
