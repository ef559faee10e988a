import { getServerCard } from "@/lib/registry/server-cards";
import { readOnlyRoute } from "@/lib/registry/read-only-http";

// GET /servers/{slug}/server-card — the listing's MCP Server Card (SEP-2127), published by Agora on its behalf.
export const GET = getServerCard;
export const { OPTIONS } = readOnlyRoute;
