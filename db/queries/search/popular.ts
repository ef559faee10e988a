// The default browse order ("popular"): verified first, then real usage over 30 days, then the name.
import { sql, type SQL } from "drizzle-orm";
import { listings } from "../../schema";
import { rowsOf } from "../../rows";
import type { Db } from "../../types";
import { recentUsageByListing } from "../sales";
import { fromRaw, rawColumns, type PublicListingRow, type RawListingRow } from "./columns";

const COLUMNS = rawColumns("listings");

/**
 * A page in the popular order: verified first, then real usage over 30 days (db/queries/sales.ts recentUsageScore),
 * then by name. Bounded however large the catalogue: only listings with sales in the window are scored (an index
 * range of the daily roll-up), every other listing is read in the index's order (verified, name) up to the page's
 * end, and the two are merged.
 */
export async function popularPage(
  db: Db,
  condition: SQL,
  page: { limit: number; offset: number },
): Promise<PublicListingRow[]> {
  const result = await db.execute(sql`
    with used as materialized (${recentUsageByListing}),
    scored as (select ${COLUMNS}, used.usage from ${listings} join used on used.listing_id = ${listings.id} where ${condition}),
    rest as (select ${COLUMNS}, 0::float8 as usage from ${listings} where ${condition} and ${listings.id} not in (select listing_id from used)
      order by ${listings.verified} desc nulls last, lower(${listings.name}), ${listings.id} limit ${page.offset + page.limit})
    select * from (select * from scored union all select * from rest) merged
    order by verified desc nulls last, usage desc, lower(name), id limit ${page.limit} offset ${page.offset}`);
  return rowsOf<RawListingRow>(result).map(fromRaw);
}
