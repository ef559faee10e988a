// The latest check of each of a page of listings, in one query whatever the page's size.
import { desc, inArray } from "drizzle-orm";
import { listingProbes, type ListingProbe } from "../schema";
import type { Db } from "../types";

/** What the surfaces read of a check. */
export type LatestProbeRow = Pick<ListingProbe, "listingId" | "checkedAt" | "reachable" | "verifiable" | "latencyMs" | "tools" | "pricedItems" | "paymentMethods">;

/** The latest check of each listing, keyed by listing id; listings never checked are absent. */
export async function latestProbeRows(db: Db, listingIds: string[]): Promise<Map<string, LatestProbeRow>> {
  if (listingIds.length === 0) return new Map();
  const rows = await db
    .selectDistinctOn([listingProbes.listingId], {
      listingId: listingProbes.listingId,
      checkedAt: listingProbes.checkedAt,
      reachable: listingProbes.reachable,
      verifiable: listingProbes.verifiable,
      latencyMs: listingProbes.latencyMs,
      tools: listingProbes.tools,
      pricedItems: listingProbes.pricedItems,
      paymentMethods: listingProbes.paymentMethods,
    })
    .from(listingProbes)
    .where(inArray(listingProbes.listingId, listingIds))
    .orderBy(listingProbes.listingId, desc(listingProbes.checkedAt), desc(listingProbes.id));
  return new Map(rows.map((row) => [row.listingId, row]));
}
