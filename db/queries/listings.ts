// Reads single listings and the catalogue's other lists (the registry API's pages, categories, the sitemap, the
// catalogue's version); the catalogue's search is ./search. Rows come back as stored; lib/listings/from-rows.ts
// turns them into what the surfaces show.
import { and, asc, eq, gt, inArray, isNotNull, isNull, or, sql, type SQL } from "drizzle-orm";
import type { CatalogueSource } from "@agora-mcp/protocol";
import { rowsOf } from "../rows";
import { listings, type ListingRow } from "../schema";
import { probeTargetColumns, type ProbeTarget } from "./probes";
import { publicColumns as columns, type PublicListingRow } from "./search/columns";
import type { Db } from "../types";

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

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

/** The name the registry API lists a listing under: its stored registry name, or "<namespace>/<slug>". */
const registryNameSql = (namespace: string) =>
  sql`coalesce(${listings.registryName}, ${namespace} || '/' || ${listings.slug})`;

/**
 * The official registry's `search`: a case-insensitive substring of server.name (the OpenAPI's "substring match on
 * the name"), not the words of the listing's text (the site and the MCP endpoint rank those: ./search).
 */
function nameSubstringWhere(q: string, namespace: string): SQL {
  return sql`${registryNameSql(namespace)} ilike ${`%${escapeLike(q)}%`}`;
}

/**
 * Listings the registry API serves: the approved ones, and with `includeDeleted` those once approved and no longer
 * (removed, rejected, unlisted or deleted upstream), which it serves as deleted.
 */
function registryVisible(includeDeleted: boolean): SQL {
  return includeDeleted
    ? or(eq(listings.status, "approved"), isNotNull(listings.approvedAt))!
    : eq(listings.status, "approved");
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
  // An http(s) URL is a server's MCP endpoint (an agent holding only the URL asks which listing it is; a URL is
  // unique among listings). Any other key with a slash is an imported listing's registry name (slugs never hold
  // one): the name the registry API lists it under (lib/listings/presenters/server-details.ts registryNameOf).
  const key = UUID.test(slugOrId)
    ? eq(listings.id, slugOrId)
    : /^https?:\/\//i.test(slugOrId)
      ? eq(listings.serverUrl, slugOrId)
      : slugOrId.includes("/")
        ? eq(listings.registryName, slugOrId)
        : eq(listings.slug, slugOrId);
  const [row] = await db
    .select(columns)
    .from(listings)
    .where(and(key, eq(listings.status, "approved")))
    .limit(1);
  return row ?? null;
}

const registryNameKey = (name: string, ownSlug: string | null) =>
  ownSlug
    ? or(eq(listings.registryName, name), and(isNull(listings.registryName), eq(listings.slug, ownSlug)))
    : eq(listings.registryName, name);

/** Whether any listing, whatever its status, is named `name` in the registry API. */
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
  page: {
    q: string;
    namespace: string;
    source?: CatalogueSource;
    updatedSince?: Date;
    includeDeleted?: boolean;
    afterSlug?: string;
    limit: number;
  },
): Promise<RegistryListingRow[]> {
  const conditions = [registryVisible(Boolean(page.includeDeleted || page.updatedSince))];
  if (page.q) conditions.push(nameSubstringWhere(page.q, page.namespace));
  if (page.source && page.source !== "all") conditions.push(eq(listings.source, page.source));
  if (page.updatedSince) conditions.push(gt(listings.updatedAt, page.updatedSince));
  if (page.afterSlug) conditions.push(gt(listings.slug, page.afterSlug));
  return db
    .select(registryColumns)
    .from(listings)
    .where(and(...conditions))
    .orderBy(asc(listings.slug))
    .limit(page.limit);
}

/** One listing by the name the registry API lists it under, as that API serves it. */
export async function findRegistryListingByName(
  db: Db,
  name: string,
  ownSlug: string | null,
  includeDeleted = false,
): Promise<RegistryListingRow | null> {
  if (name.length > 200 || name.includes("\u0000") || !name.isWellFormed()) return null;
  const [row] = await db
    .select(registryColumns)
    .from(listings)
    .where(and(registryNameKey(name, ownSlug), registryVisible(includeDeleted)))
    .limit(1);
  return row ?? null;
}

/** One approved listing by id, slug or URL (findPublicListing's keys), as the registry API serves it. */
export async function findRegistryListing(db: Db, slugOrId: string): Promise<RegistryListingRow | null> {
  const row = await findPublicListing(db, slugOrId);
  if (!row) return null;
  const [full] = await db
    .select(registryColumns)
    .from(listings)
    .where(and(eq(listings.id, row.id), eq(listings.status, "approved")))
    .limit(1);
  return full ?? null;
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
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(listings)
    .where(eq(listings.status, "approved"));
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
export async function listingAtUrl(
  db: Db,
  spellings: [string, ...string[]],
): Promise<{ id: string; revision: number } | null> {
  const [row] = await db
    .select({ id: listings.id, revision: listings.revision })
    .from(listings)
    .where(inArray(listings.serverUrl, spellings))
    .orderBy(sql`${listings.serverUrl} = ${spellings[0]} desc`)
    .limit(1);
  return row ?? null;
}
