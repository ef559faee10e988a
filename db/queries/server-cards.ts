// The listings that publish a server card: every approved one, by slug.
import { asc, eq } from "drizzle-orm";
import { listings } from "../schema";
import type { Db } from "../types";

/** Slug and name of every approved listing, in slug order, at most `limit`. */
export async function listCardListings(db: Db, limit: number): Promise<{ slug: string; name: string }[]> {
  return db
    .select({ slug: listings.slug, name: listings.name })
    .from(listings)
    .where(eq(listings.status, "approved"))
    .orderBy(asc(listings.slug))
    .limit(limit);
}
