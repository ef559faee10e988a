// The one mapper from stored rows to the listing model (lib/listings/model.ts), and the page-of-listings
// loader every surface uses: a page of rows plus three queries (latest checks, 30-day record, drift).
import { recentDrift } from "@/db/queries/drift";
import { latestProbeRows, type LatestProbeRow } from "@/db/queries/latest-probes";
import { findPublicListing, type PublicListingRow } from "@/db/queries/listings";
import { NO_PROBES, uptimeSummaries, VERIFIED_WINDOW_MS } from "@/db/queries/probes";
import type { Db } from "@/db/types";
import type { Listing, ListingView, ProbeSnapshot } from "./model";

export const UPTIME_DAYS = 30;

export function toListing(row: PublicListingRow): Listing {
  return {
    ...row,
    price: row.price === null ? null : Number(row.price),
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

function toSnapshot({ listingId: _id, checkedAt, ...probe }: LatestProbeRow): ProbeSnapshot {
  return { ...probe, checkedAt: new Date(checkedAt).toISOString(), tools: probe.tools ?? [], pricedItems: probe.pricedItems ?? [], paymentMethods: probe.paymentMethods ?? [] };
}

/**
 * Verified is claimed only with a check behind it: the listing's flag (approval, kept by the checks) and a
 * verifiable latest check from the last 24 hours. A flag no check earned reads as unverified.
 */
export function verifiedByProbe(flag: boolean, probe: ProbeSnapshot | null, now = new Date()): boolean {
  return flag && probe !== null && probe.verifiable && now.getTime() - new Date(probe.checkedAt).getTime() < VERIFIED_WINDOW_MS;
}

/** The listings in the given order, each with what the checks know about it. */
export async function toListingViews(db: Db, rows: PublicListingRow[], now = new Date()): Promise<ListingView[]> {
  const ids = rows.map((l) => l.id);
  const [probes, uptimes, drift] = await Promise.all([latestProbeRows(db, ids), uptimeSummaries(db, ids, UPTIME_DAYS, now), recentDrift(db, ids)]);
  return rows.map((row) => {
    const found = probes.get(row.id);
    const probe = found ? toSnapshot(found) : null;
    const listing = toListing(row);
    return { ...listing, verified: verifiedByProbe(listing.verified, probe, now), probe, uptime: uptimes.get(row.id) ?? NO_PROBES, drift: drift.get(row.id) ?? [] };
  });
}

/** One approved listing's view by slug or id; null for unknown, pending and rejected ones. */
export async function findListingView(db: Db, slugOrId: string, now = new Date()): Promise<ListingView | null> {
  const row = await findPublicListing(db, slugOrId);
  return row ? (await toListingViews(db, [row], now))[0]! : null;
}

/** A listing no check has reached yet (a submission just saved). */
export function unprobedView(row: PublicListingRow): ListingView {
  return { ...toListing(row), verified: false, probe: null, uptime: NO_PROBES, drift: [] };
}
