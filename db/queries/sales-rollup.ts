// The roll-ups of listing_sales (listing_sales_days, listing_sales_buyers, listing_sales_totals in db/schema.ts): changed
// in the transaction that changes the raw rows, by exactly the rows that transaction inserted and deleted (their
// RETURNING), so the figures always equal what the raw rows would give, through re-reads and reorgs alike.
import { sql, type SQL } from "drizzle-orm";
import { rowsOf } from "../rows";
import type { Db } from "../types";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** A raw sale row inserted or deleted (amount in the token's smallest unit). */
export type SaleRowChange = { listingId: string; payer: string; blockTime: Date; amount: string | bigint };

/** The UTC day of a time, as the roll-ups key it. */
const utcDay = (time: Date) => time.toISOString().slice(0, 10);

// Statements stay far under PostgreSQL's 65,535 bound parameters.
const CHUNK = 1000;

async function inChunks<T>(items: T[], run: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += CHUNK) await run(items.slice(i, i + CHUNK));
}

const pairKey = (listingId: string, other: string) => `${listingId}|${other}`;

type DayDelta = { listingId: string; day: string; sales: number; volume: bigint };
type BuyerDelta = { listingId: string; payer: string; sales: number; lastAddedDay: string | null; lostSome: boolean };
type BuyerRow = { listing_id: string; payer: string; last_day: string };

function deltasOf(added: SaleRowChange[], removed: SaleRowChange[]) {
  const days = new Map<string, DayDelta>();
  const buyers = new Map<string, BuyerDelta>();
  const totals = new Map<string, { sales: number; volume: bigint }>();
  const count = (row: SaleRowChange, sign: 1 | -1) => {
    const day = utcDay(row.blockTime);
    const amount = BigInt(row.amount) * BigInt(sign);
    const d = days.get(pairKey(row.listingId, day)) ?? { listingId: row.listingId, day, sales: 0, volume: 0n };
    d.sales += sign;
    d.volume += amount;
    days.set(pairKey(row.listingId, day), d);
    const b = buyers.get(pairKey(row.listingId, row.payer)) ?? {
      listingId: row.listingId,
      payer: row.payer,
      sales: 0,
      lastAddedDay: null,
      lostSome: false,
    };
    b.sales += sign;
    if (sign === 1 && (b.lastAddedDay === null || day > b.lastAddedDay)) b.lastAddedDay = day;
    if (sign === -1) b.lostSome = true;
    buyers.set(pairKey(row.listingId, row.payer), b);
    const t = totals.get(row.listingId) ?? { sales: 0, volume: 0n };
    t.sales += sign;
    t.volume += amount;
    totals.set(row.listingId, t);
  };
  for (const row of added) count(row, 1);
  for (const row of removed) count(row, -1);
  return { days: [...days.values()], buyers: [...buyers.values()], totals };
}

const pairsIn = (pairs: { listingId: string; payer: string }[]) =>
  sql.join(
    pairs.map((p) => sql`(${p.listingId}::uuid, ${p.payer})`),
    sql`, `,
  );

async function buyerRows(tx: Tx, pairs: BuyerDelta[]): Promise<Map<string, BuyerRow>> {
  const out = new Map<string, BuyerRow>();
  await inChunks(pairs, async (chunk) => {
    const result = await tx.execute(sql`
      select listing_id, payer, to_char(last_day, 'YYYY-MM-DD') as last_day from listing_sales_buyers where (listing_id, payer) in (${pairsIn(chunk)})`);
    for (const r of rowsOf<BuyerRow>(result)) out.set(pairKey(r.listing_id, r.payer), r);
  });
  return out;
}

/** Applies the change of one transaction's raw rows to the roll-ups. Runs inside that transaction. */
export async function applySalesRollup(tx: Tx, added: SaleRowChange[], removed: SaleRowChange[]): Promise<void> {
  if (added.length === 0 && removed.length === 0) return;
  const { days, buyers, totals } = deltasOf(added, removed);
  // Buyers first: the days' buyer counts and the totals' buyers are read from them, before and after.
  const { before, after } = await rollBuyers(tx, buyers);
  await rollDays(tx, days, before, after);
  await rollTotals(tx, totals, buyers, before, after);
}

/**
 * Buyers: counts moved by the delta, the latest day moved forward by what was added; where a sale went, the latest
 * day is read again from the raw rows (one index range), and a buyer left with no sale goes. Answers each moved
 * buyer's row before and after.
 */
async function rollBuyers(
  tx: Tx,
  buyers: BuyerDelta[],
): Promise<{ before: Map<string, BuyerRow>; after: Map<string, BuyerRow> }> {
  const before = await buyerRows(tx, buyers);
  const moved = buyers.filter((b) => b.sales !== 0 || b.lastAddedDay !== null);
  await inChunks(moved, (chunk) => {
    const values = chunk.map(
      (b) =>
        sql`(${b.listingId}::uuid, ${b.payer}, ${b.sales}::int, ${b.lastAddedDay ?? before.get(pairKey(b.listingId, b.payer))?.last_day ?? "1970-01-01"}::date)`,
    );
    return tx.execute(sql`
      insert into listing_sales_buyers (listing_id, payer, sales, last_day) values ${sql.join(values, sql`, `)}
      on conflict (listing_id, payer) do update set sales = listing_sales_buyers.sales + excluded.sales,
        last_day = greatest(listing_sales_buyers.last_day, excluded.last_day)`);
  });
  const lost = buyers.filter((b) => b.lostSome);
  await inChunks(lost, async (chunk) => {
    await tx.execute(
      sql`delete from listing_sales_buyers where (listing_id, payer) in (${pairsIn(chunk)}) and sales <= 0`,
    );
    await tx.execute(sql`
      update listing_sales_buyers b set last_day = (
        select (max(s.block_time) at time zone 'UTC')::date from listing_sales s where s.listing_id = b.listing_id and s.payer = b.payer)
      where (b.listing_id, b.payer) in (${pairsIn(chunk)})`);
  });
  const after = await buyerRows(tx, buyers);
  return { before, after };
}

/** Days: sales and volume moved by the delta; a day left with no sale goes; the buyers of each day touched counted again. */
async function rollDays(
  tx: Tx,
  days: DayDelta[],
  before: Map<string, BuyerRow>,
  after: Map<string, BuyerRow>,
): Promise<void> {
  await inChunks(days, async (chunk) => {
    const values = chunk.map(
      (d) => sql`(${d.listingId}::uuid, ${d.day}::date, ${d.sales}::int, ${d.volume.toString()}::numeric, 0)`,
    );
    await tx.execute(sql`
      insert into listing_sales_days (listing_id, day, sales, volume, last_buyers) values ${sql.join(values, sql`, `)}
      on conflict (listing_id, day) do update set sales = listing_sales_days.sales + excluded.sales, volume = listing_sales_days.volume + excluded.volume`);
    const keys = sql.join(
      chunk.map((d) => sql`(${d.listingId}::uuid, ${d.day}::date)`),
      sql`, `,
    );
    await tx.execute(sql`delete from listing_sales_days where (listing_id, day) in (${keys}) and sales <= 0`);
  });
  // Each day a buyer's latest purchase left or reached counts its buyers again (one index range of the buyers).
  const recount = new Map<string, SQL>();
  for (const row of [...before.values(), ...after.values()])
    recount.set(pairKey(row.listing_id, row.last_day), sql`(${row.listing_id}::uuid, ${row.last_day}::date)`);
  await inChunks([...recount.values()], (chunk) =>
    tx.execute(sql`
      update listing_sales_days d set last_buyers = (
        select count(*)::int from listing_sales_buyers b where b.listing_id = d.listing_id and b.last_day = d.day)
      where (d.listing_id, d.day) in (${sql.join(chunk, sql`, `)})`),
  );
}

/** Totals: sales and volume by the delta, buyers by those who appeared minus those who went. */
async function rollTotals(
  tx: Tx,
  totals: Map<string, { sales: number; volume: bigint }>,
  buyers: BuyerDelta[],
  before: Map<string, BuyerRow>,
  after: Map<string, BuyerRow>,
): Promise<void> {
  const buyerDelta = new Map<string, number>();
  for (const b of buyers) {
    const key = pairKey(b.listingId, b.payer);
    const change = (after.has(key) ? 1 : 0) - (before.has(key) ? 1 : 0);
    buyerDelta.set(b.listingId, (buyerDelta.get(b.listingId) ?? 0) + change);
  }
  const totalRows = [...totals.entries()];
  await inChunks(totalRows, async (chunk) => {
    const values = chunk.map(
      ([listingId, t]) =>
        sql`(${listingId}::uuid, ${t.sales}::int, ${buyerDelta.get(listingId) ?? 0}::int, ${t.volume.toString()}::numeric)`,
    );
    await tx.execute(sql`
      insert into listing_sales_totals (listing_id, sales, buyers, volume) values ${sql.join(values, sql`, `)}
      on conflict (listing_id) do update set sales = listing_sales_totals.sales + excluded.sales,
        buyers = listing_sales_totals.buyers + excluded.buyers, volume = listing_sales_totals.volume + excluded.volume`);
    const ids = sql.join(
      chunk.map(([listingId]) => sql`${listingId}::uuid`),
      sql`, `,
    );
    await tx.execute(sql`delete from listing_sales_totals where listing_id in (${ids}) and sales <= 0`);
  });
}
