import { listDiscoveryResources } from "@/lib/registry/discovery";
import { readOnlyRoute } from "@/lib/registry/read-only-http";

// GET /discovery/resources — x402 Bazaar discovery over the verified catalogue.
export const GET = listDiscoveryResources;

// Read-only: a CORS preflight for GET from any origin, 405 in the registry's JSON shape for anything else.
export const OPTIONS = readOnlyRoute.OPTIONS;
export const POST = readOnlyRoute.POST;
export const PUT = readOnlyRoute.PUT;
export const PATCH = readOnlyRoute.PATCH;
export const DELETE = readOnlyRoute.DELETE;
