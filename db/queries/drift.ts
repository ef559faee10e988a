// Drift records: kept when a probe of an approved listing finds other prices, payee wallets or tools than
// were approved. A changed wallet or a price rise past the review factor is held: the listing stays listed with
// its approved terms, without 'Verified', and the change waits for review as a pending edit.
import { and, desc, eq, sql } from "drizzle-orm";
import type { AcceptedPayment, PricedItem, ProbedTool } from "@agora-mcp/protocol";
import type { ProbeResult } from "@/db/probe-result";
import {
  listingDrift,
  listingProbes,
  listings,
  type ApprovedTerms,
  type DriftKind,
  type ListingDrift,
} from "../schema";
import type { Db } from "../types";
import { readListingFacts, type ListingFact } from "./facts-statement";
import { holdTermsForReview } from "./held-terms";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** One change; `held`: buyers must not meet it unannounced, so the approved terms stay served until a review. */
export type DriftFinding = { kind: DriftKind; subject: string; approved: string; found: string; held?: boolean };

export type ProbeTerms = { tools: ProbedTool[]; pricedItems: PricedItem[]; paymentMethods: AcceptedPayment[] };

/** Every payee wallet a check names (payment methods and x402 tools' payTo), lower-cased. */
function payeeWalletsOf(probe: Pick<ProbeTerms, "pricedItems" | "paymentMethods">): string[] {
  const named = [
    ...probe.paymentMethods.map((m) => m.walletAddress),
    ...probe.pricedItems.map((i) => i.x402Requirements?.payTo),
  ];
  return [
    ...new Set(
      named
        .filter((w): w is string => typeof w === "string" && /^0x[0-9a-fA-F]{40}$/.test(w))
        .map((w) => w.toLowerCase()),
    ),
  ].sort();
}

/**
 * What a reviewer approves, as the approved_terms column keeps it: prices, payee wallets and tool names, and when
 * each wallet was first approved (a wallet the `previous` approved terms named keeps its time: re-approving an edit
 * does not make a seller's wallet newer than a stranger's listing that named it meanwhile).
 */
export function termsOf(probe: ProbeTerms, previous: ApprovedTerms | null = null, now = new Date()): ApprovedTerms {
  const since = previous?.walletsSince ?? {};
  return {
    prices: probe.pricedItems.map((i) => ({ name: i.name, amount: i.amount, currency: i.currency })),
    wallets: probe.paymentMethods.map((m) => ({ paymentMethod: m.paymentMethod, walletAddress: m.walletAddress })),
    tools: probe.tools.map((t) => t.name).sort(),
    walletsSince: Object.fromEntries(payeeWalletsOf(probe).map((w) => [w, since[w] ?? now.toISOString()])),
  };
}

/** The comparison of approved terms with a check's findings (lib/listings/checks/drift.ts findDrift, bound to one result). */
export type CompareTerms = (approved: ApprovedTerms) => DriftFinding[];

/** What a probe of a listing is compared with: the listing's status and approved terms when the probe was stored. */
type DriftBasis = { status: string; terms: ApprovedTerms | null } | undefined;

/** The listing's status and approved terms, its row locked until the probe's transaction ends. */
export async function driftBasis(tx: Tx, listingId: string): Promise<DriftBasis> {
  const [listing] = await tx
    .select({ status: listings.status, terms: listings.approvedTerms })
    .from(listings)
    .where(eq(listings.id, listingId))
    .for("update");
  return listing;
}

/** How a reachable probe of an approved listing with terms differs from them; nothing for any other probe. */
export function compareWithApproved(basis: DriftBasis, result: ProbeResult, compare: CompareTerms): DriftFinding[] {
  if (!result.reachable || basis?.status !== "approved" || !basis.terms) return [];
  return compare(basis.terms);
}

/**
 * Keeps what the latest probe changed against the approved terms (`findings`, from compareWithApproved), inside the
 * probe's transaction. The first verifiable probe of an approved listing without terms (approved before any probe)
 * sets them. A held change (findings marked `held`) waits for review as a pending edit (db/queries/listing-edits.ts).
 */
export async function applyDrift(
  tx: Tx,
  listingId: string,
  probeId: string,
  result: ProbeResult,
  basis: DriftBasis,
  findings: DriftFinding[],
  now: Date,
): Promise<void> {
  if (!result.reachable || basis?.status !== "approved") return;
  if (!basis.terms) {
    if (result.verifiable)
      await tx
        .update(listings)
        .set({ approvedTerms: termsOf(result, null, now) })
        .where(eq(listings.id, listingId));
    return;
  }
  if (findings.length === 0) return;
  await tx
    .insert(listingDrift)
    .values(
      findings.map(({ kind, subject, approved, found, held }) => ({
        kind,
        subject,
        approved,
        found,
        held: held ?? false,
        listingId,
        probeId,
        detectedAt: now,
      })),
    )
    .onConflictDoNothing();
  if (findings.some((f) => f.held)) await holdTermsForReview(tx, listingId, result);
}

/** The terms a reviewer approves: what the latest probe that reached the server read. */
/**
 * The terms an approval of `revision` records: from the latest probe that reached the server at that revision's
 * URL. A probe of an earlier revision (perhaps another URL, another payee) never counts; null when none did.
 */
export async function approvedTermsOfRevision(
  tx: Tx,
  listingId: string,
  revision: number,
  previous: ApprovedTerms | null = null,
) {
  const [probe] = await tx
    .select({
      tools: listingProbes.tools,
      pricedItems: listingProbes.pricedItems,
      paymentMethods: listingProbes.paymentMethods,
    })
    .from(listingProbes)
    .innerJoin(listings, eq(listings.id, listingProbes.listingId))
    .where(
      and(
        eq(listingProbes.listingId, listingId),
        eq(listingProbes.reachable, true),
        eq(listingProbes.revision, revision),
        eq(listingProbes.serverUrl, listings.serverUrl),
      ),
    )
    .orderBy(desc(listingProbes.checkedAt), desc(listingProbes.id))
    .limit(1);
  return probe ? termsOf(probe, previous) : null;
}

export type DriftRecord = {
  kind: ListingDrift["kind"];
  subject: string;
  approved: string;
  found: string;
  held: boolean;
  detectedAt: string;
};

/** A listing's latest `perListing` drift records, newest first (absent: none). */
export function recentDriftFact(perListing = 10): ListingFact<DriftRecord[]> {
  return {
    select: (
      listingId,
    ) => sql`(select jsonb_agg(jsonb_build_object('kind', d.kind, 'subject', d.subject, 'approved', d.approved, 'found', d.found,
        'held', d.held, 'detectedAt', d.detected_at) order by d.detected_at desc, d.id desc)
      from (select * from ${listingDrift} d where d.listing_id = ${listingId} order by d.detected_at desc, d.id desc limit ${perListing}) d)`,
    decode: (json) =>
      (json as DriftRecord[]).map((d) => ({
        kind: d.kind,
        subject: d.subject,
        approved: d.approved,
        found: d.found,
        held: d.held === true,
        detectedAt: new Date(d.detectedAt).toISOString(),
      })),
  };
}

/** The latest `perListing` drift records of each listing, newest first, keyed by listing id. */
export async function recentDrift(db: Db, listingIds: string[], perListing = 10): Promise<Map<string, DriftRecord[]>> {
  const facts = await readListingFacts(db, listingIds, { drift: recentDriftFact(perListing) });
  return new Map([...facts].flatMap(([id, f]) => (f.drift ? [[id, f.drift] as const] : [])));
}
