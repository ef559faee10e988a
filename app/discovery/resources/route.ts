import { listDiscoveryResources } from "@/lib/registry/discovery";

// GET /discovery/resources — x402 Bazaar discovery over the verified catalogue.
export const GET = listDiscoveryResources;
