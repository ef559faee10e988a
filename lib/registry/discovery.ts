// GET /discovery/resources in the x402 Bazaar discovery format: one resource per x402-paid tool of each
// verified listing (lib/listings/presenters/discovery-resource.ts), only real offers (discovery-policy.ts),
// filtered and paged in the database.
import { PAYMENT_NETWORKS } from "@agora-mcp/protocol";
import { getDb } from "@/lib/database";
import { listPayableItems } from "@/db/queries/discovery";
import { listingEvidence } from "@/db/queries/listing-facts";
import { toEvidenceView } from "@/lib/listings/from-rows";
import { cachedJson } from "@/lib/cached-json";
import { validationError } from "@/lib/errors";
import { toDiscoveryResource, X402_VERSION } from "@/lib/listings/presenters/discovery-resource";
import { discoveryQuerySchema } from "@/lib/validations/registry";
import { failure } from "./registry-api";
import { discoveryExclusions } from "./discovery-policy";

const CORS = { "Access-Control-Allow-Origin": "*" };

export async function listDiscoveryResources(request: Request): Promise<Response> {
  try {
    const parsed = discoveryQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!parsed.success) throw validationError(parsed.error);
    const { type, payTo, network, scheme, extensions, source, limit, offset } = parsed.data;
    // Agora lists MCP tools paid with the `exact` scheme, each carrying the bazaar extension.
    const matches = (!type || type === "mcp") && (!scheme || scheme === "exact") && (!extensions || extensions === "bazaar");
    const networks = PAYMENT_NETWORKS.filter((n) => !network || n.caip2 === network || n.v1Network === network).map((n) => n.caip2);
    const db = await getDb();
    const { payables, total } = matches ? await listPayableItems(db, { networks, payTo, source, limit, offset }, discoveryExclusions()) : { payables: [], total: 0 };
    const evidence = await listingEvidence(db, payables.map((p) => p.listingId));
    const items = payables.map((p) => toDiscoveryResource(p, toEvidenceView(evidence.get(p.listingId))));
    return cachedJson(request, { x402Version: X402_VERSION, items, pagination: { limit, offset, total } }, CORS);
  } catch (error) {
    return failure(error, "GET /discovery/resources");
  }
}
