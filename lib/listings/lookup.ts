// Listings by key or by registry page, each read in one trip to the database and shaped by the one mapper.
import { findListingRecord, listRegistryRecords, withListingFacts } from "@/db/queries/listing-facts";
import { findPublicListing, findPublicListingByRegistryName } from "@/db/queries/listings";
import type { Db } from "@/db/types";
import { toListingView } from "./from-rows";
import type { ListingView } from "./model";
import { slugFromRegistryName } from "./presenters/server-json";

/** One approved listing's view by slug or id; null for unknown, pending and rejected ones. */
export async function findListingView(db: Db, slugOrId: string, now = new Date()): Promise<ListingView | null> {
  const record = await findListingRecord(db, slugOrId, now);
  return record ? toListingView(record, now) : null;
}

/** One approved listing by the name the registry API lists it under; null for unknown, pending and rejected ones. */
export async function findListingViewByRegistryName(db: Db, name: string, now = new Date()): Promise<ListingView | null> {
  const row = await findPublicListingByRegistryName(db, name, slugFromRegistryName(name));
  return row ? toListingView((await withListingFacts(db, [row], now))[0]!, now) : null;
}

/** A page of the official-registry API: approved listings in slug order after a keyset, optionally changed since a time. */
export async function listRegistryViews(db: Db, page: Parameters<typeof listRegistryRecords>[1]): Promise<ListingView[]> {
  const now = new Date();
  return (await listRegistryRecords(db, page)).map((r) => toListingView(r, now));
}

/** The slug of the approved listing with this id (its canonical URL's key); null for unknown, pending and rejected ones. */
export async function findListingSlug(db: Db, id: string): Promise<string | null> {
  return (await findPublicListing(db, id.toLowerCase()))?.slug ?? null;
}
