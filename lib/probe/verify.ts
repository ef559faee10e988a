// Probes listings and records the results: one on demand (a new submission, a reviewer's "check again"),
// or every listing under review or approved (verify:all), a few at a time, then clears stale Verified
// badges. Server failures are results; only the database failing is an error.
import { eq } from "drizzle-orm";
import { listListingsToProbe, recordProbe, refreshVerifiedFlags, type RecordedProbe } from "@/db/queries/probes";
import { listings } from "@/db/schema";
import type { Db } from "@/db/types";
import { probeServer, type ProbeOptions } from "./probe";
import type { ProbeResult } from "./types";

export type ProbeListingsSummary = {
  listings: number;
  reachable: number;
  verifiable: number;
  unreachable: number;
  /** Probes that could not be stored (database trouble). */
  notRecorded: number;
  /** Listings whose Verified badge was cleared afterwards. */
  badgesCleared: number;
  concurrency: number;
  durationMs: number;
};

export type ProbeListingsOptions = ProbeOptions & {
  concurrency?: number;
  onResult?: (listingId: string, result: ProbeResult) => void;
  onRecordError?: (listingId: string, error: unknown) => void;
};

/** Probes one listing's server now and records the result; null when there is no such listing. */
export async function verifyListing(
  db: Db,
  listingId: string,
  options: ProbeOptions = {},
): Promise<(RecordedProbe & { result: ProbeResult }) | null> {
  const [listing] = await db.select({ serverUrl: listings.serverUrl }).from(listings).where(eq(listings.id, listingId));
  if (!listing) return null;
  const result = await probeServer(listing.serverUrl, options);
  return { result, ...(await recordProbe(db, listingId, result)) };
}

export async function probeListings(db: Db, options: ProbeListingsOptions = {}): Promise<ProbeListingsSummary> {
  const started = performance.now();
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 8));
  const targets = await listListingsToProbe(db);
  const summary: ProbeListingsSummary = {
    listings: targets.length,
    reachable: 0,
    verifiable: 0,
    unreachable: 0,
    notRecorded: 0,
    badgesCleared: 0,
    concurrency,
    durationMs: 0,
  };
  let next = 0;
  const worker = async () => {
    while (next < targets.length) {
      const target = targets[next++]!;
      const result = await probeServer(target.serverUrl, options);
      if (result.reachable) summary.reachable++;
      else summary.unreachable++;
      if (result.verifiable) summary.verifiable++;
      options.onResult?.(target.id, result);
      try {
        await recordProbe(db, target.id, result);
      } catch (error) {
        summary.notRecorded++;
        options.onRecordError?.(target.id, error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, targets.length) }, worker));
  summary.badgesCleared = await refreshVerifiedFlags(db);
  summary.durationMs = Math.round(performance.now() - started);
  return summary;
}
