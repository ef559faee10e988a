// The figures every surface shows, counted straight from the raw sale rows (UTC-day windows: today and the days
// before it), to hold the roll-ups the surfaces read against: they must give exactly the same numbers.
import { expect } from "vitest";
import { inArray } from "drizzle-orm";
import { dailySales, salesSummaries } from "@/db/queries/sales";
import { listingSales } from "@/db/schema";
import type { Db } from "@/db/types";

const DAY_MS = 86_400_000;
const dayOf = (t: Date) => t.toISOString().slice(0, 10);
const firstDay = (days: number, now: Date) =>
  dayOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (days - 1) * DAY_MS));

/** Every stored sale of these listings, straight from the raw rows (the tests compare them with the chain). */
export async function salesOf(db: Db, listingIds: string[]) {
  if (listingIds.length === 0) return [];
  return db.select().from(listingSales).where(inArray(listingSales.listingId, listingIds));
}

type Row = Awaited<ReturnType<typeof salesOf>>[number];

function figures(rows: Row[]) {
  return {
    sales: rows.length,
    buyers: new Set(rows.map((r) => r.payer)).size,
    volumeUnits: rows.reduce((n, r) => n + BigInt(r.amount), 0n).toString(),
  };
}

/** Fails unless every listing's figures and 30-day chart, read as the surfaces read them, equal the raw rows' count. */
export async function expectFiguresMatchRaw(db: Db, listingIds: string[], now = new Date()): Promise<void> {
  const rows = await salesOf(db, listingIds);
  const summaries = await salesSummaries(db, listingIds, now);
  for (const id of listingIds) {
    const mine = rows.filter((r) => r.listingId === id);
    const since = (days: number) => mine.filter((r) => dayOf(r.blockTime) >= firstDay(days, now));
    if (mine.length === 0) {
      expect(summaries.has(id), `${id} has no sales`).toBe(false);
    } else {
      const last = [...mine].sort(
        (a, b) =>
          b.blockTime.getTime() - a.blockTime.getTime() ||
          Number(b.blockNumber - a.blockNumber) ||
          b.logIndex - a.logIndex,
      )[0]!;
      expect(summaries.get(id), id).toEqual({
        last7d: figures(since(7)),
        last30d: figures(since(30)),
        allTime: figures(mine),
        lastSale: {
          network: last.network,
          txHash: last.txHash,
          at: last.blockTime.toISOString(),
          amountUnits: last.amount,
        },
      });
    }
    const chart = await dailySales(db, id, 30, now);
    const perDay = new Map<string, number>();
    for (const r of since(30).filter((r) => dayOf(r.blockTime) <= dayOf(now)))
      perDay.set(dayOf(r.blockTime), (perDay.get(dayOf(r.blockTime)) ?? 0) + 1);
    expect(
      chart.filter((d) => d.sales > 0),
      `${id} chart`,
    ).toEqual([...perDay].sort(([a], [b]) => a.localeCompare(b)).map(([day, sales]) => ({ day, sales })));
  }
}
