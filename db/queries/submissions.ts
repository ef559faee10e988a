// A provider's own submissions, whatever their review status (never shown publicly from here).
import { desc, eq } from "drizzle-orm";
import { listings, type Listing } from "../schema";
import type { Db } from "../types";

export type SubmittedListing = Pick<Listing, "id" | "name" | "serverUrl" | "status" | "rejectionReason" | "categories" | "createdAt">;

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
