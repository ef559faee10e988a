// Sales change more often than anything else a page shows: a purchase should appear within seconds, while listing
// pages and browse results are cached for minutes. Pages read them again here, one statement per page.
import { dailySales, NO_SALES, salesSummaries } from "@/db/queries/sales";
import type { Db } from "@/db/types";
import type { ListingSales } from "./model";

export async function withFreshSales<T extends { id: string } & ListingSales>(db: Db, views: T[]): Promise<T[]> {
  const sales = await salesSummaries(db, views.map((v) => v.id));
  return views.map((v) => ({ ...v, sales: sales.get(v.id) ?? NO_SALES }));
}

/** Sales per day for the detail page's chart (30 days, oldest first). */
export function salesPerDay(db: Db, listingId: string) {
  return dailySales(db, listingId, 30);
}
