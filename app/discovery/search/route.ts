import { searchDiscoveryResources } from "@/lib/registry/discovery-search";

// GET /discovery/search — x402 Bazaar search over the same payable resources as /discovery/resources.
export const GET = searchDiscoveryResources;
