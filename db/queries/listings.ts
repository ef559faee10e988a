// Reads the public catalogue: filtering, sorting and paging happen in the database. Rows come back as stored;
// lib/listings/from-rows.ts turns them into what the surfaces show.
import { and, asc, eq, gt, inArray, isNotNull, isNull, or, sql, type SQL } from "drizzle-orm";
import type { CataloguePrice, CatalogueSort, CatalogueSource } from "@agora-mcp/protocol";
import { correctedTerms, countMatches, countUpTo, matchesSearchText, planSearch, rankedSearch, SEARCH_WINDOW, type RankedRow, type SearchTerms } from "./listing-search";
import { rowsOf } from "../rows";
import { listings, type ListingRow } from "../schema";
import { probeTargetColumns, type ProbeTarget } from "./probes";
import { recentSalesCount, recentUsageByListing } from "./sales";
import type { Db } from "../types";

const columns = {
  id: listings.id,
  slug: listings.slug,
  name: listings.name,
  description: listings.description,
  categories: listings.categories,
  price: listings.price,
  verified: listings.verified,
  serverUrl: listings.serverUrl,
  websiteUrl: listings.websiteUrl,
  createdAt: listings.createdAt,
  updatedAt: listings.updatedAt,
  // Provenance: submitted here or imported (lib/ingest), with the upstream entry's name, page and status.
  source: listings.source,
  upstreamName: listings.upstreamName,
  upstreamUrl: listings.upstreamUrl,
  upstreamStatus: listings.upstreamStatus,
  // The name the registry API lists it under when it is not "<namespace>/<slug>" (an imported entry's).
  registryName: listings.registryName,
};

/** The columns of a listing the public may see, as stored. */
export type PublicListingRow = Pick<ListingRow, keyof typeof columns>;

/** What the registry API adds: the review status (a listing once approved and no longer is served as deleted), its dates and the upstream's server.json. */
const registryColumns = {
  ...columns,
  status: listings.status,
  approvedAt: listings.approvedAt,
  statusChangedAt: listings.statusChangedAt,
  upstreamServer: listings.upstreamServer,
  publishedAt: listings.publishedAt,
  provenance: listings.provenance,
};
export type RegistryListingRow = Pick<ListingRow, keyof typeof registryColumns>;

/** The catalogue's filters and sorts (@agora-mcp/protocol's catalogue.ts names the values once). */
export type CatalogueQuery = {
  /** The search text's words; null: no text (browse). */
  terms: SearchTerms | null;
  category: string;
  price: CataloguePrice;
  /** Where listings came from: every source, or one. */
  source?: CatalogueSource;
  sort: CatalogueSort;
  /** A further condition on listings (x402 discovery's search: listings that may sell through x402). */
  only?: SQL;
};

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Category and price: the filters besides the text. */
function filterConditions(filters: Pick<CatalogueQuery, "category" | "price" | "source" | "only">): SQL {
  const conditions: SQL[] = [filters.only ?? sql`true`];
  if (filters.category) conditions.push(sql`${listings.categories} @> array[${filters.category}]::text[]`);
  if (filters.price === "free") conditions.push(or(isNull(listings.price), eq(listings.price, 0))!);
  if (filters.price === "paid") conditions.push(gt(listings.price, 0));
  if (filters.source && filters.source !== "all") conditions.push(eq(listings.source, filters.source));
  return and(...conditions)!;
}

/** The name the registry API lists a listing under: its stored registry name, or "<namespace>/<slug>". */
export const registryNameSql = (namespace: string) => sql`coalesce(${listings.registryName}, ${namespace} || '/' || ${listings.slug})`;

/**
 * The official registry's `search`: a case-insensitive substring of server.name (the OpenAPI's "substring match on
 * the name"), not the words of the listing's text (the site and the MCP endpoint rank those: searchListings).
 */
function nameSubstringWhere(q: string, namespace: string): SQL {
  return sql`${registryNameSql(namespace)} ilike ${`%${escapeLike(q)}%`}`;
}

/**
 * Listings the registry API serves: the approved ones, and with `includeDeleted` those once approved and no longer
 * (removed, rejected, unlisted or deleted upstream), which it serves as deleted.
 */
export function registryVisible(includeDeleted: boolean): SQL {
  return includeDeleted ? or(eq(listings.status, "approved"), isNotNull(listings.approvedAt))! : eq(listings.status, "approved");
}

// Every order ends in the id, so ties are stable and pages never repeat or skip a listing. "nulls last" matches
// the indexes' DESC NULLS LAST (a plain DESC means NULLS FIRST, which no index serves, and sorts the table).
function orderBy(sort: CatalogueQuery["sort"]): SQL[] {
  const byName = sql`lower(${listings.name})`;
  if (sort === "newest") return [sql`${listings.createdAt} desc nulls last`, asc(listings.id)];
  if (sort === "name") return [asc(byName), asc(listings.id)];
  // Most purchased: sales in the last 30 days (at most 30 rows of the daily roll-up per listing), then as popular.
  if (sort === "purchased") return [sql`${recentSalesCount(sql`${listings.id}`)} desc`, sql`${listings.verified} desc nulls last`, asc(byName), asc(listings.id)];
  return [sql`${listings.verified} desc nulls last`, asc(byName), asc(listings.id)];
}

/**
 * A page of results. `total` is exact up to SEARCH_WINDOW; `capped` says more match than that (shown as
 * "1,000+"): no request counts every match of a common word in a large catalogue.
 */
export type SearchResult = { rows: PublicListingRow[]; total: number; capped: boolean };

/**
 * The one search behind the marketplace page, GET /api/mcp-agents and the MCP tool search_servers.
 * With words, every word must match (a close spelling counts when nothing matches exactly) and "relevance"
 * ranks them; the other sorts order the same matches. A text search pages through its best SEARCH_WINDOW.
 * `exactBrowseCount`: the marketplace's cached browse pages (bounded keys, rebuilt on approval) count every
 * listing so their page links reach the whole catalogue; requests served per call count up to the window.
 */
export async function searchListings(
  db: Db,
  filters: CatalogueQuery,
  page: { limit: number; offset: number },
  options: { exactBrowseCount?: boolean } = {},
): Promise<SearchResult> {
  const { terms } = filters;
  const filter = filterConditions(filters);
  const approved = and(eq(listings.status, "approved"), filter)!;
  if (!terms) {
    const [rows, total] = await Promise.all([
      filters.sort === "popular" ? popularPage(db, approved, page) : db.select(columns).from(listings).where(approved).orderBy(...orderBy(filters.sort)).limit(page.limit).offset(page.offset),
      options.exactBrowseCount ? countAll(db, approved) : countUpTo(db, approved, SEARCH_WINDOW + 1),
    ]);
    if (options.exactBrowseCount) return { rows, total, capped: false };
    return { rows, total: Math.min(total, SEARCH_WINDOW), capped: total > SEARCH_WINDOW };
  }
  // Pages of a text search end at the window. When no listing holds every word, misspelled words are
  // corrected against the catalogue's vocabulary and the search runs once more.
  const limit = Math.max(0, Math.min(page.limit, SEARCH_WINDOW - page.offset));
  const first = await textSearch(db, terms, filters.sort, filter, { limit, offset: page.offset });
  if (first.total > 0) return first;
  const corrected = await correctedTerms(db, terms);
  return corrected ? textSearch(db, corrected, filters.sort, filter, { limit, offset: page.offset }) : first;
}

async function textSearch(db: Db, terms: SearchTerms, sort: CatalogueQuery["sort"], filter: SQL, page: { limit: number; offset: number }): Promise<SearchResult> {
  const plan = await planSearch(db, terms, filter);
  const capped = (total: number) => ({ total: Math.min(total, SEARCH_WINDOW), capped: total > SEARCH_WINDOW });
  const count = () => countMatches(db, terms, filter, plan, SEARCH_WINDOW + 1);
  if (sort === "relevance") {
    const rows = page.limit > 0 ? await rankedSearch(db, terms, filter, page, plan) : [];
    // An empty first page is no match at all: nothing to count.
    const total = rows.length > 0 ? Number(rows[0]!.total) : page.offset === 0 && page.limit > 0 ? 0 : await count();
    return { rows: rows.map(fromRaw), ...capped(total) };
  }
  const condition = and(eq(listings.status, "approved"), filter, matchesSearchText(terms))!;
  const rowsOfPage = () => (sort === "popular" ? popularPage(db, condition, page) : db.select(columns).from(listings).where(condition).orderBy(...orderBy(sort)).limit(page.limit).offset(page.offset));
  const [rows, total] = await Promise.all([
    page.limit > 0 ? rowsOfPage() : [],
    count(),
  ]);
  return { rows, ...capped(total) };
}

/**
 * A page in the popular order: verified first, then real usage over 30 days (db/queries/sales.ts recentUsageScore),
 * then by name. Bounded however large the catalogue: only listings with sales in the window are scored (an index
 * range of the daily roll-up), every other listing is read in the index's order (verified, name) up to the page's
 * end, and the two are merged.
 */
async function popularPage(db: Db, condition: SQL, page: { limit: number; offset: number }): Promise<PublicListingRow[]> {
  const result = await db.execute(sql`
    with used as materialized (${recentUsageByListing}),
    scored as (select ${POPULAR_COLUMNS}, used.usage from ${listings} join used on used.listing_id = ${listings.id} where ${condition}),
    rest as (select ${POPULAR_COLUMNS}, 0::float8 as usage from ${listings} where ${condition} and ${listings.id} not in (select listing_id from used)
      order by ${listings.verified} desc nulls last, lower(${listings.name}), ${listings.id} limit ${page.offset + page.limit})
    select * from (select * from scored union all select * from rest) merged
    order by verified desc nulls last, usage desc, lower(name), id limit ${page.limit} offset ${page.offset}`);
  return rowsOf<RankedRow>(result).map(fromRaw);
}

const POPULAR_COLUMNS = sql.raw(
  ["id", "slug", "name", "description", "categories", "price", "verified", "server_url", "website_url", "created_at", "updated_at", "source", "upstream_name", "upstream_url", "upstream_status"].map((c) => `listings.${c}`).join(", "),
);

async function countAll(db: Db, condition: SQL): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(listings).where(condition);
  return Number(row?.n ?? 0);
}

// The ranked statement is raw SQL: its snake_case columns become the row drizzle would have answered.
function fromRaw(r: RankedRow): PublicListingRow {
  return {
    id: r.id,
    slug: r.slug,
    name: r.name,
    description: r.description,
    categories: r.categories,
    price: r.price === null ? null : Number(r.price),
    verified: r.verified,
    serverUrl: r.server_url,
    websiteUrl: r.website_url,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
    source: r.source,
    upstreamName: r.upstream_name,
    upstreamUrl: r.upstream_url,
    upstreamStatus: r.upstream_status,
    registryName: r.registry_name,
  };
}

/** Every category in use by approved listings, with how many listings carry it. */
export async function listCategories(db: Db): Promise<{ name: string; count: number }[]> {
  const result = await db.execute<{ name: string; count: number }>(sql`
    select c as name, count(*)::int as count
    from ${listings}, unnest(${listings.categories}) as c
    where ${listings.status} = 'approved'
    group by c order by lower(c), c`);
  const rows = rowsOf<{ name: string; count: number }>(result);
  return rows.map((r) => ({ name: r.name, count: Number(r.count) }));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An approved listing by slug or id; null for unknown, pending and rejected ones. */
export async function findPublicListing(db: Db, slugOrId: string): Promise<PublicListingRow | null> {
  // No listing has such a key, and PostgreSQL refuses to compare text holding NUL: answer "not found".
  if (slugOrId.length > 200 || slugOrId.includes("\u0000") || !slugOrId.isWellFormed()) return null;
  // A key with a slash is an imported listing's registry name (slugs never hold one): the name the registry API
  // lists it under (lib/listings/presenters/server-details.ts registryNameOf), stored with it.
  const key = UUID.test(slugOrId) ? eq(listings.id, slugOrId) : slugOrId.includes("/") ? eq(listings.registryName, slugOrId) : eq(listings.slug, slugOrId);
  const [row] = await db.select(columns).from(listings).where(and(key, eq(listings.status, "approved"))).limit(1);
  return row ?? null;
}

const registryNameKey = (name: string, ownSlug: string | null) =>
  ownSlug ? or(eq(listings.registryName, name), and(isNull(listings.registryName), eq(listings.slug, ownSlug))) : eq(listings.registryName, name);

/**
 * An approved listing by the name the registry API lists it under: its stored registry name, or, for a listing
 * without one, "<namespace>/<slug>" (`ownSlug`: the slug the name spells in Agora's namespace, else null). Naming
 * keeps the two apart (lib/ingest/naming.ts), so at most one listing answers to a name.
 */
export async function findPublicListingByRegistryName(db: Db, name: string, ownSlug: string | null): Promise<PublicListingRow | null> {
  if (name.length > 200 || name.includes("\u0000") || !name.isWellFormed()) return null;
  const key = registryNameKey(name, ownSlug);
  const [row] = await db.select(columns).from(listings).where(and(key, eq(listings.status, "approved"))).limit(1);
  return row ?? null;
}

/** Whether any listing, whatever its status, is named `name` in the registry API (see findPublicListingByRegistryName). */
export async function registryNameHeld(db: Db, name: string, ownSlug: string | null): Promise<boolean> {
  const key = registryNameKey(name, ownSlug);
  const [row] = await db.select({ id: listings.id }).from(listings).where(key).limit(1);
  return row !== undefined;
}

/**
 * One page of the official-registry API in slug order after `afterSlug` (a keyset, so listings added or changed
 * while a client pages never shift the rest), optionally only those changed after `updatedSince` (which, as the
 * registry's OpenAPI says, always includes deleted ones). Returns up to `limit` rows.
 */
export async function listRegistryPage(
  db: Db,
  page: { q: string; namespace: string; source?: CatalogueQuery["source"]; updatedSince?: Date; includeDeleted?: boolean; afterSlug?: string; limit: number },
): Promise<RegistryListingRow[]> {
  const conditions = [registryVisible(Boolean(page.includeDeleted || page.updatedSince))];
  if (page.q) conditions.push(nameSubstringWhere(page.q, page.namespace));
  if (page.source && page.source !== "all") conditions.push(eq(listings.source, page.source));
  if (page.updatedSince) conditions.push(gt(listings.updatedAt, page.updatedSince));
  if (page.afterSlug) conditions.push(gt(listings.slug, page.afterSlug));
  return db.select(registryColumns).from(listings).where(and(...conditions)).orderBy(asc(listings.slug)).limit(page.limit);
}

/** One listing by the name the registry API lists it under, as that API serves it (see findPublicListingByRegistryName). */
export async function findRegistryListingByName(db: Db, name: string, ownSlug: string | null, includeDeleted = false): Promise<RegistryListingRow | null> {
  const [row] = await db.select(registryColumns).from(listings).where(and(registryNameKey(name, ownSlug), registryVisible(includeDeleted))).limit(1);
  return row ?? null;
}

/** One approved listing by id or slug, as the registry API serves it. */
export async function findRegistryListing(db: Db, slugOrId: string): Promise<RegistryListingRow | null> {
  const key = UUID.test(slugOrId) ? eq(listings.id, slugOrId) : slugOrId.includes("/") ? eq(listings.registryName, slugOrId) : eq(listings.slug, slugOrId);
  const [row] = await db.select(registryColumns).from(listings).where(and(key, eq(listings.status, "approved"))).limit(1);
  return row ?? null;
}

/** Slugs and update times of every approved listing, for the sitemap. */
export async function listSitemapEntries(db: Db, page: { limit: number; offset: number }) {
  return db
    .select({ slug: listings.slug, updatedAt: listings.updatedAt })
    .from(listings)
    .where(eq(listings.status, "approved"))
    .orderBy(asc(listings.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countApproved(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(listings).where(eq(listings.status, "approved"));
  return Number(row?.n ?? 0);
}

/** The catalogue's version: a sequence every write to listings, checks or drift bumps (statement triggers). */
export async function catalogueVersion(db: Db): Promise<string> {
  const [row] = rowsOf<{ v: string }>(await db.execute(sql`select last_value::text as v from catalogue_version`));
  return row?.v ?? "0";
}

/** What a probe of the listings with these slugs reads (ids, server URLs, revisions, owner-named paid tools), whatever their status. */
export async function findListingTargets(db: Db, slugs: string[]): Promise<ProbeTarget[]> {
  if (slugs.length === 0) return [];
  return db.select(probeTargetColumns).from(listings).where(inArray(listings.slug, slugs));
}

/** Gives the listing with `slug` another server URL, unless another listing is already there (URLs are unique). */
export async function moveListingBySlug(db: Db, slug: string, serverUrl: string): Promise<void> {
  await db.execute(sql`
    update ${listings} set server_url = ${serverUrl}
    where slug = ${slug} and server_url <> ${serverUrl}
      and not exists (select 1 from ${listings} taken where taken.server_url = ${serverUrl})`);
}

/**
 * A listing already at this server URL (submitted here, or imported before), under any of its `spellings`; one at
 * the first spelling wins when there are several.
 */
export async function listingAtUrl(db: Db, spellings: [string, ...string[]]): Promise<{ id: string; revision: number } | null> {
  const [row] = await db
    .select({ id: listings.id, revision: listings.revision })
    .from(listings)
    .where(inArray(listings.serverUrl, spellings))
    .orderBy(sql`${listings.serverUrl} = ${spellings[0]} desc`)
    .limit(1);
  return row ?? null;
}
