// Checks ingested candidates with the same probe as any listing (SSRF guard, timeouts), a few at a time and at
// most one per host at a time. A server that shows prices becomes an approved listing marked with its source;
// free and unreachable ones are remembered and checked again on a slower interval, so one that starts charging
// appears.
import { dueCandidates, recordCandidateCheck, sourceKind, upstreamEntryUrl, type Candidate } from "@/db/queries/ingest";
import { termsOf } from "@/db/queries/drift";
import { listingAtUrl } from "@/db/queries/listings";
import type { Db } from "@/db/types";
import { recordCheck } from "@/lib/listings/checks/drift";
import { serverUrlSpellings } from "@/lib/listings/submit/server-url";
import { insertListing } from "@/lib/listings/write";
import { probeServer, type ProbeOptions, type ProbeResult } from "@/lib/probe";
import { violatedUniqueConstraint } from "@/db/unique-violation";
import { importedListingText } from "./listing-text";
import { freeRegistryName } from "./naming";

const DAY_MS = 24 * 60 * 60 * 1000;
/** A listed server is checked hourly as a listing; its candidate row only needs a daily look. */
export const PAID_RECHECK_MS = DAY_MS;
/** Free or unreachable: a week, so a server that starts charging is found within one. */
export const UNPAID_RECHECK_MS = 7 * DAY_MS;

/** `refused`: the remote points at an address the SSRF guard does not let a check reach (a private network). */
export type CandidateCounts = { checked: number; paid: number; listed: number; free: number; unreachable: number; refused: number };
export type CandidateOptions = ProbeOptions & { limit?: number; concurrency?: number; now?: Date };

const isPaid = (result: ProbeResult) => result.reachable && result.pricedItems.length > 0;

async function listCandidate(db: Db, candidate: Candidate, result: ProbeResult): Promise<{ id: string; created: boolean }> {
  // A submission is stored in one spelling (no trailing slash: a server at the root of its host is `https://host`),
  // which the URL a registry lists need not be (the URL parser writes that server as `https://host/`).
  const existing = await listingAtUrl(db, [candidate.remoteUrl, ...serverUrlSpellings(candidate.remoteUrl)]);
  if (existing) {
    // Submitted here first (or imported before): that listing stands, with its own review and owner.
    await recordCheck(db, existing, result);
    return { id: existing.id, created: false };
  }
  const listing = await insertImported(db, candidate, result);
  await recordCheck(db, listing, result);
  return { id: listing.id, created: true };
}

/**
 * The new listing, under a registry name nobody else answers to (lib/ingest/naming.ts). Two checks of one server's
 * remotes may race for its name: the loser takes the next free one.
 */
async function insertImported(db: Db, candidate: Candidate, result: ProbeResult) {
  const source = sourceKind(candidate.sourceKey);
  for (let attempt = 0; ; attempt++) {
    try {
      return await insertListing(db, {
        ...importedListingText(candidate, source),
        // Another Agora's categories and listing date, read from its `_meta` (empty and null from any other source).
        categories: candidate.categories,
        ...(candidate.publishedAt ? { createdAt: candidate.publishedAt } : {}),
        serverUrl: candidate.remoteUrl,
        status: "approved",
        source,
        upstreamName: candidate.upstreamName,
        upstreamUrl: upstreamEntryUrl(candidate.sourceKey, candidate.upstreamName),
        upstreamStatus: candidate.status,
        registryName: source === "mcp-registry" ? await freeRegistryName(db, candidate.upstreamName) : null,
        // Nobody reviewed it: the terms it is listed with are what this check read (drift is measured from them).
        approvedTerms: termsOf(result),
      });
    } catch (error) {
      if (attempt >= 3 || violatedUniqueConstraint(error) !== "listings_registry_name_key") throw error;
    }
  }
}

export async function checkCandidates(db: Db, options: CandidateOptions = {}): Promise<CandidateCounts> {
  const now = options.now ?? new Date();
  const due = await dueCandidates(db, now, options.limit ?? 200);
  const counts: CandidateCounts = { checked: 0, paid: 0, listed: 0, free: 0, unreachable: 0, refused: 0 };
  const busyHosts = new Set<string>();
  const queue = [...due];

  const worker = async () => {
    while (queue.length > 0) {
      // The next candidate whose host no other worker is checking (one check per host at a time).
      const index = queue.findIndex((c) => !busyHosts.has(new URL(c.remoteUrl).host));
      if (index < 0) {
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      const [candidate] = queue.splice(index, 1);
      const host = new URL(candidate!.remoteUrl).host;
      busyHosts.add(host);
      try {
        const result = await probeServer(candidate!.remoteUrl, options);
        counts.checked++;
        if (isPaid(result)) {
          counts.paid++;
          const listed = await listCandidate(db, candidate!, result);
          if (listed.created) counts.listed++;
          await recordCandidateCheck(db, candidate!.remoteUrl, { outcome: "paid", nextCheckAt: new Date(now.getTime() + PAID_RECHECK_MS), listingId: listed.id });
        } else {
          const outcome = result.reachable ? "free" : result.errorClass === "blocked_address" || result.errorClass === "invalid_url" ? "refused" : "unreachable";
          counts[outcome]++;
          await recordCandidateCheck(db, candidate!.remoteUrl, { outcome, nextCheckAt: new Date(now.getTime() + UNPAID_RECHECK_MS) });
        }
      } finally {
        busyHosts.delete(host);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 4, due.length)) }, worker));
  return counts;
}
