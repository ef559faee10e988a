// A new listing's derived fields: the slug from its name and its categories split and de-duplicated, before
// the database layer writes it.
import { insertListingRow, listingRow, type ListingRowInput } from "@/db/queries/listing-write";
import type { ListingRow, NewListingRow } from "@/db/schema";
import type { Db } from "@/db/types";
import { splitCategories } from "@/lib/categories";
import { registryName } from "./presenters/server-details";
import { slugify } from "./slug";

type ListingInput = Omit<ListingRowInput, "slug" | "categories"> & { categories: string[] | string; slug?: string };

function derived(input: ListingInput): ListingRowInput {
  return { ...input, categories: splitCategories(input.categories), slug: input.slug ?? slugify(input.name) };
}

/** The row a listing is stored as (for bulk inserts). */
export function toListingRow(input: ListingInput): NewListingRow {
  return listingRow(derived(input));
}

/** Inserts a listing; a taken slug gets a short random suffix instead of failing. */
export function insertListing(db: Db, input: ListingInput): Promise<ListingRow> {
  return insertListingRow(db, derived(input), registryName);
}
