import { searchDiscoveryResources } from "@/lib/registry/discovery-search";
import { readOnlyRoute } from "@/lib/registry/read-only-http";

// GET /discovery/search — x402 Bazaar search over the same payable resources as /discovery/resources.
export const GET = searchDiscoveryResources;

// Read-only: a CORS preflight for GET from any origin, 405 in the registry's JSON shape for any other method.
export const { OPTIONS, POST, PUT, PATCH, DELETE } = readOnlyRoute;
