// A listing's stored checks, read straight from listing_probes: what the tests hold the retention rules and the
// uptime figures against (no page shows the raw history).
import { and, desc, eq, gt } from "drizzle-orm";
import { listingProbes, type ListingProbe } from "@/db/schema";
import type { Db } from "@/db/types";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The listing's probes of the last `days` days, newest first. */
export async function probeHistory(db: Db, listingId: string, days = 30, now = new Date()): Promise<ListingProbe[]> {
  return db
    .select()
    .from(listingProbes)
    .where(
      and(eq(listingProbes.listingId, listingId), gt(listingProbes.checkedAt, new Date(now.getTime() - days * DAY_MS))),
    )
    .orderBy(desc(listingProbes.checkedAt), desc(listingProbes.id))
    .limit(5000);
}
