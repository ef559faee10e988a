// Checks ingested candidates with the same probe as any listing (SSRF guard, timeouts), a few at a time and at
// most one per host at a time, each calling unpaid the tools its upstream entries name as paid (and those its own
// tools/list marks), never another. A server that shows prices becomes an approved listing marked with its source;
// the others are remembered with the reason (CANDIDATE_OUTCOMES) and checked again on a slower interval, so one that
// starts charging appears.
import { dueCandidates, recordCandidateCheck, sourceKind, upstreamEntryUrl, type Candidate } from "@/db/queries/ingest";
import { termsOf } from "@/db/queries/drift";
import { listingAtUrl } from "@/db/queries/listings";
import type { Db } from "@/db/types";
import { recordCheck } from "@/lib/listings/checks/drift";
import { serverUrlSpellings } from "@/lib/listings/submit/server-url";
import { insertListing } from "@/lib/listings/write";
import type { ToolPayment } from "@agora-mcp/protocol";
import { probeServer, type ProbeOptions, type ProbeResult } from "@/lib/probe";
import { violatedUniqueConstraint } from "@/db/unique-violation";
import { importedListingText } from "./listing-text";
import { freeRegistryName } from "./naming";

const DAY_MS = 24 * 60 * 60 * 1000;
/** A listed server is checked hourly as a listing; its candidate row only needs a daily look. */
const PAID_RECHECK_MS = DAY_MS;
/** Free or unreachable: a week, so a server that starts charging is found within one. */
const UNPAID_RECHECK_MS = 7 * DAY_MS;

/**
 * What one check of a candidate found, as counted and stored (`ingested_servers.outcome`); only `paid` is listed.
 * In the order a check decides: a server that does not answer MCP never gets as far as its tools.
 */
export const CANDIDATE_OUTCOMES = {
  /** Priced items read: listed (or already listed). */
  paid: "paid",
  /** The address is one the SSRF guard does not let a check reach (a private network), or no URL. */
  refused: "refused",
  /** No answer at all: connection refused, DNS, timeout, TLS, an HTTP error. */
  unreachable: "unreachable",
  /** Answers HTTP, but not as an MCP server. */
  notMcp: "not-mcp",
  /** A paid tool asked other terms at its second unpaid call than at its first: no price to list. */
  priceMoved: "price-moved",
  /** Paid tools asked for payment, but in no offer Agora can pay (another scheme, network or token). */
  noOffer: "no-offer",
  /** The unpaid call of a tool said to be paid failed. */
  callFailed: "call-failed",
  /** Tools named as paid answered an unpaid call without asking for payment. */
  noAsk: "no-ask",
  /** An MCP server where nothing says a tool is paid: no tool was called. */
  free: "free",
} as const;
export type CandidateOutcome = keyof typeof CANDIDATE_OUTCOMES;

export type CandidateCounts = { checked: number; listed: number } & Record<CandidateOutcome, number>;
export type CandidateOptions = ProbeOptions & { limit?: number; concurrency?: number; now?: Date };

export function emptyCandidateCounts(): CandidateCounts {
  return {
    checked: 0,
    listed: 0,
    ...(Object.fromEntries(Object.keys(CANDIDATE_OUTCOMES).map((k) => [k, 0])) as Record<CandidateOutcome, number>),
  };
}

/** Of a paid tool's statuses, the one that says most about why nothing was priced (the first in this list wins). */
const UNPRICED: [ToolPayment["status"], CandidateOutcome][] = [
  ["unstable", "priceMoved"],
  ["unreadable", "noOffer"],
  ["failed", "callFailed"],
  ["no-ask", "noAsk"],
];

/** Why a check did or did not make a listing. */
function candidateOutcome(result: ProbeResult): CandidateOutcome {
  if (!result.reachable) {
    if (result.errorClass === "blocked_address" || result.errorClass === "invalid_url") return "refused";
    return result.errorClass === "not_mcp" ? "notMcp" : "unreachable";
  }
  if (result.pricedItems.length > 0) return "paid";
  const statuses = new Set(result.tools.flatMap((t) => (t.paid ? [t.paid.status] : [])));
  return UNPRICED.find(([status]) => statuses.has(status))?.[1] ?? "free";
}

async function listCandidate(
  db: Db,
  candidate: Candidate,
  result: ProbeResult,
): Promise<{ id: string; created: boolean }> {
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
        // What the upstream said beyond Agora's fields, when it first published the entry, and the way it came here.
        upstreamServer: candidate.upstreamServer,
        publishedAt: candidate.publishedAt,
        provenance: candidate.provenance,
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
  const counts = emptyCandidateCounts();
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
        await checkCandidate(db, candidate!, options, now, counts);
      } finally {
        busyHosts.delete(host);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 4, due.length)) }, worker));
  return counts;
}

/** One candidate: probed with the tools its upstream entries name as paid, listed when paid, and its outcome kept. */
async function checkCandidate(
  db: Db,
  candidate: Candidate,
  options: CandidateOptions,
  now: Date,
  counts: CandidateCounts,
): Promise<void> {
  const result = await probeServer(candidate.remoteUrl, { ...options, paidTools: candidate.paidTools });
  const outcome = candidateOutcome(result);
  counts.checked++;
  counts[outcome]++;
  if (outcome === "paid") {
    const listed = await listCandidate(db, candidate, result);
    if (listed.created) counts.listed++;
    await recordCandidateCheck(db, candidate.remoteUrl, {
      outcome: CANDIDATE_OUTCOMES.paid,
      nextCheckAt: new Date(now.getTime() + PAID_RECHECK_MS),
      listingId: listed.id,
    });
  } else {
    await recordCandidateCheck(db, candidate.remoteUrl, {
      outcome: CANDIDATE_OUTCOMES[outcome],
      nextCheckAt: new Date(now.getTime() + UNPAID_RECHECK_MS),
    });
  }
}
