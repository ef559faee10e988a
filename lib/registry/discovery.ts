// GET /discovery/resources in the x402 Bazaar discovery format: one resource per x402-paid tool of each
// verified listing (lib/listings/presenters/discovery-resource.ts), only real offers (discovery-policy.ts),
// filtered and paged in the database.
import { listPayableItems } from "@/db/queries/discovery";
import { cachedJson } from "@/lib/http/cached-json";
import { route } from "@/lib/http/route";
import { X402_VERSION } from "@/lib/listings/presenters/discovery-resource";
import { discoveryQuerySchema } from "@/lib/validations/registry";
import { discoveryEntries } from "./discovery-entries";
import { registryFailure } from "./registry-api";
import { discoveryExclusions } from "./discovery-policy";
import { payableFilter, readDiscoveryQuery, unappliedReport } from "./discovery-filters";

const CORS = { "Access-Control-Allow-Origin": "*" };

export const listDiscoveryResources = route(
  {
    name: "GET /discovery/resources",
    query: (request) => readDiscoveryQuery(request, discoveryQuerySchema),
    failure: registryFailure,
  },
  async ({ query: { query, unappliedFilters }, db, request }) => {
    const { limit, offset } = query;
    const filter = payableFilter(query);
    const { payables, total } = filter
      ? await listPayableItems(db, { ...filter, limit, offset }, discoveryExclusions())
      : { payables: [], total: 0 };
    const items = await discoveryEntries(db, payables);
    return cachedJson(
      request,
      { x402Version: X402_VERSION, items, pagination: { limit, offset, total }, ...unappliedReport(unappliedFilters) },
      CORS,
    );
  },
);
