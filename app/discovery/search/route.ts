import { searchDiscoveryResources } from "@/lib/registry/discovery-search";
import { readOnlyRoute } from "@/lib/registry/read-only-http";

// GET /discovery/search — x402 Bazaar search over the same payable resources as /discovery/resources.
export const GET = searchDiscoveryResources;

// Read-only: a CORS preflight for GET from any origin, 405 in the registry's JSON shape for anything else.
export const OPTIONS = readOnlyRoute.OPTIONS;
export const POST = readOnlyRoute.POST;
export const PUT = readOnlyRoute.PUT;
export const PATCH = readOnlyRoute.PATCH;
export const DELETE = readOnlyRoute.DELETE;
