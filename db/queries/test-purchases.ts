// Agora's test purchases: the day's budget (reserved in the database before anything is signed, so instances
// sharing it cannot overspend it together), each purchase's record, and the items owners exclude.
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import {
  buyerReceipts,
  listingProbes,
  listings,
  testPurchaseExclusions,
  testPurchases,
  testPurchaseSpending,
  type ListingRow,
  type TestPurchase,
  type TestPurchaseOutcome,
} from "../schema";
import { rowFromJson, rowJson } from "../json-rows";
import { rowsOf } from "../rows";
import type { Db } from "../types";
import { readListingFacts, type ListingFact } from "./facts-statement";

/** Today as the database's clock sees it, in UTC: the day a budget counts. */
const TODAY = sql`(now() at time zone 'utc')::date`;

/** `wallet`: the paying test wallet's address, whose own daily budget the purchase counts against. */
type NewTestPurchase = {
  listingId: string;
  item: string;
  network: string;
  payTo: string | null;
  units: bigint;
  wallet: string;
};

/** Budgets are kept per wallet under its lower-case address, however the caller spells it. */
const walletKey = (address: string) => address.toLowerCase();

/** Returned when the day's budget cannot take `units` more. */
type OverBudget = { overBudget: true; spentUnits: bigint };

/**
 * Reserves `units` of today's budget and records the purchase as pending, in one transaction. The spending row
 * only ever rises through a conditional update (`spent + units <= budget`), which PostgreSQL re-checks on the
 * latest row version under its row lock: two instances reserving at once cannot both pass the last dollar.
 */
export async function reserveTestPurchase(
  db: Db,
  purchase: NewTestPurchase,
  budgetUnits: bigint,
): Promise<{ id: string } | OverBudget> {
  const wallet = walletKey(purchase.wallet);
  if (purchase.units > budgetUnits) return { overBudget: true, spentUnits: await spentToday(db, wallet) };
  return db.transaction(async (tx) => {
    const raised = await tx.execute(sql`
      insert into ${testPurchaseSpending} (wallet, day, spent_units) values (${wallet}, ${TODAY}, ${purchase.units})
      on conflict (wallet, day) do update set spent_units = ${testPurchaseSpending.spentUnits} + excluded.spent_units
      where ${testPurchaseSpending.spentUnits} + excluded.spent_units <= ${budgetUnits}
      returning spent_units`);
    if (rowsOf(raised).length === 0)
      return { overBudget: true as const, spentUnits: await spentToday(tx as unknown as Db, wallet) };
    const [row] = await tx
      .insert(testPurchases)
      .values({ ...purchase, wallet, money: "reserved" })
      .returning({ id: testPurchases.id });
    return { id: row!.id };
  });
}

/** Units `wallet` spent or holds in reservation today. */
export async function spentToday(db: Db, wallet: string): Promise<bigint> {
  const [row] = await db
    .select({ spent: testPurchaseSpending.spentUnits })
    .from(testPurchaseSpending)
    .where(and(eq(testPurchaseSpending.wallet, walletKey(wallet)), sql`${testPurchaseSpending.day} = ${TODAY}`));
  return row?.spent ?? 0n;
}

/**
 * The purchase ledger's later word on a reserved purchase's money. `release` (nothing was ever signed, so nothing
 * can move) gives its reservation back to the day it was taken from, once; anything else keeps it spent, a refusal
 * included: the server still holds a signed authorisation it can settle until it expires.
 */
/**
 * `settledUnits`: what a metered purchase moved, when less than the maximum it reserved: the row keeps that, and the
 * day's spending gets the rest back.
 */
export async function recordTestPurchaseMoney(
  db: Db,
  id: string,
  change: { money: string; transaction?: string; note?: string; release?: boolean; settledUnits?: bigint },
): Promise<void> {
  await db.transaction(async (tx) => {
    const [before] = await tx
      .select({
        money: testPurchases.money,
        units: testPurchases.units,
        day: testPurchases.day,
        wallet: testPurchases.wallet,
      })
      .from(testPurchases)
      .where(eq(testPurchases.id, id))
      .for("update");
    if (!before) return;
    await tx
      .update(testPurchases)
      .set({
        money: change.money,
        ...(change.transaction ? { transaction: change.transaction } : {}),
        ...(change.note ? { note: change.note.slice(0, 300) } : {}),
      })
      .where(eq(testPurchases.id, id));
    const settled = change.settledUnits;
    if (settled !== undefined && settled >= 0n && settled < before.units) {
      await tx.update(testPurchases).set({ units: settled }).where(eq(testPurchases.id, id));
      await tx
        .update(testPurchaseSpending)
        .set({ spentUnits: sql`greatest(0, ${testPurchaseSpending.spentUnits} - ${before.units - settled})` })
        .where(and(eq(testPurchaseSpending.wallet, before.wallet), eq(testPurchaseSpending.day, before.day)));
    }
    if (change.release && before.money !== "refused") {
      await tx
        .update(testPurchaseSpending)
        .set({ spentUnits: sql`greatest(0, ${testPurchaseSpending.spentUnits} - ${before.units})` })
        .where(and(eq(testPurchaseSpending.wallet, before.wallet), eq(testPurchaseSpending.day, before.day)));
    }
  });
}

/** Records a purchase that never reached a reservation (drift, refused before signing). */
export async function insertTestPurchase(
  db: Db,
  purchase: NewTestPurchase & { outcome: TestPurchaseOutcome; note: string },
): Promise<string> {
  const [row] = await db
    .insert(testPurchases)
    .values({
      ...purchase,
      wallet: walletKey(purchase.wallet),
      note: purchase.note.slice(0, 300),
      money: "none",
      finishedAt: sql`now()`,
    })
    .returning({ id: testPurchases.id });
  return row!.id;
}

/**
 * The purchase's verdict. A listing that took payment and delivered nothing loses Verified in the same
 * transaction (the presenters keep it off until a later test purchase delivers).
 */
export async function finishTestPurchase(
  db: Db,
  id: string,
  verdict: { outcome: TestPurchaseOutcome; deliveredMs?: number | null; note?: string; transaction?: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(testPurchases)
      .set({
        outcome: verdict.outcome,
        deliveredMs: verdict.deliveredMs ?? null,
        finishedAt: sql`now()`,
        ...(verdict.note ? { note: verdict.note.slice(0, 300) } : {}),
        ...(verdict.transaction ? { transaction: verdict.transaction } : {}),
      })
      .where(eq(testPurchases.id, id))
      .returning({ listingId: testPurchases.listingId });
    if (row && verdict.outcome === "not-delivered") {
      await tx
        .update(listings)
        .set({ verified: false, updatedAt: sql`now()` })
        .where(and(eq(listings.id, row.listingId), eq(listings.verified, true)));
    }
  });
}

/** A listing's latest finished test purchase (absent: none yet). */
export const latestTestPurchaseFact: ListingFact<TestPurchase> = {
  select: (listingId) => sql`(select ${rowJson(testPurchases, "t")} from ${testPurchases} t
    where t.listing_id = ${listingId} and t.outcome <> 'pending' order by t.started_at desc, t.id desc limit 1)`,
  decode: (json) => rowFromJson(testPurchases, json as Record<string, unknown>),
};

/** The latest finished test purchase of each listing (pending ones are not shown until they end). */
export async function latestTestPurchases(db: Db, listingIds: string[]): Promise<Map<string, TestPurchase>> {
  const facts = await readListingFacts(db, listingIds, { test: latestTestPurchaseFact });
  return new Map([...facts].flatMap(([id, f]) => (f.test ? [[id, f.test] as const] : [])));
}

export type TestPurchaseTarget = Pick<ListingRow, "id" | "name" | "serverUrl" | "price"> & {
  lastTestedAt: Date | null;
};

/**
 * Approved paid listings due a test purchase (none since `intervalMs` ago): listings someone answers for (submitted
 * here and reviewed, or claimed by their publisher) before unclaimed imports, so any number of cheap imported
 * listings cannot use up the day's budget before them; then never tested first, then cheapest first. The interval is
 * measured on the database's clock.
 */
export async function listTestPurchaseTargets(
  db: Db,
  intervalMs: number,
  limit: number,
): Promise<TestPurchaseTarget[]> {
  const last = sql<Date | null>`(select max(t.started_at) from ${testPurchases} t where t.listing_id = ${listings.id})`;
  const rows = await db
    .select({
      id: listings.id,
      name: listings.name,
      serverUrl: listings.serverUrl,
      price: listings.price,
      lastTestedAt: last,
    })
    .from(listings)
    .where(
      and(
        eq(listings.status, "approved"),
        sql`${listings.price} > 0`,
        // Only a server whose latest check read its prices and payee: there is nothing to buy from the others (nor
        // from one whose terms wait for review: it would ask other terms than the listing shows).
        sql`coalesce((select p.verifiable and not p.terms_held from ${listingProbes} p where p.listing_id = ${listings.id} order by p.checked_at desc, p.id desc limit 1), false)`,
        sql`coalesce(${last} < now() - (${Math.round(intervalMs)} * interval '1 millisecond'), true)`,
      ),
    )
    .orderBy(
      sql`${listings.source} <> 'agora' and ${listings.submitterId} is null`,
      sql`${last} is not null`,
      asc(listings.price),
      asc(listings.id),
    )
    .limit(limit);
  return rows.map((r) => ({
    ...r,
    price: r.price === null ? null : Number(r.price),
    lastTestedAt: r.lastTestedAt ? new Date(r.lastTestedAt) : null,
  }));
}

/** The items of `listingId` its owner excluded from test purchases. */
export async function excludedItems(db: Db, listingId: string): Promise<Set<string>> {
  const rows = await db
    .select({ item: testPurchaseExclusions.item })
    .from(testPurchaseExclusions)
    .where(eq(testPurchaseExclusions.listingId, listingId));
  return new Set(rows.map((r) => r.item));
}

export async function setItemExcluded(db: Db, listingId: string, item: string, excluded: boolean): Promise<void> {
  if (excluded) await db.insert(testPurchaseExclusions).values({ listingId, item }).onConflictDoNothing();
  else
    await db
      .delete(testPurchaseExclusions)
      .where(and(eq(testPurchaseExclusions.listingId, listingId), eq(testPurchaseExclusions.item, item)));
}

export type UndeliveredListing = Pick<ListingRow, "id" | "name" | "slug" | "serverUrl"> & { purchase: TestPurchase };

/** Listings whose latest finished test purchase took payment and delivered nothing (the admin queue flags them). */
export async function undeliveredListings(db: Db, limit = 50): Promise<UndeliveredListing[]> {
  const latest = db
    .selectDistinctOn([testPurchases.listingId])
    .from(testPurchases)
    .where(sql`${testPurchases.outcome} <> 'pending'`)
    .orderBy(testPurchases.listingId, desc(testPurchases.startedAt), desc(testPurchases.id))
    .as("latest");
  const rows = await db
    .select({
      id: listings.id,
      name: listings.name,
      slug: listings.slug,
      serverUrl: listings.serverUrl,
      latestId: latest.id,
    })
    .from(latest)
    .innerJoin(listings, eq(listings.id, latest.listingId))
    .where(eq(latest.outcome, "not-delivered"))
    .limit(limit);
  if (rows.length === 0) return [];
  const full = await db
    .select()
    .from(testPurchases)
    .where(
      inArray(
        testPurchases.id,
        rows.map((r) => r.latestId),
      ),
    );
  const byId = new Map(full.map((p) => [p.id, p]));
  return rows.map(({ latestId, ...r }) => ({ ...r, purchase: byId.get(latestId)! }));
}

/**
 * How often each listing delivered over the last `days` days, by what happened to the money, counting Agora's test
 * purchases and its buyers' signed receipts together: `delivered`; `failedUncharged` (nothing good came back and the
 * payment was not used: the server refused it, or its tool failed on a binding that settles only after success);
 * `failedCharged` (the money moved, or may have, and nothing good came back). Drift and pending purchases are left
 * out: nothing was bought. `buyerReceipts` (present when there were any) says how many of them buyers' receipts
 * counted; a receipt is of a payment on chain, so it never failed uncharged.
 */
export type DeliveryCounts = {
  delivered: number;
  failedUncharged: number;
  failedCharged: number;
  buyerReceipts?: { delivered: number; failedCharged: number };
};

/** The outcomes `deliveryCounts` counts (drift and pending bought nothing). */
const COUNTED = sql.raw(`t.outcome in ('delivered', 'refused', 'not-delivered')`);

/**
 * A listing's delivery counts over the last `days` days, as one fact of the listings' single facts statement
 * (facts-statement.ts): its test purchases started and its buyers' receipts of sales paid in that window; absent
 * when it has neither.
 */
export function deliveryCountsFact(days = 30): ListingFact<DeliveryCounts> {
  const charged = sql.raw(`t.outcome = 'not-delivered' and t.money not in ('none', 'refused')`);
  const uncharged = sql.raw(
    `t.outcome = 'refused' or (t.outcome = 'not-delivered' and t.money in ('none', 'refused'))`,
  );
  const since = sql`now() - make_interval(days => ${Math.trunc(days)}::int)`;
  return {
    select: (listingId) => sql`(select case when tp.counted + br.counted > 0 then jsonb_build_object(
        'delivered', tp.delivered + br.delivered,
        'failedUncharged', tp.failed_uncharged,
        'failedCharged', tp.failed_charged + br.failed_charged,
        'receiptsDelivered', br.delivered,
        'receiptsFailedCharged', br.failed_charged) end
      from (select count(*) filter (where ${COUNTED}) as counted,
              count(*) filter (where t.outcome = 'delivered') as delivered,
              count(*) filter (where ${uncharged}) as failed_uncharged,
              count(*) filter (where ${charged}) as failed_charged
            from ${testPurchases} t where t.listing_id = ${listingId} and t.started_at >= ${since}) tp,
           (select count(*) as counted, count(*) filter (where r.delivered) as delivered, count(*) filter (where not r.delivered) as failed_charged
            from ${buyerReceipts} r where r.listing_id = ${listingId} and r.paid_at >= ${since}) br)`,
    decode: (json) => {
      const o = json as Record<string, unknown>;
      const counts: DeliveryCounts = {
        delivered: Number(o.delivered),
        failedUncharged: Number(o.failedUncharged),
        failedCharged: Number(o.failedCharged),
      };
      const receipts = { delivered: Number(o.receiptsDelivered), failedCharged: Number(o.receiptsFailedCharged) };
      return receipts.delivered + receipts.failedCharged > 0 ? { ...counts, buyerReceipts: receipts } : counts;
    },
  };
}

/** Each listing's delivery counts over the last `days` days; listings without a counted purchase are left out. */
export async function deliveryCounts(db: Db, listingIds: string[], days = 30): Promise<Map<string, DeliveryCounts>> {
  if (!listingIds.length) return new Map();
  const facts = await readListingFacts(db, listingIds, { delivery: deliveryCountsFact(days) });
  return new Map([...facts].flatMap(([id, f]) => (f.delivery ? [[id, f.delivery] as const] : [])));
}
