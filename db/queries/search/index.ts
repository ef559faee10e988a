// The catalogue's one search, behind the marketplace page, GET /api/mcp-agents, the MCP tool search_servers and
// discovery's search: filtering, sorting and paging happen in the database. The text becomes terms (terms.ts), the
// words' SQL is match.ts, how matches are read is plan.ts, relevance is rank.ts, the default order popular.ts;
// every sort answers the same public columns (columns.ts). Rows come back as stored; lib/listings/from-rows.ts
// turns them into what the surfaces show.
import { and, asc, eq, gt, isNull, or, sql, type SQL } from "drizzle-orm";
import type { CatalogueSort } from "@agora-mcp/protocol";
import { rowsOf } from "../../rows";
import { listings } from "../../schema";
import type { Db } from "../../types";
import { recentSalesCount } from "../sales";
import { fromRaw, publicColumns, type PublicListingRow } from "./columns";
import { matchesSearchText } from "./match";
import { planSearch } from "./plan";
import { popularPage } from "./popular";
import { countMatches, rankedSearch, SEARCH_WINDOW } from "./rank";
import { correctedTerms, type CatalogueQuery, type SearchTerms } from "./terms";

/** Category and price: the filters besides the text. */
function filterConditions(filters: Pick<CatalogueQuery, "category" | "price" | "source" | "only">): SQL {
  const conditions: SQL[] = [filters.only ?? sql`true`];
  if (filters.category) conditions.push(sql`${listings.categories} @> array[${filters.category}]::text[]`);
  if (filters.price === "free") conditions.push(or(isNull(listings.price), eq(listings.price, 0))!);
  if (filters.price === "paid") conditions.push(gt(listings.price, 0));
  if (filters.source && filters.source !== "all") conditions.push(eq(listings.source, filters.source));
  return and(...conditions)!;
}

type Page = { limit: number; offset: number };
type PageReader = (db: Db, condition: SQL, page: Page) => Promise<PublicListingRow[]>;

const inOrder =
  (...order: SQL[]): PageReader =>
  (db, condition, page) =>
    db
      .select(publicColumns)
      .from(listings)
      .where(condition)
      .orderBy(...order)
      .limit(page.limit)
      .offset(page.offset);

const byName = sql`lower(${listings.name})`;
const verifiedFirst = sql`${listings.verified} desc nulls last`;

/**
 * How each sort reads a page of the matches (a text search's "relevance" is ranked by rank.ts instead). Every
 * order ends in the id, so ties are stable and pages never repeat or skip a listing. "nulls last" matches the
 * indexes' DESC NULLS LAST (a plain DESC means NULLS FIRST, which no index serves, and sorts the table). A new sort
 * in @agora-mcp/protocol does not compile until it has its entry here.
 */
const orderBy: Record<CatalogueSort, PageReader> = {
  popular: popularPage,
  // Without words there is nothing to rank: verified, then by name.
  relevance: inOrder(verifiedFirst, asc(byName), asc(listings.id)),
  newest: inOrder(sql`${listings.createdAt} desc nulls last`, asc(listings.id)),
  name: inOrder(asc(byName), asc(listings.id)),
  // Most purchased: sales in the last 30 days (at most 30 rows of the daily roll-up per listing), then as popular.
  purchased: inOrder(sql`${recentSalesCount(sql`${listings.id}`)} desc`, verifiedFirst, asc(byName), asc(listings.id)),
};

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
  page: Page,
  options: { exactBrowseCount?: boolean } = {},
): Promise<SearchResult> {
  const { terms } = filters;
  const filter = filterConditions(filters);
  const approved = and(eq(listings.status, "approved"), filter)!;
  if (!terms) {
    const [rows, total] = await Promise.all([
      orderBy[filters.sort](db, approved, page),
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

async function textSearch(
  db: Db,
  terms: SearchTerms,
  sort: CatalogueSort,
  filter: SQL,
  page: Page,
): Promise<SearchResult> {
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
  const [rows, total] = await Promise.all([page.limit > 0 ? orderBy[sort](db, condition, page) : [], count()]);
  return { rows, ...capped(total) };
}

async function countAll(db: Db, condition: SQL): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(listings)
    .where(condition);
  return Number(row?.n ?? 0);
}

/** Matches of a text search in another order (newest, name, popular): a bounded count, then the page. */
async function countUpTo(db: Db, condition: SQL, cap: number): Promise<number> {
  const result = await db.execute(
    sql`select count(*)::int as n from (select 1 from ${listings} where ${condition} limit ${cap}) t`,
  );
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}
