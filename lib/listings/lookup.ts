// Listings by key or by registry page, each read in one trip to the database and shaped by the one mapper.
import { findListingRecord, withListingFacts } from "@/db/queries/listing-facts";
import {
  findPublicListing,
  findRegistryListing,
  findRegistryListingByName,
  listRegistryPage,
  type RegistryListingRow,
} from "@/db/queries/listings";
import type { Db } from "@/db/types";
import { toListingView } from "./from-rows";
import type { ListingView } from "./model";
import { slugFromRegistryName } from "./presenters/server-json";
import { registryFactsOf, type RegistryView } from "./registry-view";

/** One approved listing's view by slug or id; null for unknown, pending and rejected ones. */
export async function findListingView(db: Db, slugOrId: string, now = new Date()): Promise<ListingView | null> {
  const record = await findListingRecord(db, slugOrId, now);
  return record ? toListingView(record, now) : null;
}

/** Rows as the registry API serves them, each with its facts, in one trip for the facts. */
async function registryViews(db: Db, rows: RegistryListingRow[], now = new Date()): Promise<RegistryView[]> {
  const records = await withListingFacts(db, rows, now);
  return records.map((record, i) => ({ ...toListingView(record, now), registry: registryFactsOf(rows[i]!) }));
}

/** A page of the official-registry API (db/queries/listings.ts listRegistryPage), each listing with its registry facts. */
export async function listRegistryViews(db: Db, page: Parameters<typeof listRegistryPage>[1]): Promise<RegistryView[]> {
  return registryViews(db, await listRegistryPage(db, page));
}

/** One listing as the registry API serves it, by registry name (deleted ones only when asked) or by id or slug. */
export async function findRegistryView(
  db: Db,
  key: string,
  options: { byName: boolean; includeDeleted?: boolean },
): Promise<RegistryView | null> {
  const row = options.byName
    ? await findRegistryListingByName(db, key, slugFromRegistryName(key), options.includeDeleted)
    : await findRegistryListing(db, key);
  return row ? (await registryViews(db, [row]))[0]! : null;
}

/** The slug of the approved listing with this id (its canonical URL's key); null for unknown, pending and rejected ones. */
export async function findListingSlug(db: Db, id: string): Promise<string | null> {
  return (await findPublicListing(db, id.toLowerCase()))?.slug ?? null;
}
