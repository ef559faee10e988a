// Sales read from the chain (lib/sales/indexer.ts writes them): the payees to watch, the indexer's cursor and
// its writes, and the figures every surface shows. Amounts stay exact: numeric in the database, strings out.
import { and, eq, gt, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import type { AcceptedPayment, PricedItem } from "@agora-mcp/protocol";
import {
  listingProbes,
  listings,
  listingSales,
  listingSalesDays,
  listingSalesTotals,
  salesCursors,
  salesPayees,
  type ApprovedTerms,
} from "../schema";
import { applySalesRollup, type SaleRowChange } from "./sales-rollup";
import type { Db } from "../types";
import { readListingFacts, type ListingFact } from "./facts-statement";

const DAY_MS = 86_400_000;

/**
 * The figures' windows are UTC days: "the last 30 days" is today and the 29 days before it, as the daily chart
 * shows them, so a card's count is the sum of the chart's bars. Read from the daily roll-up (at most 30 rows a listing).
 */
const windowStart = (days: number, now: Date) => {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (days - 1) * DAY_MS).toISOString().slice(0, 10);
};

/** The number of a listing's sales in the last 30 days, for ordering (`listingId` is the outer query's column). */
export function recentSalesCount(listingId: SQL): SQL {
  return sql`(select coalesce(sum(d.sales), 0) from ${listingSalesDays} d where d.listing_id = ${listingId} and d.day > (now() at time zone 'UTC')::date - 30)`;
}

/** Calls beyond this many per distinct payer add nothing to a listing's usage score. */
export const CALLS_PER_PAYER = 10;

// A listing's real usage over the last 30 days as one number for ranking: 2·ln(1 + distinct payers) + ½·ln(1 + paid
// calls, at most CALLS_PER_PAYER per payer); 0 without sales. Read from the daily roll-up (`d`, at most 30 rows a
// listing): a window's `last_buyers` sum to its distinct buyers, so a buyer counts once however often they paid.
const usageOfDays = sql`2 * ln(1 + coalesce(sum(d.last_buyers), 0)) + 0.5 * ln(1 + least(coalesce(sum(d.sales), 0), ${CALLS_PER_PAYER} * coalesce(sum(d.last_buyers), 0)))`;
const inUsageWindow = sql`d.day > (now() at time zone 'UTC')::date - 30`;

/** The usage score of one listing (`listingId` is the outer query's column). */
export function recentUsageScore(listingId: SQL): SQL {
  return sql`(select ${usageOfDays} from ${listingSalesDays} d where d.listing_id = ${listingId} and ${inUsageWindow})`;
}

/** Each listing with sales in the last 30 days (`listing_id`) and its `usage`: a range of listing_sales_days_day_idx. */
export const recentUsageByListing = sql`select d.listing_id, ${usageOfDays} as usage from ${listingSalesDays} d where ${inUsageWindow} group by d.listing_id`;

/**
 * What a check of a listing says it is paid with (payees come from here), whose listing it is, and when it was
 * approved with what terms (lib/sales/payees.ts decides who named a wallet first from them).
 */
export type PaymentTerms = {
  listingId: string;
  ownerId: string | null;
  approvedAt: Date;
  approvedTerms: ApprovedTerms | null;
  paymentMethods: AcceptedPayment[];
  pricedItems: PricedItem[];
};

const termsColumns = {
  listingId: listingProbes.listingId,
  ownerId: listings.submitterId,
  // Set for every approved listing (migration 0021 filled it in for those approved before it).
  approvedAt: sql<Date>`coalesce(${listings.approvedAt}, ${listings.createdAt})`.mapWith(listings.createdAt),
  approvedTerms: listings.approvedTerms,
  paymentMethods: listingProbes.paymentMethods,
  pricedItems: listingProbes.pricedItems,
};

/**
 * Only a listing in the catalogue takes sales or decides who named a wallet first: approved and not hidden (an
 * import its registry deleted). A pending submission, a rejected one or an edit awaiting review names no payee.
 */
const inCatalogue = and(eq(listings.status, "approved"), sql`${listings.upstreamStatus} is distinct from 'deleted'`);

/**
 * The latest check of every listed (approved, shown) listing that has one: one indexed row per listing. A check whose
 * terms are held for review (another payee, a steep rise) names no payee until a reviewer approves it.
 */
export async function latestPaymentTerms(db: Db): Promise<PaymentTerms[]> {
  return db
    .selectDistinctOn([listingProbes.listingId], termsColumns)
    .from(listingProbes)
    .innerJoin(listings, eq(listings.id, listingProbes.listingId))
    .where(and(inCatalogue, eq(listingProbes.termsHeld, false)))
    .orderBy(listingProbes.listingId, sql`${listingProbes.checkedAt} desc`, sql`${listingProbes.id} desc`);
}

/**
 * Every check since `since`, of any listed listing, that names `wallet` (payment methods or an x402 tool's payTo),
 * one row each: buyer reviews credit a wallet's sale as the indexer does, over the checks of the last month. Reads
 * the window's checks once (no index on the wallets they name); reached only by a signed review of a sale on chain.
 */
export async function paymentTermsNamingSince(db: Db, wallet: string, since: Date): Promise<PaymentTerms[]> {
  const lower = wallet.toLowerCase();
  return db
    .select(termsColumns)
    .from(listingProbes)
    .innerJoin(listings, eq(listings.id, listingProbes.listingId))
    .where(
      and(
        inCatalogue,
        eq(listingProbes.termsHeld, false),
        gt(listingProbes.checkedAt, since),
        sql`(exists (select 1 from jsonb_array_elements(${listingProbes.paymentMethods}) m where lower(m->>'walletAddress') = ${lower})
          or exists (select 1 from jsonb_array_elements(${listingProbes.pricedItems}) i where lower(i->'x402Requirements'->>'payTo') = ${lower}))`,
      ),
    );
}

/** The cursor of `network` and the block its first run started at (null when that was not recorded). */
export async function salesCursorRow(
  db: Db,
  network: string,
): Promise<{ block: bigint; firstBlock: bigint | null } | null> {
  const [row] = await db
    .select({ block: salesCursors.block, firstBlock: salesCursors.firstBlock })
    .from(salesCursors)
    .where(eq(salesCursors.network, network));
  return row ?? null;
}

/** A sale as the indexer stores it (amount in the token's smallest unit). */
export type NewSale = {
  listingId: string;
  network: string;
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
  blockHash: string;
  blockTime: Date;
  payer: string;
  payee: string;
  amount: bigint;
  kind: SaleKind;
  /** What the listing asked (token units): the price, a metered maximum, or a channel's price of one call. */
  askedUnits: bigint;
};

export type SaleKind = "exact" | "metered" | "channel";

/** What identifies a stored sale, and the block it was read in (a different hash later means a reorg). */
type StoredSaleKey = { listingId: string; txHash: string; logIndex: number; blockHash: string; payee: string };

/** The stored sales of `network` in blocks from..to. */
export async function storedSales(db: Db, network: string, from: bigint, to: bigint): Promise<StoredSaleKey[]> {
  return db
    .select({
      listingId: listingSales.listingId,
      txHash: listingSales.txHash,
      logIndex: listingSales.logIndex,
      blockHash: listingSales.blockHash,
      payee: listingSales.payee,
    })
    .from(listingSales)
    .where(
      and(eq(listingSales.network, network), gte(listingSales.blockNumber, from), lte(listingSales.blockNumber, to)),
    );
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
const changed = {
  listingId: listingSales.listingId,
  payer: listingSales.payer,
  blockTime: listingSales.blockTime,
  amount: listingSales.amount,
};

/**
 * Raw rows out and in, and the roll-ups moved by exactly the rows deleted and inserted (RETURNING), in the caller's
 * transaction. Statements run only when there is something to write.
 */
async function writeSales(
  tx: Tx,
  network: string,
  change: { remove: StoredSaleKey[]; add: NewSale[]; dropAbove?: bigint },
): Promise<void> {
  const removed: SaleRowChange[] = [];
  const added: SaleRowChange[] = [];
  if (change.dropAbove !== undefined) {
    const [above] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(listingSales)
      .where(and(eq(listingSales.network, network), sql`${listingSales.blockNumber} > ${change.dropAbove}`));
    if (Number(above?.n ?? 0) > 0) {
      removed.push(
        ...(await tx
          .delete(listingSales)
          .where(and(eq(listingSales.network, network), sql`${listingSales.blockNumber} > ${change.dropAbove}`))
          .returning(changed)),
      );
    }
  }
  for (let i = 0; i < change.remove.length; i += 500) {
    const keys = change.remove
      .slice(i, i + 500)
      .map((k) => sql`(${k.listingId}::uuid, ${k.txHash}, ${k.logIndex}::int)`);
    removed.push(
      ...(await tx
        .delete(listingSales)
        .where(
          and(
            eq(listingSales.network, network),
            sql`(${listingSales.listingId}, ${listingSales.txHash}, ${listingSales.logIndex}) in (${sql.join(keys, sql`, `)})`,
          ),
        )
        .returning(changed)),
    );
  }
  // Under PostgreSQL's 65,535 bound parameters per statement (12 a row).
  for (let i = 0; i < change.add.length; i += 1000) {
    const rows = change.add
      .slice(i, i + 1000)
      .map((s) => ({ ...s, amount: s.amount.toString(), askedUnits: s.askedUnits.toString() }));
    added.push(...(await tx.insert(listingSales).values(rows).onConflictDoNothing().returning(changed)));
  }
  await applySalesRollup(tx, added, removed);
}

/** Drops the stored sales paid by `payers` (lower-case addresses) and moves the roll-ups with them; how many went. */
export async function dropSalesPaidBy(db: Db, network: string, payers: string[]): Promise<number> {
  if (payers.length === 0) return 0;
  const list = sql.join(
    payers.map((p) => sql`${p}`),
    sql`, `,
  );
  return db.transaction(async (tx) => {
    const removed = await tx
      .delete(listingSales)
      .where(and(eq(listingSales.network, network), sql`lower(${listingSales.payer}) in (${list})`))
      .returning(changed);
    await applySalesRollup(tx, [], removed);
    return removed.length;
  });
}

/**
 * One indexed range, all or nothing: drops the sales the chain no longer holds (`remove`, and everything past
 * `dropAbove` when the chain got shorter), adds the new ones, and moves the cursor to `cursor` (`firstBlock`: where
 * the network's first run started, recorded with its first cursor). A run that finds nothing new writes only the cursor.
 */
export async function applySalesRange(
  db: Db,
  network: string,
  change: { remove: StoredSaleKey[]; add: NewSale[]; cursor: bigint; dropAbove?: bigint; firstBlock?: bigint },
): Promise<void> {
  await db.transaction(async (tx) => {
    await writeSales(tx, network, change);
    await tx
      .insert(salesCursors)
      .values({ network, block: change.cursor, firstBlock: change.firstBlock ?? null })
      .onConflictDoUpdate({ target: salesCursors.network, set: { block: change.cursor, updatedAt: sql`now()` } });
  });
}

/** A listing's payee as the indexer tracks it on one network (addresses checksummed). */
type TrackedPayee = { listingId: string; payee: string; fromBlock: bigint; toBlock: bigint; nextBlock: bigint };

export async function trackedPayees(db: Db, network: string): Promise<TrackedPayee[]> {
  return db
    .select({
      listingId: salesPayees.listingId,
      payee: salesPayees.payee,
      fromBlock: salesPayees.fromBlock,
      toBlock: salesPayees.toBlock,
      nextBlock: salesPayees.nextBlock,
    })
    .from(salesPayees)
    .where(eq(salesPayees.network, network));
}

/** Records payees that appeared (with the blocks to back-fill for them) and forgets those no check names any more. */
export async function syncTrackedPayees(
  db: Db,
  network: string,
  change: { add: TrackedPayee[]; drop: { listingId: string; payee: string }[] },
): Promise<void> {
  if (change.add.length === 0 && change.drop.length === 0) return;
  await db.transaction(async (tx) => {
    for (let i = 0; i < change.drop.length; i += 1000) {
      const keys = change.drop.slice(i, i + 1000).map((p) => sql`(${p.listingId}::uuid, ${p.payee})`);
      await tx
        .delete(salesPayees)
        .where(
          and(
            eq(salesPayees.network, network),
            sql`(${salesPayees.listingId}, ${salesPayees.payee}) in (${sql.join(keys, sql`, `)})`,
          ),
        );
    }
    for (let i = 0; i < change.add.length; i += 1000) {
      await tx
        .insert(salesPayees)
        .values(change.add.slice(i, i + 1000).map((p) => ({ ...p, network })))
        .onConflictDoNothing();
    }
  });
}

/**
 * One back-filled range for payees that appeared late, all or nothing: adds the sales found for them (any already
 * stored are kept once) and moves their progress past `to`.
 */
export async function applyBackfillRange(
  db: Db,
  network: string,
  change: { add: NewSale[]; payees: { listingId: string; payee: string }[]; to: bigint },
): Promise<void> {
  await db.transaction(async (tx) => {
    await writeSales(tx, network, { remove: [], add: change.add });
    for (let i = 0; i < change.payees.length; i += 1000) {
      const keys = change.payees.slice(i, i + 1000).map((p) => sql`(${p.listingId}::uuid, ${p.payee})`);
      await tx
        .update(salesPayees)
        .set({ nextBlock: change.to + 1n })
        .where(
          and(
            eq(salesPayees.network, network),
            sql`(${salesPayees.listingId}, ${salesPayees.payee}) in (${sql.join(keys, sql`, `)})`,
          ),
        );
    }
  });
}

/** Sales, distinct buyers and volume (token units, exact) over one window. */
type SalesWindow = { sales: number; buyers: number; volumeUnits: string };

type LastSale = { network: string; txHash: string; at: string; amountUnits: string };

export type SalesSummary = {
  last7d: SalesWindow;
  last30d: SalesWindow;
  allTime: SalesWindow;
  lastSale: LastSale | null;
};

export const NO_SALES: SalesSummary = {
  last7d: { sales: 0, buyers: 0, volumeUnits: "0" },
  last30d: { sales: 0, buyers: 0, volumeUnits: "0" },
  allTime: { sales: 0, buyers: 0, volumeUnits: "0" },
  lastSale: null,
};

type SummaryJson = {
  s7: number | string;
  b7: number | string;
  v7: string;
  s30: number | string;
  b30: number | string;
  v30: string;
  s_all: number | string;
  b_all: number | string;
  v_all: string;
  last_network: string | null;
  last_tx: string | null;
  last_at: string | null;
  last_amount: string | null;
};

/**
 * A listing's figures (absent without sales: NO_SALES), from bounded rows: the totals row, at most 30 day rows and
 * the last sale (one entry of listing_sales_listing_last_idx: its order must say "nulls last" as the index does, or
 * PostgreSQL sorts every sale of the listing). A window's
 * buyers are the sum of its days' `last_buyers` (each buyer counted on their latest day, which lies in the window
 * exactly when they bought in it).
 */
export function salesSummaryFact(now = new Date()): ListingFact<SalesSummary> {
  const week = windowStart(7, now);
  const month = windowStart(30, now);
  return {
    select: (listingId) => sql`(select jsonb_build_object('s_all', t.sales, 'b_all', t.buyers, 'v_all', t.volume::text,
        's7', coalesce(w.s7, 0), 'b7', coalesce(w.b7, 0), 'v7', coalesce(w.v7, 0)::text,
        's30', coalesce(w.s30, 0), 'b30', coalesce(w.b30, 0), 'v30', coalesce(w.v30, 0)::text,
        'last_network', l.network, 'last_tx', l.tx_hash, 'last_at', l.block_time, 'last_amount', l.amount::text)
      from ${listingSalesTotals} t
      left join lateral (
        select sum(d.sales) filter (where d.day >= ${week}::date) as s7, sum(d.last_buyers) filter (where d.day >= ${week}::date) as b7,
          sum(d.volume) filter (where d.day >= ${week}::date) as v7,
          sum(d.sales) as s30, sum(d.last_buyers) as b30, sum(d.volume) as v30
        from ${listingSalesDays} d where d.listing_id = t.listing_id and d.day >= ${month}::date
      ) w on true
      left join lateral (
        select network, tx_hash, block_time, amount from ${listingSales} x
        where x.listing_id = t.listing_id order by x.block_time desc nulls last, x.block_number desc nulls last, x.log_index desc nulls last limit 1
      ) l on true
      where t.listing_id = ${listingId})`,
    decode: (json) => {
      const r = json as SummaryJson;
      return {
        last7d: { sales: Number(r.s7), buyers: Number(r.b7), volumeUnits: r.v7 },
        last30d: { sales: Number(r.s30), buyers: Number(r.b30), volumeUnits: r.v30 },
        allTime: { sales: Number(r.s_all), buyers: Number(r.b_all), volumeUnits: r.v_all },
        lastSale:
          r.last_tx && r.last_network && r.last_at
            ? {
                network: r.last_network,
                txHash: r.last_tx,
                at: new Date(r.last_at).toISOString(),
                amountUnits: r.last_amount ?? "0",
              }
            : null,
      };
    },
  };
}

/** The figures of each listing in `listingIds`, keyed by id (listings without sales are absent: NO_SALES). */
export async function salesSummaries(
  db: Db,
  listingIds: string[],
  now = new Date(),
): Promise<Map<string, SalesSummary>> {
  const facts = await readListingFacts(db, listingIds, { sales: salesSummaryFact(now) });
  return new Map([...facts].flatMap(([id, f]) => (f.sales ? [[id, f.sales] as const] : [])));
}

/** Sales per UTC day over the last `days` days, oldest first, days without sales included (count 0). */
export async function dailySales(
  db: Db,
  listingId: string,
  days = 30,
  now = new Date(),
): Promise<{ day: string; sales: number }[]> {
  const first = windowStart(days, now);
  const rows = await db
    .select({ day: listingSalesDays.day, n: listingSalesDays.sales })
    .from(listingSalesDays)
    .where(and(eq(listingSalesDays.listingId, listingId), gte(listingSalesDays.day, first)));
  const counts = new Map(rows.map((r) => [r.day, Number(r.n)]));
  const start = Date.parse(`${first}T00:00:00Z`);
  return Array.from({ length: days }, (_, i) => {
    const day = new Date(start + i * DAY_MS).toISOString().slice(0, 10);
    return { day, sales: counts.get(day) ?? 0 };
  });
}

export type PurchaseByPayer = {
  listingName: string;
  slug: string;
  network: string;
  txHash: string;
  logIndex: number;
  at: Date;
  amountUnits: string;
  kind: SaleKind;
  /** What the listing asked (listing_sales.asked_units); null for a sale stored before it was kept. */
  askedUnits: string | null;
};

/**
 * A wallet's purchases from listed servers on `networks`, newest first, at most `limit` (the wallet page): the
 * network-and-payer index gives each network's rows without reading any other wallet's. Only approved listings:
 * a listing taken down is not "listed".
 */
export async function purchasesByPayer(
  db: Db,
  payer: string,
  networks: string[],
  limit: number,
): Promise<PurchaseByPayer[]> {
  if (networks.length === 0) return [];
  return db
    .select({
      listingName: listings.name,
      slug: listings.slug,
      network: listingSales.network,
      txHash: listingSales.txHash,
      logIndex: listingSales.logIndex,
      at: listingSales.blockTime,
      amountUnits: sql<string>`${listingSales.amount}::text`,
      kind: listingSales.kind,
      askedUnits: sql<string | null>`${listingSales.askedUnits}::text`,
    })
    .from(listingSales)
    .innerJoin(listings, eq(listings.id, listingSales.listingId))
    .where(
      and(
        inArray(listingSales.network, networks),
        sql`lower(${listingSales.payer}) = ${payer.toLowerCase()}`,
        eq(listings.status, "approved"),
      ),
    )
    .orderBy(
      sql`${listingSales.blockTime} desc`,
      sql`${listingSales.blockNumber} desc`,
      sql`${listingSales.logIndex} desc`,
    )
    .limit(limit);
}
