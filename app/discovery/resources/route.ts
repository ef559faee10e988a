import { listDiscoveryResources } from "@/lib/registry/discovery";
import { readOnlyRoute } from "@/lib/registry/read-only-http";

// GET /discovery/resources — x402 Bazaar discovery over the verified catalogue.
export const GET = listDiscoveryResources;

// Read-only: a CORS preflight for GET from any origin, 405 in the registry's JSON shape for any other method.
export const { OPTIONS, POST, PUT, PATCH, DELETE } = readOnlyRoute;
