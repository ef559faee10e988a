// Writes listings: derives the slug and the search text every reader depends on.
import { sql } from "drizzle-orm";
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

export async function countListings(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(listings);
  return row?.n ?? 0;
}
