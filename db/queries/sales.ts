// Sales read from the chain (lib/sales/indexer.ts writes them): the payees to watch, the indexer's cursor and
// its writes, and the figures every surface shows. Amounts stay exact: numeric in the database, strings out.
import { and, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import type { AcceptedPayment, PricedItem } from "@agora-mcp/protocol";
import { listingProbes, listingSales, salesCursors } from "../schema";
import { rowsOf } from "../rows";
import type { Db } from "../types";

const DAY_MS = 86_400_000;

/**
 * The number of a listing's sales in the last 30 days, for ordering (`listingId` is the outer query's column): one
 * range of listing_sales_listing_time_idx, stopped at `cap` so one best-seller costs no more than any other.
 */
export function recentSalesCount(listingId: SQL, cap?: number): SQL {
  const recent = sql`from ${listingSales} s where s.listing_id = ${listingId} and s.block_time > now() - interval '30 days'`;
  return cap ? sql`(select count(*) from (select 1 ${recent} limit ${cap}) capped)` : sql`(select count(*) ${recent})`;
}

/** What the latest check of each listing says it is paid with (payees come from here). */
export type PaymentTerms = { listingId: string; paymentMethods: AcceptedPayment[]; pricedItems: PricedItem[] };

/** The latest check of every listing that has one: one indexed row per listing. */
export async function latestPaymentTerms(db: Db): Promise<PaymentTerms[]> {
  return db
    .selectDistinctOn([listingProbes.listingId], {
      listingId: listingProbes.listingId,
      paymentMethods: listingProbes.paymentMethods,
      pricedItems: listingProbes.pricedItems,
    })
    .from(listingProbes)
    .orderBy(listingProbes.listingId, sql`${listingProbes.checkedAt} desc`, sql`${listingProbes.id} desc`);
}

/** The last block indexed on `network`, or null before its first run. */
export async function salesCursor(db: Db, network: string): Promise<bigint | null> {
  const [row] = await db.select({ block: salesCursors.block }).from(salesCursors).where(eq(salesCursors.network, network));
  return row ? row.block : null;
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
};

/** What identifies a stored sale, and the block it was read in (a different hash later means a reorg). */
export type StoredSaleKey = { listingId: string; txHash: string; logIndex: number; blockHash: string };

/** The stored sales of `network` in blocks from..to. */
export async function storedSales(db: Db, network: string, from: bigint, to: bigint): Promise<StoredSaleKey[]> {
  return db
    .select({ listingId: listingSales.listingId, txHash: listingSales.txHash, logIndex: listingSales.logIndex, blockHash: listingSales.blockHash })
    .from(listingSales)
    .where(and(eq(listingSales.network, network), gte(listingSales.blockNumber, from), lte(listingSales.blockNumber, to)));
}

/**
 * One indexed range, all or nothing: drops the sales the chain no longer holds (`remove`, and everything past
 * `dropAbove` when the chain got shorter), adds the new ones, and moves the cursor to `cursor`. Statements run only
 * when there is something to write, so a run that finds nothing new writes nothing but the cursor.
 */
export async function applySalesRange(
  db: Db,
  network: string,
  change: { remove: StoredSaleKey[]; add: NewSale[]; cursor: bigint; dropAbove?: bigint },
): Promise<void> {
  await db.transaction(async (tx) => {
    if (change.dropAbove !== undefined) {
      const [above] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(listingSales)
        .where(and(eq(listingSales.network, network), sql`${listingSales.blockNumber} > ${change.dropAbove}`));
      if (Number(above?.n ?? 0) > 0) await tx.delete(listingSales).where(and(eq(listingSales.network, network), sql`${listingSales.blockNumber} > ${change.dropAbove}`));
    }
    for (let i = 0; i < change.remove.length; i += 500) {
      const keys = change.remove.slice(i, i + 500).map((k) => sql`(${k.listingId}::uuid, ${k.txHash}, ${k.logIndex}::int)`);
      await tx
        .delete(listingSales)
        .where(and(eq(listingSales.network, network), sql`(${listingSales.listingId}, ${listingSales.txHash}, ${listingSales.logIndex}) in (${sql.join(keys, sql`, `)})`));
    }
    // Under PostgreSQL's 65,535 bound parameters per statement (10 a row).
    for (let i = 0; i < change.add.length; i += 1000) {
      const rows = change.add.slice(i, i + 1000).map((s) => ({ ...s, amount: s.amount.toString() }));
      await tx.insert(listingSales).values(rows).onConflictDoNothing();
    }
    await tx
      .insert(salesCursors)
      .values({ network, block: change.cursor })
      .onConflictDoUpdate({ target: salesCursors.network, set: { block: change.cursor, updatedAt: sql`now()` } });
  });
}

/** Sales, distinct buyers and volume (token units, exact) over one window. */
export type SalesWindow = { sales: number; buyers: number; volumeUnits: string };

export type LastSale = { network: string; txHash: string; at: string; amountUnits: string };

export type SalesSummary = { last7d: SalesWindow; last30d: SalesWindow; allTime: SalesWindow; lastSale: LastSale | null };

export const NO_SALES: SalesSummary = {
  last7d: { sales: 0, buyers: 0, volumeUnits: "0" },
  last30d: { sales: 0, buyers: 0, volumeUnits: "0" },
  allTime: { sales: 0, buyers: 0, volumeUnits: "0" },
  lastSale: null,
};

type SummaryRow = {
  listing_id: string;
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
  last_at: string | Date | null;
  last_amount: string | null;
};

/** The figures of each listing in `listingIds` (listings without sales are absent: NO_SALES). One statement. */
export async function salesSummaries(db: Db, listingIds: string[], now = new Date()): Promise<Map<string, SalesSummary>> {
  if (listingIds.length === 0) return new Map();
  const ids = sql.join(listingIds.map((id) => sql`${id}::uuid`), sql`, `);
  const week = new Date(now.getTime() - 7 * DAY_MS).toISOString();
  const month = new Date(now.getTime() - 30 * DAY_MS).toISOString();
  // Aggregated first, then one index lookup per listing for its last sale (not one per sale).
  const result = await db.execute(sql`
    with agg as (
      select s.listing_id,
        count(*) filter (where s.block_time > ${week}::timestamptz) as s7,
        count(distinct s.payer) filter (where s.block_time > ${week}::timestamptz) as b7,
        coalesce(sum(s.amount) filter (where s.block_time > ${week}::timestamptz), 0)::text as v7,
        count(*) filter (where s.block_time > ${month}::timestamptz) as s30,
        count(distinct s.payer) filter (where s.block_time > ${month}::timestamptz) as b30,
        coalesce(sum(s.amount) filter (where s.block_time > ${month}::timestamptz), 0)::text as v30,
        count(*) as s_all, count(distinct s.payer) as b_all, coalesce(sum(s.amount), 0)::text as v_all
      from ${listingSales} s
      where s.listing_id in (${ids})
      group by s.listing_id
    )
    select agg.*, l.network as last_network, l.tx_hash as last_tx, l.block_time as last_at, l.amount::text as last_amount
    from agg
    left join lateral (
      select network, tx_hash, block_time, amount from ${listingSales} x
      where x.listing_id = agg.listing_id order by x.block_time desc, x.block_number desc, x.log_index desc limit 1
    ) l on true`);
  const out = new Map<string, SalesSummary>();
  for (const r of rowsOf<SummaryRow>(result)) {
    out.set(r.listing_id, {
      last7d: { sales: Number(r.s7), buyers: Number(r.b7), volumeUnits: r.v7 },
      last30d: { sales: Number(r.s30), buyers: Number(r.b30), volumeUnits: r.v30 },
      allTime: { sales: Number(r.s_all), buyers: Number(r.b_all), volumeUnits: r.v_all },
      lastSale:
        r.last_tx && r.last_network && r.last_at
          ? { network: r.last_network, txHash: r.last_tx, at: new Date(r.last_at).toISOString(), amountUnits: r.last_amount ?? "0" }
          : null,
    });
  }
  return out;
}

/** Sales per UTC day over the last `days` days, oldest first, days without sales included (count 0). */
export async function dailySales(db: Db, listingId: string, days = 30, now = new Date()): Promise<{ day: string; sales: number }[]> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const first = new Date(today - (days - 1) * DAY_MS);
  const rows = await db
    .select({ day: sql<string>`to_char(${listingSales.blockTime} at time zone 'UTC', 'YYYY-MM-DD')`, n: sql<number>`count(*)::int` })
    .from(listingSales)
    .where(and(eq(listingSales.listingId, listingId), gte(listingSales.blockTime, first)))
    .groupBy(sql`1`);
  const counts = new Map(rows.map((r) => [r.day, Number(r.n)]));
  return Array.from({ length: days }, (_, i) => {
    const day = new Date(first.getTime() + i * DAY_MS).toISOString().slice(0, 10);
    return { day, sales: counts.get(day) ?? 0 };
  });
}

/** Every stored sale of these listings (tests and the benchmark compare them with the chain). */
export async function salesOf(db: Db, listingIds: string[]) {
  if (listingIds.length === 0) return [];
  return db.select().from(listingSales).where(inArray(listingSales.listingId, listingIds));
}
