// What x402 discovery lists: each item a verified listing sells through an x402-paid MCP tool whose unpaid call
// answered PaymentRequired at the latest check, with the requirements it answered, in the x402 version it answered
// (version 2, or version 1 for servers such as Vercel's x402-mcp and MCPay). Items sold only through
// MonetizedMCP's make-purchase are not listed: a generic x402 client cannot pay them (see README, discovery).
// Filters and paging happen in the database.
import { sql, type SQL } from "drizzle-orm";
import {
  findNetwork,
  type PaymentRequirementsV1,
  type PaymentRequirementsV2,
  type PricedItem,
  type ProbedTool,
} from "@agora-mcp/protocol";
import { rowsOf } from "../rows";
import type { ListingRow } from "../schema";
import type { Db } from "../types";
import { VERIFIED_WINDOW_MS } from "./probes";

/** What an x402-paid tool's unpaid call answered: its requirements, in the version it answered them in. */
type PayableOffer =
  { x402Version: 2; requirements: PaymentRequirementsV2 } | { x402Version: 1; requirements: PaymentRequirementsV1 };

/** One x402-paid item, beside the columns of its listing shown with it (provenance: lib/listings/presenters/provenance.ts). */
export type PayableItem = Pick<
  ListingRow,
  | "slug"
  | "name"
  | "description"
  | "categories"
  | "serverUrl"
  | "source"
  | "upstreamName"
  | "upstreamUrl"
  | "upstreamStatus"
> & {
  listingId: string;
  checkedAt: string;
  tools: ProbedTool[];
  /** The x402-paid tool's item: `toolName` is the tool. */
  item: PricedItem & { toolName: string };
  /** What the tool's unpaid call answered (the item's `x402Requirements` or `x402RequirementsV1`). */
  offer: PayableOffer;
  /** The price-listing item that names this tool as its own (a provider-kit server), for its id and hints. */
  listed: PricedItem | null;
};

/** Which listings may be shown at all: the deployment's rules, as plain values (db/ reads no settings). */
export type DiscoveryExclusions = {
  /** List servers whose host is loopback, private or link-local (development and test deployments only). */
  includePrivateHosts: boolean;
  /** Payees nobody can be paid at (lower case). */
  placeholderPayees: string[];
  /** Server URLs that belong to sample listings. */
  sampleServerUrls: string[];
  /** A POSIX regular expression matching any other sample listing's server URL. */
  sampleServerUrlPattern: string;
};

type Row = Omit<PayableItem, "checkedAt" | "offer"> & {
  checkedAt: string | Date;
  total: number;
  x402Version: 1 | 2 | string;
};

// The host of a URL (bracketed for IPv6), and the literal hosts that are never on the public Internet.
const HOST = String.raw`^[a-z][a-z0-9+.-]*://(?:[^@/?#]*@)?(\[[^]]*\]|[^:/?#]*)`;
const PRIVATE_HOST = String.raw`^(localhost|.*\.localhost|.*\.local|.*\.internal|.*\.home\.arpa|(0|10|127)(\.[0-9]{1,3}){3}|(169\.254|192\.168|172\.(1[6-9]|2[0-9]|3[01])|100\.(6[4-9]|[7-9][0-9]|1[01][0-9]|12[0-7]))(\.[0-9]{1,3}){2}|\[(::1?|::ffff:.*|f[cd].*|fe[89ab].*)\])\.?$`;

/**
 * One page of payable items, in listing then catalogue order, and how many there are in all. `networks` are the
 * CAIP-2 networks the caller asks for; `payTo` narrows to one wallet.
 */
export async function listPayableItems(
  db: Db,
  filter: PayableFilter & { limit: number; offset: number },
  exclusions: DiscoveryExclusions,
  now = new Date(),
): Promise<{ payables: PayableItem[]; total: number }> {
  if (filter.networks.length === 0) return { payables: [], total: 0 };
  const result = await db.execute<Row>(sql`
    with ${payableItemsCtes(filter, exclusions, now)}, payable as (
      -- Catalogues key entries on (resource, toolName): one entry per tool of a server, whatever it answered twice.
      select distinct on ("listingId", item->>'toolName') * from items order by "listingId", item->>'toolName', n
    )
    select counted.total, page.* from (select count(*)::int as total from payable) counted
    left join lateral (select * from payable order by slug, n limit ${filter.limit} offset ${filter.offset}) page on true`);
  const rows = rowsOf<Row & { n?: unknown; req?: unknown }>(result);
  const total = Number(rows[0]?.total ?? 0);
  const payables = rows
    .filter((r) => r.listingId)
    .map(({ total: _total, n: _n, req: _req, x402Version, checkedAt, ...payable }): PayableItem => ({
      ...payable,
      offer:
        Number(x402Version) === 1
          ? { x402Version: 1, requirements: payable.item.x402RequirementsV1! }
          : { x402Version: 2, requirements: payable.item.x402Requirements! },
      checkedAt: new Date(checkedAt).toISOString(),
    }));
  return { payables, total };
}

/**
 * Which entries a caller asks for (lib/registry/discovery-filters.ts reads them from the Bazaar's filters):
 * `networks` in CAIP-2, one payee, one asset, a maximum price in the token's smallest unit (only where the asset
 * is one of `usdcAssets`, the USDC the dollar price means), one source.
 */
export type PayableFilter = {
  networks: string[];
  payTo?: string;
  asset?: string;
  maxUnits?: bigint;
  usdcAssets?: string[];
  source?: string;
  listingIds?: string[];
};

/**
 * `latest` (each listing's latest check) and `items` (its x402-paid tools that pass the policy), as CTEs. An item's
 * requirements (`req`) are its version 2 ones, else its version 1 ones (`x402Version` says which): version 1 names
 * its network in its own words ("base-sepolia") and its price `maxAmountRequired`.
 */
function payableItemsCtes(filter: PayableFilter, exclusions: DiscoveryExclusions, now: Date): SQL {
  const since = new Date(now.getTime() - VERIFIED_WINDOW_MS).toISOString();
  const v1Networks = filter.networks.flatMap((n): string[] => {
    const v1 = findNetwork(n)?.v1Network;
    return v1 ? [v1] : [];
  });
  const list = (values: string[]) =>
    values.length
      ? sql`array[${sql.join(
          values.map((v) => sql`${v}`),
          sql`, `,
        )}]::text[]`
      : sql`array[]::text[]`;
  const payTo = filter.payTo?.toLowerCase() ?? null;
  const asset = filter.asset?.toLowerCase() ?? null;
  const maxUnits = filter.maxUnits === undefined ? null : filter.maxUnits.toString();
  const usdc = (filter.usdcAssets ?? []).map((a) => a.toLowerCase());
  const ids = filter.listingIds
    ? sql`array[${sql.join([sql`null`, ...filter.listingIds.map((id) => sql`${id}`)], sql`, `)}]::uuid[]`
    : sql`null::uuid[]`;
  const source = filter.source && filter.source !== "all" ? filter.source : null;
  return sql`latest as (
      select distinct on (p.listing_id) p.listing_id, p.checked_at, p.tools, p.priced_items, p.verifiable
      from listing_probes p
      where p.listing_id in (select id from listings where status = 'approved' and verified and (${ids} is null or id = any(${ids})))
      order by p.listing_id, p.checked_at desc, p.id desc
    ), items as (
      select l.id as "listingId", l.slug, l.name, l.description, l.categories, l.server_url as "serverUrl",
        l.source, l.upstream_name as "upstreamName", l.upstream_url as "upstreamUrl", l.upstream_status as "upstreamStatus",
        latest.checked_at as "checkedAt", latest.tools, item.value as item, item.n, offer.version as "x402Version", offer.req,
        (select listed.value from jsonb_array_elements(latest.priced_items) listed
          where listed.value->>'x402Tool' = item.value->>'toolName' limit 1) as listed
      from latest
      join listings l on l.id = latest.listing_id
      cross join lateral jsonb_array_elements(latest.priced_items) with ordinality as item(value, n)
      cross join lateral (select
          case when jsonb_typeof(item.value->'x402Requirements') = 'object' then 2 else 1 end as version,
          case when jsonb_typeof(item.value->'x402Requirements') = 'object' then item.value->'x402Requirements'
               when jsonb_typeof(item.value->'x402RequirementsV1') = 'object' then item.value->'x402RequirementsV1' end as req) offer
      cross join lateral (select case when offer.version = 2 then offer.req->>'amount' else offer.req->>'maxAmountRequired' end as units) price
      where latest.verifiable and latest.checked_at > ${since}::timestamptz
        and offer.req is not null and item.value->>'toolName' is not null
        and (offer.req->>'network' = any(${list(filter.networks)}) or (offer.version = 1 and offer.req->>'network' = any(${list(v1Networks)})))
        and (${source}::text is null or l.source = ${source}::text)
        and (${payTo}::text is null or lower(offer.req->>'payTo') = ${payTo}::text)
        and (${asset}::text is null or lower(offer.req->>'asset') = ${asset}::text)
        -- A dollar price means USDC: the amount is compared in its smallest unit, only for USDC (CASE: the cast
        -- runs only on digits).
        and (${maxUnits}::numeric is null or (lower(offer.req->>'asset') = any(${list(usdc)})
          and case when price.units ~ '^[0-9]{1,30}$' then price.units::numeric <= ${maxUnits}::numeric else false end))
        and lower(offer.req->>'payTo') <> all(${list(exclusions.placeholderPayees)})
        and l.server_url <> all(${list(exclusions.sampleServerUrls)})
        and l.server_url !~ ${exclusions.sampleServerUrlPattern}::text
        and (${exclusions.includePrivateHosts}::boolean or coalesce(lower(substring(l.server_url from ${HOST}::text)), '') !~ ${PRIVATE_HOST}::text)
    )`;
}

/**
 * Listings that have a payable item the filter keeps (listPayableItems' own rule): the search of
 * /discovery/search ranks only these. Work grows with the verified, checked listings, not with the catalogue.
 */
export function sellsThroughX402(filter: PayableFilter, exclusions: DiscoveryExclusions, now = new Date()): SQL {
  if (filter.networks.length === 0) return sql`false`;
  return sql`listings.id in (with ${payableItemsCtes(filter, exclusions, now)} select "listingId" from items)`;
}
