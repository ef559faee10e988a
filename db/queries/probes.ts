// Probe history of listings, and the two listing fields it drives: price and Verified.
// Verified = approved + the last probe, within 24 h, was verifiable and found no change held for review.
import { and, asc, desc, eq, gt, sql, type SQL } from "drizzle-orm";
import type { ProbeResult } from "@/db/probe-result";
import { applyDrift, compareWithApproved, driftBasis, type CompareTerms, type DriftFinding } from "./drift";
import {
  ingestedServers,
  listingProbes,
  listings,
  type ListingProbe,
  type ListingRow,
  type UpstreamPaidTool,
} from "../schema";
import { rowFromJson, rowJson } from "../json-rows";
import { rowsOf } from "../rows";
import type { Db } from "../types";
import { readListingFacts, type ListingFact } from "./facts-statement";

export const VERIFIED_WINDOW_MS = 24 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Probe history kept per listing: the 30-day status strip and uptime read the last 30 days, so older rows
 * go; within them the newest PROBES_PER_HOUR of each clock hour stay (hourly checks keep one, re-checks a few).
 * Thinned by hour, not by count, so a flood of checks in one hour prunes that hour and leaves the strip whole.
 * The latest probe that reached the server always stays (an approval copies its terms).
 */
export const PROBE_RETENTION_DAYS = 31;
export const PROBES_PER_HOUR = 4;
/** What thinning by hour allows at most: every hour of the retention window full, plus the kept reachable one. */
export const MAX_PROBES_PER_LISTING = PROBES_PER_HOUR * 24 * (PROBE_RETENTION_DAYS + 1) + 1;

/** The paid tools named by the candidates listed as this listing (several spellings of one URL may be). */
const upstreamPaidTools = (listingId: SQL) =>
  sql<
    UpstreamPaidTool[]
  >`coalesce((select jsonb_agg(distinct t.value) from ${ingestedServers} i cross join lateral jsonb_array_elements(i.paid_tools) t where i.listing_id = ${listingId}), '[]'::jsonb)`;

/**
 * A listing as a probe finds it: which listing, the revision whose server URL is probed, the tools its owner named
 * as paid, and those the upstream entries it was listed from name (the probe calls them unpaid again, as the check
 * that listed it did).
 */
export type ProbeTarget = Pick<ListingRow, "id" | "serverUrl" | "revision" | "paidTools"> & {
  upstreamPaidTools: UpstreamPaidTool[];
};

/** The columns a ProbeTarget is read from. */
export const probeTargetColumns = {
  id: listings.id,
  serverUrl: listings.serverUrl,
  revision: listings.revision,
  paidTools: listings.paidTools,
  upstreamPaidTools: upstreamPaidTools(sql`${listings.id}`),
};

export type RecordedProbe = {
  probe: ListingProbe;
  drift: DriftFinding[];
  listing: { price: number | null; verified: boolean } | null;
};

/**
 * Stores a probe and, in the same transaction, brings the listing up to date: its price becomes the
 * cheapest priced item (null: free) when the probe read prices, and Verified follows the latest probe.
 * A result older than a probe already stored is kept as history and changes nothing else.
 */
export async function recordProbe(
  db: Db,
  probed: Pick<ProbeTarget, "id" | "revision">,
  result: ProbeResult,
  compare: CompareTerms,
  now = new Date(),
): Promise<RecordedProbe> {
  const listingId = probed.id;
  return db.transaction(async (tx) => {
    // Compared before it is stored: a held change must never be the listing's served price, payee or badge.
    const basis = await driftBasis(tx, listingId);
    const findings = compareWithApproved(basis, result, compare);
    const held = findings.some((f) => f.held);
    const [probe] = await tx
      .insert(listingProbes)
      .values({
        listingId,
        checkedAt: result.checkedAt,
        serverUrl: result.url,
        revision: probed.revision,
        reachable: result.reachable,
        protocolVersion: result.protocolVersion,
        serverName: result.serverName,
        serverVersion: result.serverVersion,
        tools: result.tools,
        pricedItems: result.pricedItems,
        paymentMethods: result.paymentMethods,
        latencyMs: result.latencyMs,
        error: result.error,
        errorClass: result.errorClass,
        httpStatus: result.httpStatus,
        quirks: result.quirks,
        verifiable: result.verifiable,
        termsHeld: held,
      })
      .returning();
    const [latest] = await tx
      .select({ id: listingProbes.id })
      .from(listingProbes)
      .where(eq(listingProbes.listingId, listingId))
      .orderBy(desc(listingProbes.checkedAt), desc(listingProbes.id))
      .limit(1);
    await pruneProbeHistory(tx, listingId, now);
    if (latest?.id !== probe!.id) return { probe: probe!, drift: [], listing: null };

    const fresh = now.getTime() - result.checkedAt.getTime() < VERIFIED_WINDOW_MS;
    // A held change keeps the approved price and takes the badge: a buyer paying the server now would pay its terms.
    const verified = sql`(${listings.status} = 'approved' and ${result.verifiable && fresh && !held})`;
    const price = result.pricesRead && !held ? sql`${result.lowestPrice}::numeric` : sql`${listings.price}`;
    const [listing] = await tx
      .update(listings)
      .set({
        verified,
        price,
        // Only a visible change moves updated_at (the sitemap's lastmod reads it).
        updatedAt: sql`case when ${listings.verified} is distinct from ${verified} or ${listings.price} is distinct from ${price}
          then ${now.toISOString()}::timestamptz else ${listings.updatedAt} end`,
      })
      .where(eq(listings.id, listingId))
      .returning({ price: listings.price, verified: listings.verified });
    await applyDrift(tx, listingId, probe!.id, result, basis, findings, now);
    return {
      probe: probe!,
      drift: findings,
      listing: listing
        ? { price: listing.price === null ? null : Number(listing.price), verified: Boolean(listing.verified) }
        : null,
    };
  });
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * Deletes a listing's probes past the retention window or past the newest PROBES_PER_HOUR of their hour, keeping the
 * latest reachable one and the latest reachable one whose terms are not held (the terms every surface serves).
 */
async function pruneProbeHistory(tx: Db | Tx, listingId: string, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - PROBE_RETENTION_DAYS * DAY_MS).toISOString();
  const deleted = await tx.execute(sql`
    delete from ${listingProbes} p
    where p.listing_id = ${listingId}
      and p.id is distinct from (select id from ${listingProbes} where listing_id = ${listingId} and reachable
                                 order by checked_at desc, id desc limit 1)
      and p.id is distinct from (select id from ${listingProbes} where listing_id = ${listingId} and reachable and not terms_held
                                 order by checked_at desc, id desc limit 1)
      and (p.checked_at < ${cutoff}::timestamptz
           or p.id in (select id from (select id, row_number() over (partition by date_trunc('hour', checked_at) order by checked_at desc, id desc) as nth
                                       from ${listingProbes} where listing_id = ${listingId}) hourly
                       where nth > ${PROBES_PER_HOUR}))
    returning p.id`);
  return rowsOf(deleted).length;
}

/**
 * Clears Verified where it no longer holds: the listing is not approved, or its latest probe is not
 * verifiable or is older than 24 h. Returns how many listings lost the badge.
 */
export async function refreshVerifiedFlags(db: Db, now = new Date()): Promise<number> {
  const since = new Date(now.getTime() - VERIFIED_WINDOW_MS).toISOString();
  const cleared = await db
    .update(listings)
    .set({ verified: false, updatedAt: now })
    .where(
      and(
        eq(listings.verified, true),
        sql`not (${listings.status} = 'approved' and coalesce((
          select p.verifiable and not p.terms_held and p.checked_at > ${since}::timestamptz
          from ${listingProbes} p where p.listing_id = ${listings.id}
          order by p.checked_at desc, p.id desc limit 1), false))`,
      ),
    )
    .returning({ id: listings.id });
  return cleared.length;
}

/**
 * The latest probe of a listing (absent: never probed), as every surface serves it: when its terms are held for
 * review, with the tools, priced items and payment methods of the latest reachable probe whose terms were not (none
 * when no such probe is left), so that no surface shows a held price or payee before a reviewer approves it.
 */
export const latestProbeFact: ListingFact<ListingProbe> = {
  select: (listingId) => sql`(select case when not p.terms_held then ${rowJson(listingProbes, "p")}
      else ${rowJson(listingProbes, "p")} || coalesce(
        (select jsonb_build_object('tools', a.tools, 'pricedItems', a.priced_items, 'paymentMethods', a.payment_methods) from ${listingProbes} a
         where a.listing_id = ${listingId} and a.reachable and not a.terms_held order by a.checked_at desc, a.id desc limit 1),
        jsonb_build_object('pricedItems', '[]'::jsonb, 'paymentMethods', '[]'::jsonb)) end
    from ${listingProbes} p where p.listing_id = ${listingId} order by p.checked_at desc, p.id desc limit 1)`,
  decode: (json) => rowFromJson(listingProbes, json as Record<string, unknown>),
};

/** The latest probe of each listing (for the review queue), keyed by listing id; listings never probed are absent. */
export async function latestProbes(db: Db, listingIds: string[]): Promise<Map<string, ListingProbe>> {
  const facts = await readListingFacts(db, listingIds, { probe: latestProbeFact });
  return new Map([...facts].flatMap(([id, f]) => (f.probe ? [[id, f.probe] as const] : [])));
}

export type UptimeSummary = {
  /** Share of probes that completed the MCP handshake, 0–100 with two decimals; null without probes. */
  uptimePct: number | null;
  /** Median handshake time of the successful probes; null without any. */
  medianLatencyMs: number | null;
  checks: number;
};

export type Uptime = UptimeSummary & {
  /** One entry per UTC day that has probes, oldest first. */
  daily: { day: string; ok: number; total: number }[];
};

export const NO_PROBES: UptimeSummary = { uptimePct: null, medianLatencyMs: null, checks: 0 };

const since = (days: number, now: Date) => new Date(now.getTime() - days * DAY_MS);

/** A listing's `days`-day summary (absent: no probes in the window). */
export function uptimeFact(days = 30, now = new Date()): ListingFact<UptimeSummary> {
  return {
    select: (
      listingId,
    ) => sql`(select case when count(*) > 0 then jsonb_build_object('checks', count(*), 'ok', count(*) filter (where p.reachable),
        'median', percentile_cont(0.5) within group (order by p.latency_ms) filter (where p.reachable and p.latency_ms is not null)) end
      from ${listingProbes} p where p.listing_id = ${listingId} and p.checked_at > ${since(days, now).toISOString()}::timestamptz)`,
    decode: (json) => {
      const r = json as { checks: number; ok: number; median: number | null };
      const checks = Number(r.checks);
      return {
        uptimePct: checks ? Math.round((Number(r.ok) / checks) * 10_000) / 100 : null,
        medianLatencyMs: r.median === null || r.median === undefined ? null : Math.round(Number(r.median)),
        checks,
      };
    },
  };
}

/** The `days`-day summary of each listing, keyed by id, in one query; listings without probes in the window are absent. */
async function uptimeSummaries(
  db: Db,
  listingIds: string[],
  days = 30,
  now = new Date(),
): Promise<Map<string, UptimeSummary>> {
  const facts = await readListingFacts(db, listingIds, { uptime: uptimeFact(days, now) });
  return new Map([...facts].flatMap(([id, f]) => (f.uptime ? [[id, f.uptime] as const] : [])));
}

/** One listing's summary plus its day-by-day record (the detail page's status strip). */
export async function uptimeAndLatency(db: Db, listingId: string, days = 30, now = new Date()): Promise<Uptime> {
  const day = sql<string>`to_char(${listingProbes.checkedAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const [totals, daily] = await Promise.all([
    uptimeSummaries(db, [listingId], days, now),
    db
      .select({
        day,
        ok: sql<number>`count(*) filter (where ${listingProbes.reachable})::int`,
        total: sql<number>`count(*)::int`,
      })
      .from(listingProbes)
      .where(and(eq(listingProbes.listingId, listingId), gt(listingProbes.checkedAt, since(days, now))))
      .groupBy(day)
      .orderBy(asc(day)),
  ]);
  return {
    ...(totals.get(listingId) ?? NO_PROBES),
    daily: daily.map((d) => ({ day: d.day, ok: Number(d.ok), total: Number(d.total) })),
  };
}

/**
 * What one scheduled run may check, whatever the catalogue or its submitters do: at most MAX_CHECKS_PER_RUN
 * listings (with the run's concurrency of 8 and the probe's 15 s limit, about 31 minutes if every server hangs,
 * a few minutes when they answer), at most MAX_PENDING_PER_OWNER listings awaiting review per submitter, and a
 * listing awaiting review for more than PENDING_BACKOFF_AFTER_DAYS is checked at most once a day. Oldest check
 * first, so approved listings past the cap are next in line (hourly runs reach 24,000 a day, each within the
 * 24 h that keeps its badge).
 */
type CheckLimits = { MAX_CHECKS_PER_RUN: number; MAX_PENDING_PER_OWNER: number; PENDING_BACKOFF_AFTER_DAYS: number };
export const CHECK_LIMITS: CheckLimits = {
  MAX_CHECKS_PER_RUN: 1000,
  MAX_PENDING_PER_OWNER: 10,
  PENDING_BACKOFF_AFTER_DAYS: 7,
};

/** Listings a scheduled run checks: approved ones keep their badge fresh, pending ones get a report for review. */
export async function listListingsToProbe(db: Db, now = new Date(), limits = CHECK_LIMITS): Promise<ProbeTarget[]> {
  const backoffSince = new Date(now.getTime() - limits.PENDING_BACKOFF_AFTER_DAYS * DAY_MS).toISOString();
  const daySince = new Date(now.getTime() - DAY_MS).toISOString();
  const result = await db.execute(sql`
    with candidates as (
      select l.id, l.server_url, l.revision, l.paid_tools, l.status, l.submitter_id, l.created_at,
             (select max(p.checked_at) from ${listingProbes} p where p.listing_id = l.id) as last_checked
      from ${listings} l
      where l.status in ('approved', 'pending')
    ), due as (
      select *,
             -- a submitter's pending listings, newest first (listings without a submitter stand alone)
             case when status = 'pending'
                  then row_number() over (partition by status, coalesce(submitter_id::text, id::text) order by created_at desc, id)
             end as nth_pending
      from candidates
      -- counted from the submission, which a check cannot move (a check that changes the price moves updated_at)
      where status = 'approved' or created_at > ${backoffSince}::timestamptz or last_checked is null or last_checked < ${daySince}::timestamptz
    )
    select id, server_url as "serverUrl", revision, paid_tools as "paidTools", ${upstreamPaidTools(sql`due.id`)} as "upstreamPaidTools" from due
    where nth_pending is null or nth_pending <= ${limits.MAX_PENDING_PER_OWNER}
    order by last_checked asc nulls first, id
    limit ${limits.MAX_CHECKS_PER_RUN}`);
  return rowsOf<ProbeTarget>(result);
}

/** What a probe of a listing reads now: its server URL at its current revision, whatever its status; null for an unknown id. */
export async function findProbeTarget(db: Db, listingId: string): Promise<ProbeTarget | null> {
  const [row] = await db.select(probeTargetColumns).from(listings).where(eq(listings.id, listingId));
  return row ?? null;
}
