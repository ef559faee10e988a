// Reads the public catalogue: filtering, sorting and paging happen in the database.
import { and, asc, desc, eq, gt, isNull, or, sql, type SQL } from "drizzle-orm";
import type { ListingFilters } from "@/lib/validations/marketplace";
import { listings, type Listing } from "../schema";
import type { Db } from "../types";

/** What the public sees of a listing; plain JSON so it can be cached and serialised. */
export type PublicListing = {
  id: string;
  slug: string;
  name: string;
  description: string;
  categories: string[];
  price: number | null;
  verified: boolean;
  serverUrl: string;
  websiteUrl: string | null;
  createdAt: string;
  updatedAt: string;
};

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
};

type Row = Pick<Listing, keyof typeof columns>;

export function toPublicListing(row: Row): PublicListing {
  return {
    ...row,
    price: row.price === null ? null : Number(row.price),
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function where(filters: ListingFilters): SQL {
  const conditions: SQL[] = [eq(listings.status, "approved")];
  // search_text is lower-cased name, description and categories; the trigram index serves ILIKE.
  if (filters.q) conditions.push(sql`${listings.searchText} ilike ${`%${escapeLike(filters.q.toLowerCase())}%`}`);
  if (filters.category) conditions.push(sql`${listings.categories} @> array[${filters.category}]::text[]`);
  if (filters.price === "free") conditions.push(or(isNull(listings.price), eq(listings.price, 0))!);
  if (filters.price === "paid") conditions.push(gt(listings.price, 0));
  return and(...conditions)!;
}

// Every order ends in the id, so ties are stable and pages never repeat or skip a listing.
function orderBy(sort: ListingFilters["sort"]): SQL[] {
  const byName = sql`lower(${listings.name})`;
  if (sort === "newest") return [desc(listings.createdAt), asc(listings.id)];
  if (sort === "name") return [asc(byName), asc(listings.id)];
  return [desc(listings.verified), asc(byName), asc(listings.id)];
}

export async function searchListings(
  db: Db,
  filters: ListingFilters,
  page: { limit: number; offset: number },
): Promise<{ items: PublicListing[]; total: number }> {
  const condition = where(filters);
  const [rows, [count]] = await Promise.all([
    db.select(columns).from(listings).where(condition).orderBy(...orderBy(filters.sort)).limit(page.limit).offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(listings).where(condition),
  ]);
  return { items: rows.map(toPublicListing), total: Number(count?.n ?? 0) };
}

/** Every category in use by approved listings, with how many listings carry it. */
export async function listCategories(db: Db): Promise<{ name: string; count: number }[]> {
  const result = await db.execute<{ name: string; count: number }>(sql`
    select c as name, count(*)::int as count
    from ${listings}, unnest(${listings.categories}) as c
    where ${listings.status} = 'approved'
    group by c order by lower(c), c`);
  const rows = (Array.isArray(result) ? result : (result as unknown as { rows: unknown[] }).rows) as { name: string; count: number }[];
  return rows.map((r) => ({ name: r.name, count: Number(r.count) }));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An approved listing by slug or id; null for unknown, pending and rejected ones. */
export async function findPublicListing(db: Db, slugOrId: string): Promise<PublicListing | null> {
  // No listing has such a key, and PostgreSQL refuses to compare text holding NUL: answer "not found".
  if (slugOrId.length > 200 || slugOrId.includes("\u0000") || !slugOrId.isWellFormed()) return null;
  const key = UUID.test(slugOrId) ? eq(listings.id, slugOrId) : eq(listings.slug, slugOrId);
  const [row] = await db.select(columns).from(listings).where(and(key, eq(listings.status, "approved"))).limit(1);
  return row ? toPublicListing(row) : null;
}

/**
 * One page of the official-registry API: approved listings in slug order after `afterSlug` (a keyset,
 * so listings added or changed while a client pages never shift the rest), optionally only those
 * changed after `updatedSince`. Returns up to `limit` rows.
 */
export async function listRegistryPage(
  db: Db,
  page: { q: string; updatedSince?: Date; afterSlug?: string; limit: number },
): Promise<PublicListing[]> {
  const conditions = [where({ q: page.q, category: "", price: "all", sort: "name" })];
  if (page.updatedSince) conditions.push(gt(listings.updatedAt, page.updatedSince));
  if (page.afterSlug) conditions.push(gt(listings.slug, page.afterSlug));
  const rows = await db.select(columns).from(listings).where(and(...conditions)).orderBy(asc(listings.slug)).limit(page.limit);
  return rows.map(toPublicListing);
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
