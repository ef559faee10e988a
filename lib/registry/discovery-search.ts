// GET /discovery/search?query=…&cursor=… — the x402 Bazaar's search: the marketplace's own search (relevance,
// typo correction, the same bounded window) over the listings that have a payable item, each answered as the
// payable resources GET /discovery/resources lists for it (same policy, same presenter). A page holds `limit`
// listings' worth of resources; `pagination.cursor` reads the next page, null after the last. `partialResults`
// is true when more listings match than the search ranks (its window), so paging on cannot reach them all.
import { PAYMENT_NETWORKS } from "@agora-mcp/protocol";
import { listPayableItems, sellsThroughX402 } from "@/db/queries/discovery";
import { listingEvidence } from "@/db/queries/listing-facts";
import { toEvidenceView } from "@/lib/listings/from-rows";
import { searchListings } from "@/db/queries/listings";
import { cachedJson } from "@/lib/cached-json";
import { getDb } from "@/lib/database";
import { ApiError, validationError } from "@/lib/errors";
import { clientIp } from "@/lib/http";
import { hasMore } from "@/lib/listings/search/search";
import { searchTerms } from "@/lib/listings/search/terms";
import { toDiscoveryResource, X402_VERSION } from "@/lib/listings/presenters/discovery-resource";
import { enforceLimit, limits } from "@/lib/rate-limit";
import { decodeCursor, encodeCursor } from "@/lib/validations/marketplace";
import { discoverySearchSchema } from "@/lib/validations/registry";
import { discoveryExclusions } from "./discovery-policy";
import { failure } from "./registry-api";

const CORS = { "Access-Control-Allow-Origin": "*" };

export async function searchDiscoveryResources(request: Request): Promise<Response> {
  try {
    const parsed = discoverySearchSchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!parsed.success) throw validationError(parsed.error);
    const { query, cursor, limit } = parsed.data;
    const offset = cursor === undefined ? 0 : decodeCursor(cursor);
    if (offset === null) throw new ApiError(400, "cursor is not valid.");
    const db = await getDb();
    await enforceLimit(db, limits.discoverySearchPerIp, clientIp(request));
    const terms = searchTerms(query);
    const networks = PAYMENT_NETWORKS.map((n) => n.caip2);
    // Text without a letter or digit finds nothing, as on the marketplace.
    const found =
      !terms && query
        ? { rows: [], total: 0, capped: false }
        : await searchListings(db, { terms, category: "", price: "all", sort: terms ? "relevance" : "popular", only: sellsThroughX402(networks, discoveryExclusions()) }, { limit, offset });
    const ids = found.rows.map((r) => r.id);
    const { payables } = ids.length
      ? await listPayableItems(db, { networks, limit: 1000, offset: 0, listingIds: ids }, discoveryExclusions())
      : { payables: [] };
    // In the search's order: listings by rank, a listing's tools as discovery orders them.
    const rank = new Map(ids.map((id, i) => [id, i]));
    const evidence = await listingEvidence(db, ids);
    const resources = payables.sort((a, b) => rank.get(a.listingId)! - rank.get(b.listingId)!).map((p) => toDiscoveryResource(p, toEvidenceView(evidence.get(p.listingId))));
    const more = hasMore(found, offset, found.rows.length, limit);
    return cachedJson(
      request,
      { x402Version: X402_VERSION, resources, partialResults: found.capped, pagination: { cursor: more ? encodeCursor(offset + limit) : null } },
      CORS,
    );
  } catch (error) {
    return failure(error, "GET /discovery/search");
  }
}
