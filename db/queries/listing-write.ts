// Writes listings, keeping the search text every reader depends on in step with name, description and categories.
// Slug and categories arrive already derived (lib/listings/write.ts).
import { and, eq, sql } from "drizzle-orm";
import { listings, type Listing, type NewListing } from "../schema";
import type { Db } from "../types";

export type ListingRowInput = Omit<NewListing, "id" | "searchText" | "slug" | "categories"> & { slug: string; categories: string[] };

export function buildSearchText(name: string, description: string, categories: string[]): string {
  return `${name}\n${description}\n${categories.join(", ")}`.toLowerCase();
}

/** The row to insert: the input with its search text. */
export function listingRow(input: ListingRowInput): NewListing {
  return { ...input, searchText: buildSearchText(input.name, input.description, input.categories) };
}

/** Inserts a listing; a taken slug gets a short random suffix instead of failing. */
export async function insertListingRow(db: Db, input: ListingRowInput): Promise<Listing> {
  const row = listingRow(input);
  for (let attempt = 0; attempt < 5; attempt++) {
    const slug = attempt === 0 ? input.slug : `${input.slug}-${Math.random().toString(36).slice(2, 7)}`;
    const [created] = await db
      .insert(listings)
      .values({ ...row, slug })
      .onConflictDoNothing({ target: listings.slug })
      .returning();
    if (created) return created;
  }
  throw new Error("Could not allocate a unique slug");
}

/**
 * A provider's edit: new fields, and the listing goes back to review (and out of the public catalogue)
 * until an admin approves it again. Null when the listing is not the owner's.
 */
export async function updateListingForReview(
  db: Db,
  listingId: string,
  ownerId: string,
  input: { name: string; description: string; categories: string[]; serverUrl: string; websiteUrl: string | null },
): Promise<Listing | null> {
  const [updated] = await db
    .update(listings)
    .set({
      ...input,
      searchText: buildSearchText(input.name, input.description, input.categories),
      status: "pending",
      rejectionReason: null,
      verified: false,
      // A reviewer who opened the queue before this edit can no longer approve the old text.
      revision: sql`${listings.revision} + 1`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(listings.id, listingId), eq(listings.submitterId, ownerId)))
    .returning();
  return updated ?? null;
}
