import { getServerCardCatalog } from "@/lib/registry/server-cards";
import { readOnlyRoute } from "@/lib/registry/read-only-http";

// The catalogue of every listing's server card (an AI Catalog, as SEP-2127's discovery reads one).
export const GET = getServerCardCatalog;
export const { OPTIONS } = readOnlyRoute;
