// Checks listings (probes their servers) and records the results: one on demand (a new submission, a
// reviewer's "check again"), or every listing under review or approved (check:all), a few at a time, then
// clears stale Verified badges. Server failures are results; only the database failing is an error.
import { findProbeTarget, listListingsToProbe, refreshVerifiedFlags, type RecordedProbe } from "@/db/queries/probes";
import type { Db } from "@/db/types";
import { changed } from "@/lib/cache/invalidate";
import { logError } from "@/lib/log";
import type { ProbeOptions, ProbeResult } from "@/lib/probe";
import { recordCheck } from "./drift";
import { probeListingServer } from "./probe-listing";

export type ChecksSummary = {
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

export type CheckListingsOptions = ProbeOptions & {
  concurrency?: number;
  /** Once aborted (the app is shutting down), no further listing is checked. */
  signal?: AbortSignal;
  onResult?: (listingId: string, result: ProbeResult) => void;
  onRecordError?: (listingId: string, error: unknown) => void;
};

/** Checks one listing's server now and records the result; null when there is no such listing. */
export async function checkListing(
  db: Db,
  listingId: string,
  options: ProbeOptions = {},
): Promise<(RecordedProbe & { result: ProbeResult }) | null> {
  const target = await findProbeTarget(db, listingId);
  if (target === null) return null;
  const result = await probeListingServer(target, { ...options, paidTools: target.upstreamPaidTools });
  return { result, ...(await recordCheck(db, target, result)) };
}

export async function checkListings(db: Db, options: CheckListingsOptions = {}): Promise<ChecksSummary> {
  const started = performance.now();
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 8));
  const targets = await listListingsToProbe(db);
  const summary: ChecksSummary = {
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
    while (next < targets.length && !options.signal?.aborted) {
      const target = targets[next++]!;
      const result = await probeListingServer(target, { ...options, paidTools: target.upstreamPaidTools });
      if (result.reachable) summary.reachable++;
      else summary.unreachable++;
      if (result.verifiable) summary.verifiable++;
      options.onResult?.(target.id, result);
      try {
        await recordCheck(db, target, result);
      } catch (error) {
        summary.notRecorded++;
        options.onRecordError?.(target.id, error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, targets.length) }, worker));
  summary.badgesCleared = await refreshVerifiedFlags(db);
  // Every recorded check changes what the pages show ("Last checked", the uptime line and strip; often status,
  // badges and prices), and the cached detail and marketplace pages would keep the old state for minutes: one tag,
  // revalidated once per run (hourly by default), as test purchases, sales and ingestion do. Comparing each check
  // with the last to skip it would cost more than it saves.
  if (summary.listings > summary.notRecorded || summary.badgesCleared > 0) {
    await changed("catalogue").catch((error: unknown) =>
      logError("could not revalidate pages after the checks", error),
    );
  }
  summary.durationMs = Math.round(performance.now() - started);
  return summary;
}
