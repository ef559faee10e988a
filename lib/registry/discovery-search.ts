// GET /discovery/search?query=…&cursor=…&limit=… — the x402 Bazaar's search: the marketplace's own search
// (relevance blended with usage, typo correction, the same bounded window) over the listings that have an entry the
// Bazaar's filters keep (the same filters, schema and meaning as /discovery/resources: discovery-filters.ts), each
// answered as the entries /discovery/resources lists for it (same policy, same presenter). `limit` counts entries,
// as x402's search client reads it; `pagination.cursor` reads the next page (a place in the ranked listings and how
// many of that listing's entries were already given), null after the last. `partialResults` is true when more
// listings match than the search ranks (its window), so paging on cannot reach them all.
import { listPayableItems, sellsThroughX402, type PayableFilter, type PayableItem } from "@/db/queries/discovery";
import { searchListings } from "@/db/queries/search";
import type { Db } from "@/db/types";
import { cachedJson } from "@/lib/http/cached-json";
import { ApiError } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { hasMore } from "@/lib/listings/search/search";
import { catalogueQuery, searchTerms } from "@/db/queries/search/terms";
import { defaultSort } from "@agora-mcp/protocol";
import { X402_VERSION } from "@/lib/listings/presenters/discovery-resource";
import { limits } from "@/lib/rate-limit";
import { discoverySearchSchema } from "@/lib/validations/registry";
import { payableFilter, readDiscoveryQuery, unappliedReport } from "./discovery-filters";
import { discoveryExclusions } from "./discovery-policy";
import { discoveryEntries } from "./discovery-entries";
import { registryFailure } from "./registry-api";

const CORS = { "Access-Control-Allow-Origin": "*" };

/** A place in the results: the rank of a listing, and how many of its entries earlier pages gave. */
type Place = { listing: number; skip: number };

function encodePlace({ listing, skip }: Place): string {
  return Buffer.from(`d:${listing}:${skip}`).toString("base64url");
}

function decodePlace(cursor: string): Place | null {
  const m = /^d:(\d{1,9}):(\d{1,4})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  return m ? { listing: Number(m[1]), skip: Number(m[2]) } : null;
}

/** The query and the place its cursor names (a 400 before the request counts against the limit, as a bad filter is). */
function readSearchQuery(request: Request) {
  const { query, unappliedFilters } = readDiscoveryQuery(request, discoverySearchSchema);
  const place = query.cursor === undefined ? { listing: 0, skip: 0 } : decodePlace(query.cursor);
  if (place === null) throw new ApiError(400, "cursor is not valid.", { code: "invalid_cursor" });
  return { params: query, place, unappliedFilters };
}

export const searchDiscoveryResources = route(
  {
    name: "GET /discovery/search",
    query: readSearchQuery,
    rateLimit: limits.discoverySearchPerIp,
    failure: registryFailure,
  },
  async ({ query: { params, place, unappliedFilters }, db, request }) => {
    const { query, limit } = params;
    const { entries, capped, next } = await searchPage(db, query, payableFilter(params), place, limit);
    const resources = await discoveryEntries(db, entries);
    return cachedJson(
      request,
      {
        x402Version: X402_VERSION,
        resources,
        partialResults: capped,
        pagination: { limit, cursor: next ? encodePlace(next) : null },
        ...unappliedReport(unappliedFilters),
      },
      CORS,
    );
  },
);

/**
 * One page of entries from `place`: the next `limit` ranked listings (each has at least one entry the filter keeps,
 * so they hold enough), their entries in rank order then as discovery orders a listing's tools, `limit` of them
 * after the ones earlier pages gave; and where the next page starts.
 */
async function searchPage(db: Db, query: string, filter: PayableFilter | null, place: Place, limit: number) {
  const terms = searchTerms(query);
  const exclusions = discoveryExclusions();
  // Text without a letter or digit finds nothing, as on the marketplace; so do filters no entry can match.
  const found =
    !filter || (!terms && query)
      ? { rows: [], total: 0, capped: false }
      : await searchListings(
          db,
          catalogueQuery(
            { q: query, category: "", price: "all", sort: defaultSort(query) },
            sellsThroughX402(filter, exclusions),
          ),
          { limit, offset: place.listing },
        );
  const ids = found.rows.map((r) => r.id);
  const { payables } =
    ids.length && filter
      ? await listPayableItems(db, { ...filter, limit: 1000, offset: 0, listingIds: ids }, exclusions)
      : { payables: [] as PayableItem[] };
  const byListing = new Map<string, PayableItem[]>(ids.map((id) => [id, []]));
  for (const p of payables) byListing.get(p.listingId)!.push(p);
  // Every entry after the cursor, each with the place it stands at.
  const ranked = ids
    .flatMap((id, i) => byListing.get(id)!.map((p, skip) => ({ p, at: { listing: place.listing + i, skip } })))
    .filter((e) => e.at.listing > place.listing || e.at.skip >= place.skip);
  const page = ranked.slice(0, limit);
  const following = ranked[limit];
  const afterThese = hasMore(found, place.listing, found.rows.length, limit)
    ? { listing: place.listing + found.rows.length, skip: 0 }
    : null;
  return { entries: page.map((e) => e.p), capped: found.capped, next: following ? following.at : afterThese };
}
