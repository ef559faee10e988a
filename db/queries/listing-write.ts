// Writes listings: derives the slug and the search text every reader depends on.
import { and, eq, sql } from "drizzle-orm";
import { splitCategories } from "@/lib/categories";
import { slugify } from "@/lib/slug";
import { listings, type Listing, type NewListing } from "../schema";
import type { Db } from "../types";

export type ListingInput = Omit<NewListing, "id" | "slug" | "searchText" | "categories"> & {
  categories: string[] | string;
  slug?: string;
};

export function buildSearchText(name: string, description: string, categories: string[]): string {
  return `${name}\n${description}\n${categories.join(", ")}`.toLowerCase();
}

export function toListingRow(input: ListingInput): NewListing {
  const categories = splitCategories(input.categories);
  return {
    ...input,
    categories,
    slug: input.slug ?? slugify(input.name),
    searchText: buildSearchText(input.name, input.description, categories),
  };
}

/** Inserts a listing; a taken slug gets a short random suffix instead of failing. */
export async function insertListing(db: Db, input: ListingInput): Promise<Listing> {
  const row = toListingRow(input);
  for (let attempt = 0; attempt < 5; attempt++) {
    const slug = attempt === 0 ? row.slug : `${row.slug}-${Math.random().toString(36).slice(2, 7)}`;
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
  const categories = splitCategories(input.categories);
  const [updated] = await db
    .update(listings)
    .set({
      ...input,
      categories,
      searchText: buildSearchText(input.name, input.description, categories),
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
