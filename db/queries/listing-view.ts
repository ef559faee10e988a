// A listing as every surface shows it: the public row, its latest probe, its 30-day record and its drift.
// A page of listings loads in three extra queries whatever its size; the search itself stays in listings.ts.
import { desc, inArray } from "drizzle-orm";
import type { AcceptedPayment, PricedItem, ProbedTool } from "@/lib/probe/types";
import { listingProbes } from "../schema";
import type { Db } from "../types";
import { findPublicListing, type PublicListing } from "./listings";
import { recentDrift, type DriftRecord } from "./drift";
import { NO_PROBES, uptimeSummaries, VERIFIED_WINDOW_MS, type UptimeSummary } from "./probes";

export const UPTIME_DAYS = 30;

/** What the latest probe found, as plain JSON (pages cache it). */
export type ProbeSnapshot = {
  checkedAt: string;
  reachable: boolean;
  verifiable: boolean;
  latencyMs: number | null;
  tools: ProbedTool[];
  pricedItems: PricedItem[];
  paymentMethods: AcceptedPayment[];
};

/** `drift`: the latest changes a probe found against what was approved, newest first. */
export type ListingView = PublicListing & { probe: ProbeSnapshot | null; uptime: UptimeSummary; drift: DriftRecord[] };

async function latestSnapshots(db: Db, listingIds: string[]): Promise<Map<string, ProbeSnapshot>> {
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
  return new Map(
    rows.map(({ listingId, checkedAt, ...probe }) => [
      listingId,
      { ...probe, checkedAt: new Date(checkedAt).toISOString(), tools: probe.tools ?? [], pricedItems: probe.pricedItems ?? [], paymentMethods: probe.paymentMethods ?? [] },
    ]),
  );
}

/**
 * Verified is claimed only with a probe behind it: the listing's flag (approval, kept by the verifier)
 * and a verifiable latest probe from the last 24 hours. A flag no probe earned reads as unverified.
 */
export function verifiedByProbe(flag: boolean, probe: ProbeSnapshot | null, now = new Date()): boolean {
  return flag && probe !== null && probe.verifiable && now.getTime() - new Date(probe.checkedAt).getTime() < VERIFIED_WINDOW_MS;
}

/** The listings in the given order, each with what the probe knows about it. */
export async function withProbeFacts(db: Db, listings: PublicListing[], now = new Date()): Promise<ListingView[]> {
  const ids = listings.map((l) => l.id);
  const [probes, uptimes, drift] = await Promise.all([latestSnapshots(db, ids), uptimeSummaries(db, ids, UPTIME_DAYS, now), recentDrift(db, ids)]);
  return listings.map((listing) => {
    const probe = probes.get(listing.id) ?? null;
    return { ...listing, verified: verifiedByProbe(listing.verified, probe, now), probe, uptime: uptimes.get(listing.id) ?? NO_PROBES, drift: drift.get(listing.id) ?? [] };
  });
}

/** One approved listing's view by slug or id; null for unknown, pending and rejected ones. */
export async function findListingView(db: Db, slugOrId: string, now = new Date()): Promise<ListingView | null> {
  const listing = await findPublicListing(db, slugOrId);
  return listing ? (await withProbeFacts(db, [listing], now))[0]! : null;
}

/** A listing no probe has reached yet (a submission just saved). */
export function unprobedView(listing: PublicListing): ListingView {
  return { ...listing, verified: false, probe: null, uptime: NO_PROBES, drift: [] };
}
