// What x402 discovery lists: each paid item of each listing whose latest probe verified it, with the
// payment methods (and wallets) that item can be paid with. Filters and paging happen in the database.
import { sql } from "drizzle-orm";
import type { AcceptedPayment, PricedItem, ProbedTool } from "@agora-mcp/protocol";
import { rowsOf } from "../rows";
import type { Db } from "../types";
import { VERIFIED_WINDOW_MS } from "./probes";

export type PayableItem = {
  listingId: string;
  slug: string;
  name: string;
  description: string;
  categories: string[];
  serverUrl: string;
  checkedAt: string;
  tools: ProbedTool[];
  item: PricedItem;
  /** The accepted payment methods that fit the item and the filters; never empty. */
  methods: AcceptedPayment[];
};

type Row = Omit<PayableItem, "checkedAt"> & { checkedAt: string | Date; total: number };

/**
 * One page of payable items, in listing then catalogue order, and how many there are in all. `paymentMethods`
 * are the method ids the caller can express in x402 (e.g. USDC_BASE_SEPOLIA); `payTo` narrows to one wallet.
 */
export async function listPayableItems(
  db: Db,
  filter: { paymentMethods: string[]; payTo?: string; limit: number; offset: number },
  now = new Date(),
): Promise<{ payables: PayableItem[]; total: number }> {
  if (filter.paymentMethods.length === 0) return { payables: [], total: 0 };
  const since = new Date(now.getTime() - VERIFIED_WINDOW_MS).toISOString();
  const methods = sql.join(filter.paymentMethods.map((m) => sql`${m}`), sql`, `);
  const result = await db.execute<Row>(sql`
    with latest as (
      select distinct on (p.listing_id) p.listing_id, p.checked_at, p.tools, p.priced_items, p.payment_methods, p.verifiable
      from listing_probes p
      where p.listing_id in (select id from listings where status = 'approved' and verified)
      order by p.listing_id, p.checked_at desc, p.id desc
    ), items as (
      select l.id as "listingId", l.slug, l.name, l.description, l.categories, l.server_url as "serverUrl",
        latest.checked_at as "checkedAt", latest.tools, item.value as item, item.n,
        (select coalesce(jsonb_agg(m.value), '[]'::jsonb) from jsonb_array_elements(latest.payment_methods) m
          where m.value->>'paymentMethod' in (${methods})
            and coalesce(item.value->>'paymentMethod', m.value->>'paymentMethod') = m.value->>'paymentMethod'
            and (${filter.payTo ?? null}::text is null or lower(m.value->>'walletAddress') = lower(${filter.payTo ?? null}::text))) as methods
      from latest
      join listings l on l.id = latest.listing_id
      cross join lateral jsonb_array_elements(latest.priced_items) with ordinality as item(value, n)
      where latest.verifiable and latest.checked_at > ${since}::timestamptz
        -- a free item needs no payment, so x402 has nothing to discover
        and (item.value->>'amount')::numeric > 0
    ), payable as (select * from items where jsonb_array_length(methods) > 0)
    select counted.total, page.* from (select count(*)::int as total from payable) counted
    left join lateral (select * from payable order by slug, n limit ${filter.limit} offset ${filter.offset}) page on true`);
  const rows = rowsOf<Row & { n?: unknown }>(result);
  const total = Number(rows[0]?.total ?? 0);
  const payables = rows
    .filter((r) => r.listingId)
    .map(({ total: _total, n: _n, checkedAt, ...payable }) => ({ ...payable, checkedAt: new Date(checkedAt).toISOString() }));
  return { payables, total };
}
